/*
 * test_pb.c: common/dh_pb.h, a oneof set in one step. The case and the member agree, the
 * message packs and unpacks to the same body, and a second call replaces the first.
 */
#include "dh_pb.h"

#include <stdlib.h>
#include <string.h>

#include "deckhand.pb-c.h"
#include "dh_test.h"
#include "internal.pb-c.h"

static void test_pb_oneof_sets_the_case_and_the_member(void)
{
    Deckhand__Games games = DECKHAND__GAMES__INIT;
    Deckhand__ServerMessage sm = DECKHAND__SERVER_MESSAGE__INIT;
    CU_ASSERT_PTR_EQUAL(dh_pb_oneof(&sm, DECKHAND__SERVER_MESSAGE__BODY_GAMES, &games), &sm);
    CU_ASSERT_EQUAL(sm.body_case, DECKHAND__SERVER_MESSAGE__BODY_GAMES);
    CU_ASSERT_PTR_EQUAL(sm.games, &games);
    Deckhand__Ping ping = DECKHAND__PING__INIT;
    ping.nonce = 7;
    Deckhand__ClientMessage cm = DECKHAND__CLIENT_MESSAGE__INIT;
    dh_pb_oneof(&cm, DECKHAND__CLIENT_MESSAGE__BODY_PING, &ping);
    CU_ASSERT_EQUAL(cm.body_case, DECKHAND__CLIENT_MESSAGE__BODY_PING);
    CU_ASSERT_PTR_EQUAL(cm.ping, &ping);
}

static void test_pb_oneof_message_round_trips(void)
{
    Deckhand__Internal__MatchEnded me = DECKHAND__INTERNAL__MATCH_ENDED__INIT;
    me.match_id = "m-1";
    Deckhand__Internal__Internal in = DECKHAND__INTERNAL__INTERNAL__INIT;
    dh_pb_oneof(&in, DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ENDED, &me);
    size_t len = deckhand__internal__internal__get_packed_size(&in);
    uint8_t *buf = malloc(len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
    deckhand__internal__internal__pack(&in, buf);
    Deckhand__Internal__Internal *back = deckhand__internal__internal__unpack(NULL, len, buf);
    CU_ASSERT_PTR_NOT_NULL_FATAL(back);
    CU_ASSERT_EQUAL(back->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ENDED);
    CU_ASSERT_STRING_EQUAL(back->match_ended->match_id, "m-1");
    deckhand__internal__internal__free_unpacked(back, NULL);
    free(buf);
}

static void test_pb_oneof_a_second_call_replaces_the_first(void)
{
    Deckhand__Games games = DECKHAND__GAMES__INIT;
    Deckhand__WatchList wl = DECKHAND__WATCH_LIST__INIT;
    Deckhand__ServerMessage sm = DECKHAND__SERVER_MESSAGE__INIT;
    dh_pb_oneof(&sm, DECKHAND__SERVER_MESSAGE__BODY_GAMES, &games);
    dh_pb_oneof(&sm, DECKHAND__SERVER_MESSAGE__BODY_WATCH_LIST, &wl);
    CU_ASSERT_EQUAL(sm.body_case, DECKHAND__SERVER_MESSAGE__BODY_WATCH_LIST);
    CU_ASSERT_PTR_EQUAL(sm.watch_list, &wl);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"pb_oneof_sets_the_case_and_the_member", test_pb_oneof_sets_the_case_and_the_member},
        {"pb_oneof_message_round_trips", test_pb_oneof_message_round_trips},
        {"pb_oneof_a_second_call_replaces_the_first",
         test_pb_oneof_a_second_call_replaces_the_first},
        {NULL, NULL},
    };
    return dh_test_main("pb", cases);
}
