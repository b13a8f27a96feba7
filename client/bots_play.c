/*
 * bots_play.c: what each message from the cluster does to a bot of `deckhand bots`:
 * matches found, finished and left, decisions answered, Views and Events tracked, and
 * every Reply (refusals retried or counted as errors).
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
#include "dh_client_track.h"
#include "bots.h"

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

bool bots_is_done(const bots_run *r, const char *match_id)
{
    for (long i = 0; i < r->ndone; i++)
        if (!strcmp(r->done[i], match_id))
            return true;
    return false;
}

void bots_check_late(bots_run *r, bot *b, long long now)
{
    if (!b->has_answer || !b->answer_cmd || b->answer_late || now - b->answer_ms < BOTS_REPLY_LATE)
        return;
    b->answer_late = true;
    r->unanswered++;
    fprintf(stderr, "bots: %s: answer %llu in match %s has had no Reply for %d s (unanswered)\n",
            b->name, b->answer_cmd, b->match_id, BOTS_REPLY_LATE / 1000);
    bots_note(r, b, "unanswered", b->match_id, b->answer_decision);
}

long bots_unfinished(const bots_run *r)
{
    long n = 0;
    for (int i = 0; i < r->n; i++) {
        const char *id = r->bots[i].match_id;
        bool seen = !id[0] || bots_is_done(r, id);
        for (int j = 0; j < i && !seen; j++)
            seen = !strcmp(r->bots[j].match_id, id);
        if (!seen) {
            n++;
            fprintf(stderr, "bots: match %s unfinished\n", id);
        }
    }
    return n;
}

/* b leaves its match (over, or given up): queue again while matches are missing. */
void bots_leave_match(bots_run *r, bot *b)
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
    if (r->ndone < r->target && !r->once)
        bots_queue(r, b);
}

static void bots_game_over(bots_run *r, bot *b, const Deckhand__GameOver *g)
{
    if (strcmp(g->match_id, b->match_id) != 0)
        return;
    bots_note(r, b, "over", g->match_id, 0);
    if (g->reason && g->reason[0] && !r->quiet) /* not the rules: a turn cap, an operator */
        fprintf(stderr, "bots: match %s over for a bot: %s\n", g->match_id, g->reason);
    if (bots_finished(r, g->match_id) && !r->quiet) {
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
    /* with a server bot, the answer is the strategy's name (bots_flush), no ids */
    b->answer_n = r->server_bot ? 0 : dh_client_bot_choose(d, b->answer_ids, BOTS_MAX_PICK);
    b->answer_decision = d->decision_id;
    bots_note(r, b, "decision", b->match_id, d->decision_id);
    dh_track_sent(&b->track, d->decision_id);
    b->has_answer = true;
    b->answer_cmd = 0;
    bots_flush(r, b, cli_now_ms());
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
    if (!b->attached) {
        b->attached = true;
        bots_note(r, b, "attached", match_id, 0);
    }
    long long now = cli_now_ms();
    if (b->track.uncertain && !b->resync_cmd && b->resync_at > now)
        b->resync_at = now; /* the match speaks again (moved, re-attached): ask it now */
    if (is_view && !b->track.uncertain) {
        /* A full state: what a pending resync would bring. Not while an answer's fate is
         * unknown: a View that came without the resync (the gateway re-attaching the
         * player after a move) repeats the decision that answer was for, and only the
         * resync's Reply says it may be answered again; cancelling the resync here left
         * the bot waiting for good (issue 12, case 1). */
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

void bots_print_refusal(const bot *b, const Deckhand__Reply *rep, const char *what)
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

/* An answer or a Resync of b's match was refused (rep, with code). Unless by an outage,
 * that is an error. After an outage: resync after a backoff, unless the match is over (its
 * GameOver was missed) or unreachable for too long. */
static void bots_refused(bots_run *r, bot *b, const Deckhand__Reply *rep, Deckhand__ErrorCode code,
                         long long now)
{
    if (!bots_transient(code)) {
        bots_fail(r, b, rep);
        return;
    }
    bots_print_refusal(b, rep, "retrying");
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
    if (bots_party_reply(r, b, rep) || bots_lobby_reply(r, b, rep))
        return;
    long long now = cli_now_ms();
    Deckhand__ErrorCode code = rep->ok      ? DECKHAND__ERROR_CODE__OK
                               : rep->error ? rep->error->code
                                            : DECKHAND__ERROR_CODE__INTERNAL;
    if (b->has_answer && b->answer_cmd && rep->cmd_id == b->answer_cmd) {
        if (r->answered) {
            uint64_t at = dh_now_ns(), rx = b->c ? dh_client_rx_ns(b->c) : 0;
            if (!r->rx_stamps || rx < b->answer_ns || rx > at)
                rx = at; /* not stamped, or a read from before the answer went */
            r->answered(r->ctx, (at - b->answer_ns) / 1000, (rx - b->answer_ns) / 1000, rep->ok);
        }
        b->has_answer = false;
        b->answer_cmd = 0;
        if (rep->ok) {
            dh_track_accepted(&b->track, b->answer_decision);
            b->refused_since = 0;
            r->answers_ok++;
            bots_note(r, b, "ok", b->match_id, b->answer_decision);
        } else if (code == DECKHAND__ERROR_CODE__RATE_LIMITED) {
            bots_fail(r, b, rep);
            b->has_answer = true; /* not processed: send it again a little later */
            b->retry_ms = now + BOTS_RETRY_MS;
        } else {
            if (bots_transient(code)) {
                bots_uncertain(b, rep->cmd_id); /* its fate is unknown */
                bots_refund(r, b);
            } else {
                r->answers_refused++;
            }
            bots_refused(r, b, rep, code, now);
        }
        return;
    }
    if (b->resync_cmd && rep->cmd_id == b->resync_cmd) {
        b->resync_cmd = 0;
        if (rep->ok && b->track.uncertain && rep->cmd_id < b->uncertain_cmd)
            b->resync_at = now; /* sent before the uncertain answer: it cannot tell */
        else if (rep->ok)
            dh_track_resynced(&b->track);
        if (!rep->ok)
            bots_refused(r, b, rep, code, now);
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
        if (rep->ok) {
            dh_track_accepted(&b->track, b->uncertain_decision);
            r->answers_ok++;
            bots_note(r, b, "ok", b->match_id, b->uncertain_decision);
        }
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
        b->attached = false;
        bots_note(r, b, "found", b->match_id, 0);
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
    case DECKHAND__SERVER_MESSAGE__BODY_VIEW_DELTA:
        /* a bot keeps no table, only the decision: a delta is a state like a request */
        bots_state(r, b, false, s->view_delta->match_id, s->view_delta->event_seq,
                   s->view_delta->decision);
        break;
    case DECKHAND__SERVER_MESSAGE__BODY_GAME_OVER:
        bots_game_over(r, b, s->game_over);
        break;
    case DECKHAND__SERVER_MESSAGE__BODY_PARTY:
        bots_party_state(r, b, s->party);
        break;
    case DECKHAND__SERVER_MESSAGE__BODY_LOBBY:
        bots_lobby_state(r, b, s->lobby);
        break;
    case DECKHAND__SERVER_MESSAGE__BODY_RECONNECT:
        /* The gateway drains, or lost its link to the match's worker: leave it now for the
         * next one in --gateway's list (a test client has no load to spread, so it does not
         * wait within after_ms). */
        r->told_reconnect++;
        bots_lost(r, b,
                  s->reconnect->reason && *s->reconnect->reason ? s->reconnect->reason
                                                                : "told to reconnect",
                  true);
        break;
    default:
        break;
    }
}

/* Handle every message this bot has, after one read of its socket when the loop saw it
 * readable (a second read to find it empty would cost a syscall per wake-up: what it left
 * unread, the loop's level-triggered epoll reports again). */
void bots_drain(bots_run *r, bot *b, bool readable)
{
    Deckhand__ServerMessage *s;
    int rc;
    if (readable)
        dh_client_read(b->c);
    while (b->c && !r->broken && r->ndone < r->target && (rc = dh_client_next(b->c, &s)) != 0) {
        if (rc < 0) {
            bots_lost(r, b, "closed by the server", false);
            return;
        }
        r->last_progress = cli_now_ms();
        bots_handle(r, b, s);
        dh_arena_release(&r->arena, s);
    }
    /* Only this connection reads into the arena now, and it handed out all it read (but
     * when the loop is ending: those are kept) */
    if (b->c && dh_client_pending(b->c))
        r->arena_kept = true;
    else if (!r->arena_kept)
        dh_arena_reset(&r->arena);
}
