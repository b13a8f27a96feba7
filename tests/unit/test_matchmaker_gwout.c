/*
 * test_matchmaker_gwout.c: the QueueReply and MatchAssigned the matchmaker sends its
 * gateways, packed by hand (matchmaker/store/gwout_pack.c), are protobuf-c's bytes exactly,
 * with every field set, unset (proto3 leaves it out) or long (a length of two bytes); and
 * the kinds it does not pack are left to protobuf-c.
 */
#include "gwout_pack.h"

#include <stdlib.h>
#include <string.h>

#include "dh_test.h"

/* msg packed by hand: the bytes protobuf-c packs, and they unpack. */
static void same_as_protobuf(const Deckhand__Internal__Internal *msg)
{
    uint8_t *mine = NULL;
    size_t n = 0;
    CU_ASSERT_EQUAL_FATAL(gwout_pack(msg, &mine, &n), 1);
    size_t want = deckhand__internal__internal__get_packed_size(msg);
    uint8_t *theirs = malloc(want ? want : 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(theirs);
    deckhand__internal__internal__pack(msg, theirs);
    CU_ASSERT_EQUAL(n, want);
    CU_ASSERT(n == want && memcmp(mine, theirs, n) == 0);
    Deckhand__Internal__Internal *back = deckhand__internal__internal__unpack(NULL, n, mine);
    CU_ASSERT_PTR_NOT_NULL(back);
    if (back) {
        CU_ASSERT_EQUAL(back->body_case, msg->body_case);
        deckhand__internal__internal__free_unpacked(back, NULL);
    }
    free(mine);
    free(theirs);
}

static void test_gwout_packs_a_queue_reply_as_protobuf_does(void)
{
    static const char *ids[] = {"p-1", "", NULL};
    static const uint64_t cmds[] = {0, 1, 127, 128, 300, UINT64_MAX};
    for (size_t i = 0; i < sizeof ids / sizeof *ids; i++)
        for (size_t c = 0; c < sizeof cmds / sizeof *cmds; c++)
            for (int ok = 0; ok < 3; ok++) {
                Deckhand__Internal__QueueReply r = DECKHAND__INTERNAL__QUEUE_REPLY__INIT;
                r.player_id = (char *)(ids[i] ? ids[i] : protobuf_c_empty_string);
                r.cmd_id = cmds[c];
                r.ok = ok; /* 2: any true value packs as 1 */
                Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
                m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_REPLY;
                m.queue_reply = &r;
                same_as_protobuf(&m);
            }
}

static void test_gwout_packs_a_match_assigned_as_protobuf_does(void)
{
    char long_name[300];
    memset(long_name, 'n', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    char *players[] = {"ann", "", long_name, "bob"};
    static const uint32_t seats[] = {0, 1, 200, UINT32_MAX};
    for (size_t np = 0; np <= 4; np++)
        for (size_t s = 0; s < sizeof seats / sizeof *seats; s++)
            for (int empty = 0; empty < 2; empty++) {
                Deckhand__Internal__MatchAssigned a = DECKHAND__INTERNAL__MATCH_ASSIGNED__INIT;
                a.player_id = empty ? (char *)"" : "p-7";
                a.match_id = "m-0123456789abcdef";
                a.seat = seats[s];
                a.game = empty ? (char *)"" : "dominion";
                a.n_players = np;
                a.players = np ? players : NULL;
                a.worker_id = empty ? long_name : "wk-1";
                a.worker_endpoint = empty ? (char *)"" : "tcp://127.0.0.1:7100";
                Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
                m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ASSIGNED;
                m.match_assigned = &a;
                same_as_protobuf(&m);
            }
}

static void test_gwout_leaves_other_kinds_to_protobuf(void)
{
    uint8_t *out = NULL;
    size_t n = 0;
    Deckhand__Error e = DECKHAND__ERROR__INIT;
    e.message = "queue full";
    Deckhand__Internal__QueueReply r = DECKHAND__INTERNAL__QUEUE_REPLY__INIT;
    r.error = &e;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_REPLY;
    m.queue_reply = &r;
    CU_ASSERT_EQUAL(gwout_pack(&m, &out, &n), 0); /* a reply with an error */
    Deckhand__Internal__MatchMoved mv = DECKHAND__INTERNAL__MATCH_MOVED__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_MOVED;
    m.match_moved = &mv;
    CU_ASSERT_EQUAL(gwout_pack(&m, &out, &n), 0);
    CU_ASSERT_PTR_NULL(out);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"gwout_packs_a_queue_reply_as_protobuf_does",
         test_gwout_packs_a_queue_reply_as_protobuf_does},
        {"gwout_packs_a_match_assigned_as_protobuf_does",
         test_gwout_packs_a_match_assigned_as_protobuf_does},
        {"gwout_leaves_other_kinds_to_protobuf", test_gwout_leaves_other_kinds_to_protobuf},
        {NULL, NULL},
    };
    return dh_test_main("matchmaker_gwout", cases);
}
