/*
 * bots_send.c: `deckhand bots`' pacing (a token bucket per connection) and sending:
 * QueueJoin, Resync and answers, the bookkeeping of commands whose fate is unknown, and
 * the Reply to a party or lobby request.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "dh_clock.h"
#include "dh_client.h"
#include "dh_client_bot.h"
#include "dh_client_env.h"
#include "dh_client_msg.h"
#include "dh_client_track.h"
#include "bots.h"

/* ---- what a player feels, logged (--answer-log) ---------------------------------------- */

long long bots_wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void bots_note(bots_run *r, const bot *b, const char *kind, const char *match_id, uint64_t decision)
{
    if (r->answer_log)
        fprintf(r->answer_log, "%lld %s %s %d %llu\n", bots_wall_ms(), kind, match_id,
                (int)(b - r->bots) + 1, (unsigned long long)decision);
}

/* ---- pacing and sending --------------------------------------------------------------- */

/* Refill a token bucket of rate tokens per second that holds at most burst. */
static void bots_refill(double *tokens, long long *at, double rate, double burst, long long now)
{
    *tokens += (double)(now - *at) * rate / 1000.0;
    if (*tokens > burst)
        *tokens = burst;
    *at = now;
}

/* Milliseconds from now until a bucket (tokens at `at`) holds a whole token (0: now). */
static long long bots_refill_ms(double tokens, long long at, double rate, long long now)
{
    tokens += (double)(now - at) * rate / 1000.0;
    if (rate <= 0 || tokens >= 1.0)
        return 0;
    return (long long)((1.0 - tokens) * 1000.0 / rate) + 1;
}

static double bots_total_burst(const bots_run *r)
{
    double burst = r->total_rate * BOTS_TOTAL_BURST_S;
    return burst < 1.0 ? 1.0 : burst;
}

double bots_bucket(const bots_run *r)
{
    return r->rate > BOTS_BUCKET_MIN ? r->rate : BOTS_BUCKET_MIN;
}

void bots_refund(const bots_run *r, bot *b)
{
    if (r->rate > 0 && (b->tokens += 1.0) > bots_bucket(r))
        b->tokens = bots_bucket(r);
}

/* Refill b's bucket and the run's (total_rate); true when an answer may go now. */
static bool bots_may_send(bots_run *r, bot *b, long long now)
{
    if (r->total_rate > 0) {
        bots_refill(&r->total_tokens, &r->total_ms, r->total_rate, bots_total_burst(r), now);
        if (r->total_tokens < 1.0)
            return false;
    }
    if (r->rate <= 0)
        return true;
    bots_refill(&b->tokens, &b->tokens_ms, r->rate, bots_bucket(r), now);
    return b->tokens >= 1.0;
}

/* Milliseconds from now until b may send its answer (0: now). */
long long bots_wait_ms(const bots_run *r, const bot *b, long long now)
{
    long long wait = b->retry_ms > now ? b->retry_ms - now : 0;
    long long own = bots_refill_ms(b->tokens, b->tokens_ms, r->rate, now);
    long long total = bots_refill_ms(r->total_tokens, r->total_ms, r->total_rate, now);
    if (own > wait)
        wait = own;
    return total > wait ? total : wait;
}

/* The pause before the next retry: BOTS_BACKOFF_MIN, doubling up to BOTS_BACKOFF_MAX. */
long long bots_backoff(bot *b)
{
    long long d = b->backoff < BOTS_BACKOFF_MIN ? BOTS_BACKOFF_MIN : b->backoff;
    b->backoff = d * 2 > BOTS_BACKOFF_MAX ? BOTS_BACKOFF_MAX : d * 2;
    return d;
}

/* b's answer in flight may or may not have gone in: the View after the next Resync tells. */
void bots_uncertain(bot *b, unsigned long long cmd)
{
    b->uncertain_cmd = cmd;
    b->uncertain_decision = b->answer_decision;
    dh_track_refused(&b->track);
}

/* The connection is gone (closed by the server, a failed send, or a --drop): forget what
 * was in flight on it and reconnect from the loop, at once or after a backoff. */
void bots_lost(bots_run *r, bot *b, const char *why, bool at_once)
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

/* Send m on b's connection (with the next cmd_id). Only answers spend pacing tokens
 * (bots_flush): a Resync or a join is rare and paced by its backoff, and one charged to a
 * slow bot's bucket during an outage would hold back its first answer after it. */
int bots_send(bots_run *r, bot *b, Deckhand__ClientMessage *m)
{
    if (!b->c)
        return -1;
    m->cmd_id = dh_client_next_cmd(b->c);
    if (dh_client_send(b->c, m) == 0)
        return 0;
    bots_lost(r, b, "send failed", false);
    return -1;
}

void bots_join(bots_run *r, bot *b)
{
    dh_client_msg msg;
    Deckhand__ClientMessage *m = dh_client_msg_queue_join(&msg, r->game, r->size);
    cli_options_apply(&r->options, m->queue_join);
    b->want_match = true;
    b->join_at = 0;
    if (bots_send(r, b, m) == 0)
        b->join_cmd = m->cmd_id;
}

void bots_resync(bots_run *r, bot *b)
{
    dh_client_msg msg;
    Deckhand__ClientMessage *m = dh_client_msg_resync(&msg, b->match_id);
    b->resync_at = 0;
    if (bots_send(r, b, m) == 0)
        b->resync_cmd = m->cmd_id;
}

/* b's answer waits for the run's bucket: into the line (once), which the loop serves as
 * the bucket refills, so the loop need not look at every waiting bot at each refill. */
static void bots_line_push(bots_run *r, bot *b)
{
    if (b->paced || !r->line || r->line_len >= r->n)
        return;
    r->line[(r->line_head + r->line_len++) % r->n] = (int)(b - r->bots);
    b->paced = true;
}

void bots_line_serve(bots_run *r, long long now)
{
    while (r->line_len > 0) {
        bots_refill(&r->total_tokens, &r->total_ms, r->total_rate, bots_total_burst(r), now);
        if (r->total_tokens < 1.0)
            return;
        bot *b = &r->bots[r->line[r->line_head]];
        r->line_head = (r->line_head + 1) % r->n;
        r->line_len--;
        b->paced = false;
        bots_flush(r, b, now); /* gone, answered or resent meanwhile: nothing to send */
    }
}

long long bots_line_wait_ms(const bots_run *r, long long now, long long limit)
{
    if (r->line_len == 0)
        return limit;
    long long w = bots_refill_ms(r->total_tokens, r->total_ms, r->total_rate, now);
    return w < limit ? w : limit;
}

/* Send b's waiting answer if its bucket allows; a --drop bot may drop right after. */
void bots_flush(bots_run *r, bot *b, long long now)
{
    if (!b->c || !b->has_answer || b->answer_cmd || now < b->retry_ms)
        return;
    if (!bots_may_send(r, b, now)) {
        if (r->total_rate > 0 && r->total_tokens < 1.0)
            bots_line_push(r, b);
        return;
    }
    dh_client_msg msg;
    Deckhand__ClientMessage *m =
        r->server_bot
            ? dh_client_msg_choose_bot(&msg, b->match_id, b->answer_decision, r->server_bot)
            : dh_client_msg_choose(&msg, b->match_id, b->answer_decision, b->answer_ids,
                                   b->answer_n);
    if (bots_send(r, b, m) < 0)
        return;
    b->tokens -= 1.0;
    bots_note(r, b, "sent", b->match_id, b->answer_decision);
    b->answer_cmd = m->cmd_id;
    b->answer_ns = dh_now_ns();
    b->answer_ms = now;
    b->answer_late = false;
    if (r->total_rate > 0)
        r->total_tokens -= 1.0;
    r->decisions++;
    if (++b->answers == b->drop_after) {
        fprintf(stderr, "bots: %s: dropping its connection with answer %llu in flight (--drop)\n",
                b->name, (unsigned long long)m->cmd_id);
        bots_lost(r, b, "dropped on purpose", true);
    }
}

void bots_request_reply(bots_run *r, bot *b, const char *what, const Deckhand__Reply *rep)
{
    if (rep->ok)
        return;
    Deckhand__ErrorCode code = rep->error ? rep->error->code : DECKHAND__ERROR_CODE__INTERNAL;
    if ((code == DECKHAND__ERROR_CODE__UNAVAILABLE || code == DECKHAND__ERROR_CODE__OVERLOADED) &&
        b->want_match && !b->match_id[0]) {
        char retrying[64];
        snprintf(retrying, sizeof retrying, "retrying the %s request", what);
        r->retried++;
        bots_print_refusal(b, rep, retrying);
        b->join_at = cli_now_ms() + bots_backoff(b);
        return;
    }
    r->errors++;
    fprintf(stderr, "bots: %s: %s request %llu refused: %s (code %d)\n", b->name, what,
            (unsigned long long)rep->cmd_id,
            rep->error && rep->error->message ? rep->error->message : "",
            rep->error ? (int)rep->error->code : -1);
}
