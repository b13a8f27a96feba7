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

/* A QueueJoin with one option, packed: the message and what it points to, and its bytes. */
typedef struct {
    Deckhand__ClientMessage m;
    Deckhand__QueueJoin q;
    Deckhand__GameOption o, *opts[1];
    uint8_t buf[512];
    size_t n;
    char why[128];
} packed;

/* x holds a QueueJoin for game with the option value value, packed, the '@' of MARK (when
 * one of them holds it) replaced by bad. */
static void pack_join(packed *x, const char *game, const char *value, uint8_t bad)
{
    *x = (packed){.m = DECKHAND__CLIENT_MESSAGE__INIT,
                  .q = DECKHAND__QUEUE_JOIN__INIT,
                  .o = DECKHAND__GAME_OPTION__INIT};
    x->o.name = (char *)"kingdom";
    x->o.value = (char *)value;
    x->opts[0] = &x->o;
    x->q.game = (char *)game;
    x->q.mode = (char *)"casual";
    x->q.players = 2;
    x->q.n_options = 1;
    x->q.options = x->opts;
    x->m.cmd_id = 300; /* a two-byte varint */
    x->m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_QUEUE_JOIN;
    x->m.queue_join = &x->q;
    x->n = deckhand__client_message__get_packed_size(&x->m);
    CU_ASSERT_FATAL(x->n <= sizeof x->buf);
    deckhand__client_message__pack(&x->m, x->buf);
    uint8_t *at = memmem(x->buf, x->n, MARK, sizeof MARK - 1);
    if (at)
        at[4] = bad;
}

static const char *check(const uint8_t *buf, size_t n, char *why, size_t cap)
{
    return textguard_check(&deckhand__client_message__descriptor, buf, n, why, cap);
}

static const char *check_packed(packed *x)
{
    return check(x->buf, x->n, x->why, sizeof x->why);
}

static void test_textguard_clean_text_passes_and_control_bytes_are_named(void)
{
    packed x;
    pack_join(&x, "dominion", "Zo\xc3\xab's first game ~!", 0);
    CU_ASSERT_PTR_NULL(check_packed(&x));
    pack_join(&x, MARK, "first_game", 0x00);
    CU_ASSERT_STRING_EQUAL(check_packed(&x), "QueueJoin.game must not hold control characters");
    pack_join(&x, "dominion", MARK, 0x7f);
    CU_ASSERT_STRING_EQUAL(check_packed(&x), "GameOption.value must not hold control characters");
    pack_join(&x, "dominion", MARK, 0x1f);
    CU_ASSERT_PTR_NOT_NULL(check_packed(&x));
    pack_join(&x, "dominion", MARK, 0x20);
    CU_ASSERT_PTR_NULL(check_packed(&x));
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
    packed x;
    char why[128];
    pack_join(&x, "dominion", "first_game", 0);
    size_t n = x.n;
    uint8_t *buf = x.buf;
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
