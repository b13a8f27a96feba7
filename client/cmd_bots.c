/*
 * cmd_bots.c: `deckhand bots`, N bot players in one process, the cluster's smoke, load
 * and chaos test: every bot logs in as a guest, queues, plays every decision put to it
 * with the generic bot (dh_client_bot.h) and queues again after each GameOver, until M
 * distinct matches have finished.
 *
 * One poll() over all the bots' sockets drives them; each bot is a small state record
 * updated by whatever message arrives, in any order (a MatchFound may overtake the Reply
 * to the QueueJoin), plus a few timers (pacing, resync, re-join, reconnect) that the loop
 * checks after every wake-up.
 *
 * Failures the cluster is built to survive are not errors; they are counted and worked
 * around, the way a real client must:
 * - an answer or a Resync refused with UNAVAILABLE, UNKNOWN_MATCH or OVERLOADED (the
 *   match moved to another worker, Redis or a worker is out) is `retried`: the bot sends
 *   Resync{match} after a backoff (250 ms doubling to 1 s) and answers again from the View
 *   or decision that comes, the same decision once more if it is still pending;
 * - a QueueJoin refused with UNAVAILABLE (the matchmaker is restarting) is sent again;
 * - a connection the server closes is reconnected (Hello with the saved token, the cmd_id
 *   sequence carried on), with the same backoff, for up to 30 s; then Resync for the
 *   match, or the QueueJoin again;
 * - an Event past event_seq+1 makes the bot resync (docs/PROTOCOL.md).
 * Every other refusal (ILLEGAL_CHOICE, NOT_YOUR_TURN, SCRIPT_ERROR, BAD_REQUEST...) is an
 * error, and so is a LOST command (dh_client_track.h): a decision offered again after its
 * answer got Reply{ok}, or a View older than what the bot already saw.
 *
 * --drop F makes a fraction F of the bots (chosen by --seed) each close its connection
 * once, right after sending an answer (so that answer's fate is unknown), after a random
 * number of answers, and reconnect as above.
 *
 * --gateway takes a comma-separated list: bots log in round-robin over it, and each
 * reconnect attempt goes to the next gateway of the list after the one the bot was on,
 * so with two or more every resume crosses gateways (counted as moved_gateway).
 *
 * Bots pace themselves with a token bucket per connection (--rate, default 40 messages/s,
 * under the gateway's limit of 50/s sustained), because on loopback a bot answers far
 * faster than any human and would otherwise be RATE_LIMITED. An answer waits in its
 * bot's slot until a token is free; an answer refused with RATE_LIMITED anyway is counted
 * as an error and sent again, so the match does not stall.
 * The last stdout line is `matches_completed=M errors=E`; the exit status is 0 only when
 * all M matches finished without an error.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "dh_client.h"
#include "dh_client_bot.h"
#include "dh_client_env.h"
#include "dh_client_track.h"
#include "dh_config.h"

#define BOTS_MAX         1000
#define BOTS_MAX_PICK    64
#define BOTS_RATE        40    /* default messages per second per bot */
#define BOTS_RETRY_MS    100   /* pause before resending a rate-limited answer */
#define BOTS_BACKOFF_MIN 250   /* first pause before a resync, re-join or reconnect */
#define BOTS_BACKOFF_MAX 1000  /* the pause doubles up to this */
#define BOTS_DOWN_MAX    30000 /* ms a bot keeps reconnecting, or resyncing a refused match */
#define BOTS_DROP_SPAN   60    /* a dropping bot drops after 1..BOTS_DROP_SPAN answers */
#define BOTS_GW_MAX      16    /* gateways in --gateway's list */
#define BOTS_ADDR_MAX    512

typedef struct {
    dh_client *c; /* NULL while disconnected */
    char name[32];
    char token[512];                /* the session, to resume after a lost connection */
    unsigned long long next_cmd;    /* carried from a lost connection to the next one */
    unsigned long long left_before; /* commands below this id belong to a match left */

    /* the queue */
    bool want_match;             /* queued, or waiting to (re)send its QueueJoin */
    bool rejoin;                 /* the next QueueJoin repeats an earlier one */
    unsigned long long join_cmd; /* the QueueJoin waiting for its Reply, else 0 */
    long long join_at;           /* when to send the QueueJoin again, 0: not scheduled */

    /* the match */
    char match_id[128]; /* the match it plays, "" between matches */
    dh_track track;
    bool has_answer;               /* an answer waits to be sent, or for its Reply */
    unsigned long long answer_cmd; /* its Choose's cmd_id once sent, else 0 */
    uint64_t answer_decision;      /* the decision it answers */
    long long retry_ms;            /* after RATE_LIMITED: not before this time */
    uint32_t answer_ids[BOTS_MAX_PICK];
    size_t answer_n;
    unsigned long long uncertain_cmd; /* the answer whose fate a resync must tell */
    uint64_t uncertain_decision;

    /* resync after a refusal or a gap */
    unsigned long long resync_cmd; /* the Resync waiting for its Reply, else 0 */
    long long resync_at;           /* when to send a Resync, 0: not scheduled */
    long long backoff;             /* the next pause */
    long long refused_since;       /* first refusal of the current streak, 0: none */
    bool reroute;                  /* --reroute-log: report the next View or decision */

    /* the connection */
    int gw;                 /* the gateway (index in bots_run.addrs) it is on, or tries next */
    int lost_gw;            /* the gateway of the connection it lost */
    long long reconnect_at; /* when to try to reconnect, 0: connected */
    long long down_since;   /* when the connection was lost */

    /* chaos */
    long drop_after; /* drop the connection after this many answers, 0: never */
    long answers;    /* answers sent */

    double tokens;       /* the pacing bucket */
    long long tokens_ms; /* when it was last refilled */
} bot;

typedef struct {
    bot *bots;
    int n;
    char addrs[BOTS_GW_MAX][BOTS_ADDR_MAX]; /* the gateways */
    int naddrs;
    const char *game;
    uint32_t size;
    long target;
    char **done; /* distinct ids of finished matches */
    long ndone;
    long errors;
    long decisions;
    long retried;    /* refusals worked around */
    long lost;       /* accepted commands that disappeared (also errors) */
    long reconnects; /* connections resumed */
    long moved;      /* of those, resumed on another gateway than the one lost */
    bool game_known; /* a QueueJoin was accepted: a later UNKNOWN_GAME is an outage */
    bool reroute_log;
    bool broken; /* out of memory, or a bot could not reconnect: stop */
    long long last_progress;
    double rate; /* messages per second per bot; 0 = unpaced */
} bots_run;

static const char bots_usage[] =
    "usage: deckhand bots --game dominion --players N --matches M [--ws] [--size S]\n"
    "                     [--timeout SEC] [--rate MSGS_PER_SEC] [--gateway ADDR[,ADDR...]]\n"
    "                     [--drop FRACTION] [--seed N] [--reroute-log]\n"
    "  N bot clients queue for matches of S players (default N when 2..4, else 2) and\n"
    "  play until M matches have finished. Last stdout line: matches_completed=M errors=E\n"
    "  Each bot sends at most --rate messages per second (default 40; 0 = unpaced).\n"
    "  Outages are survived, not errors: a command refused with UNAVAILABLE, UNKNOWN_MATCH\n"
    "  or OVERLOADED is retried (Resync after 250 ms .. 1 s, then the answer again), a\n"
    "  connection the server closes is resumed with the session token for up to 30 s.\n"
    "  Errors include LOST commands: a decision offered again after its answer was\n"
    "  accepted, or a View older than one already seen (printed with 'LOST').\n"
    "  --drop FRACTION: that fraction of the bots (0..1, default 0, chosen by --seed,\n"
    "  default 1) each close their connection once in a match, right after an answer,\n"
    "  and reconnect.\n"
    "  --gateway ADDR,ADDR...: bots log in spread over the gateways (round-robin), and a\n"
    "  bot that reconnects goes to the next gateway of the list, so a resume crosses\n"
    "  gateways (they must share one token key); each is printed to stderr as\n"
    "    bots: NAME: resumed on ADDR (was ADDR)\n"
    "  --reroute-log: print to stderr, for the first View or DecisionRequest a bot gets\n"
    "  after one of its commands was refused with UNAVAILABLE or UNKNOWN_MATCH (a moved\n"
    "  match, an outage):\n"
    "    bots: first_after_move match=ID at_ms=MS   (MS: CLOCK_REALTIME milliseconds)\n"
    "  Last stderr summary line: bots: retried=R lost=L reconnects=C moved_gateway=G\n";

/* ---- pacing and sending --------------------------------------------------------------- */

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

/* Milliseconds from now until b may send its answer (0: now). */
static long long bots_wait_ms(const bots_run *r, const bot *b, long long now)
{
    double tokens = b->tokens + (double)(now - b->tokens_ms) * r->rate / 1000.0;
    long long retry = b->retry_ms > now ? b->retry_ms - now : 0;
    if (r->rate <= 0 || tokens >= 1.0)
        return retry;
    long long refill = (long long)((1.0 - tokens) * 1000.0 / r->rate) + 1;
    return refill > retry ? refill : retry;
}

/* The pause before the next retry: BOTS_BACKOFF_MIN, doubling up to BOTS_BACKOFF_MAX. */
static long long bots_backoff(bot *b)
{
    long long d = b->backoff < BOTS_BACKOFF_MIN ? BOTS_BACKOFF_MIN : b->backoff;
    b->backoff = d * 2 > BOTS_BACKOFF_MAX ? BOTS_BACKOFF_MAX : d * 2;
    return d;
}

/* b's answer in flight may or may not have gone in: the View after the next Resync tells. */
static void bots_uncertain(bot *b, unsigned long long cmd)
{
    b->uncertain_cmd = cmd;
    b->uncertain_decision = b->answer_decision;
    dh_track_refused(&b->track);
}

/* The connection is gone (closed by the server, a failed send, or a --drop): forget what
 * was in flight on it and reconnect from the loop, at once or after a backoff. */
static void bots_lost(bots_run *r, bot *b, const char *why, bool at_once)
{
    long long now = cli_now_ms();
    fprintf(stderr, "bots: %s: connection lost (%s), reconnecting\n", b->name, why);
    b->next_cmd = dh_client_next_cmd(b->c);
    dh_client_close(b->c);
    b->c = NULL;
    if (!b->down_since) {
        b->down_since = now;
        b->lost_gw = b->gw;
        b->gw = (b->gw + 1) % r->naddrs; /* come back through the next gateway */
    }
    b->reconnect_at = now + (at_once ? 0 : bots_backoff(b));
    if (b->has_answer && b->answer_cmd) {
        /* Sent, Reply lost with the connection: it may not have gone in. */
        bots_uncertain(b, b->answer_cmd);
        b->has_answer = false;
    }
    b->answer_cmd = 0;
    b->resync_cmd = 0;
    b->resync_at = 0;
    if (b->join_cmd)
        b->rejoin = true;
    b->join_cmd = 0;
    b->join_at = 0;
    r->last_progress = now;
}

static int bots_send(bots_run *r, bot *b, Deckhand__ClientMessage *m)
{
    if (!b->c)
        return -1;
    b->tokens -= 1.0;
    m->cmd_id = dh_client_next_cmd(b->c);
    if (dh_client_send(b->c, m) == 0)
        return 0;
    bots_lost(r, b, "send failed", false);
    return -1;
}

static void bots_join(bots_run *r, bot *b)
{
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    Deckhand__QueueJoin q = DECKHAND__QUEUE_JOIN__INIT;
    q.game = (char *)r->game;
    q.players = r->size;
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_QUEUE_JOIN;
    m.queue_join = &q;
    b->want_match = true;
    b->join_at = 0;
    if (bots_send(r, b, &m) == 0)
        b->join_cmd = m.cmd_id;
}

static void bots_resync(bots_run *r, bot *b)
{
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    Deckhand__Resync rs = DECKHAND__RESYNC__INIT;
    rs.match_id = b->match_id;
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_RESYNC;
    m.resync = &rs;
    b->resync_at = 0;
    if (bots_send(r, b, &m) == 0)
        b->resync_cmd = m.cmd_id;
}

/* Send b's waiting answer if its bucket allows; a --drop bot may drop right after. */
static void bots_flush(bots_run *r, bot *b, long long now)
{
    if (!b->c || !b->has_answer || b->answer_cmd || now < b->retry_ms || !bots_may_send(r, b, now))
        return;
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    Deckhand__Choose ch = DECKHAND__CHOOSE__INIT;
    ch.match_id = b->match_id;
    ch.decision_id = b->answer_decision;
    ch.option_ids = b->answer_ids;
    ch.n_option_ids = b->answer_n;
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_CHOOSE;
    m.choose = &ch;
    if (bots_send(r, b, &m) < 0)
        return;
    b->answer_cmd = m.cmd_id;
    r->decisions++;
    if (++b->answers == b->drop_after) {
        fprintf(stderr, "bots: %s: dropping its connection with answer %llu in flight (--drop)\n",
                b->name, (unsigned long long)m.cmd_id);
        bots_lost(r, b, "dropped on purpose", true);
    }
}

/* ---- matches -------------------------------------------------------------------------- */

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

static bool bots_is_done(const bots_run *r, const char *match_id)
{
    for (long i = 0; i < r->ndone; i++)
        if (!strcmp(r->done[i], match_id))
            return true;
    return false;
}

/* b leaves its match (over, or given up): queue again while matches are missing. */
static void bots_leave_match(bots_run *r, bot *b)
{
    if (b->c) {
        b->left_before = dh_client_next_cmd(b->c);
        dh_client_set_next_cmd(b->c, b->left_before);
    } else {
        b->left_before = b->next_cmd;
    }
    b->match_id[0] = '\0';
    b->has_answer = false;
    b->answer_cmd = 0;
    b->resync_cmd = 0;
    b->resync_at = 0;
    b->refused_since = 0;
    b->reroute = false;
    b->backoff = BOTS_BACKOFF_MIN;
    if (r->ndone < r->target)
        bots_join(r, b);
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
    bots_leave_match(r, b);
}

static void bots_decide(bots_run *r, bot *b, const Deckhand__DecisionRequest *d)
{
    b->answer_n = dh_client_bot_choose(d, b->answer_ids, BOTS_MAX_PICK);
    b->answer_decision = d->decision_id;
    dh_track_sent(&b->track, d->decision_id);
    b->has_answer = true;
    b->answer_cmd = 0;
    bots_flush(r, b, cli_now_ms());
}

static long long bots_wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A View (is_view) or a DecisionRequest of b's match: check it, answer it. */
static void bots_state(bots_run *r, bot *b, bool is_view, const char *match_id, uint64_t seq,
                       const Deckhand__DecisionRequest *d)
{
    char why[160];
    if (!match_id || strcmp(match_id, b->match_id) != 0)
        return;
    if (b->reroute) {
        fprintf(stderr, "bots: first_after_move match=%s at_ms=%lld\n", match_id, bots_wall_ms());
        b->reroute = false;
    }
    if (is_view) {
        /* A full state: what a pending resync would bring. */
        b->resync_at = 0;
        b->refused_since = 0;
        b->backoff = BOTS_BACKOFF_MIN;
    }
    switch (dh_track_state(&b->track, is_view, seq, d, why, sizeof why)) {
    case DH_TRACK_LOST:
        r->lost++;
        r->errors++;
        fprintf(stderr, "bots: %s: LOST command in match %s (seat %u): %s\n", b->name, match_id,
                b->track.seat, why);
        break;
    case DH_TRACK_ANSWER:
        if (!b->has_answer)
            bots_decide(r, b, d);
        break;
    default:
        break;
    }
}

static void bots_event(bots_run *r, bot *b, const Deckhand__Event *e)
{
    if (!e->match_id || strcmp(e->match_id, b->match_id) != 0)
        return;
    if (dh_track_event(&b->track, e->event_seq) != DH_TRACK_GAP)
        return;
    fprintf(stderr, "bots: %s: event gap in match %s (event_seq %llu), resync\n", b->name,
            b->match_id, (unsigned long long)e->event_seq);
    if (!b->resync_cmd)
        b->resync_at = cli_now_ms();
}

/* ---- replies -------------------------------------------------------------------------- */

static bool bots_transient(Deckhand__ErrorCode code)
{
    return code == DECKHAND__ERROR_CODE__UNAVAILABLE ||
           code == DECKHAND__ERROR_CODE__UNKNOWN_MATCH || code == DECKHAND__ERROR_CODE__OVERLOADED;
}

static void bots_print_refusal(const bot *b, const Deckhand__Reply *rep, const char *what)
{
    fprintf(stderr, "bots: %s: command %llu failed: %s (code %d), %s\n", b->name,
            (unsigned long long)rep->cmd_id,
            rep->error && rep->error->message ? rep->error->message : "",
            rep->error ? (int)rep->error->code : -1, what);
}

static void bots_fail(bots_run *r, const bot *b, const Deckhand__Reply *rep)
{
    r->errors++;
    bots_print_refusal(b, rep, "an error");
}

/* An answer or a Resync of b's match was refused by an outage: resync after a backoff,
 * unless the match is over (its GameOver was missed) or unreachable for too long. */
static void bots_refused(bots_run *r, bot *b, Deckhand__ErrorCode code, long long now)
{
    r->retried++;
    if (r->reroute_log)
        b->reroute = true;
    if (code == DECKHAND__ERROR_CODE__UNKNOWN_MATCH && bots_is_done(r, b->match_id)) {
        fprintf(stderr, "bots: %s: match %s finished while it was away\n", b->name, b->match_id);
        bots_leave_match(r, b);
        return;
    }
    if (!b->refused_since)
        b->refused_since = now;
    if (now - b->refused_since > BOTS_DOWN_MAX) {
        fprintf(stderr, "bots: %s: match %s unreachable for %d s, given up\n", b->name, b->match_id,
                BOTS_DOWN_MAX / 1000);
        r->errors++;
        bots_leave_match(r, b);
        return;
    }
    if (!b->resync_cmd && !b->resync_at)
        b->resync_at = now + bots_backoff(b);
}

static void bots_reply(bots_run *r, bot *b, const Deckhand__Reply *rep)
{
    long long now = cli_now_ms();
    Deckhand__ErrorCode code = rep->ok      ? DECKHAND__ERROR_CODE__OK
                               : rep->error ? rep->error->code
                                            : DECKHAND__ERROR_CODE__INTERNAL;
    if (b->has_answer && b->answer_cmd && rep->cmd_id == b->answer_cmd) {
        b->has_answer = false;
        b->answer_cmd = 0;
        if (rep->ok) {
            dh_track_accepted(&b->track, b->answer_decision);
            b->refused_since = 0;
        } else if (code == DECKHAND__ERROR_CODE__RATE_LIMITED) {
            bots_fail(r, b, rep);
            b->has_answer = true; /* not processed: send it again a little later */
            b->retry_ms = now + BOTS_RETRY_MS;
        } else if (bots_transient(code)) {
            bots_print_refusal(b, rep, "retrying");
            bots_uncertain(b, rep->cmd_id);
            bots_refused(r, b, code, now);
        } else {
            bots_fail(r, b, rep);
        }
        return;
    }
    if (b->resync_cmd && rep->cmd_id == b->resync_cmd) {
        b->resync_cmd = 0;
        if (rep->ok && b->track.uncertain && rep->cmd_id < b->uncertain_cmd)
            b->resync_at = now; /* sent before the uncertain answer: it cannot tell */
        else if (rep->ok)
            dh_track_resynced(&b->track);
        if (rep->ok)
            return;
        if (bots_transient(code)) {
            bots_print_refusal(b, rep, "retrying");
            bots_refused(r, b, code, now);
        } else {
            bots_fail(r, b, rep);
        }
        return;
    }
    if (b->join_cmd && rep->cmd_id == b->join_cmd) {
        b->join_cmd = 0;
        if (rep->ok) {
            r->game_known = true;
            b->rejoin = false;
            return;
        }
        /* An outage, or a repeated join the matchmaker already placed ("already queued"):
         * join again later unless the MatchFound comes first. */
        if (code == DECKHAND__ERROR_CODE__UNAVAILABLE || code == DECKHAND__ERROR_CODE__OVERLOADED ||
            (code == DECKHAND__ERROR_CODE__UNKNOWN_GAME && r->game_known) ||
            (code == DECKHAND__ERROR_CODE__BAD_REQUEST && b->rejoin)) {
            r->retried++;
            bots_print_refusal(b, rep, "joining again");
            b->rejoin = true;
            if (b->want_match && !b->match_id[0])
                b->join_at = now + bots_backoff(b);
        } else {
            bots_fail(r, b, rep);
        }
        return;
    }
    if (b->track.uncertain && rep->cmd_id == b->uncertain_cmd) {
        /* The Reply of an answer whose connection was lost, reaching the new one. */
        b->track.uncertain = !rep->ok;
        if (rep->ok)
            dh_track_accepted(&b->track, b->uncertain_decision);
        return;
    }
    /* A Resync or an answer of a match that ended meanwhile (its GameOver came first). */
    if (code == DECKHAND__ERROR_CODE__UNKNOWN_MATCH && rep->cmd_id < b->left_before)
        return;
    if (!rep->ok)
        bots_fail(r, b, rep);
}

static void bots_handle(bots_run *r, bot *b, const Deckhand__ServerMessage *s)
{
    switch (s->body_case) {
    case DECKHAND__SERVER_MESSAGE__BODY_REPLY:
        bots_reply(r, b, s->reply);
        break;
    case DECKHAND__SERVER_MESSAGE__BODY_MATCH_FOUND:
        if (b->match_id[0] && strcmp(b->match_id, s->match_found->match_id) != 0)
            fprintf(stderr, "bots: %s: match %s found while still in match %s\n", b->name,
                    s->match_found->match_id, b->match_id);
        snprintf(b->match_id, sizeof b->match_id, "%s", s->match_found->match_id);
        dh_track_start(&b->track, s->match_found->seat);
        b->want_match = false;
        b->rejoin = false;
        b->join_at = 0;
        b->has_answer = false;
        b->answer_cmd = 0;
        b->resync_at = 0;
        b->refused_since = 0;
        b->reroute = false;
        break;
    case DECKHAND__SERVER_MESSAGE__BODY_EVENT:
        bots_event(r, b, s->event);
        break;
    case DECKHAND__SERVER_MESSAGE__BODY_DECISION:
        bots_state(r, b, false, s->decision->match_id, s->decision->event_seq, s->decision);
        break;
    case DECKHAND__SERVER_MESSAGE__BODY_VIEW:
        bots_state(r, b, true, s->view->match_id, s->view->event_seq, s->view->decision);
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
    while (b->c && !r->broken && r->ndone < r->target && (rc = dh_client_recv(b->c, 0, &s)) != 0) {
        if (rc < 0) {
            bots_lost(r, b, "closed by the server", false);
            return;
        }
        r->last_progress = cli_now_ms();
        bots_handle(r, b, s);
        deckhand__server_message__free_unpacked(s, NULL);
    }
}

/* ---- connections ---------------------------------------------------------------------- */

/* One reconnect attempt: connect, resume the session with the saved token, then resync
 * the match or queue again. On failure the next attempt waits a backoff; after
 * BOTS_DOWN_MAX the run is broken. */
static void bots_reconnect(bots_run *r, bot *b, long long now)
{
    char err[256], token[sizeof b->token];
    dh_client *c = dh_client_connect(r->addrs[b->gw], err, sizeof err);
    if (c) {
        dh_client_set_next_cmd(c, b->next_cmd);
        if (dh_client_resume(c, b->token, NULL, 0, token, sizeof token) == 0)
            goto resumed;
        snprintf(err, sizeof err, "the session was not resumed");
        dh_client_close(c);
    }
    now = cli_now_ms();
    if (now - b->down_since > BOTS_DOWN_MAX) {
        fprintf(stderr, "bots: %s: cannot reconnect for %d s (%s), giving up\n", b->name,
                BOTS_DOWN_MAX / 1000, err);
        r->errors++;
        r->broken = true;
        return;
    }
    b->gw = (b->gw + 1) % r->naddrs; /* that one is down, perhaps: try the next */
    b->reconnect_at = now + bots_backoff(b);
    return;
resumed:
    b->c = c;
    memcpy(b->token, token, sizeof token);
    b->reconnect_at = 0;
    b->down_since = 0;
    b->backoff = BOTS_BACKOFF_MIN;
    b->tokens_ms = cli_now_ms();
    r->reconnects++;
    r->last_progress = b->tokens_ms;
    fprintf(stderr, "bots: %s: reconnected%s%s\n", b->name, b->match_id[0] ? ", resync " : "",
            b->match_id);
    if (b->gw != b->lost_gw) {
        r->moved++;
        fprintf(stderr, "bots: %s: resumed on %s (was %s)\n", b->name, r->addrs[b->gw],
                r->addrs[b->lost_gw]);
    }
    if (b->match_id[0]) {
        bots_resync(r, b);
    } else if (b->want_match) {
        b->rejoin = true;
        bots_join(r, b);
    }
}

/* The timers: reconnects, resyncs, re-joins, paced answers. */
static void bots_timers(bots_run *r, long long now)
{
    for (int i = 0; i < r->n && !r->broken; i++) {
        bot *b = &r->bots[i];
        if (!b->c) {
            if (b->reconnect_at && now >= b->reconnect_at)
                bots_reconnect(r, b, now);
            continue;
        }
        if (b->resync_at && now >= b->resync_at && !b->resync_cmd && b->match_id[0]) {
            if (bots_is_done(r, b->match_id)) {
                fprintf(stderr, "bots: %s: match %s finished while it was away\n", b->name,
                        b->match_id);
                bots_leave_match(r, b);
            } else {
                bots_resync(r, b);
            }
        }
        if (b->c && b->join_at && now >= b->join_at) {
            b->join_at = 0;
            if (b->want_match && !b->match_id[0] && !b->join_cmd)
                bots_join(r, b);
        }
        if (b->c)
            bots_flush(r, b, now);
    }
}

/* Milliseconds until the earliest timer of b (limit when none is sooner). */
static long long bots_next_timer(const bots_run *r, const bot *b, long long now, long long limit)
{
    long long at[3] = {b->c ? 0 : b->reconnect_at, b->c ? b->resync_at : 0, b->c ? b->join_at : 0};
    for (int i = 0; i < 3; i++)
        if (at[i] && at[i] - now < limit)
            limit = at[i] > now ? at[i] - now : 0;
    if (b->c && b->has_answer && !b->answer_cmd && bots_wait_ms(r, b, now) < limit)
        limit = bots_wait_ms(r, b, now);
    return limit;
}

static int bots_start(bots_run *r)
{
    for (int i = 0; i < r->n; i++) {
        bot *b = &r->bots[i];
        char err[256];
        snprintf(b->name, sizeof b->name, "bot-%d-%d", (int)getpid() % 100000, i + 1);
        b->tokens = r->rate;
        b->tokens_ms = cli_now_ms();
        b->backoff = BOTS_BACKOFF_MIN;
        b->gw = b->lost_gw = i % r->naddrs;
        b->c = dh_client_connect(r->addrs[b->gw], err, sizeof err);
        if (!b->c) {
            fprintf(stderr, "bots: %s: %s\n", b->name, err);
            return -1;
        }
        if (dh_client_login(b->c, b->name, NULL, 0, b->token, sizeof b->token) < 0) {
            fprintf(stderr, "bots: %s: login failed\n", b->name);
            return -1;
        }
        bots_join(r, b);
        if (!b->c)
            return -1;
    }
    fprintf(stderr, "bots: %d bots logged in at %s%s, queued for %s (%u players)\n", r->n,
            r->addrs[0], r->naddrs > 1 ? " and the other gateways" : "", r->game, r->size);
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
            pfds[i].fd = b->c ? dh_client_fd(b->c) : -1;
            pfds[i].events = POLLIN;
            pfds[i].revents = 0;
            if (b->c && dh_client_pending(b->c))
                wait = 0;
            if (b->c && b->has_answer && !b->answer_cmd)
                r->last_progress = now; /* waiting on our own pacing is not a stall */
            wait = bots_next_timer(r, b, now, wait);
        }
        if (poll(pfds, (nfds_t)r->n, (int)wait) < 0 && errno != EINTR)
            break;
        for (int i = 0; i < r->n && !r->broken; i++) {
            bot *b = &r->bots[i];
            if (b->c && (pfds[i].revents || dh_client_pending(b->c)))
                bots_drain(r, b);
        }
        bots_timers(r, cli_now_ms());
    }
    free(pfds);
}

/* ---- options -------------------------------------------------------------------------- */

/* xorshift64*: the --drop choices, reproducible from --seed. */
static uint64_t bots_rand(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}

/* Pick round(drop * n) bots, each to drop after 1..BOTS_DROP_SPAN answers. */
static void bots_plan_drops(bots_run *r, double drop, long seed)
{
    int ndrop = (int)(drop * r->n + 0.5);
    int *order = calloc((size_t)r->n, sizeof *order);
    if (!order || ndrop == 0) {
        free(order);
        return;
    }
    uint64_t s = (uint64_t)seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull;
    for (int i = 0; i < r->n; i++)
        order[i] = i;
    for (int i = r->n - 1; i > 0; i--) {
        int j = (int)(bots_rand(&s) % (uint64_t)(i + 1));
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (int i = 0; i < ndrop; i++)
        r->bots[order[i]].drop_after = 1 + (long)(bots_rand(&s) % BOTS_DROP_SPAN);
    free(order);
}

/* --gateway's comma-separated list (each address as cli_gateway takes one), or the one
 * gateway cli_gateway finds without the flag. */
static int bots_gateways(int argc, char **argv, bots_run *r)
{
    const char *flag = dh_config_str(argc, argv, "--gateway", NULL, NULL);
    bool ws = dh_config_has(argc, argv, "--ws");
    char err[512], item[BOTS_ADDR_MAX];
    r->naddrs = 0;
    if (!flag || !*flag) {
        if (cli_gateway(argc, argv, r->addrs[0], sizeof r->addrs[0]) < 0)
            return -1;
        r->naddrs = 1;
        return 0;
    }
    for (const char *p = flag;; p++) {
        size_t n = strcspn(p, ",");
        if (n == 0 || n >= sizeof item || r->naddrs == BOTS_GW_MAX) {
            fprintf(stderr, "deckhand bots: --gateway wants 1..%d comma-separated addresses\n",
                    BOTS_GW_MAX);
            return -1;
        }
        memcpy(item, p, n);
        item[n] = '\0';
        if (dh_client_gateway_addr(item, ws, NULL, r->addrs[r->naddrs], sizeof r->addrs[0], err,
                                   sizeof err) < 0) {
            fprintf(stderr, "deckhand bots: %s\n", err);
            return -1;
        }
        r->naddrs++;
        p += n;
        if (!*p)
            return 0;
    }
}

static int bots_fraction(int argc, char **argv, const char *flag, double *out)
{
    const char *s = dh_config_str(argc, argv, flag, NULL, NULL);
    char *end;
    *out = 0;
    if (!s)
        return 0;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !(v >= 0 && v <= 1)) {
        fprintf(stderr, "deckhand bots: %s wants a number in 0..1, not '%s'\n", flag, s);
        return -1;
    }
    *out = v;
    return 0;
}

int cmd_bots(int argc, char **argv)
{
    static const char *const known[] = {"--game",    "--players", "--matches", "--size",
                                        "--timeout", "--gateway", "--rate",    "--drop",
                                        "--seed",    NULL};
    static const char *const switches[] = {"--ws", "--reroute-log", "--help", "-h", NULL};
    if (dh_config_has(argc, argv, "--help") || dh_config_has(argc, argv, "-h")) {
        fputs(bots_usage, stdout);
        return 0;
    }
    if (cli_check_flags(argc, argv, known, switches) < 0)
        return 2;
    long players, matches, size, timeout, rate, seed;
    double drop;
    if (cli_int(argc, argv, "--players", 2, 1, BOTS_MAX, &players) < 0 ||
        cli_int(argc, argv, "--rate", BOTS_RATE, 0, 1000000, &rate) < 0 ||
        cli_int(argc, argv, "--matches", 1, 1, 100000000, &matches) < 0 ||
        cli_int(argc, argv, "--timeout", 60, 1, 86400, &timeout) < 0 ||
        cli_int(argc, argv, "--seed", 1, 0, 2147483647, &seed) < 0 ||
        bots_fraction(argc, argv, "--drop", &drop) < 0)
        return 2;
    if (cli_int(argc, argv, "--size", players >= 2 && players <= 4 ? players : 2, 1, 64, &size) < 0)
        return 2;
    bots_run r = {.n = (int)players,
                  .game = dh_config_str(argc, argv, "--game", NULL, "dominion"),
                  .size = (uint32_t)size,
                  .target = matches,
                  .reroute_log = dh_config_has(argc, argv, "--reroute-log"),
                  .rate = (double)rate};
    if (bots_gateways(argc, argv, &r) < 0)
        return 2;
    r.bots = calloc((size_t)r.n, sizeof *r.bots);
    if (!r.bots) {
        fprintf(stderr, "bots: out of memory\n");
        r.errors++;
        goto out;
    }
    bots_plan_drops(&r, drop, seed);
    if (bots_start(&r) < 0) {
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
    fprintf(stderr, "bots: retried=%ld lost=%ld reconnects=%ld moved_gateway=%ld\n", r.retried,
            r.lost, r.reconnects, r.moved);
    printf("matches_completed=%ld errors=%ld\n", r.ndone, r.errors);
    return r.ndone >= r.target && r.errors == 0 ? 0 : 1;
}
