/*
 * test_engine_determinism.c: the same answers give the same match in another process.
 *
 * For every game of the bundle in scripts/ (whatever games it holds when the test runs),
 * this process plays seeded matches with every seat human, answering each decision with
 * the game's own bots through engine_match_bot_answer, and writes down every answer and
 * the state hash after it. Then it runs itself again (`--replay FILE`, a fresh process:
 * other addresses, another heap, names interned in another order) to apply the recorded
 * answers without asking any bot and compare the hash after every one of them, and the
 * results. All-bot matches would not do: their decisions never leave the turn, so there
 * would be nothing to compare step by step.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dh_test.h"
#include "engine.h"
#include "engine_internal.h"
#include "rig_engine.h"

#define MATCHES_PER_GAME 120 /* a few hundred in all once several games are in */
#define MAX_STEPS        20000
#define MAX_IDS          ENGINE_MAX_OPTIONS

static long bot_failures; /* bots that failed to answer (and were replaced), reported once */

static engine_match *new_human_match(engine_bundle *b, const char *game, int np, uint64_t seed)
{
    char id[64];
    snprintf(id, sizeof id, "det-%s-%" PRIu64, game, seed);
    engine_match_config cfg = {id, game, seed, np, NULL, NULL, NULL, false};
    return rig_engine_match(b, &cfg);
}

static void write_results(FILE *f, const engine_match *m)
{
    engine_result r[64];
    size_t n = engine_match_results(m, r, 64);
    fprintf(f, "end %d", engine_match_finished(m) ? 1 : 0);
    for (size_t i = 0; i < n; i++)
        fprintf(f, " %d:%d", r[i].score, r[i].rank);
    fprintf(f, " %016" PRIx64 "\n", engine_match_hash(m));
}

/* Plays one match to its end with bots answering every seat; writes it to rec.
 * Returns the number of answers, or -1 on a failure (reported on stderr). */
static long play_and_record(engine_bundle *b, const engine_game *gm, int np, uint64_t seed,
                            FILE *rec)
{
    engine_match *m = new_human_match(b, gm->name, np, seed);
    if (!m)
        return -1;
    fprintf(rec, "match %s %d %" PRIu64 " %016" PRIx64 "\n", gm->name, np, seed,
            engine_match_hash(m));
    static uint32_t ids[MAX_IDS];
    long steps = 0;
    const engine_decision *d;
    while ((d = engine_match_decision(m)) && steps < MAX_STEPS) {
        size_t n = MAX_IDS;
        engine_error err;
        if (gm->nbots) {
            /* The seat's strategy, or the next one that answers: a broken bot is a rules
               bug (reported here, and the rules tests' business), not a determinism one. */
            size_t first = (size_t)((seed + (uint64_t)d->seat) % gm->nbots), k;
            for (k = 0; k < gm->nbots; k++) {
                const char *bot = gm->bots[(first + k) % gm->nbots].name;
                n = MAX_IDS;
                if (engine_match_bot_answer(m, bot, ids, &n, &err) == ENGINE_OK)
                    break;
                if (!bot_failures++)
                    printf("\n  NOTE %s seed %" PRIu64 ": bot %s failed: %s", gm->name, seed, bot,
                           err.message);
            }
            if (k == gm->nbots) {
                fprintf(stderr, "%s seed %" PRIu64 ": no bot answers\n", gm->name, seed);
                goto fail;
            }
        } else { /* a game without bots: the first options it allows */
            n = d->min ? d->min : 1;
            for (size_t i = 0; i < n; i++)
                ids[i] = (uint32_t)i + 1;
        }
        int seat = d->seat;
        uint64_t did = d->decision_id;
        if (engine_match_answer(m, seat, did, ids, n, &err) != ENGINE_OK) {
            fprintf(stderr, "%s seed %" PRIu64 ": answer: %s\n", gm->name, seed, err.message);
            goto fail;
        }
        fprintf(rec, "a %d %" PRIu64 " %zu", seat, did, n);
        for (size_t i = 0; i < n; i++)
            fprintf(rec, " %u", ids[i]);
        fprintf(rec, " %016" PRIx64 "\n", engine_match_hash(m));
        steps++;
    }
    if (!engine_match_finished(m)) {
        fprintf(stderr, "%s seed %" PRIu64 ": not finished after %ld answers\n", gm->name, seed,
                steps);
        goto fail;
    }
    write_results(rec, m);
    engine_match_free(m);
    return steps;
fail:
    engine_match_free(m);
    return -1;
}

/* ---- the second process -------------------------------------------------------------- */

/* Interns names nobody uses, so the real ones get other ids than in the first process. */
static void shift_names(engine_bundle *b)
{
    for (int i = 0; i < 37; i++) {
        char s[32];
        const char *name = s;
        snprintf(s, sizeof s, "det-unused-%d", i);
        rig_engine_intern(b, &name, 1);
    }
}

/* Reads the recording and replays it; prints one line and returns the exit code. */
static int replay_main(const char *path)
{
    FILE *f = fopen(path, "r");
    engine_bundle *b = rig_engine_load_games();
    if (!f || !b) {
        printf("replay: cannot open %s or load the bundle\n", path);
        return 2;
    }
    shift_names(b);
    engine_match *m = NULL;
    char line[65536], game[256] = "";
    uint64_t seed = 0;
    long matches = 0, steps = 0, step = 0, bad = 0;
    while (fgets(line, sizeof line, f) && !bad) {
        char *p = line;
        if (!strncmp(p, "match ", 6)) {
            int np;
            uint64_t h;
            if (sscanf(p + 6, "%255s %d %" SCNu64 " %" SCNx64, game, &np, &seed, &h) != 4)
                goto garbled;
            engine_match_free(m);
            m = new_human_match(b, game, np, seed);
            step = 0;
            matches++;
            if (!m || engine_match_hash(m) != h) {
                printf("MISMATCH %s seed %" PRIu64 ": at the start\n", game, seed);
                bad = 1;
            }
        } else if (!strncmp(p, "a ", 2) && m) {
            static uint32_t ids[MAX_IDS];
            int seat, off;
            uint64_t did, h;
            size_t n;
            p += 2;
            if (sscanf(p, "%d %" SCNu64 " %zu%n", &seat, &did, &n, &off) != 3 || n > MAX_IDS)
                goto garbled;
            p += off;
            for (size_t i = 0; i < n; i++) {
                if (sscanf(p, " %u%n", &ids[i], &off) != 1)
                    goto garbled;
                p += off;
            }
            if (sscanf(p, " %" SCNx64, &h) != 1)
                goto garbled;
            engine_error err;
            step++;
            steps++;
            if (engine_match_answer(m, seat, did, ids, n, &err) != ENGINE_OK ||
                engine_match_hash(m) != h) {
                printf("MISMATCH %s seed %" PRIu64 ": after answer %ld (%s)\n", game, seed, step,
                       err.message);
                bad = 1;
            }
        } else if (!strncmp(p, "end ", 4) && m) {
            char buf[4096];
            FILE *mem = fmemopen(buf, sizeof buf, "w");
            if (!mem)
                goto garbled;
            write_results(mem, m);
            fclose(mem);
            if (strcmp(buf, p)) {
                printf("MISMATCH %s seed %" PRIu64 ": results %s vs %s", game, seed, buf, p);
                bad = 1;
            }
        } else {
            goto garbled;
        }
    }
    engine_match_free(m);
    engine_bundle_free(b);
    fclose(f);
    if (!bad)
        printf("replayed %ld matches, %ld answers: every hash equal\n", matches, steps);
    return bad ? 1 : 0;
garbled:
    printf("replay: garbled line: %.80s\n", line);
    engine_match_free(m);
    engine_bundle_free(b);
    fclose(f);
    return 2;
}

/* Runs this program with --replay path; its output goes to out. Returns its exit status. */
static int run_replay(const char *path, char *out, size_t outlen)
{
    int fd[2];
    out[0] = 0;
    if (pipe(fd) < 0)
        return -1;
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        dup2(fd[1], STDOUT_FILENO);
        close(fd[0]);
        close(fd[1]);
        execl("/proc/self/exe", "test_engine_determinism", "--replay", path, (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    size_t len = 0;
    ssize_t r;
    while ((r = read(fd[0], out + len, outlen - 1 - len)) > 0 || (r < 0 && errno == EINTR))
        if (r > 0)
            len += (size_t)r;
    out[len] = 0;
    close(fd[0]);
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void test_bot_driven_matches_replay_identically_in_another_process(void)
{
    engine_bundle *b = rig_engine_load_games();
    CU_ASSERT_FATAL(b != NULL);
    char path[] = "/tmp/deckhand-det-XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    FILE *rec = fdopen(fd, "w");
    CU_ASSERT_FATAL(rec != NULL);
    engine_game_info info[32];
    size_t ngames = engine_bundle_games(b, info, 32);
    CU_ASSERT(ngames >= 1);
    long matches = 0, answers = 0;
    for (size_t gi = 0; gi < ngames && gi < 32; gi++) {
        const engine_game *gm = engine_bundle_game(b, info[gi].name);
        int hi = info[gi].max_players < 4 ? info[gi].max_players : 4;
        long game_answers = 0;
        for (int i = 0; i < MATCHES_PER_GAME; i++) {
            int np = info[gi].min_players + i % (hi - info[gi].min_players + 1);
            long s = play_and_record(b, gm, np, 1000 + (uint64_t)i, rec);
            CU_ASSERT(s >= 0);
            if (s < 0)
                break;
            game_answers += s;
            matches++;
        }
        printf("\n  %s: %d matches, %ld answers", info[gi].name, MATCHES_PER_GAME, game_answers);
        CU_ASSERT(game_answers > 0);
        answers += game_answers;
    }
    fclose(rec);
    engine_bundle_free(b);
    char out[4096];
    int rc = run_replay(path, out, sizeof out);
    printf("\n  %s", out);
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT(matches >= MATCHES_PER_GAME);
    CU_ASSERT(answers > matches);
    unlink(path);
}

static void test_bot_answer_changes_nothing_and_matches_inline_bots(void)
{
    engine_bundle *b = rig_engine_load_games();
    CU_ASSERT_FATAL(b != NULL);
    engine_match *m = new_human_match(b, "dominion", 2, 42);
    CU_ASSERT_FATAL(m != NULL);
    uint64_t h = engine_match_hash(m);
    uint32_t a[MAX_IDS], c[MAX_IDS];
    size_t na = MAX_IDS, nc = MAX_IDS;
    engine_error err;
    CU_ASSERT_EQUAL(engine_match_bot_answer(m, NULL, a, &na, &err), ENGINE_OK);
    CU_ASSERT_EQUAL(engine_match_bot_answer(m, "default", c, &nc, &err), ENGINE_OK);
    CU_ASSERT_EQUAL(engine_match_hash(m), h);
    CU_ASSERT_EQUAL(na, nc);
    CU_ASSERT(na == nc && memcmp(a, c, sizeof(uint32_t) * na) == 0);
    CU_ASSERT_EQUAL(engine_match_bot_answer(m, "no such bot", c, &nc, &err), ENGINE_BAD_REQUEST);
    size_t small = 0;
    if (na > 0)
        CU_ASSERT_EQUAL(engine_match_bot_answer(m, NULL, c, &small, &err), ENGINE_BAD_REQUEST);
    CU_ASSERT_EQUAL(engine_match_hash(m), h);
    /* Driven to the end by "default" everywhere, the match ends as an all-bot one does. */
    while (engine_match_decision(m)) {
        const engine_decision *d = engine_match_decision(m);
        na = MAX_IDS;
        CU_ASSERT_FATAL(engine_match_bot_answer(m, "default", a, &na, &err) == ENGINE_OK);
        CU_ASSERT_FATAL(engine_match_answer(m, d->seat, d->decision_id, a, na, &err) == ENGINE_OK);
    }
    CU_ASSERT_EQUAL(engine_match_bot_answer(m, NULL, a, &na, &err), ENGINE_BAD_REQUEST);
    const char *bots[] = {"default", "default"};
    engine_match_config cfg = {"inline", "dominion", 42, 2, NULL, bots, NULL, false};
    engine_match *ib = engine_match_new(b, &cfg, &err);
    CU_ASSERT_FATAL(ib != NULL);
    engine_result r1[2], r2[2];
    CU_ASSERT_EQUAL(engine_match_results(m, r1, 2), 2);
    CU_ASSERT_EQUAL(engine_match_results(ib, r2, 2), 2);
    for (int i = 0; i < 2; i++) {
        CU_ASSERT_EQUAL(r1[i].score, r2[i].score);
        CU_ASSERT_EQUAL(r1[i].turns, r2[i].turns);
    }
    engine_match_free(ib);
    engine_match_free(m);
    engine_bundle_free(b);
}

static const dh_test_case cases[] = {
    {"test_bot_answer_changes_nothing_and_matches_inline_bots",
     test_bot_answer_changes_nothing_and_matches_inline_bots},
    {"test_bot_driven_matches_replay_identically_in_another_process",
     test_bot_driven_matches_replay_identically_in_another_process},
    {NULL, NULL},
};

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--replay"))
        return replay_main(argv[2]);
    return dh_test_main("engine_determinism", cases);
}
