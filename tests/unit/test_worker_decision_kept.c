/*
 * test_worker_decision_kept.c: after an answer the decider gets its DecisionRequest twice,
 * inside its View or ViewDelta and on its own; the worker packs it once and sends the
 * kept bytes again, with can_undo added (worker/out/out_view.c out_state,
 * out_seat.c out_decision_kept). The one sent on its own must be exactly the one
 * out_decision builds from the engine's pending decision: compared after every answer of
 * an unrated Dominion match (whose seats can take answers back, so can_undo is set at
 * times), packed by protobuf-c both.
 */
#include <stdlib.h>
#include <string.h>

#include "out.h"
#include "rig_worker.h"

#define MATCH   "m-kept"
#define ANSWERS 80

/* The last DecisionRequest o holds for player, packed; NULL when none (caller frees). */
static uint8_t *packed_decision(const rig_outbox *o, const char *player, size_t *n, bool *can_undo)
{
    const Deckhand__ServerMessage *sm = NULL;
    for (size_t i = 0; i < o->n; i++)
        if (!strcmp(o->player[i], player) &&
            o->msg[i]->body_case == DECKHAND__SERVER_MESSAGE__BODY_DECISION)
            sm = o->msg[i];
    if (!sm)
        return NULL;
    *n = deckhand__server_message__get_packed_size(sm);
    uint8_t *buf = malloc(*n ? *n : 1);
    CU_ASSERT_FATAL(buf != NULL);
    deckhand__server_message__pack(sm, buf);
    *can_undo = sm->decision->can_undo;
    return buf;
}

static void test_worker_decision_sent_alone_is_the_one_out_decision_builds(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    host_match *hm = rig_worker_started(&r, MATCH, "dominion", NULL);
    int compared = 0, undoable = 0;
    uint64_t cmd = 1;
    for (int i = 0; i < ANSWERS && engine_match_decision(hm->m); i++) {
        CU_ASSERT_FATAL(rig_worker_answer(&r, hm, cmd++));
        host_flush(&r.h, r.now);
        rig_outbox sent;
        rig_worker_gw_drain(&r, &sent);
        const engine_decision *d = engine_match_decision(hm->m);
        if (!d || d->seat < 0) {
            rig_outbox_free(&sent);
            continue;
        }
        const char *player = rig_worker_players[d->seat];
        size_t na = 0, nb = 0;
        bool undo_a = false, undo_b = false;
        uint8_t *a = packed_decision(&sent, player, &na, &undo_a);
        CU_ASSERT_FATAL(a != NULL);
        CU_ASSERT_TRUE(r.h.kept_decision.len > 0); /* sent from the kept bytes */
        out_decision(&r.h, hm, d->seat);
        rig_outbox built;
        rig_worker_gw_drain(&r, &built);
        uint8_t *b = packed_decision(&built, player, &nb, &undo_b);
        CU_ASSERT_FATAL(b != NULL);
        CU_ASSERT_TRUE(na == nb && !memcmp(a, b, na));
        CU_ASSERT_EQUAL(undo_a, undo_b);
        compared++;
        undoable += undo_a;
        free(a);
        free(b);
        rig_outbox_free(&sent);
        rig_outbox_free(&built);
    }
    CU_ASSERT_TRUE(compared >= 40);
    CU_ASSERT_TRUE(undoable > 0); /* the appended can_undo was among them */
    rig_worker_close(&r);
}

static const dh_test_case cases[] = {
    {"test_worker_decision_sent_alone_is_the_one_out_decision_builds",
     test_worker_decision_sent_alone_is_the_one_out_decision_builds},
    {NULL, NULL},
};

int main(void)
{
    return rig_worker_main("worker_decision_kept", cases);
}
