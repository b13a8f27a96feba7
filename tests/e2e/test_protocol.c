/*
 * test_protocol.c: the client protocol's promises, checked end to end on a real cluster
 * (redis-server, matchmaker, two workers, gateway) started by scripts/lib/cluster.sh on
 * 127.0.0.1, ports 23000-23011 (or 23100... when another run holds them).
 *
 * Every test talks to the gateway through dh_client like any player would (the player
 * rig, rig_player.c). Every ServerMessage any test receives also passes its privacy check, so the
 * promise "no client sees another's hand or deck order" is watched in every test, and pinned by a
 * dedicated one that plays whole matches with a tiny bot written here. Every wait is
 * bounded, so a hang fails a test instead of blocking the run.
 */
#include "dh_client_env.h"
#include "dh_test.h"
#include "rig_cluster.h"
#include "rig_player.h"

#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PORT_BASE 23000
#define MATCH_MS  180000

/* ---- the tests ------------------------------------------------------------------------- */

static void test_message_before_hello_is_unauthenticated(void)
{
    pl_player *p = pl_connect("nohello");
    CU_ASSERT_FATAL(p != NULL);
    CU_ASSERT_EQUAL(pl_wait_reply(p, pl_send_ping(p, 7)), DECKHAND__ERROR_CODE__UNAUTHENTICATED);
    CU_ASSERT_EQUAL(pl_wait_reply(p, pl_send_queue(p, "dominion", 2)),
                    DECKHAND__ERROR_CODE__UNAUTHENTICATED);
    CU_ASSERT_EQUAL(pl_wait_reply(p, pl_send_resync(p, "m-1")),
                    DECKHAND__ERROR_CODE__UNAUTHENTICATED);
    CU_ASSERT_NOT_EQUAL(p->last_pong, 7);
    pl_drop(p);
}

static void test_command_out_of_turn_gets_not_your_turn_and_changes_nothing(void)
{
    pl_player *a, *b;
    CU_ASSERT_FATAL(pl_start_match("turn", &a, &b));
    pl_player *ps[2] = {a, b};
    pl_player *d = pl_decider(ps, 2), *o = d == a ? b : a;
    uint64_t dec_id = d->dec.id, opt = d->dec.opt_id[0];
    CU_ASSERT_FATAL(d->dec.nopt > 0);

    uint64_t sig_o = pl_resync(o), sig_d = pl_resync(d);
    CU_ASSERT_FATAL(sig_o != 0 && sig_d != 0);

    uint32_t ids[1] = {(uint32_t)opt};
    CU_ASSERT_EQUAL(pl_wait_reply(o, pl_send_choose(o, o->match_id, dec_id, ids, 1, 0)),
                    DECKHAND__ERROR_CODE__NOT_YOUR_TURN);
    CU_ASSERT_EQUAL(pl_resync(o), sig_o);
    CU_ASSERT_EQUAL(pl_resync(d), sig_d);
    CU_ASSERT_TRUE(d->dec.valid && d->dec.id == dec_id);
    CU_ASSERT_FALSE(o->dec.valid && o->dec.id != o->answered);
    pl_end_match(a, b);
}

static void test_illegal_choice_is_rejected(void)
{
    pl_player *a, *b;
    CU_ASSERT_FATAL(pl_start_match("illegal", &a, &b));
    pl_player *ps[2] = {a, b};
    pl_player *d = pl_decider(ps, 2);
    const pl_decision *x = &d->dec;
    CU_ASSERT_FATAL(x->nopt > 0);
    uint64_t sig = pl_resync(d);

    /* an option id no option has */
    uint32_t top = 0;
    for (size_t i = 0; i < x->nopt; i++)
        top = x->opt_id[i] > top ? x->opt_id[i] : top;
    uint32_t bad[MAX_OPTS + 2] = {top + 100};
    CU_ASSERT_EQUAL(pl_wait_reply(d, pl_send_choose(d, d->match_id, x->id, bad, 1, 0)),
                    DECKHAND__ERROR_CODE__ILLEGAL_CHOICE);

    /* more ids than max (repeating ids when there are not enough options) */
    size_t many = x->max + 1 < MAX_OPTS ? x->max + 1 : MAX_OPTS;
    for (size_t i = 0; i < many; i++)
        bad[i] = x->opt_id[i % x->nopt];
    CU_ASSERT_EQUAL(pl_wait_reply(d, pl_send_choose(d, d->match_id, x->id, bad, many, 0)),
                    DECKHAND__ERROR_CODE__ILLEGAL_CHOICE);

    /* a decision id that is not the pending one */
    bad[0] = x->opt_id[0];
    CU_ASSERT_EQUAL(pl_wait_reply(d, pl_send_choose(d, d->match_id, x->id + 1000, bad, 1, 0)),
                    DECKHAND__ERROR_CODE__ILLEGAL_CHOICE);
    CU_ASSERT_EQUAL(pl_resync(d), sig);

    /* the decider's next valid answer still works */
    uint64_t first = d->dec.id;
    CU_ASSERT_FATAL(d->dec.valid);
    CU_ASSERT_EQUAL(pl_bot_answer(d), 0);

    /* then the answered (now stale) decision id is rejected too, and play goes on */
    pl_player *n = pl_wait_decider(ps, 2);
    CU_ASSERT_FATAL(n != NULL);
    CU_ASSERT_NOT_EQUAL(n->dec.id, first);
    bad[0] = n->dec.opt_id[0];
    CU_ASSERT_EQUAL(pl_wait_reply(n, pl_send_choose(n, n->match_id, first, bad, 1, 0)),
                    DECKHAND__ERROR_CODE__ILLEGAL_CHOICE);
    CU_ASSERT_EQUAL(pl_bot_answer(n), 0);
    pl_end_match(a, b);
}

/* Read until the connection closes (bounded): true when a BAD_FRAME Reply came first. */
static bool closed_with_bad_frame(pl_player *p)
{
    bool bad_frame = false;
    long long deadline = pl_now_ms() + WAIT_MS;
    while (!p->closed && pl_now_ms() < deadline) {
        size_t before = p->nreplies;
        pl_step(p, 200);
        if (p->nreplies > before) {
            const pl_reply *r = &p->replies[(p->nreplies - 1) % 64];
            bad_frame |= !r->ok && r->code == DECKHAND__ERROR_CODE__BAD_FRAME;
        }
    }
    if (!p->closed)
        fprintf(stderr, "\n%s: the connection stayed open\n", p->name);
    return bad_frame && p->closed;
}

static bool still_works(pl_player *p, uint64_t nonce)
{
    pl_send_ping(p, nonce);
    long long deadline = pl_now_ms() + WAIT_MS;
    while (p->last_pong != nonce && pl_now_ms() < deadline)
        if (pl_step(p, 200) < 0)
            return false;
    return p->last_pong == nonce;
}

static void test_malformed_frame_closes_only_that_connection(void)
{
    pl_player *keep = pl_login("keeper");
    CU_ASSERT_FATAL(keep != NULL);
    CU_ASSERT_TRUE(still_works(keep, 1));

    /* a length prefix far over --max-frame */
    pl_player *big = pl_login("oversize");
    CU_ASSERT_FATAL(big != NULL);
    static const unsigned char huge[4] = {0x7f, 0xff, 0xff, 0xf0};
    CU_ASSERT_EQUAL(dh_client_send_bytes(big->c, huge, sizeof huge), 0);
    CU_ASSERT_TRUE(closed_with_bad_frame(big));
    CU_ASSERT_TRUE(still_works(keep, 2));

    /* a well-framed payload that is not a ClientMessage (field 1 with wire type 7) */
    pl_player *junk = pl_login("garbage");
    CU_ASSERT_FATAL(junk != NULL);
    static const unsigned char garbage[] = {0x0f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                            0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
    CU_ASSERT_EQUAL(dh_client_send_raw(junk->c, garbage, sizeof garbage), 0);
    CU_ASSERT_TRUE(closed_with_bad_frame(junk));
    CU_ASSERT_TRUE(still_works(keep, 3));

    /* on WebSocket: a binary message over the limit */
    pl_player *wsbig = pl_login_to(pl_gateway_ws, "ws-oversize");
    CU_ASSERT_FATAL(wsbig != NULL);
    size_t biglen = 70000;
    unsigned char *blob = calloc(1, biglen);
    CU_ASSERT_FATAL(blob != NULL);
    CU_ASSERT_EQUAL(dh_client_send_raw(wsbig->c, blob, biglen), 0);
    free(blob);
    CU_ASSERT_TRUE(closed_with_bad_frame(wsbig));
    CU_ASSERT_TRUE(still_works(keep, 4));
    pl_drop(wsbig);

    /* and a fresh connection is still welcome */
    pl_player *fresh = pl_login("fresh");
    CU_ASSERT_TRUE(fresh != NULL && still_works(fresh, 5));
    pl_drop(fresh);
    pl_drop(junk);
    pl_drop(big);
    pl_drop(keep);
}

static void test_unknown_match_is_rejected(void)
{
    pl_player *p = pl_login("nomatch");
    CU_ASSERT_FATAL(p != NULL);
    uint32_t ids[1] = {0};
    CU_ASSERT_EQUAL(pl_wait_reply(p, pl_send_choose(p, "no-such-match", 1, ids, 1, 0)),
                    DECKHAND__ERROR_CODE__UNKNOWN_MATCH);
    CU_ASSERT_EQUAL(pl_wait_reply(p, pl_send_resync(p, "no-such-match")),
                    DECKHAND__ERROR_CODE__UNKNOWN_MATCH);

    /* a real match this player is not seated in */
    pl_player *a, *b;
    CU_ASSERT_FATAL(pl_start_match("seated", &a, &b));
    pl_player *ps[2] = {a, b};
    pl_player *d = pl_decider(ps, 2);
    ids[0] = d->dec.opt_id[0];
    CU_ASSERT_EQUAL(pl_wait_reply(p, pl_send_choose(p, a->match_id, d->dec.id, ids, 1, 0)),
                    DECKHAND__ERROR_CODE__UNKNOWN_MATCH);
    CU_ASSERT_EQUAL(pl_wait_reply(p, pl_send_resync(p, a->match_id)),
                    DECKHAND__ERROR_CODE__UNKNOWN_MATCH);
    CU_ASSERT_EQUAL(p->nviews, 0);
    CU_ASSERT_TRUE(d->dec.valid);
    pl_end_match(a, b);
    pl_drop(p);
}

static void test_retried_cmd_id_is_not_applied_twice(void)
{
    pl_player *a, *b;
    CU_ASSERT_FATAL(pl_start_match("retry", &a, &b));
    pl_player *ps[2] = {a, b};
    pl_player *d = pl_decider(ps, 2);
    uint32_t ids[MAX_OPTS];
    size_t n = pl_bot_choose(d, ids);
    uint64_t dec_id = d->dec.id;
    d->answered = dec_id;
    d->dec.valid = false;
    uint64_t cmd = pl_send_choose(d, d->match_id, dec_id, ids, n, 0);
    CU_ASSERT_EQUAL_FATAL(pl_wait_reply(d, cmd), 0);

    /* settle: the next decision is out, then fingerprint both views */
    CU_ASSERT_FATAL(pl_wait_decider(ps, 2) != NULL);
    uint64_t sig_a = pl_resync(a), sig_b = pl_resync(b);
    CU_ASSERT_FATAL(sig_a != 0 && sig_b != 0);

    /* the very same message again: answered again (ok), not applied again */
    size_t before = d->nreplies;
    pl_send_choose(d, d->match_id, dec_id, ids, n, cmd);
    long long deadline = pl_now_ms() + WAIT_MS;
    while (d->nreplies == before && pl_now_ms() < deadline)
        pl_step(d, 200);
    CU_ASSERT_FATAL(d->nreplies > before);
    const pl_reply *r = &d->replies[(d->nreplies - 1) % 64];
    CU_ASSERT_EQUAL(r->cmd_id, cmd);
    CU_ASSERT_TRUE(r->ok);
    CU_ASSERT_EQUAL(pl_resync(a), sig_a);
    CU_ASSERT_EQUAL(pl_resync(b), sig_b);
    pl_end_match(a, b);
}

/* Deltas applied to a View build exactly the table a full View shows. */
static void test_deltas_rebuild_the_full_view(void)
{
    pl_player *a, *b;
    CU_ASSERT_FATAL(pl_start_match("delta", &a, &b));
    pl_player *ps[2] = {a, b};
    for (int i = 0; i < 12; i++) {
        pl_player *d = pl_wait_decider(ps, 2);
        CU_ASSERT_FATAL(d != NULL);
        CU_ASSERT_EQUAL_FATAL(pl_bot_answer(d), 0);
    }
    CU_ASSERT_FATAL(pl_wait_decider(ps, 2) != NULL);
    CU_ASSERT_TRUE(a->ndeltas > 0 && b->ndeltas > 0);
    uint64_t sig_a = pl_resync(a), sig_b = pl_resync(b);
    CU_ASSERT_FATAL(sig_a != 0 && sig_b != 0);
    CU_ASSERT_EQUAL(a->held_sig, sig_a); /* what the deltas built, just before the View */
    CU_ASSERT_EQUAL(b->held_sig, sig_b);
    pl_end_match(a, b);
}

static void test_no_client_sees_another_hand_or_deck_order(void)
{
    unsigned violations = pl_watch.violations;
    pl_player *a, *b, *c, *d;
    CU_ASSERT_FATAL(pl_start_match("priv1", &a, &b));
    CU_ASSERT_FATAL(pl_start_match("priv2", &c, &d));
    pl_player *ps[4] = {a, b, c, d};
    long long deadline = pl_now_ms() + MATCH_MS;
    unsigned answers = 0, errors = 0;
    bool done = false;
    while (!done && pl_now_ms() < deadline) {
        pl_pump(ps, 4, 100);
        pl_player *x;
        while ((x = pl_decider(ps, 4))) {
            int rc = pl_bot_answer(x);
            if (rc != 0) {
                fprintf(stderr, "\n%s: Choose answered %d\n", x->name, rc);
                errors++;
            }
            answers++;
        }
        done = true;
        for (int i = 0; i < 4; i++) {
            done &= ps[i]->game_over;
            if (ps[i]->closed && !ps[i]->game_over) {
                fprintf(stderr, "\n%s: connection closed mid-match\n", ps[i]->name);
                deadline = 0;
            }
        }
    }
    for (int i = 0; i < 4; i++) {
        CU_ASSERT_TRUE(ps[i]->game_over);
        CU_ASSERT_TRUE(ps[i]->nviews > 0 && ps[i]->nevents > 0);
    }
    fprintf(stderr, "\n  2 matches: %u answers, %u views, %u decisions, %u errors\n", answers,
            a->nviews + b->nviews + c->nviews + d->nviews,
            a->ndecisions + b->ndecisions + c->ndecisions + d->ndecisions, errors);
    fprintf(stderr, "  checked: %u deck zones, %u other hands, %u private events, %u deltas\n",
            pl_watch.decks_seen, pl_watch.other_hands_seen, pl_watch.private_events_seen,
            pl_watch.deltas_seen);
    uint64_t bytes = 0, full = 0;
    for (int i = 0; i < 4; i++)
        bytes += ps[i]->bytes_in, full += ps[i]->bytes_full;
    fprintf(stderr,
            "  bytes received per answer: %llu with deltas, %llu with a full View each time\n",
            (unsigned long long)(bytes / (answers ? answers : 1)),
            (unsigned long long)(full / (answers ? answers : 1)));
    CU_ASSERT_TRUE(bytes < full);
    CU_ASSERT_EQUAL(errors, 0);
    CU_ASSERT_EQUAL(pl_watch.violations, violations);
    CU_ASSERT_TRUE(pl_watch.decks_seen > 0 && pl_watch.other_hands_seen > 0 &&
                   pl_watch.private_events_seen > 0);
    /* deltas were checked too, with other seats' hands changing in them */
    CU_ASSERT_TRUE(pl_watch.deltas_seen > 0 && pl_watch.delta_other_hands_seen > 0);
    pl_end_match(a, b);
    pl_end_match(c, d);
}

static void test_no_privacy_violation_in_any_test(void)
{
    CU_ASSERT_EQUAL(pl_watch.violations, 0);
}

/* ---- the cluster around the tests ------------------------------------------------------ */

int main(void)
{
    static const dh_test_case cases[] = {
        {"test_message_before_hello_is_unauthenticated",
         test_message_before_hello_is_unauthenticated},
        {"test_command_out_of_turn_gets_not_your_turn_and_changes_nothing",
         test_command_out_of_turn_gets_not_your_turn_and_changes_nothing},
        {"test_illegal_choice_is_rejected", test_illegal_choice_is_rejected},
        {"test_malformed_frame_closes_only_that_connection",
         test_malformed_frame_closes_only_that_connection},
        {"test_unknown_match_is_rejected", test_unknown_match_is_rejected},
        {"test_retried_cmd_id_is_not_applied_twice", test_retried_cmd_id_is_not_applied_twice},
        {"test_deltas_rebuild_the_full_view", test_deltas_rebuild_the_full_view},
        {"test_no_client_sees_another_hand_or_deck_order",
         test_no_client_sees_another_hand_or_deck_order},
        {"test_no_privacy_violation_in_any_test", test_no_privacy_violation_in_any_test},
        {NULL, NULL},
    };
    signal(SIGPIPE, SIG_IGN);
    if (rc_start("protocol", PORT_BASE) != 0)
        return 1;
    return rc_finish(dh_test_main("e2e_protocol", cases));
}
