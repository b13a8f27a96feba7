/*
 * test_gateway_outwire.c: a worker's PlayerOutputs read in place (gateway/outwire.h),
 * against what protobuf-c's unpack makes of the same bytes: the same outputs in order,
 * their message bytes left in the buffer; every other body, an unknown field, an id too
 * long for its slot and every truncation are left to the unpack (NULL), so the reader
 * never accepts what the unpack would refuse nor reads past the end. And an ok Reply read
 * in place (outwire_reply_ok): its cmd_id as the unpack reads it; an error Reply, another
 * body, an unknown field and every truncation left to the unpack.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deckhand.pb-c.h"
#include "dh_test.h"
#include "internal.pb-c.h"
#include "outwire.h"

#define NOUT 3

/* A PlayerOutputs of NOUT outputs, packed into a heap buffer (*len bytes). */
static uint8_t *pack_outputs(size_t *len, const char *first_player)
{
    static const char *players[NOUT] = {NULL, "p-2", ""};
    static const char *matches[NOUT] = {"m-1", "", "m-3"};
    static const char *bodies[NOUT] = {"reply bytes", "", "a delta\0with a NUL"};
    static const size_t body_len[NOUT] = {11, 0, 18};
    Deckhand__Internal__PlayerOutput po[NOUT], *ptrs[NOUT];
    for (int i = 0; i < NOUT; i++) {
        po[i] = (Deckhand__Internal__PlayerOutput)DECKHAND__INTERNAL__PLAYER_OUTPUT__INIT;
        po[i].player_id = (char *)(i == 0 ? first_player : players[i]);
        po[i].match_id = (char *)matches[i];
        po[i].message.data = (uint8_t *)bodies[i];
        po[i].message.len = body_len[i];
        po[i].kind = (Deckhand__Internal__PlayerOutput__Kind)i;
        ptrs[i] = &po[i];
    }
    Deckhand__Internal__PlayerOutputs outs = DECKHAND__INTERNAL__PLAYER_OUTPUTS__INIT;
    outs.n_outputs = NOUT;
    outs.outputs = ptrs;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_OUTPUTS;
    m.player_outputs = &outs;
    *len = deckhand__internal__internal__get_packed_size(&m);
    uint8_t *buf = malloc(*len);
    deckhand__internal__internal__pack(&m, buf);
    return buf;
}

static void test_outwire_outputs_match_the_unpack_and_stay_in_the_buffer(void)
{
    size_t len;
    uint8_t *buf = pack_outputs(&len, "p-1");
    outwire w;
    outwire_init(&w);
    Deckhand__Internal__Internal *u = deckhand__internal__internal__unpack(NULL, len, buf);
    CU_ASSERT_FATAL(u != NULL);
    for (int round = 0; round < 2; round++) { /* the slots are reused by the next message */
        Deckhand__Internal__Internal *m = outwire_read(&w, buf, len);
        CU_ASSERT_FATAL(m != NULL);
        CU_ASSERT_EQUAL(m->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_OUTPUTS);
        CU_ASSERT_EQUAL_FATAL(m->player_outputs->n_outputs, u->player_outputs->n_outputs);
        for (size_t i = 0; i < NOUT; i++) {
            const Deckhand__Internal__PlayerOutput *a = m->player_outputs->outputs[i];
            const Deckhand__Internal__PlayerOutput *b = u->player_outputs->outputs[i];
            CU_ASSERT_STRING_EQUAL(a->player_id, b->player_id);
            CU_ASSERT_STRING_EQUAL(a->match_id, b->match_id);
            CU_ASSERT_EQUAL(a->kind, b->kind);
            CU_ASSERT_EQUAL_FATAL(a->message.len, b->message.len);
            CU_ASSERT(a->message.len == 0 ||
                      (a->message.data > buf && a->message.data + a->message.len <= buf + len));
            CU_ASSERT(a->message.len == 0 ||
                      !memcmp(a->message.data, b->message.data, a->message.len));
        }
    }
    deckhand__internal__internal__free_unpacked(u, NULL);
    outwire_free(&w);
    free(buf);
}

static void test_outwire_other_bodies_and_unknown_fields_go_to_the_unpack(void)
{
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    Deckhand__Internal__MatchAssigned a = DECKHAND__INTERNAL__MATCH_ASSIGNED__INIT;
    a.match_id = (char *)"m-1";
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ASSIGNED;
    m.match_assigned = &a;
    uint8_t buf[256];
    size_t n = deckhand__internal__internal__pack(&m, buf);
    outwire w;
    outwire_init(&w);
    CU_ASSERT_PTR_NULL(outwire_read(&w, buf, n));
    CU_ASSERT_PTR_NULL(outwire_read(&w, buf, 0));
    /* field 42 holding PlayerOutputs{outputs: {player_id "p", field 9 varint 1}} */
    const uint8_t unknown_inner[] = {0xd2, 0x02, 0x07, 0x0a, 0x05, 0x0a, 0x01, 'p', 0x48, 0x01};
    CU_ASSERT_PTR_NULL(outwire_read(&w, unknown_inner, sizeof unknown_inner));
    Deckhand__Internal__Internal *u =
        deckhand__internal__internal__unpack(NULL, sizeof unknown_inner, unknown_inner);
    CU_ASSERT_PTR_NOT_NULL(u); /* the unpack takes it, skipping the field */
    deckhand__internal__internal__free_unpacked(u, NULL);
    /* an empty PlayerOutputs followed by a second top-level field */
    const uint8_t two_fields[] = {0xd2, 0x02, 0x00, 0x08, 0x01};
    CU_ASSERT_PTR_NULL(outwire_read(&w, two_fields, sizeof two_fields));
    const uint8_t empty[] = {0xd2, 0x02, 0x00};
    Deckhand__Internal__Internal *e = outwire_read(&w, empty, sizeof empty);
    CU_ASSERT_FATAL(e != NULL);
    CU_ASSERT_EQUAL(e->player_outputs->n_outputs, 0);
    outwire_free(&w);
}

static void test_outwire_an_id_longer_than_its_slot_goes_to_the_unpack(void)
{
    char long_id[DH_TOKEN_ID_MAX + 1];
    memset(long_id, 'x', DH_TOKEN_ID_MAX);
    long_id[DH_TOKEN_ID_MAX] = '\0';
    size_t len;
    uint8_t *buf = pack_outputs(&len, long_id);
    outwire w;
    outwire_init(&w);
    CU_ASSERT_PTR_NULL(outwire_read(&w, buf, len));
    long_id[DH_TOKEN_ID_MAX - 1] = '\0'; /* the longest that fits */
    free(buf);
    buf = pack_outputs(&len, long_id);
    Deckhand__Internal__Internal *m = outwire_read(&w, buf, len);
    CU_ASSERT_FATAL(m != NULL);
    CU_ASSERT_STRING_EQUAL(m->player_outputs->outputs[0]->player_id, long_id);
    outwire_free(&w);
    free(buf);
}

static void test_outwire_every_truncation_is_refused_whole(void)
{
    size_t len;
    uint8_t *buf = pack_outputs(&len, "p-1");
    outwire w;
    outwire_init(&w);
    for (size_t cut = 0; cut < len; cut++) {
        uint8_t *copy = malloc(cut ? cut : 1); /* exactly cut bytes: ASan sees any overread */
        memcpy(copy, buf, cut);
        CU_ASSERT_PTR_NULL(outwire_read(&w, copy, cut));
        free(copy);
    }
    const uint8_t runaway[] = {0xd2, 0x02, 0x0b, 0x0a, 0xff, 0xff, 0xff, 0xff,
                               0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
    CU_ASSERT_PTR_NULL(outwire_read(&w, runaway, sizeof runaway));
    outwire_free(&w);
    free(buf);
}

/* A ServerMessage, packed into a heap buffer of exactly its size (*len bytes). */
static uint8_t *pack_server(const Deckhand__ServerMessage *m, size_t *len)
{
    *len = deckhand__server_message__get_packed_size(m);
    uint8_t *buf = malloc(*len ? *len : 1);
    deckhand__server_message__pack(m, buf);
    return buf;
}

static uint8_t *pack_reply(uint64_t cmd_id, bool ok, Deckhand__Error *err, size_t *len)
{
    Deckhand__Reply r = DECKHAND__REPLY__INIT;
    r.cmd_id = cmd_id;
    r.ok = ok;
    r.error = err;
    Deckhand__ServerMessage m = DECKHAND__SERVER_MESSAGE__INIT;
    m.body_case = DECKHAND__SERVER_MESSAGE__BODY_REPLY;
    m.reply = &r;
    return pack_server(&m, len);
}

static void test_outwire_an_ok_reply_is_read_in_place_as_the_unpack_reads_it(void)
{
    static const uint64_t ids[] = {1, 127, 128, 300, 1ull << 40, UINT64_MAX};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        size_t len;
        uint64_t got = 0;
        uint8_t *buf = pack_reply(ids[i], true, NULL, &len);
        Deckhand__ServerMessage *m = deckhand__server_message__unpack(NULL, len, buf);
        CU_ASSERT_FATAL(m && m->body_case == DECKHAND__SERVER_MESSAGE__BODY_REPLY);
        CU_ASSERT_TRUE(outwire_reply_ok(buf, len, &got));
        CU_ASSERT_EQUAL(got, m->reply->cmd_id);
        CU_ASSERT_EQUAL(got, ids[i]);
        deckhand__server_message__free_unpacked(m, NULL);
        free(buf);
    }
}

static void test_outwire_error_replies_other_bodies_and_truncations_go_to_the_unpack(void)
{
    size_t len;
    uint64_t got = 99;
    Deckhand__Error err = DECKHAND__ERROR__INIT;
    err.code = DECKHAND__ERROR_CODE__BAD_REQUEST;
    err.message = "no";
    uint8_t *buf = pack_reply(7, false, &err, &len); /* an error Reply */
    CU_ASSERT_FALSE(outwire_reply_ok(buf, len, &got));
    free(buf);
    buf = pack_reply(7, false, NULL, &len); /* not ok, no error */
    CU_ASSERT_FALSE(outwire_reply_ok(buf, len, &got));
    free(buf);
    buf = pack_reply(7, true, &err, &len); /* ok with an error: let the unpack decide */
    CU_ASSERT_FALSE(outwire_reply_ok(buf, len, &got));
    free(buf);
    Deckhand__Pong pong = DECKHAND__PONG__INIT;
    Deckhand__ServerMessage m = DECKHAND__SERVER_MESSAGE__INIT;
    m.body_case = DECKHAND__SERVER_MESSAGE__BODY_PONG;
    m.pong = &pong;
    buf = pack_server(&m, &len); /* another body */
    CU_ASSERT_FALSE(outwire_reply_ok(buf, len, &got));
    free(buf);
    const uint8_t unknown[] = {0x0a, 0x06, 0x08, 0x05, 0x10, 0x01, 0x20, 0x01}; /* field 4 */
    CU_ASSERT_FALSE(outwire_reply_ok(unknown, sizeof unknown, &got));
    const uint8_t trailing[] = {0x0a, 0x04, 0x08, 0x05, 0x10, 0x01, 0x40, 0x01};
    CU_ASSERT_FALSE(outwire_reply_ok(trailing, sizeof trailing, &got));
    buf = pack_reply(300, true, NULL, &len);
    for (size_t cut = 0; cut < len; cut++) {
        uint8_t *copy = malloc(cut ? cut : 1); /* exactly cut bytes: ASan sees any overread */
        memcpy(copy, buf, cut);
        CU_ASSERT_FALSE(outwire_reply_ok(copy, cut, &got));
        free(copy);
    }
    free(buf);
    CU_ASSERT_EQUAL(got, 99); /* never set by a refusal */
}

/* A message of more outputs than the slots first hold: read in one walk, the slots grown
 * (and moved) under it, every output's ids still its own. */
static void test_outwire_a_message_past_the_first_slots_keeps_every_id(void)
{
    enum { MANY = 200 };
    static Deckhand__Internal__PlayerOutput po[MANY], *ptrs[MANY];
    static char pids[MANY][16], mids[MANY][16];
    for (int i = 0; i < MANY; i++) {
        snprintf(pids[i], sizeof pids[i], "p-%d", i);
        snprintf(mids[i], sizeof mids[i], "m-%d", i);
        po[i] = (Deckhand__Internal__PlayerOutput)DECKHAND__INTERNAL__PLAYER_OUTPUT__INIT;
        po[i].player_id = pids[i];
        po[i].match_id = mids[i];
        po[i].message.data = (uint8_t *)pids[i];
        po[i].message.len = strlen(pids[i]);
        ptrs[i] = &po[i];
    }
    Deckhand__Internal__PlayerOutputs outs = DECKHAND__INTERNAL__PLAYER_OUTPUTS__INIT;
    outs.n_outputs = MANY;
    outs.outputs = ptrs;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_OUTPUTS;
    m.player_outputs = &outs;
    size_t len = deckhand__internal__internal__get_packed_size(&m);
    uint8_t *buf = malloc(len);
    deckhand__internal__internal__pack(&m, buf);
    outwire w;
    outwire_init(&w);
    Deckhand__Internal__Internal *r = outwire_read(&w, buf, len);
    CU_ASSERT_FATAL(r != NULL);
    CU_ASSERT_EQUAL_FATAL(r->player_outputs->n_outputs, MANY);
    for (int i = 0; i < MANY; i++) {
        const Deckhand__Internal__PlayerOutput *o = r->player_outputs->outputs[i];
        CU_ASSERT_STRING_EQUAL(o->player_id, pids[i]);
        CU_ASSERT_STRING_EQUAL(o->match_id, mids[i]);
        CU_ASSERT_EQUAL(o->message.len, strlen(pids[i]));
        CU_ASSERT(o->message.data > buf && o->message.data < buf + len);
    }
    outwire_free(&w);
    free(buf);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"outwire_outputs_match_the_unpack_and_stay_in_the_buffer",
         test_outwire_outputs_match_the_unpack_and_stay_in_the_buffer},
        {"outwire_other_bodies_and_unknown_fields_go_to_the_unpack",
         test_outwire_other_bodies_and_unknown_fields_go_to_the_unpack},
        {"outwire_an_id_longer_than_its_slot_goes_to_the_unpack",
         test_outwire_an_id_longer_than_its_slot_goes_to_the_unpack},
        {"outwire_every_truncation_is_refused_whole",
         test_outwire_every_truncation_is_refused_whole},
        {"outwire_an_ok_reply_is_read_in_place_as_the_unpack_reads_it",
         test_outwire_an_ok_reply_is_read_in_place_as_the_unpack_reads_it},
        {"outwire_error_replies_other_bodies_and_truncations_go_to_the_unpack",
         test_outwire_error_replies_other_bodies_and_truncations_go_to_the_unpack},
        {"outwire_a_message_past_the_first_slots_keeps_every_id",
         test_outwire_a_message_past_the_first_slots_keeps_every_id},
        {NULL, NULL},
    };
    return dh_test_main("gateway_outwire", cases);
}
