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
 *
 * Bots pace themselves with a token bucket per connection (--rate, default 40 messages/s,
 * under the gateway's limit of 50/s sustained), because on loopback a bot answers far
 * faster than any human and would otherwise be RATE_LIMITED. An answer waits in its
 * bot's slot until a token is free; an answer refused with RATE_LIMITED anyway is counted
 * as an error and sent again, so the match does not stall.
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
#define BOTS_RATE     40  /* default messages per second per bot */
#define BOTS_RETRY_MS 100 /* pause before resending a rate-limited answer */

typedef struct {
    dh_client *c;
    char name[32];
    char match_id[128]; /* the match it plays, "" between matches */
    uint32_t seat;
    bool answered;                 /* answered a decision of this match yet */
    uint64_t last_decision;        /* the last decision id answered in this match */
    double tokens;                 /* the pacing bucket */
    long long tokens_ms;           /* when it was last refilled */
    bool has_answer;               /* an answer waits to be sent, or for its Reply */
    unsigned long long answer_cmd; /* its Choose's cmd_id once sent, else 0 */
    long long retry_ms;            /* after RATE_LIMITED: not before this time */
    uint32_t answer_ids[BOTS_MAX_PICK];
    size_t answer_n;
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
    double rate; /* messages per second per bot; 0 = unpaced */
} bots_run;

static const char bots_usage[] =
    "usage: deckhand bots --game dominion --players N --matches M [--ws] [--size S]\n"
    "                     [--timeout SEC] [--rate MSGS_PER_SEC] [--gateway ADDR]\n"
    "  N bot clients queue for matches of S players (default N when 2..4, else 2) and\n"
    "  play until M matches have finished. Last stdout line: matches_completed=M errors=E\n"
    "  Each bot sends at most --rate messages per second (default 40; 0 = unpaced).\n";

/* Refill b's bucket; true when a message may go now. */
static bool bots_may_send(const bots_run *r, bot *b, long long now)
{
    if (r->rate <= 0)
        return true;
    b->tokens += (double)(now - b->tokens_ms) * r->rate / 1000.0;
    if (b->tokens > r->rate)
        b->tokens = r->rate; /* a burst of one second's worth */
    b->tokens_ms = now;
    return b->tokens >= 1.0;
}

/* Milliseconds from now until b may send again (0: now). */
static long long bots_wait_ms(const bots_run *r, const bot *b, long long now)
{
    double tokens = b->tokens + (double)(now - b->tokens_ms) * r->rate / 1000.0;
    long long retry = b->retry_ms > now ? b->retry_ms - now : 0;
    if (r->rate <= 0 || tokens >= 1.0)
        return retry;
    long long refill = (long long)((1.0 - tokens) * 1000.0 / r->rate) + 1;
    return refill > retry ? refill : retry;
}

static int bots_send(bots_run *r, bot *b, Deckhand__ClientMessage *m)
{
    b->tokens -= 1.0;
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

/* Send b's waiting answer if its bucket allows. */
static void bots_flush(bots_run *r, bot *b, long long now)
{
    if (!b->has_answer || b->answer_cmd || now < b->retry_ms || !bots_may_send(r, b, now))
        return;
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    Deckhand__Choose ch = DECKHAND__CHOOSE__INIT;
    ch.match_id = b->match_id;
    ch.decision_id = b->last_decision;
    ch.option_ids = b->answer_ids;
    ch.n_option_ids = b->answer_n;
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_CHOOSE;
    m.choose = &ch;
    if (bots_send(r, b, &m) == 0) {
        b->answer_cmd = m.cmd_id;
        r->decisions++;
    }
}

static void bots_decide(bots_run *r, bot *b, const Deckhand__DecisionRequest *d)
{
    if (!d || strcmp(d->match_id, b->match_id) != 0 || d->seat != b->seat)
        return;
    if (b->answered && d->decision_id <= b->last_decision)
        return; /* the same decision, seen again in a View */
    b->answer_n = dh_client_bot_choose(d, b->answer_ids, BOTS_MAX_PICK);
    b->answered = true;
    b->last_decision = d->decision_id;
    b->has_answer = true;
    b->answer_cmd = 0;
    bots_flush(r, b, cli_now_ms());
}

static void bots_reply(bots_run *r, bot *b, const Deckhand__Reply *rep)
{
    bool answer = b->has_answer && rep->cmd_id == b->answer_cmd;
    if (answer)
        b->has_answer = false;
    if (rep->ok)
        return;
    Deckhand__ErrorCode code = rep->error ? rep->error->code : DECKHAND__ERROR_CODE__INTERNAL;
    r->errors++;
    fprintf(stderr, "bots: %s: command %llu failed: %s (code %d)\n", b->name,
            (unsigned long long)rep->cmd_id, rep->error ? rep->error->message : "", (int)code);
    if (answer && code == DECKHAND__ERROR_CODE__RATE_LIMITED) {
        b->has_answer = true; /* not processed: send it again a little later */
        b->answer_cmd = 0;
        b->retry_ms = cli_now_ms() + BOTS_RETRY_MS;
    }
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
    b->has_answer = false;
    if (r->ndone < r->target)
        bots_queue(r, b);
}

static void bots_handle(bots_run *r, bot *b, const Deckhand__ServerMessage *s)
{
    switch (s->body_case) {
    case DECKHAND__SERVER_MESSAGE__BODY_REPLY:
        bots_reply(r, b, s->reply);
        break;
    case DECKHAND__SERVER_MESSAGE__BODY_MATCH_FOUND:
        snprintf(b->match_id, sizeof b->match_id, "%s", s->match_found->match_id);
        b->seat = s->match_found->seat;
        b->answered = false;
        b->has_answer = false;
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
        b->tokens = r->rate;
        b->tokens_ms = cli_now_ms();
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

/* Take the bots that wait in the queue out of it, so a later run (or a human) is not
 * matched with players that are gone; waits up to a second for the Replies. Failures
 * here are not the run's errors. */
static void bots_leave(bots_run *r)
{
    unsigned long long *cmd = calloc((size_t)r->n, sizeof *cmd);
    if (!cmd)
        return;
    for (int i = 0; i < r->n; i++) {
        bot *b = &r->bots[i];
        if (!b->c || b->match_id[0])
            continue;
        Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
        Deckhand__QueueLeave q = DECKHAND__QUEUE_LEAVE__INIT;
        q.game = (char *)r->game;
        m.cmd_id = dh_client_next_cmd(b->c);
        m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_QUEUE_LEAVE;
        m.queue_leave = &q;
        if (dh_client_send(b->c, &m) == 0)
            cmd[i] = m.cmd_id;
    }
    long long deadline = cli_now_ms() + 1000;
    for (int i = 0; i < r->n; i++) {
        Deckhand__ServerMessage *s;
        long long left;
        while (cmd[i] && (left = deadline - cli_now_ms()) > 0 &&
               dh_client_recv(r->bots[i].c, (int)left, &s) == 1) {
            if (s->body_case == DECKHAND__SERVER_MESSAGE__BODY_REPLY && s->reply->cmd_id == cmd[i])
                cmd[i] = 0;
            deckhand__server_message__free_unpacked(s, NULL);
        }
    }
    free(cmd);
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
        long long now = cli_now_ms();
        long long idle = now - r->last_progress;
        if (idle >= timeout_s * 1000) {
            fprintf(stderr, "bots: no progress for %ld s (%ld/%ld matches finished)\n", timeout_s,
                    r->ndone, r->target);
            r->errors++;
            break;
        }
        long long wait = timeout_s * 1000 - idle;
        if (wait > 1000)
            wait = 1000;
        for (int i = 0; i < r->n; i++) {
            bot *b = &r->bots[i];
            pfds[i].fd = dh_client_fd(b->c);
            pfds[i].events = POLLIN;
            pfds[i].revents = 0;
            if (dh_client_pending(b->c))
                wait = 0;
            if (b->has_answer && !b->answer_cmd) {
                r->last_progress = now; /* waiting on our own pacing is not a stall */
                if (bots_wait_ms(r, b, now) < wait)
                    wait = bots_wait_ms(r, b, now);
            }
        }
        if (poll(pfds, (nfds_t)r->n, (int)wait) < 0)
            continue; /* EINTR */
        for (int i = 0; i < r->n && !r->broken; i++)
            if (pfds[i].revents || dh_client_pending(r->bots[i].c))
                bots_drain(r, &r->bots[i]);
        now = cli_now_ms();
        for (int i = 0; i < r->n && !r->broken; i++)
            bots_flush(r, &r->bots[i], now);
    }
    free(pfds);
}

int cmd_bots(int argc, char **argv)
{
    static const char *const known[] = {"--game",    "--players", "--matches", "--size",
                                        "--timeout", "--gateway", "--rate",    NULL};
    static const char *const switches[] = {"--ws", "--help", "-h", NULL};
    if (dh_config_has(argc, argv, "--help") || dh_config_has(argc, argv, "-h")) {
        fputs(bots_usage, stdout);
        return 0;
    }
    if (cli_check_flags(argc, argv, known, switches) < 0)
        return 2;
    long players, matches, size, timeout, rate;
    if (cli_int(argc, argv, "--players", 2, 1, BOTS_MAX, &players) < 0 ||
        cli_int(argc, argv, "--rate", BOTS_RATE, 0, 1000000, &rate) < 0 ||
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
                  .target = matches,
                  .rate = (double)rate};
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
    bots_leave(&r);
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
