/*
 * test_gateway_strings.c: no client string carries a control byte past the gateway
 * (rig_gateway.h). Every string field of every ClientMessage body, and of the messages
 * inside one, found by walking the generated descriptors (so a field added later is
 * covered with no change here), is sent holding a NUL, an ESC and a DEL: each is
 * refused with BAD_REQUEST, nothing reaches the matchmaker, and a login message logs no
 * one in. protobuf-c packs strings with strlen, so the message is packed with a printable
 * marker that is then overwritten in the packed bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "dh_frame.h"
#include "rig_gateway.h"

#define MARK            "nul@here"
#define MARK_AT         3 /* the byte of MARK overwritten */
#define POOL_MAX        64
#define FIELDS_AT_LEAST 20 /* the client string fields there are today */

/* What plant allocated for one message, freed by pool_free. */
typedef struct {
    void *p[POOL_MAX];
    size_t n;
} pool;

static void *pool_alloc(pool *pl, size_t size)
{
    CU_ASSERT_FATAL(pl->n < POOL_MAX);
    void *p = calloc(1, size);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    pl->p[pl->n++] = p;
    return p;
}

static void pool_free(pool *pl)
{
    for (size_t i = 0; i < pl->n; i++)
        free(pl->p[i]);
    pl->n = 0;
}

static void set_case(ProtobufCMessage *msg, const ProtobufCFieldDescriptor *f, size_t n)
{
    char *q = (char *)msg + f->quantifier_offset;
    if (f->label == PROTOBUF_C_LABEL_REPEATED)
        *(size_t *)q = n;
    else if (f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF)
        *(uint32_t *)q = f->id;
}

/* Set the *skip-th string field of msg (depth first, through nested messages) to MARK:
 * true when there was one, *skip counting down the fields passed. */
static bool plant(ProtobufCMessage *msg, int *skip, pool *pl)
{
    static char *one[] = {MARK};
    const ProtobufCMessageDescriptor *d = msg->descriptor;
    for (unsigned i = 0; i < d->n_fields; i++) {
        const ProtobufCFieldDescriptor *f = &d->fields[i];
        void *at = (char *)msg + f->offset;
        bool rep = f->label == PROTOBUF_C_LABEL_REPEATED;
        if (f->type == PROTOBUF_C_TYPE_STRING) {
            if ((*skip)-- > 0)
                continue;
            if (rep)
                *(char ***)at = one;
            else
                *(const char **)at = MARK;
            set_case(msg, f, 1);
            return true;
        }
        if (f->type != PROTOBUF_C_TYPE_MESSAGE)
            continue;
        const ProtobufCMessageDescriptor *sd = f->descriptor;
        size_t mark = pl->n;
        ProtobufCMessage *sub = pool_alloc(pl, sd->sizeof_message);
        protobuf_c_message_init(sd, sub);
        if (!plant(sub, skip, pl)) {
            while (pl->n > mark)
                free(pl->p[--pl->n]);
            continue;
        }
        if (rep) {
            ProtobufCMessage **arr = pool_alloc(pl, sizeof *arr);
            arr[0] = sub;
            *(ProtobufCMessage ***)at = arr;
        } else {
            *(ProtobufCMessage **)at = sub;
        }
        set_case(msg, f, 1);
        return true;
    }
    return false;
}

/* m packed, MARK's byte replaced by bad, framed and sent on c (TCP). */
static void send_with_byte(rg_client *c, const Deckhand__ClientMessage *m, uint8_t bad)
{
    uint8_t buf[1024], hdr[4];
    size_t n = deckhand__client_message__get_packed_size(m);
    CU_ASSERT_FATAL(n <= sizeof buf);
    deckhand__client_message__pack(m, buf);
    uint8_t *at = memmem(buf, n, MARK, sizeof MARK - 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(at);
    at[MARK_AT] = bad;
    dh_frame_header(hdr, (uint32_t)n);
    rg_send_all(c->fd, hdr, 4);
    rg_send_all(c->fd, buf, n);
}

static void expect_refused(rg_client *c, uint64_t id, const char *field)
{
    Deckhand__ServerMessage *sm = NULL;
    CU_ASSERT_EQUAL_FATAL(rg_recv(c, 5000, &sm), 1);
    CU_ASSERT_EQUAL_FATAL(sm->body_case, DECKHAND__SERVER_MESSAGE__BODY_REPLY);
    CU_ASSERT_EQUAL(sm->reply->cmd_id, id);
    CU_ASSERT_TRUE_FATAL(sm->reply->error != NULL);
    CU_ASSERT_EQUAL(sm->reply->error->code, DECKHAND__ERROR_CODE__BAD_REQUEST);
    if (!strstr(sm->reply->error->message, "control character")) {
        fprintf(stderr, "%s: refused as '%s'\n", field, sm->reply->error->message);
        CU_FAIL("not refused for its control character");
    }
    deckhand__server_message__free_unpacked(sm, NULL);
}

static bool logs_in(Deckhand__ClientMessage__BodyCase body)
{
    return body == DECKHAND__CLIENT_MESSAGE__BODY_HELLO ||
           body == DECKHAND__CLIENT_MESSAGE__BODY_REGISTER ||
           body == DECKHAND__CLIENT_MESSAGE__BODY_ACCOUNT_LOGIN;
}

/* The string field planted in m, refused for each bad byte, and nothing happened: a login
 * message leaves its connection logged out, any other reaches no matchmaker. */
static void check_field(const Deckhand__ClientMessage *m, int field)
{
    static const uint8_t bad[] = {0x00, 0x1b, 0x7f};
    char name[64], from[DH_ZMQ_ID_MAX + 1];
    snprintf(name, sizeof name, "field %d (body %d)", field, (int)m->body_case);
    bool login = logs_in(m->body_case);
    rg_client *c = login ? rg_open() : rg_open_as("strings", NULL);
    for (size_t b = 0; b < sizeof bad; b++) {
        send_with_byte(c, m, bad[b]);
        expect_refused(c, m->cmd_id, name);
    }
    if (login) {
        rg_send_ping(c, 99, 1);
        rg_expect_reply(c, 99, DECKHAND__ERROR_CODE__UNAUTHENTICATED);
    } else {
        Deckhand__Internal__Internal *in = rg_router_recv(rg.mm, from, 200);
        if (in) {
            fprintf(stderr, "%s reached the matchmaker\n", name);
            CU_FAIL("a refused message reached the matchmaker");
            deckhand__internal__internal__free_unpacked(in, NULL);
        }
    }
    rg_close(c);
}

static void test_gateway_every_client_string_with_a_control_byte_refused(void)
{
    int fields = 0;
    for (;; fields++) {
        Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
        pool pl = {{0}, 0};
        int skip = fields;
        m.cmd_id = 40;
        if (!plant(&m.base, &skip, &pl))
            break;
        check_field(&m, fields);
        pool_free(&pl);
    }
    CU_ASSERT(fields >= FIELDS_AT_LEAST);
}

static void test_gateway_printable_strings_still_pass(void)
{
    char pid[64];
    rg_client *c = rg_open_as("plain", pid);
    rg_send_queue_join(c, 5, "dominion", 2);
    char from[DH_ZMQ_ID_MAX + 1];
    Deckhand__Internal__Internal *in =
        rg_expect_internal(rg.mm, from, DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_JOIN);
    deckhand__internal__internal__free_unpacked(in, NULL);
    rg_mm_queue_reply(pid, 5, DECKHAND__ERROR_CODE__OK, NULL);
    rg_expect_reply(c, 5, DECKHAND__ERROR_CODE__OK);
    rg_close(c);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"gateway_every_client_string_with_a_control_byte_refused",
         test_gateway_every_client_string_with_a_control_byte_refused},
        {"gateway_printable_strings_still_pass", test_gateway_printable_strings_still_pass},
        {"gateway_sigterm_exits_zero", rg_test_sigterm_exits_zero},
        {NULL, NULL},
    };
    return rg_main("gateway_strings", cases);
}
