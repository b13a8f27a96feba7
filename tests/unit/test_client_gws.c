/*
 * test_client_gws.c: the gateways a client knows (client/lib/dh_client_gws.c): a
 * comma-separated --gateway list parsed in order (WebSocket addresses completed to
 * ws://host:port/ws), refused when an item is empty or there are too many; no list
 * means the environment's one gateway; next goes round the list; a Reconnect (a
 * draining gateway) is recognised with its after_ms, anything else is not.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_client_gws.h"
#include "dh_test.h"

static void test_gws_parses_a_list_in_order(void)
{
    dh_client_gws g;
    char err[256];
    CU_ASSERT_EQUAL_FATAL(
        dh_client_gws_parse(&g, "127.0.0.1:7000,127.0.0.1:7002", false, err, sizeof err), 0);
    CU_ASSERT_EQUAL(g.n, 2);
    CU_ASSERT_STRING_EQUAL(dh_client_gws_current(&g), "127.0.0.1:7000");
    CU_ASSERT_STRING_EQUAL(dh_client_gws_next(&g), "127.0.0.1:7002");
    CU_ASSERT_STRING_EQUAL(dh_client_gws_next(&g), "127.0.0.1:7000");
    CU_ASSERT_EQUAL_FATAL(dh_client_gws_parse(&g, "10.0.0.1:7001", true, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(dh_client_gws_current(&g), "ws://10.0.0.1:7001/ws");
    CU_ASSERT_STRING_EQUAL(dh_client_gws_next(&g), "ws://10.0.0.1:7001/ws"); /* alone */
}

static void test_gws_refuses_empty_items_and_long_lists(void)
{
    dh_client_gws g;
    char err[256], list[DH_CLIENT_GWS_MAX * 20 + 32] = "";
    CU_ASSERT_EQUAL(dh_client_gws_parse(&g, "127.0.0.1:7000,", false, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "comma-separated"));
    CU_ASSERT_EQUAL(dh_client_gws_parse(&g, ",127.0.0.1:7000", false, err, sizeof err), -1);
    for (int i = 0; i <= DH_CLIENT_GWS_MAX; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s127.0.0.1:%d", i ? "," : "",
                 7000 + i);
    CU_ASSERT_EQUAL(dh_client_gws_parse(&g, list, false, err, sizeof err), -1);
    *strrchr(list, ',') = '\0'; /* exactly the most it takes */
    CU_ASSERT_EQUAL(dh_client_gws_parse(&g, list, false, err, sizeof err), 0);
    CU_ASSERT_EQUAL(g.n, DH_CLIENT_GWS_MAX);
}

static void test_gws_without_a_list_takes_the_environment_gateway(void)
{
    dh_client_gws g;
    char err[256];
    setenv("DECKHAND_GATEWAY_TCP", "127.0.0.1:19000", 1);
    CU_ASSERT_EQUAL_FATAL(dh_client_gws_parse(&g, NULL, false, err, sizeof err), 0);
    CU_ASSERT_EQUAL(g.n, 1);
    CU_ASSERT_STRING_EQUAL(dh_client_gws_current(&g), "127.0.0.1:19000");
    CU_ASSERT_EQUAL_FATAL(dh_client_gws_parse(&g, "", false, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(dh_client_gws_current(&g), "127.0.0.1:19000");
    unsetenv("DECKHAND_GATEWAY_TCP");
}

static void test_reconnect_is_recognised_with_its_delay(void)
{
    Deckhand__Reconnect rc = DECKHAND__RECONNECT__INIT;
    rc.after_ms = 1500;
    rc.reason = "gateway draining";
    Deckhand__ServerMessage m = DECKHAND__SERVER_MESSAGE__INIT;
    m.body_case = DECKHAND__SERVER_MESSAGE__BODY_RECONNECT;
    m.reconnect = &rc;
    /* through the wire, as a client gets it */
    size_t len = deckhand__server_message__get_packed_size(&m);
    uint8_t *buf = malloc(len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
    deckhand__server_message__pack(&m, buf);
    Deckhand__ServerMessage *got = deckhand__server_message__unpack(NULL, len, buf);
    free(buf);
    CU_ASSERT_PTR_NOT_NULL_FATAL(got);
    CU_ASSERT_EQUAL(dh_client_reconnect_after(got), 1500);
    CU_ASSERT_STRING_EQUAL(got->reconnect->reason, "gateway draining");
    deckhand__server_message__free_unpacked(got, NULL);
    Deckhand__ServerMessage pong = DECKHAND__SERVER_MESSAGE__INIT;
    pong.body_case = DECKHAND__SERVER_MESSAGE__BODY_PONG;
    CU_ASSERT_EQUAL(dh_client_reconnect_after(&pong), -1);
    CU_ASSERT_EQUAL(dh_client_reconnect_after(NULL), -1);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"gws_parses_a_list_in_order", test_gws_parses_a_list_in_order},
        {"gws_refuses_empty_items_and_long_lists", test_gws_refuses_empty_items_and_long_lists},
        {"gws_without_a_list_takes_the_environment_gateway",
         test_gws_without_a_list_takes_the_environment_gateway},
        {"reconnect_is_recognised_with_its_delay", test_reconnect_is_recognised_with_its_delay},
        {NULL, NULL},
    };
    return dh_test_main("client_gws", cases);
}
