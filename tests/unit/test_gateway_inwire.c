/*
 * test_gateway_inwire.c: a client's Choose read in place and passed on as its own bytes
 * (gateway/inwire.h). The PlayerCommand written around it is, byte for byte, what packing
 * the unpacked Choose gives (the path it replaces); anything unusual (cmd_id 0, no or a bad
 * match id, a control or non-ASCII byte in a string, an unknown or repeated field, a wrong
 * wire type, an option id past 32 bits, another body) is left to the ordinary unpack; and
 * no truncation is read past its end or taken where the unpack would not take it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deckhand.pb-c.h"
#include "dh_test.h"
#include "internal.pb-c.h"
#include "inwire.h"

/* A ClientMessage{cmd_id, choose{match_id, decision_id, option_ids, bot}}, packed into a
 * heap buffer of exactly *len bytes. */
static uint8_t *pack_choose(uint64_t cmd_id, const char *match_id, const char *bot, size_t *len)
{
    static uint32_t opts[] = {1, 2, 300, 4000000000u};
    Deckhand__Choose ch = DECKHAND__CHOOSE__INIT;
    ch.match_id = (char *)match_id;
    ch.decision_id = 77;
    ch.n_option_ids = sizeof opts / sizeof opts[0];
    ch.option_ids = opts;
    ch.bot = (char *)bot;
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    m.cmd_id = cmd_id;
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_CHOOSE;
    m.choose = &ch;
    *len = deckhand__client_message__get_packed_size(&m);
    uint8_t *buf = malloc(*len);
    deckhand__client_message__pack(&m, buf);
    return buf;
}

/* What the ordinary path sends for the unpacked message cm from player_id. */
static uint8_t *pack_as_before(const Deckhand__ClientMessage *cm, const char *player_id,
                               size_t *len)
{
    Deckhand__Internal__PlayerCommand pc = DECKHAND__INTERNAL__PLAYER_COMMAND__INIT;
    pc.match_id = cm->choose->match_id;
    pc.player_id = (char *)player_id;
    pc.cmd_id = cm->cmd_id;
    pc.body_case = DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_CHOOSE;
    pc.choose = cm->choose;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_COMMAND;
    m.player_command = &pc;
    *len = deckhand__internal__internal__get_packed_size(&m);
    uint8_t *buf = malloc(*len);
    deckhand__internal__internal__pack(&m, buf);
    return buf;
}

static void test_inwire_a_choose_is_passed_on_as_the_unpack_path_packs_it(void)
{
    static const char *bots[] = {"", "default"};
    for (int i = 0; i < 2; i++) {
        size_t len, want_len;
        uint8_t *buf = pack_choose(123456789, "m-1f2e", bots[i], &len);
        inwire_choose ch;
        CU_ASSERT_FATAL(inwire_read_choose(buf, len, &ch));
        CU_ASSERT_EQUAL(ch.cmd_id, 123456789);
        CU_ASSERT_STRING_EQUAL(ch.match_id, "m-1f2e");
        Deckhand__ClientMessage *cm = deckhand__client_message__unpack(NULL, len, buf);
        CU_ASSERT_FATAL(cm != NULL);
        uint8_t *want = pack_as_before(cm, "p-0123456789abcdef", &want_len);
        size_t got_len = inwire_command_size(&ch, "p-0123456789abcdef");
        uint8_t *got = malloc(got_len);
        CU_ASSERT_EQUAL(inwire_command_pack(&ch, "p-0123456789abcdef", got), got_len);
        CU_ASSERT_EQUAL_FATAL(got_len, want_len);
        CU_ASSERT_EQUAL(memcmp(got, want, got_len), 0);
        /* and the worker's unpack reads it back whole */
        Deckhand__Internal__Internal *back =
            deckhand__internal__internal__unpack(NULL, got_len, got);
        CU_ASSERT_FATAL(back &&
                        back->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_COMMAND);
        const Deckhand__Internal__PlayerCommand *pc = back->player_command;
        CU_ASSERT_STRING_EQUAL(pc->player_id, "p-0123456789abcdef");
        CU_ASSERT_EQUAL(pc->cmd_id, 123456789);
        CU_ASSERT_FATAL(pc->body_case == DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_CHOOSE);
        CU_ASSERT_EQUAL(pc->choose->decision_id, 77);
        CU_ASSERT_EQUAL_FATAL(pc->choose->n_option_ids, 4);
        CU_ASSERT_EQUAL(pc->choose->option_ids[3], 4000000000u);
        CU_ASSERT_STRING_EQUAL(pc->choose->bot, bots[i]);
        deckhand__internal__internal__free_unpacked(back, NULL);
        deckhand__client_message__free_unpacked(cm, NULL);
        free(got);
        free(want);
        free(buf);
    }
}

/* Raw frames the ordinary path must see. */
static void test_inwire_anything_unusual_goes_to_the_unpack(void)
{
    char long_id[GW_MATCH_ID_MAX + 1];
    memset(long_id, 'm', GW_MATCH_ID_MAX);
    long_id[GW_MATCH_ID_MAX] = '\0';
    static const char *bad_ids[] = {"", "m-1\n", "m-\x01", "m-\xc3\xa9", "m 1\x7f"};
    inwire_choose ch;
    size_t len;
    uint8_t *buf = pack_choose(0, "m-1", "", &len); /* cmd_id 0: BAD_REQUEST there */
    CU_ASSERT_FALSE(inwire_read_choose(buf, len, &ch));
    free(buf);
    for (size_t i = 0; i < sizeof bad_ids / sizeof bad_ids[0]; i++) {
        buf = pack_choose(5, bad_ids[i], "", &len);
        CU_ASSERT_FALSE(inwire_read_choose(buf, len, &ch));
        free(buf);
    }
    buf = pack_choose(5, long_id, "", &len);
    CU_ASSERT_FALSE(inwire_read_choose(buf, len, &ch));
    free(buf);
    long_id[GW_MATCH_ID_MAX - 1] = '\0'; /* 127 characters: the longest taken */
    buf = pack_choose(5, long_id, "", &len);
    CU_ASSERT_TRUE(inwire_read_choose(buf, len, &ch));
    free(buf);
    buf = pack_choose(5, "m-1", "bot\tname", &len);
    CU_ASSERT_FALSE(inwire_read_choose(buf, len, &ch));
    free(buf);

    static const struct {
        const char *what;
        uint8_t bytes[16];
        size_t len;
    } frames[] = {
        /* cmd_id 5, choose{match_id "m"}: the one taken, as a control */
        {"taken", {0x08, 5, 0x6a, 3, 0x0a, 1, 'm'}, 7},
        {"match id twice", {0x08, 5, 0x6a, 6, 0x0a, 1, 'm', 0x0a, 1, 'n'}, 10},
        {"unknown Choose field", {0x08, 5, 0x6a, 5, 0x0a, 1, 'm', 0x28, 1}, 9},
        {"decision id as bytes", {0x08, 5, 0x6a, 6, 0x0a, 1, 'm', 0x12, 1, 1}, 10},
        {"decision id twice", {0x08, 5, 0x6a, 7, 0x0a, 1, 'm', 0x10, 1, 0x10, 2}, 11},
        {"option id past 32 bits",
         {0x08, 5, 0x6a, 9, 0x0a, 1, 'm', 0x18, 0x80, 0x80, 0x80, 0x80, 0x10},
         13},
        {"packed option ids cut short", {0x08, 5, 0x6a, 7, 0x0a, 1, 'm', 0x1a, 2, 0x81, 0x81}, 11},
        {"cmd_id twice", {0x08, 5, 0x08, 6, 0x6a, 3, 0x0a, 1, 'm'}, 9},
        {"two Chooses", {0x08, 5, 0x6a, 3, 0x0a, 1, 'm', 0x6a, 3, 0x0a, 1, 'n'}, 12},
        {"a Resync", {0x08, 5, 0x72, 3, 0x0a, 1, 'm'}, 7},
        {"unknown ClientMessage field", {0x08, 5, 0x6a, 3, 0x0a, 1, 'm', 0x10, 1}, 9},
        {"cmd_id as bytes", {0x0a, 1, 5, 0x6a, 3, 0x0a, 1, 'm'}, 8},
    };
    for (size_t i = 0; i < sizeof frames / sizeof frames[0]; i++) {
        bool taken = inwire_read_choose(frames[i].bytes, frames[i].len, &ch);
        if (taken != (i == 0))
            fprintf(stderr, "  %s: %s\n", frames[i].what, taken ? "taken" : "left");
        CU_ASSERT_EQUAL(taken, i == 0);
    }
}

/* Every prefix, in a buffer of exactly its size (ASan sees an overread): taken only when
 * the unpack takes it too, as the same Choose. */
static void test_inwire_no_truncation_is_read_past_its_end_or_taken_alone(void)
{
    size_t len;
    uint8_t *buf = pack_choose(42, "m-abc", "default", &len);
    for (size_t cut = 0; cut < len; cut++) {
        uint8_t *copy = malloc(cut ? cut : 1);
        memcpy(copy, buf, cut);
        inwire_choose ch;
        if (inwire_read_choose(copy, cut, &ch)) {
            Deckhand__ClientMessage *cm = deckhand__client_message__unpack(NULL, cut, copy);
            CU_ASSERT_FATAL(cm && cm->body_case == DECKHAND__CLIENT_MESSAGE__BODY_CHOOSE);
            CU_ASSERT_STRING_EQUAL(cm->choose->match_id, ch.match_id);
            CU_ASSERT_EQUAL(cm->cmd_id, ch.cmd_id);
            deckhand__client_message__free_unpacked(cm, NULL);
        }
        free(copy);
    }
    free(buf);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"inwire_a_choose_is_passed_on_as_the_unpack_path_packs_it",
         test_inwire_a_choose_is_passed_on_as_the_unpack_path_packs_it},
        {"inwire_anything_unusual_goes_to_the_unpack",
         test_inwire_anything_unusual_goes_to_the_unpack},
        {"inwire_no_truncation_is_read_past_its_end_or_taken_alone",
         test_inwire_no_truncation_is_read_past_its_end_or_taken_alone},
        {NULL, NULL},
    };
    return dh_test_main("gateway_inwire", cases);
}
