/*
 * test_client_msg.c: client/lib/dh_client_msg.c and dh_client_social.c, the builders of
 * every ClientMessage the C side sends. Each message must pack and unpack with its body
 * set under the right oneof case and its fields as given: dh_client_msg_wrap finds the
 * body's place from the protocol's descriptor, so a wrong case would show here. A Choose
 * packed by hand (dh_client_msg_pack_choose, what dh_client_send uses for answers over TCP)
 * must be protobuf-c's bytes exactly.
 */
#include "dh_client_msg.h"
#include "dh_client_social.h"

#include <string.h>

#include "dh_test.h"

/* m packed and unpacked (the caller frees it with deckhand__client_message__free_unpacked). */
static Deckhand__ClientMessage *round_trip(const Deckhand__ClientMessage *m)
{
    uint8_t buf[512];
    size_t n = deckhand__client_message__get_packed_size(m);
    CU_ASSERT_FATAL(n <= sizeof buf);
    deckhand__client_message__pack(m, buf);
    Deckhand__ClientMessage *back = deckhand__client_message__unpack(NULL, n, buf);
    CU_ASSERT_FATAL(back != NULL);
    return back;
}

static void test_game_messages_carry_their_body_and_fields(void)
{
    dh_client_msg msg;
    Deckhand__ClientMessage *b = round_trip(dh_client_msg_hello(&msg, "ann", "tok"));
    CU_ASSERT_EQUAL(b->body_case, DECKHAND__CLIENT_MESSAGE__BODY_HELLO);
    CU_ASSERT_STRING_EQUAL(b->hello->name, "ann");
    CU_ASSERT_STRING_EQUAL(b->hello->token, "tok");
    deckhand__client_message__free_unpacked(b, NULL);

    b = round_trip(dh_client_msg_queue_join(&msg, "dominion", 3));
    CU_ASSERT_EQUAL(b->body_case, DECKHAND__CLIENT_MESSAGE__BODY_QUEUE_JOIN);
    CU_ASSERT_STRING_EQUAL(b->queue_join->game, "dominion");
    CU_ASSERT_EQUAL(b->queue_join->players, 3);
    deckhand__client_message__free_unpacked(b, NULL);

    b = round_trip(dh_client_msg_resync(&msg, "m-1"));
    CU_ASSERT_EQUAL(b->body_case, DECKHAND__CLIENT_MESSAGE__BODY_RESYNC);
    CU_ASSERT_STRING_EQUAL(b->resync->match_id, "m-1");
    deckhand__client_message__free_unpacked(b, NULL);

    uint32_t ids[] = {4, 7};
    b = round_trip(dh_client_msg_choose(&msg, "m-1", 9, ids, 2));
    CU_ASSERT_EQUAL(b->body_case, DECKHAND__CLIENT_MESSAGE__BODY_CHOOSE);
    CU_ASSERT_EQUAL(b->choose->decision_id, 9);
    CU_ASSERT_EQUAL(b->choose->n_option_ids, 2);
    CU_ASSERT_EQUAL(b->choose->option_ids[1], 7);
    deckhand__client_message__free_unpacked(b, NULL);
}

static void test_social_messages_carry_their_body_and_fields(void)
{
    dh_client_social s;
    Deckhand__ClientMessage *b = round_trip(dh_client_social_party_create(&s));
    CU_ASSERT_EQUAL(b->body_case, DECKHAND__CLIENT_MESSAGE__BODY_PARTY_CREATE);
    CU_ASSERT_PTR_NOT_NULL(b->party_create);
    deckhand__client_message__free_unpacked(b, NULL);

    b = round_trip(dh_client_social_lobby_join(&s, "ABCD"));
    CU_ASSERT_EQUAL(b->body_case, DECKHAND__CLIENT_MESSAGE__BODY_LOBBY_JOIN);
    CU_ASSERT_STRING_EQUAL(b->lobby_join->code, "ABCD");
    deckhand__client_message__free_unpacked(b, NULL);

    b = round_trip(dh_client_social_lobby_ready(&s, true));
    CU_ASSERT_EQUAL(b->body_case, DECKHAND__CLIENT_MESSAGE__BODY_LOBBY_READY);
    CU_ASSERT_TRUE(b->lobby_ready->ready);
    deckhand__client_message__free_unpacked(b, NULL);

    b = round_trip(dh_client_social_lobby_start(&s));
    CU_ASSERT_EQUAL(b->body_case, DECKHAND__CLIENT_MESSAGE__BODY_LOBBY_START);
    deckhand__client_message__free_unpacked(b, NULL);

    b = round_trip(dh_client_social_lobby_list(&s, "mlw"));
    CU_ASSERT_EQUAL(b->body_case, DECKHAND__CLIENT_MESSAGE__BODY_LOBBY_LIST_REQUEST);
    CU_ASSERT_STRING_EQUAL(b->lobby_list_request->game, "mlw");
    deckhand__client_message__free_unpacked(b, NULL);
}

/* m packed by hand: protobuf-c's bytes, and 0 when cap is one byte short. */
static void check_choose_bytes(const Deckhand__ClientMessage *m)
{
    uint8_t want[512], got[512];
    size_t n = deckhand__client_message__get_packed_size(m);
    CU_ASSERT_FATAL(n <= sizeof want);
    deckhand__client_message__pack(m, want);
    CU_ASSERT_EQUAL_FATAL(dh_client_msg_pack_choose(m, got, sizeof got), n);
    CU_ASSERT_EQUAL(memcmp(got, want, n), 0);
    CU_ASSERT_EQUAL(dh_client_msg_pack_choose(m, got, n - 1), 0);
}

static void test_choose_packed_by_hand_is_protobuf_c_s_bytes(void)
{
    dh_client_msg msg;
    uint32_t ids[] = {1, 127, 128, 300, 1u << 21, UINT32_MAX};
    char long_id[200];
    memset(long_id, 'm', sizeof long_id - 1);
    long_id[sizeof long_id - 1] = '\0'; /* a length of two varint bytes */
    Deckhand__ClientMessage *m = dh_client_msg_choose(&msg, "m-1", 42, ids, 1);
    m->cmd_id = 7;
    check_choose_bytes(m);
    m = dh_client_msg_choose(&msg, long_id, 1ull << 40, ids, sizeof ids / sizeof *ids);
    m->cmd_id = 1ull << 35;
    check_choose_bytes(m);
    /* the defaults left out: no cmd_id, no match, decision 0, no ids */
    check_choose_bytes(dh_client_msg_choose(&msg, "", 0, NULL, 0));
    check_choose_bytes(dh_client_msg_choose(&msg, NULL, 0, ids, 2));
    m = dh_client_msg_choose_bot(&msg, "m-2", 9, "default");
    m->cmd_id = 300;
    check_choose_bytes(m);
    /* not a Choose: left to protobuf-c */
    uint8_t buf[64];
    CU_ASSERT_EQUAL(dh_client_msg_pack_choose(dh_client_msg_resync(&msg, "m-1"), buf, sizeof buf),
                    0);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"game_messages_carry_their_body_and_fields",
         test_game_messages_carry_their_body_and_fields},
        {"social_messages_carry_their_body_and_fields",
         test_social_messages_carry_their_body_and_fields},
        {"choose_packed_by_hand_is_protobuf_c_s_bytes",
         test_choose_packed_by_hand_is_protobuf_c_s_bytes},
        {NULL, NULL},
    };
    return dh_test_main("client_msg", cases);
}
