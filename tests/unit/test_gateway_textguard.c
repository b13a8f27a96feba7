/*
 * test_gateway_textguard.c: the gateway's check of client strings (gateway/textguard.h)
 * on encoded messages, without a gateway: clean text (UTF-8 included) passes; a control
 * byte in a top-level or a nested repeated string is named by message and field; an
 * unknown field is not read; every truncation and a runaway varint are refused as
 * undecodable, never read past their end.
 */
#include <stdlib.h>
#include <string.h>

#include "deckhand.pb-c.h"
#include "dh_test.h"
#include "textguard.h"

#define MARK "mark@here"

/* m packed into buf (its length into *n), the '@' of MARK replaced by bad when found. */
static void pack_with(const Deckhand__ClientMessage *m, uint8_t *buf, size_t *n, uint8_t bad)
{
    *n = deckhand__client_message__get_packed_size(m);
    CU_ASSERT_FATAL(*n <= 512);
    deckhand__client_message__pack(m, buf);
    uint8_t *at = memmem(buf, *n, MARK, sizeof MARK - 1);
    if (at)
        at[4] = bad;
}

static const char *check(const uint8_t *buf, size_t n, char *why, size_t cap)
{
    return textguard_check(&deckhand__client_message__descriptor, buf, n, why, cap);
}

/* A QueueJoin for game, with one option whose value is value. */
static void queue_join(Deckhand__ClientMessage *m, Deckhand__QueueJoin *q, Deckhand__GameOption *o,
                       Deckhand__GameOption **opts, const char *game, const char *value)
{
    o->name = (char *)"kingdom";
    o->value = (char *)value;
    opts[0] = o;
    q->game = (char *)game;
    q->mode = (char *)"casual";
    q->players = 2;
    q->n_options = 1;
    q->options = opts;
    m->cmd_id = 300; /* a two-byte varint */
    m->body_case = DECKHAND__CLIENT_MESSAGE__BODY_QUEUE_JOIN;
    m->queue_join = q;
}

static void test_textguard_clean_text_passes_and_control_bytes_are_named(void)
{
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    Deckhand__QueueJoin q = DECKHAND__QUEUE_JOIN__INIT;
    Deckhand__GameOption o = DECKHAND__GAME_OPTION__INIT, *opts[1];
    uint8_t buf[512];
    size_t n;
    char why[128];
    queue_join(&m, &q, &o, opts, "dominion", "Zo\xc3\xab's first game ~!");
    pack_with(&m, buf, &n, 0);
    CU_ASSERT_PTR_NULL(check(buf, n, why, sizeof why));

    queue_join(&m, &q, &o, opts, MARK, "first_game");
    pack_with(&m, buf, &n, 0x00);
    CU_ASSERT_STRING_EQUAL(check(buf, n, why, sizeof why),
                           "QueueJoin.game must not hold control characters");
    queue_join(&m, &q, &o, opts, "dominion", MARK);
    pack_with(&m, buf, &n, 0x7f);
    CU_ASSERT_STRING_EQUAL(check(buf, n, why, sizeof why),
                           "GameOption.value must not hold control characters");
    pack_with(&m, buf, &n, 0x1f);
    CU_ASSERT_PTR_NOT_NULL(check(buf, n, why, sizeof why));
    pack_with(&m, buf, &n, 0x20);
    CU_ASSERT_PTR_NULL(check(buf, n, why, sizeof why));
}

static void test_textguard_unknown_fields_are_not_read(void)
{
    /* cmd_id 1, then field 99 (length-delimited, unknown) holding a NUL. */
    const uint8_t buf[] = {0x08, 0x01, 0x9a, 0x06, 0x03, 'a', 0x00, 'b'};
    char why[128];
    CU_ASSERT_PTR_NULL(check(buf, sizeof buf, why, sizeof why));
}

static void test_textguard_truncated_or_runaway_input_is_undecodable(void)
{
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    Deckhand__QueueJoin q = DECKHAND__QUEUE_JOIN__INIT;
    Deckhand__GameOption o = DECKHAND__GAME_OPTION__INIT, *opts[1];
    uint8_t buf[512];
    size_t n;
    char why[128];
    queue_join(&m, &q, &o, opts, "dominion", "first_game");
    pack_with(&m, buf, &n, 0);
    /* Every prefix: either whole fields (clean) or undecodable; ASan sees no over-read. */
    for (size_t len = 0; len < n; len++) {
        uint8_t *copy = malloc(len ? len : 1);
        CU_ASSERT_PTR_NOT_NULL_FATAL(copy);
        memcpy(copy, buf, len);
        const char *err = check(copy, len, why, sizeof why);
        CU_ASSERT(err == NULL || strcmp(err, "undecodable message") == 0);
        free(copy);
    }
    const uint8_t runaway[] = {0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                               0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
    CU_ASSERT_STRING_EQUAL(check(runaway, sizeof runaway, why, sizeof why), "undecodable message");
    const uint8_t group[] = {0x0b}; /* field 1, start group */
    CU_ASSERT_STRING_EQUAL(check(group, sizeof group, why, sizeof why), "undecodable message");
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"textguard_clean_text_passes_and_control_bytes_are_named",
         test_textguard_clean_text_passes_and_control_bytes_are_named},
        {"textguard_unknown_fields_are_not_read", test_textguard_unknown_fields_are_not_read},
        {"textguard_truncated_or_runaway_input_is_undecodable",
         test_textguard_truncated_or_runaway_input_is_undecodable},
        {NULL, NULL},
    };
    return dh_test_main("gateway_textguard", cases);
}
