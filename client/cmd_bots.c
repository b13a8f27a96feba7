/*
 * cmd_bots.c: `deckhand bots`, N bot players in one process, the cluster's smoke and load
 * test: every bot logs in as a guest, queues, plays every decision put to it with the
 * generic bot (dh_client_bot.h) and queues again after each GameOver, until M distinct
 * matches have finished.
 *
 * One poll() over all the bots' sockets drives them; each bot is a small state record
 * updated by whatever message arrives, in any order (a MatchFound may overtake the Reply
 * to the QueueJoin). A failure is counted, not fatal, except a lost connection (that bot
 * cannot finish its match) and --timeout seconds without any message (something hangs).
 * The last stdout line is `matches_completed=M errors=E`; the exit status is 0 only when
 * all M matches finished without an error.
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "dh_client.h"
#include "dh_client_bot.h"
#include "dh_config.h"

#define BOTS_MAX      1000
#define BOTS_MAX_PICK 64

typedef struct {
    dh_client *c;
    char name[32];
    char match_id[128]; /* the match it plays, "" between matches */
    uint32_t seat;
    bool answered;          /* answered a decision of this match yet */
    uint64_t last_decision; /* the last decision id answered in this match */
} bot;

typedef struct {
    bot *bots;
    int n;
    const char *game;
    uint32_t size;
    long target;
    char **done; /* distinct ids of finished matches */
    long ndone;
    long errors;
    long decisions;
    bool broken; /* a connection was lost: stop */
    long long last_progress;
} bots_run;

static const char bots_usage[] =
    "usage: deckhand bots --game dominion --players N --matches M [--ws] [--size S]\n"
    "                     [--timeout SEC] [--gateway ADDR]\n"
    "  N bot clients queue for matches of S players (default N when 2..4, else 2) and\n"
    "  play until M matches have finished. Last stdout line: matches_completed=M errors=E\n";

static int bots_send(bots_run *r, bot *b, Deckhand__ClientMessage *m)
{
    m->cmd_id = dh_client_next_cmd(b->c);
    if (dh_client_send(b->c, m) == 0)
        return 0;
    fprintf(stderr, "bots: %s: send failed, connection lost\n", b->name);
    r->errors++;
    r->broken = true;
    return -1;
}

static int bots_queue(bots_run *r, bot *b)
{
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    Deckhand__QueueJoin q = DECKHAND__QUEUE_JOIN__INIT;
    q.game = (char *)r->game;
    q.players = r->size;
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_QUEUE_JOIN;
    m.queue_join = &q;
    return bots_send(r, b, &m);
}

static void bots_decide(bots_run *r, bot *b, const Deckhand__DecisionRequest *d)
{
    if (!d || strcmp(d->match_id, b->match_id) != 0 || d->seat != b->seat)
        return;
    if (b->answered && d->decision_id <= b->last_decision)
        return; /* the same decision, seen again in a View */
    uint32_t ids[BOTS_MAX_PICK];
    size_t n = dh_client_bot_choose(d, ids, BOTS_MAX_PICK);
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    Deckhand__Choose ch = DECKHAND__CHOOSE__INIT;
    ch.match_id = b->match_id;
    ch.decision_id = d->decision_id;
    ch.option_ids = ids;
    ch.n_option_ids = n;
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_CHOOSE;
    m.choose = &ch;
    b->answered = true;
    b->last_decision = d->decision_id;
    if (bots_send(r, b, &m) == 0)
        r->decisions++;
}

/* Record a finished match once, however many of our bots sat in it. */
static int bots_finished(bots_run *r, const char *match_id)
{
    for (long i = 0; i < r->ndone; i++)
        if (!strcmp(r->done[i], match_id))
            return 0;
    char **nd = realloc(r->done, (size_t)(r->ndone + 1) * sizeof *nd);
    if (!nd)
        goto oom;
    r->done = nd;
    if (!(r->done[r->ndone] = strdup(match_id)))
        goto oom;
    r->ndone++;
    return 1;
oom:
    fprintf(stderr, "bots: out of memory\n");
    r->errors++;
    r->broken = true;
    return 0;
}

static void bots_game_over(bots_run *r, bot *b, const Deckhand__GameOver *g)
{
    if (strcmp(g->match_id, b->match_id) != 0)
        return;
    if (bots_finished(r, g->match_id)) {
        char line[512];
        size_t off = 0;
        for (size_t i = 0; i < g->n_results && off < sizeof line; i++) {
            const Deckhand__PlayerResult *p = g->results[i];
            int w = snprintf(line + off, sizeof line - off, "%s%s=%d%s", i ? " " : "", p->name,
                             p->score, p->rank == 1 ? "*" : "");
            off += w > 0 ? (size_t)w : 0;
        }
        fprintf(stderr, "bots: match %s finished (%ld/%ld): %s\n", g->match_id, r->ndone, r->target,
                line);
    }
    b->match_id[0] = '\0';
    if (r->ndone < r->target)
        bots_queue(r, b);
}

static void bots_handle(bots_run *r, bot *b, const Deckhand__ServerMessage *s)
{
    switch (s->body_case) {
    case DECKHAND__SERVER_MESSAGE__BODY_REPLY:
        if (!s->reply->ok) {
            r->errors++;
            fprintf(stderr, "bots: %s: command %llu failed: %s (code %d)\n", b->name,
                    (unsigned long long)s->reply->cmd_id,
                    s->reply->error ? s->reply->error->message : "",
                    s->reply->error ? (int)s->reply->error->code : 0);
        }
        break;
    case DECKHAND__SERVER_MESSAGE__BODY_MATCH_FOUND:
        snprintf(b->match_id, sizeof b->match_id, "%s", s->match_found->match_id);
        b->seat = s->match_found->seat;
        b->answered = false;
        break;
    case DECKHAND__SERVER_MESSAGE__BODY_DECISION:
        bots_decide(r, b, s->decision);
        break;
    case DECKHAND__SERVER_MESSAGE__BODY_VIEW:
        if (s->view->decision && !strcmp(s->view->match_id, b->match_id))
            bots_decide(r, b, s->view->decision);
        break;
    case DECKHAND__SERVER_MESSAGE__BODY_GAME_OVER:
        bots_game_over(r, b, s->game_over);
        break;
    default:
        break;
    }
}

/* Handle every message this bot has, reading what the socket holds without waiting. */
static void bots_drain(bots_run *r, bot *b)
{
    Deckhand__ServerMessage *s;
    int rc;
    while (!r->broken && r->ndone < r->target && (rc = dh_client_recv(b->c, 0, &s)) != 0) {
        if (rc < 0) {
            fprintf(stderr, "bots: %s: disconnected by the server\n", b->name);
            r->errors++;
            r->broken = true;
            return;
        }
        r->last_progress = cli_now_ms();
        bots_handle(r, b, s);
        deckhand__server_message__free_unpacked(s, NULL);
    }
}

static int bots_start(bots_run *r, const char *addr)
{
    for (int i = 0; i < r->n; i++) {
        bot *b = &r->bots[i];
        char err[256];
        snprintf(b->name, sizeof b->name, "bot-%d-%d", (int)getpid() % 100000, i + 1);
        b->c = dh_client_connect(addr, err, sizeof err);
        if (!b->c) {
            fprintf(stderr, "bots: %s: %s\n", b->name, err);
            return -1;
        }
        if (dh_client_login(b->c, b->name, NULL, 0, NULL, 0) < 0) {
            fprintf(stderr, "bots: %s: login failed\n", b->name);
            return -1;
        }
        if (bots_queue(r, b) < 0)
            return -1;
    }
    fprintf(stderr, "bots: %d bots logged in at %s, queued for %s (%u players)\n", r->n, addr,
            r->game, r->size);
    return 0;
}

static void bots_loop(bots_run *r, long timeout_s)
{
    struct pollfd *pfds = calloc((size_t)r->n, sizeof *pfds);
    if (!pfds) {
        fprintf(stderr, "bots: out of memory\n");
        r->errors++;
        return;
    }
    r->last_progress = cli_now_ms();
    while (!r->broken && r->ndone < r->target) {
        bool pending = false;
        for (int i = 0; i < r->n; i++) {
            pfds[i].fd = dh_client_fd(r->bots[i].c);
            pfds[i].events = POLLIN;
            pfds[i].revents = 0;
            pending = pending || dh_client_pending(r->bots[i].c);
        }
        long long idle = cli_now_ms() - r->last_progress;
        if (idle >= timeout_s * 1000) {
            fprintf(stderr, "bots: no progress for %ld s (%ld/%ld matches finished)\n", timeout_s,
                    r->ndone, r->target);
            r->errors++;
            break;
        }
        long long wait = timeout_s * 1000 - idle;
        int pr = poll(pfds, (nfds_t)r->n, pending ? 0 : (int)(wait < 1000 ? wait : 1000));
        if (pr < 0)
            continue; /* EINTR */
        for (int i = 0; i < r->n && !r->broken; i++)
            if (pfds[i].revents || dh_client_pending(r->bots[i].c))
                bots_drain(r, &r->bots[i]);
    }
    free(pfds);
}

int cmd_bots(int argc, char **argv)
{
    static const char *const known[] = {"--game",    "--players", "--matches", "--size",
                                        "--timeout", "--gateway", NULL};
    static const char *const switches[] = {"--ws", "--help", "-h", NULL};
    if (dh_config_has(argc, argv, "--help") || dh_config_has(argc, argv, "-h")) {
        fputs(bots_usage, stdout);
        return 0;
    }
    if (cli_check_flags(argc, argv, known, switches) < 0)
        return 2;
    long players, matches, size, timeout;
    if (cli_int(argc, argv, "--players", 2, 1, BOTS_MAX, &players) < 0 ||
        cli_int(argc, argv, "--matches", 1, 1, 100000000, &matches) < 0 ||
        cli_int(argc, argv, "--timeout", 60, 1, 86400, &timeout) < 0)
        return 2;
    if (cli_int(argc, argv, "--size", players >= 2 && players <= 4 ? players : 2, 1, 64, &size) < 0)
        return 2;
    char addr[512];
    if (cli_gateway(argc, argv, addr, sizeof addr) < 0)
        return 2;
    bots_run r = {.n = (int)players,
                  .game = dh_config_str(argc, argv, "--game", NULL, "dominion"),
                  .size = (uint32_t)size,
                  .target = matches};
    r.bots = calloc((size_t)r.n, sizeof *r.bots);
    if (!r.bots) {
        fprintf(stderr, "bots: out of memory\n");
        r.errors++;
        goto out;
    }
    if (bots_start(&r, addr) < 0) {
        r.errors++;
        goto out;
    }
    bots_loop(&r, timeout);
    fprintf(stderr, "bots: %ld decisions answered\n", r.decisions);
out:
    for (int i = 0; r.bots && i < r.n; i++)
        dh_client_close(r.bots[i].c);
    free(r.bots);
    for (long i = 0; i < r.ndone; i++)
        free(r.done[i]);
    free(r.done);
    printf("matches_completed=%ld errors=%ld\n", r.ndone, r.errors);
    return r.ndone >= r.target && r.errors == 0 ? 0 : 1;
}
