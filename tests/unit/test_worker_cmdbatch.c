/*
 * test_worker_cmdbatch.c: a gateway's commands of one loop turn in one message
 * (Internal.player_commands, gateway/cmdbatch.h) at the worker's inbox
 * (worker/worker_control.c), in the rig of rig_worker.h: each command is queued as if it
 * had come alone and gets its own Reply, in order; an entry that is not a packed
 * PlayerCommand (garbage, another message) is dropped alone and changes nothing, and a
 * batch past the bounded inbox is answered OVERLOADED command by command.
 */
#include "rig_worker.h"

#include <string.h>
#include <zmq.h>

#include "dh_clock.h"
#include "worker.h"

#define ENTRIES_MAX 8

/* Send the n entries as one PlayerCommands from gw-t, and let the worker's inbox take it:
 * the commands it refused at once. */
static size_t send_batch(rig_worker *r, inbox *q, ProtobufCBinaryData *entries, size_t n)
{
    Deckhand__Internal__PlayerCommands b = DECKHAND__INTERNAL__PLAYER_COMMANDS__INIT;
    b.n_commands = n;
    b.commands = entries;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_COMMANDS;
    m.player_commands = &b;
    CU_ASSERT_EQUAL_FATAL(dh_zmq_send(r->gw, NULL, &m), 0);
    zmq_pollitem_t it = {r->router, 0, ZMQ_POLLIN, 0};
    CU_ASSERT_EQUAL_FATAL(zmq_poll(&it, 1, 2000), 1);
    return worker_control_receive(&r->h, q);
}

/* The Replies gw-t got, in order: their cmd_ids and codes (0 when ok). */
typedef struct {
    uint64_t ids[ENTRIES_MAX];
    int codes[ENTRIES_MAX];
    size_t n;
} replies;

/* Works the inbox, flushes the outputs and reads the Replies gw-t got into *out. */
static void work_and_read_replies(rig_worker *r, inbox *q, replies *out)
{
    worker_control_work(&r->h, q, dh_now_ms() + 5000);
    host_flush(&r->h, dh_now_ms());
    rig_outbox o = {0};
    rig_worker_gw_drain(r, &o);
    out->n = 0;
    for (size_t i = 0; i < o.n; i++) {
        const Deckhand__ServerMessage *sm = o.msg[i];
        if (sm->body_case != DECKHAND__SERVER_MESSAGE__BODY_REPLY || out->n == ENTRIES_MAX)
            continue;
        out->ids[out->n] = sm->reply->cmd_id;
        out->codes[out->n] = sm->reply->ok ? 0 : (int)sm->reply->error->code;
        out->n++;
    }
    rig_outbox_free(&o);
}

/* The i-th Reply answered cmd_id id with code (0 when ok). */
static void check_reply(const replies *got, size_t i, uint64_t id, int code)
{
    CU_ASSERT_EQUAL(got->ids[i], id);
    CU_ASSERT_EQUAL(got->codes[i], code);
}

static void test_worker_batch_each_command_answered_and_a_bad_entry_dropped_alone(void)
{
    rig_worker r;
    rig_worker_open_real_clock(&r, "m-cb");
    inbox q;
    inbox_init(&q, 0);
    uint8_t a[RIG_WORKER_RESYNC_MAX], b[RIG_WORKER_RESYNC_MAX], other[64],
        garbage[] = {0xff, 0xff, 0xff};
    Deckhand__Internal__Internal notice = DECKHAND__INTERNAL__INTERNAL__INIT;
    Deckhand__Internal__WorkerBeat wb = DECKHAND__INTERNAL__WORKER_BEAT__INIT;
    notice.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_BEAT;
    notice.worker_beat = &wb;
    ProtobufCBinaryData e[4] = {
        {rig_worker_pack_resync(a, "m-cb", rig_worker_players[0], 101), a},
        {sizeof garbage, garbage},
        {deckhand__internal__internal__pack(&notice, other), other},
        {rig_worker_pack_resync(b, "m-cb", rig_worker_players[1], 102), b},
    };
    CU_ASSERT_EQUAL(send_batch(&r, &q, e, 4), 0);
    CU_ASSERT_EQUAL_FATAL(inbox_len(&q), 2); /* the two commands; the rest dropped */
    replies got;
    work_and_read_replies(&r, &q, &got);
    CU_ASSERT_EQUAL_FATAL(got.n, 2);
    check_reply(&got, 0, 101, 0);
    check_reply(&got, 1, 102, 0);

    /* nothing changed: the same commands alone are answered as before */
    ProtobufCBinaryData again[1] = {
        {rig_worker_pack_resync(a, "m-cb", rig_worker_players[0], 103), a}};
    CU_ASSERT_EQUAL(send_batch(&r, &q, again, 1), 0);
    work_and_read_replies(&r, &q, &got);
    CU_ASSERT_EQUAL_FATAL(got.n, 1);
    check_reply(&got, 0, 103, 0);
    inbox_free(&q);
    rig_worker_close(&r);
}

static void test_worker_batch_past_the_inbox_is_refused_command_by_command(void)
{
    rig_worker r;
    rig_worker_open_real_clock(&r, "m-cb2");
    inbox q;
    inbox_init(&q, 2); /* room for two */
    uint8_t buf[3][RIG_WORKER_RESYNC_MAX];
    ProtobufCBinaryData e[3];
    for (size_t i = 0; i < 3; i++)
        e[i] = (ProtobufCBinaryData){
            rig_worker_pack_resync(buf[i], "m-cb2", rig_worker_players[i % 2], 201 + i), buf[i]};
    CU_ASSERT_EQUAL(send_batch(&r, &q, e, 3), 1);
    CU_ASSERT_EQUAL_FATAL(inbox_len(&q), 2);
    replies got;
    work_and_read_replies(&r, &q, &got);
    CU_ASSERT_EQUAL_FATAL(got.n, 3);
    /* the refusal goes at once; the two queued are answered when worked */
    check_reply(&got, 0, 203, DECKHAND__ERROR_CODE__OVERLOADED);
    check_reply(&got, 1, 201, 0);
    check_reply(&got, 2, 202, 0);
    inbox_free(&q);
    rig_worker_close(&r);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"worker_batch_each_command_answered_and_a_bad_entry_dropped_alone",
         test_worker_batch_each_command_answered_and_a_bad_entry_dropped_alone},
        {"worker_batch_past_the_inbox_is_refused_command_by_command",
         test_worker_batch_past_the_inbox_is_refused_command_by_command},
        {NULL, NULL},
    };
    return rig_worker_main("worker_cmdbatch", cases);
}
