/*
 * takeover.c: moving matches off dead workers (see takeover.h).
 */
#include "takeover.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_clock.h"
#include "dh_grow.h"
#include "dh_keys.h"
#include "dh_log.h"
#include "mm_play.h"
#include "mm_store.h"

#define TAKEOVER_SEATS_MAX 64

void takeover_init(takeover *t)
{
    memset(t, 0, sizeof *t);
}

void takeover_free(takeover *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->v[i].player_ids);
    free(t->v);
    memset(t, 0, sizeof *t);
}

static takeover_move *takeover_find(takeover *t, const char *match_id)
{
    for (size_t i = 0; i < t->n; i++)
        if (!strcmp(t->v[i].match_id, match_id))
            return &t->v[i];
    return NULL;
}

bool takeover_has(const takeover *t, const char *match_id)
{
    return takeover_find((takeover *)t, match_id) != NULL;
}

static void takeover_remove(takeover *t, takeover_move *m)
{
    free(m->player_ids);
    *m = t->v[--t->n];
}

/* A new zeroed record; NULL on allocation failure. */
static takeover_move *takeover_add(takeover *t)
{
    if (dh_grow(&t->v, &t->cap, t->n + 1, sizeof *t->v, 16) < 0)
        return NULL;
    takeover_move *m = &t->v[t->n++];
    memset(m, 0, sizeof *m);
    return m;
}

/* The keys and arguments of the move script (argc of them). On a single Redis the move
 * also deletes the old owner's worker:{FROM}:moves in the same step, so that a worker
 * fencing once per loop turn sees it (dh_keys.h); on a Redis Cluster that key is in
 * another slot, and the workers there fence every commit (they send no batch). */
typedef struct {
    char meta[DH_KEY_MAX], moves[DH_KEY_MAX];
    const char *argv[7];
    int argc;
} takeover_args;

static void takeover_args_fill(takeover_args *a, const mm_state *mm, const char *match_id,
                               const char *from, const char *to)
{
    dh_key_match(a->meta, match_id);
    bool cluster = mm->redis.addr.cluster;
    const char *argv[] = {"EVALSHA", mm->scripts.takeover.sha, cluster ? "1" : "2", a->meta};
    memcpy(a->argv, argv, sizeof argv);
    a->argc = 4;
    if (!cluster)
        a->argv[a->argc++] = dh_key_worker_moves(a->moves, from);
    a->argv[a->argc++] = from;
    a->argv[a->argc++] = to;
}

/* Run cmds (n of them) and drop their replies; the failures are logged. */
static void takeover_write(mm_state *mm, uint64_t now_ms, const rconn_cmd *cmds, size_t n,
                           const char *match_id)
{
    redisReply *out[4];
    if (rconn_pipeline(mm, now_ms, cmds, n, out) < 0)
        return; /* Redis is down: the next sweep finds the match again */
    for (size_t i = 0; i < n; i++) {
        if (out[i]->type == REDIS_REPLY_ERROR)
            dh_warn_every(DH_LOG_EVERY_MS, "match %s: index write refused: %s", match_id,
                          out[i]->str);
        freeReplyObject(out[i]);
    }
}

/* The match moved to (or already runs on) worker: matches:running and its adopt set say
 * so (dh_keys.h: indexes follow the match, idempotent). */
static void takeover_index_owner(mm_state *mm, uint64_t now_ms, const char *match_id,
                                 const char *worker)
{
    char adopt[DH_KEY_MAX];
    const char *sadd[] = {"SADD", dh_key_worker_adopt(adopt, worker), match_id};
    const char *run[] = {"HSET", DH_KEY_MATCHES_RUNNING, match_id, worker};
    rconn_cmd cmds[] = {{.argc = 3, .argv = sadd}, {.argc = 4, .argv = run}};
    takeover_write(mm, now_ms, cmds, 2, match_id);
}

/* The match finished but its worker died before writing the indexes: the rating job
 * (job, "" for none) and matches:finished first, then out of matches:running. */
static void takeover_index_finished(mm_state *mm, uint64_t now_ms, const char *match_id,
                                    const char *job)
{
    dh_script push;
    dh_script_init(&push, dh_script_finished_push);
    const char *unrated[] = {"HSET", DH_KEY_MATCHES_UNRATED, match_id, job};
    const char *fin[] = {"EVALSHA", push.sha, "1", DH_KEY_MATCHES_FINISHED, match_id};
    const char *del[] = {"HDEL", DH_KEY_MATCHES_RUNNING, match_id};
    rconn_cmd first[] = {{.argc = 5, .argv = fin, .script = &push}, {.argc = 4, .argv = unrated}};
    redisReply *out[2];
    size_t n = *job ? 2 : 1;
    if (rconn_pipeline(mm, now_ms, first, n, out) < 0)
        return;
    bool ok = true;
    for (size_t i = 0; i < n; i++) {
        ok = ok && out[i]->type != REDIS_REPLY_ERROR;
        freeReplyObject(out[i]);
    }
    rconn_cmd last[] = {{.argc = 3, .argv = del}};
    if (ok) {
        dh_info("match %s: finished before its worker died; indexes written", match_id);
        takeover_write(mm, now_ms, last, 1, match_id);
    }
}

/* Whether the lease still names this matchmaker (else lease_lost). Checked before the
 * move scripts, which cannot read the lease themselves (another slot); a lease lost just
 * after the check moves nothing twice: the first move bumps the epoch. */
static bool takeover_lease_ours(mm_state *mm, uint64_t now_ms)
{
    const char *argv[] = {"GET", DH_KEY_MM_LEASE};
    redisReply *r = rconn_command(mm, now_ms, 2, argv);
    if (!r)
        return false;
    bool ours = r->type == REDIS_REPLY_STRING && !strcmp(r->str, mm->id);
    freeReplyObject(r);
    if (!ours)
        lease_lost(mm, DH_KEY_MM_LEASE " names another matchmaker");
    return ours;
}

/* The reply of one move script: the epoch, 0 (not moved: the indexes are put right when
 * the match finished or runs elsewhere), -1 (error). */
static long long takeover_reply(mm_state *mm, const redisReply *r, const char *match_id,
                                uint64_t now_ms)
{
    if (r->type == REDIS_REPLY_INTEGER)
        return r->integer;
    if (r->type == REDIS_REPLY_NIL)
        return 0;
    if (r->type == REDIS_REPLY_ARRAY && r->elements == 2 &&
        r->element[0]->type == REDIS_REPLY_STRING && r->element[1]->type == REDIS_REPLY_STRING) {
        if (!strcmp(r->element[0]->str, "finished"))
            takeover_index_finished(mm, now_ms, match_id, r->element[1]->str);
        else if (r->element[1]->str[0])
            takeover_index_owner(mm, now_ms, match_id, r->element[1]->str);
        return 0;
    }
    dh_warn_every(DH_LOG_EVERY_MS, "match %s: move script failed: %s", match_id,
                  r->type == REDIS_REPLY_ERROR ? r->str : "unexpected reply");
    return -1;
}

long long takeover_move_script(mm_state *mm, uint64_t now_ms, const char *match_id,
                               const char *from, const char *to)
{
    takeover_args a;
    if (!takeover_lease_ours(mm, now_ms))
        return -1;
    takeover_args_fill(&a, mm, match_id, from, to);
    redisReply *r = rconn_script(mm, now_ms, &mm->scripts.takeover, a.argc, a.argv);
    if (!r)
        return -1;
    long long e = takeover_reply(mm, r, match_id, now_ms);
    freeReplyObject(r);
    if (e > 0)
        takeover_index_owner(mm, now_ms, match_id, to);
    return e;
}

static void takeover_send_adopt(mm_state *mm, const takeover_move *m)
{
    Deckhand__Internal__AdoptMatch am = DECKHAND__INTERNAL__ADOPT_MATCH__INIT;
    am.match_id = (char *)m->match_id;
    am.epoch = m->epoch;
    Deckhand__Internal__Internal msg = DECKHAND__INTERNAL__INTERNAL__INIT;
    msg.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_ADOPT_MATCH;
    msg.adopt_match = &am;
    if (dh_zmq_send(mm->router, m->worker, &msg) < 0)
        dh_warn_every(DH_LOG_EVERY_MS,
                      "match %s: cannot send AdoptMatch to %s (%s); it will find the match in its "
                      "adopt set",
                      m->match_id, m->worker, strerror(errno));
}

/* The adopter refused or stayed silent: avoid it and move the match again (from it). */
static void takeover_fail(mm_state *mm, takeover_move *m, const char *why, uint64_t now_ms)
{
    registry_worker *w = registry_find(&mm->reg, m->worker);
    if (w) {
        if (w->adopting)
            w->adopting--;
        w->avoid_until_ms = now_ms + REGISTRY_AVOID_MS;
    }
    dh_warn_every(DH_LOG_EVERY_MS, "match %s: adoption by %s failed (%s); moving it again",
                  m->match_id, m->worker, why);
    m->deadline_ms = 0;
    mm->takeover.next_sweep_ms = now_ms; /* at the next tick */
}

/* One match the sweep tries to move. */
typedef struct {
    const char *match_id, *from, *game, *player_ids;
    long retry;          /* index of its waiting record, or -1 */
    registry_worker *to; /* chosen adopter */
    takeover_args args;
    long long epoch; /* the move script's answer: > 0 moved */
} takeover_cand;

/* A sweep's working set, sized to what matches:running holds (heap): the candidates and
 * the room of its pipelines. Owned by takeover_sweep. */
typedef struct {
    takeover_cand *c;
    size_t n, cap;
    rconn_hmgets meta; /* game and player_ids of the new candidates */
    rconn_cmd *cmds;   /* the move scripts, then the index writes (2 per moved match) */
    redisReply **out;
    size_t *idx;               /* cmds[j] is candidate idx[j]'s */
    long *drop;                /* waiting records to remove: they moved on without us */
    char (*adopt)[DH_KEY_MAX]; /* worker:{TO}:adopt of each moved match */
    const char *(*argv)[4];    /* the index writes' arguments */
    uint64_t start_ms;         /* the sweep's start (the clock, for its log line) */
} takeover_batch;

static int takeover_batch_init(takeover_batch *b, size_t cap)
{
    memset(b, 0, sizeof *b);
    size_t room = cap ? cap : 1;
    b->cap = cap;
    b->c = calloc(room, sizeof *b->c);
    b->cmds = calloc(2 * room, sizeof *b->cmds);
    b->out = calloc(2 * room, sizeof *b->out);
    b->idx = calloc(room, sizeof *b->idx);
    b->drop = calloc(room, sizeof *b->drop);
    b->adopt = calloc(room, sizeof *b->adopt);
    b->argv = calloc(2 * room, sizeof *b->argv);
    int rc = rconn_hmgets_init(&b->meta, cap, 2);
    return rc == 0 && b->c && b->cmds && b->out && b->idx && b->drop && b->adopt && b->argv ? 0
                                                                                            : -1;
}

static void takeover_batch_free(takeover_batch *b)
{
    rconn_hmgets_free(&b->meta);
    free(b->c);
    free(b->cmds);
    free(b->out);
    free(b->idx);
    free(b->drop);
    free(b->adopt);
    free(b->argv);
    memset(b, 0, sizeof *b);
}

static bool takeover_worker_dead(const mm_state *mm, const char *worker, uint64_t now_ms)
{
    const registry_worker *w = registry_find((registry *)&mm->reg, worker);
    if (w)
        return !w->alive;
    return now_ms - mm->lease.since_ms >= TAKEOVER_UNKNOWN_DEAD_MS;
}

/* Room for extra records, so that adding them cannot move the ones candidates point
 * into: called before any candidate points into the records (a sweep's reserve after
 * collecting them was the SIGSEGV: the move scripts read a retried match's
 * strings from the freed array). */
static int takeover_reserve(takeover *t, size_t extra)
{
    return dh_grow(&t->v, &t->cap, t->n + extra, sizeof *t->v, 16);
}

/* Entry i of matches:running (id, worker) is a match to move: its worker is dead and it
 * is not being moved already. */
static bool takeover_wanted(mm_state *mm, const redisReply *running, size_t i, uint64_t now_ms)
{
    const char *id = running->element[i]->str, *worker = running->element[i + 1]->str;
    return id && worker && strlen(id) < QUEUE_NAME_MAX &&
           takeover_worker_dead(mm, worker, now_ms) && !takeover_find(&mm->takeover, id);
}

/* How many candidates a sweep has: the waiting moves and the matches to move. Counted
 * before anything is allocated, so that a sweep that finds nothing dead (the idle one,
 * every TAKEOVER_IDLE_SWEEP_MS) costs the read and a pass over it, nothing more. */
static size_t takeover_count(mm_state *mm, const redisReply *running, uint64_t now_ms)
{
    size_t n = 0;
    for (size_t i = 0; i < mm->takeover.n; i++)
        n += mm->takeover.v[i].deadline_ms == 0;
    for (size_t i = 0; running->type == REDIS_REPLY_ARRAY && i + 1 < running->elements; i += 2)
        n += takeover_wanted(mm, running, i, now_ms);
    return n;
}

/* Candidates: the waiting moves, then every match of matches:running whose worker is
 * dead (all of them: b has room for each). A match already in flight is skipped. */
static void takeover_collect(mm_state *mm, const redisReply *running, takeover_batch *b,
                             uint64_t now_ms)
{
    takeover *t = &mm->takeover;
    for (size_t i = 0; i < t->n && b->n < b->cap; i++) {
        if (t->v[i].deadline_ms)
            continue;
        b->c[b->n++] = (takeover_cand){.match_id = t->v[i].match_id,
                                       .from = t->v[i].worker,
                                       .game = t->v[i].game,
                                       .player_ids = t->v[i].player_ids,
                                       .retry = (long)i};
    }
    for (size_t i = 0; i + 1 < running->elements && b->n < b->cap; i += 2)
        if (takeover_wanted(mm, running, i, now_ms))
            b->c[b->n++] = (takeover_cand){.match_id = running->element[i]->str,
                                           .from = running->element[i + 1]->str,
                                           .retry = -1};
}

/* Read game and player_ids of the new candidates in one pipeline; those whose meta is
 * gone keep no game (and are skipped). The replies stay in b->meta. */
static int takeover_read_meta(mm_state *mm, takeover_batch *b, uint64_t now_ms)
{
    static const char *const fields[] = {DH_F_GAME, DH_F_PLAYER_IDS};
    for (size_t i = 0; i < b->n; i++)
        if (b->c[i].retry < 0)
            rconn_hmgets_add(&b->meta, dh_key_match(rconn_hmgets_key(&b->meta), b->c[i].match_id),
                             fields);
    if (rconn_hmgets_run(mm, now_ms, &b->meta) < 0)
        return -1;
    for (size_t i = 0, k = 0; i < b->n; i++) {
        if (b->c[i].retry >= 0)
            continue;
        const redisReply *r = b->meta.out[k++];
        if (r->type == REDIS_REPLY_ARRAY && r->elements == 2 &&
            r->element[0]->type == REDIS_REPLY_STRING) {
            b->c[i].game = r->element[0]->str;
            b->c[i].player_ids =
                r->element[1]->type == REDIS_REPLY_STRING ? r->element[1]->str : "";
        }
    }
    return 0;
}

/* Record a moved match as in flight (room was reserved); its AdoptMatch goes out after
 * the index writes (takeover_send_all). */
static takeover_move *takeover_moved(mm_state *mm, takeover_cand *c, uint64_t now_ms)
{
    takeover *t = &mm->takeover;
    takeover_move *m;
    if (c->retry >= 0) {
        m = &t->v[c->retry];
    } else {
        char *ids = strdup(c->player_ids ? c->player_ids : "");
        m = ids ? takeover_add(t) : NULL; /* cannot fail: room was reserved */
        if (!m) {
            free(ids);
            dh_error("match %s: out of memory tracking its adoption", c->match_id);
            return NULL;
        }
        snprintf(m->match_id, sizeof m->match_id, "%s", c->match_id);
        snprintf(m->game, sizeof m->game, "%s", c->game);
        m->player_ids = ids;
    }
    dh_counter_inc(&mm->stats.matches_moved);
    dh_info("match %s: moved from %s to %s at epoch %lld", m->match_id, c->from, c->to->id,
            c->epoch);
    snprintf(m->worker, sizeof m->worker, "%s", c->to->id);
    m->epoch = (uint64_t)c->epoch;
    m->deadline_ms = now_ms + TAKEOVER_ADOPT_TIMEOUT_MS;
    return m;
}

static int takeover_desc(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x < y) - (x > y);
}

/* Pick an adopter for candidates [from, to), spread by load (an adoption counts on its
 * adopter at once); the move scripts' commands in b->cmds. How many; those that found no
 * live worker are added to *nowhere. */
static size_t takeover_pick_all(mm_state *mm, takeover_batch *b, size_t from, size_t to,
                                size_t *nowhere, uint64_t now_ms)
{
    size_t nmove = 0;
    for (size_t i = from; i < to; i++) {
        takeover_cand *c = &b->c[i];
        if (!c->game)
            continue;
        size_t players = dh_list_count(c->player_ids);
        const registry_game *g = registry_game_info(&mm->reg, c->game);
        if (!players && g)
            players = g->min_players;
        c->to = registry_pick_adopter(&mm->reg, c->game, (uint32_t)players, now_ms);
        if (!c->to) {
            (*nowhere)++;
            continue;
        }
        c->to->adopting++;
        takeover_args_fill(&c->args, mm, c->match_id, c->from, c->to->id);
        b->cmds[nmove] = (rconn_cmd){.argc = c->args.argc,
                                     .argv = c->args.argv,
                                     .lens = NULL,
                                     .script = &mm->scripts.takeover};
        b->idx[nmove++] = i;
    }
    return nmove;
}

/* The indexes of the matches moved (b->idx[0..nmoved)): each id into its adopter's
 * worker:{TO}:adopt and matches:running naming TO, all in one pipeline (Redis Cluster:
 * rconn routes each command to its slot's node). A failure is logged: the next sweep
 * puts the indexes right (takeover_reply). */
static void takeover_index_all(mm_state *mm, takeover_batch *b, size_t nmoved, uint64_t now_ms)
{
    for (size_t j = 0; j < nmoved; j++) {
        const takeover_cand *c = &b->c[b->idx[j]];
        const char **sadd = b->argv[2 * j], **run = b->argv[2 * j + 1];
        sadd[0] = "SADD";
        sadd[1] = dh_key_worker_adopt(b->adopt[j], c->to->id);
        sadd[2] = c->match_id;
        run[0] = "HSET";
        run[1] = DH_KEY_MATCHES_RUNNING;
        run[2] = c->match_id;
        run[3] = c->to->id;
        b->cmds[2 * j] = (rconn_cmd){.argc = 3, .argv = sadd};
        b->cmds[2 * j + 1] = (rconn_cmd){.argc = 4, .argv = run};
    }
    if (nmoved == 0 || rconn_pipeline(mm, now_ms, b->cmds, 2 * nmoved, b->out) < 0)
        return; /* Redis is down: the next sweep finds the matches again */
    for (size_t j = 0; j < 2 * nmoved; j++) {
        if (b->out[j]->type == REDIS_REPLY_ERROR)
            dh_warn_every(DH_LOG_EVERY_MS, "match %s: index write refused: %s",
                          b->c[b->idx[j / 2]].match_id, b->out[j]->str);
        freeReplyObject(b->out[j]);
    }
}

/* The move scripts' answers: the moved candidates stay in b->idx (how many); the others
 * give their adopter's count back, and a waiting record that moved on or finished
 * without us goes to b->drop (*ndrop of them). */
static size_t takeover_answers(mm_state *mm, takeover_batch *b, size_t nmove, size_t *ndrop,
                               uint64_t now_ms)
{
    size_t moved = 0;
    for (size_t j = 0; j < nmove; j++) {
        takeover_cand *c = &b->c[b->idx[j]];
        c->epoch = takeover_reply(mm, b->out[j], c->match_id, now_ms);
        freeReplyObject(b->out[j]);
        if (c->epoch > 0) {
            b->idx[moved++] = b->idx[j];
            continue;
        }
        c->to->adopting--;
        if (c->epoch == 0 && c->retry >= 0)
            b->drop[(*ndrop)++] = c->retry;
    }
    return moved;
}

/* Move candidates [from, to): one pipeline of move scripts, one of index writes, then
 * their AdoptMatch messages. How many moved; -1 when Redis did not answer or the lease is
 * not ours (*leased: checked once per sweep, before the first pipeline). */
static long takeover_move_chunk(mm_state *mm, takeover_batch *b, size_t from, size_t to,
                                size_t *nowhere, size_t *ndrop, bool *leased, uint64_t now_ms)
{
    size_t nmove = takeover_pick_all(mm, b, from, to, nowhere, now_ms);
    if (nmove == 0)
        return 0;
    if ((!*leased && !(*leased = takeover_lease_ours(mm, now_ms))) ||
        rconn_pipeline(mm, now_ms, b->cmds, nmove, b->out) < 0) {
        for (size_t j = 0; j < nmove; j++)
            b->c[b->idx[j]].to->adopting--;
        return -1;
    }
    size_t moved = takeover_answers(mm, b, nmove, ndrop, now_ms);
    takeover_index_all(mm, b, moved, now_ms);
    for (size_t j = 0; j < moved; j++) {
        takeover_move *m = takeover_moved(mm, &b->c[b->idx[j]], now_ms);
        if (m)
            takeover_send_adopt(mm, m);
    }
    return (long)moved;
}

/* Move every candidate, TAKEOVER_CHUNK at a time: the first adopters start on their
 * AdoptMatches while the rest still move (one pipeline of 1,000 move scripts took 85 ms). */
static void takeover_move_all(mm_state *mm, takeover_batch *b, uint64_t now_ms)
{
    size_t ndrop = 0, moved = 0, nowhere = 0;
    uint64_t first_ms = 0;
    bool leased = false;
    for (size_t from = 0; from < b->n; from += TAKEOVER_CHUNK) {
        size_t to = b->n - from > TAKEOVER_CHUNK ? from + TAKEOVER_CHUNK : b->n;
        long n = takeover_move_chunk(mm, b, from, to, &nowhere, &ndrop, &leased, now_ms);
        if (n < 0)
            break; /* the next sweep finds the rest again */
        if (n > 0 && !first_ms)
            first_ms = dh_now_ms() - b->start_ms;
        moved += (size_t)n;
    }
    if (nowhere && nowhere != mm->takeover.nowhere_logged)
        dh_warn("%zu matches of dead workers found no live worker to move to; retrying", nowhere);
    mm->takeover.nowhere_logged = nowhere;
    /* highest index first: removing one moves the last record into its slot */
    qsort(b->drop, ndrop, sizeof *b->drop, takeover_desc);
    for (size_t j = 0; j < ndrop; j++)
        takeover_remove(&mm->takeover, &mm->takeover.v[b->drop[j]]);
    if (moved > 1)
        dh_info("takeover: %zu matches moved in one sweep, AdoptMatch sent, in %llu ms (the first "
                "ones at %llu ms)",
                moved, (unsigned long long)(dh_now_ms() - b->start_ms),
                (unsigned long long)first_ms);
}

/* One sweep: how many matches it found to move (or waiting to move), -1 when Redis did
 * not answer or memory ran out. */
static long takeover_sweep(mm_state *mm, uint64_t now_ms)
{
    const char *argv[] = {"HGETALL", DH_KEY_MATCHES_RUNNING};
    uint64_t start_ms = dh_now_ms();
    redisReply *running = rconn_command(mm, now_ms, 2, argv);
    if (!running)
        return -1;
    size_t cap = takeover_count(mm, running, now_ms);
    takeover_batch b = {0};
    long found = 0;
    /* room for every move of this sweep first: the candidates point into the records */
    if (cap && (takeover_batch_init(&b, cap) < 0 || takeover_reserve(&mm->takeover, cap) < 0)) {
        dh_error("out of memory moving %zu matches", cap);
        found = -1;
    } else if (cap) {
        b.start_ms = start_ms;
        takeover_collect(mm, running, &b, now_ms);
        if (b.n && takeover_read_meta(mm, &b, now_ms) == 0)
            takeover_move_all(mm, &b, now_ms);
        found = (long)b.n;
    }
    takeover_batch_free(&b);
    freeReplyObject(running);
    return found;
}

void takeover_tick(mm_state *mm, uint64_t now_ms, bool force)
{
    takeover *t = &mm->takeover;
    if (!mm->redis_on)
        return;
    /* An adopter that died in turn (its connection closed) fails its adoptions now, not
     * at their deadline: they move again in this tick's sweep. */
    for (size_t i = 0; i < t->n; i++) {
        takeover_move *m = &t->v[i];
        if (m->deadline_ms && now_ms >= m->deadline_ms)
            takeover_fail(mm, m, "no MatchAdopted in time", now_ms);
        else if (m->deadline_ms && takeover_worker_dead(mm, m->worker, now_ms))
            takeover_fail(mm, m, "its adopter died", now_ms);
    }
    if (force || now_ms >= t->next_sweep_ms) {
        long found = takeover_sweep(mm, now_ms);
        /* Sweep often while there is something to move or that may soon be (the workers
         * nobody has heard of yet at the start of acting); otherwise rarely: a death
         * forces a sweep anyway, and the whole of matches:running is a big read. */
        bool settling = found != 0 || t->n > 0 ||
                        now_ms - mm->lease.since_ms < TAKEOVER_UNKNOWN_DEAD_MS + TAKEOVER_SWEEP_MS;
        t->next_sweep_ms = now_ms + (settling ? TAKEOVER_SWEEP_MS : TAKEOVER_IDLE_SWEEP_MS);
    }
    /* A match being moved exists: its placement, if any, waits for the adopter. */
    for (size_t i = 0; i < t->n; i++)
        placement_hold(mm, t->v[i].match_id, now_ms);
}

/* Tell every gateway where the match went. */
static void takeover_broadcast(mm_state *mm, const char *match_id, const registry_worker *w,
                               const char *worker_id, char **ids, size_t nids)
{
    seated_moved(&mm->seated, match_id, worker_id, w ? w->endpoint : "");
    Deckhand__Internal__MatchMoved mv = DECKHAND__INTERNAL__MATCH_MOVED__INIT;
    mv.match_id = (char *)match_id;
    mv.worker_id = (char *)worker_id;
    mv.worker_endpoint = (char *)(w ? w->endpoint : "");
    mv.n_player_ids = nids;
    mv.player_ids = ids;
    Deckhand__Internal__Internal msg = DECKHAND__INTERNAL__INTERNAL__INIT;
    msg.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_MOVED;
    msg.match_moved = &mv;
    for (size_t i = 0; i < mm->reg.ngateways; i++)
        if (gwout_send(mm, mm->reg.gateways[i].id, &msg) < 0)
            dh_debug("match %s: MatchMoved not sent to gateway %s: %s", match_id,
                     mm->reg.gateways[i].id, strerror(errno));
}

/* Split a copy of a comma-separated id list (ids, written to) into at most max
 * NUL-terminated pointers into it. */
static size_t takeover_split(char *ids, char **out, size_t max)
{
    size_t n = 0, len;
    const char *item;
    for (const char *cur = ids; n < max && dh_list_next(&cur, &item, &len);) {
        if (len == 0)
            continue;                 /* as before: an empty item names nobody */
        ids[item - ids + len] = '\0'; /* the cursor is past it already */
        out[n++] = &ids[item - ids];
    }
    return n;
}

void takeover_adopted(mm_state *mm, const char *identity,
                      const Deckhand__Internal__MatchAdopted *ma, uint64_t now_ms)
{
    const char *id = ma->match_id ? ma->match_id : "";
    takeover_move *m = takeover_find(&mm->takeover, id);
    if (m && strcmp(m->worker, identity)) {
        dh_warn_every(DH_LOG_EVERY_MS, "MatchAdopted for %s from %s, but %s adopts it; ignored", id,
                      identity, m->worker);
        return;
    }
    registry_worker *w = registry_find(&mm->reg, identity);
    if (!ma->ok) {
        const char *why = ma->error && *ma->error ? ma->error : "refused";
        if (m && m->deadline_ms)
            takeover_fail(mm, m, why, now_ms);
        else
            dh_warn_every(DH_LOG_EVERY_MS, "match %s: %s could not adopt it (%s)", id, identity,
                          why);
        return;
    }
    if (m && m->deadline_ms && w && w->adopting)
        w->adopting--;
    if (w)
        w->active++;
    if (w && placement_adopted(mm, id, w, now_ms)) {
        if (m)
            takeover_remove(&mm->takeover, m);
        return;
    }
    dh_info("match %s adopted by %s: telling %zu gateways", id, identity, mm->reg.ngateways);
    /* the worker names the players; one that had the match already may not */
    char **ids = ma->player_ids;
    size_t nids = ma->n_player_ids;
    char *list = NULL, *split[TAKEOVER_SEATS_MAX];
    if (!nids && m && m->player_ids && (list = strdup(m->player_ids))) {
        nids = takeover_split(list, split, TAKEOVER_SEATS_MAX);
        ids = split;
    }
    takeover_broadcast(mm, id, w, identity, ids, nids);
    free(list);
    if (m)
        takeover_remove(&mm->takeover, m);
}
