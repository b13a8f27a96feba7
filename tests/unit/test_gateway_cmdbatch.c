/*
 * test_gateway_cmdbatch.c: the commands one gateway loop turn sends a worker go as one
 * message (gateway/cmdbatch.h), with the real deckhand-gateway binary (rig_gateway.h):
 * a client's commands read in one turn reach the fake worker as one PlayerCommands, in
 * order, and each gets its own Reply; a lone command still goes as itself. And the batch
 * itself, without a gateway: a lone entry is its own packed Internal, several unpack as
 * the commands put in, and each entry remembers its sender.
 */
#include <stdlib.h>
#include <string.h>

#include "cmdbatch.h"
#include "dh_client_msg.h"
#include "rig_gateway.h"

/* Frame the client messages ms into one buffer and write it with one send, so the
 * gateway reads them all in one loop turn. */
static void send_in_one_write(rg_client *c, Deckhand__ClientMessage **ms, size_t n)
{
    uint8_t buf[4096];
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        size_t sz = deckhand__client_message__get_packed_size(ms[i]);
        CU_ASSERT_FATAL(len + DH_FRAME_HEADER + sz <= sizeof buf);
        dh_frame_header(buf + len, (uint32_t)sz);
        deckhand__client_message__pack(ms[i], buf + len + DH_FRAME_HEADER);
        len += DH_FRAME_HEADER + sz;
    }
    rg_send_all(c->fd, buf, len);
}

static void test_gateway_commands_of_one_turn_go_as_one_batch_each_answered(void)
{
    char pid[64];
    rg_client *c = rg_open_in_match("bea", pid, "m-b1");
    /* (its attach taken by rg_open_in_match) */
    rg_worker_answer(rg.worker, pid, 0, DECKHAND__ERROR_CODE__OK);
    size_t batches = rg_batches_seen;

    dh_client_msg msg[3];
    static const uint32_t ids[1] = {1};
    Deckhand__ClientMessage *ms[3] = {
        dh_client_msg_resync(&msg[0], "m-b1"),
        dh_client_msg_choose(&msg[1], "m-b1", 7, ids, 1),
        dh_client_msg_resync(&msg[2], "m-b1"),
    };
    for (int i = 0; i < 3; i++)
        ms[i]->cmd_id = 31 + (uint64_t)i;
    send_in_one_write(c, ms, 3);
    rg_expect_command(rg.worker, "m-b1", pid, 31, DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_RESYNC);
    rg_expect_command(rg.worker, "m-b1", pid, 32, DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_CHOOSE);
    rg_expect_command(rg.worker, "m-b1", pid, 33, DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_RESYNC);
    CU_ASSERT_EQUAL(rg_batches_seen, batches + 1);

    /* each its own Reply, whatever order the worker answers in */
    rg_worker_answer(rg.worker, pid, 33, DECKHAND__ERROR_CODE__OK);
    rg_worker_answer(rg.worker, pid, 31, DECKHAND__ERROR_CODE__OK);
    rg_worker_answer(rg.worker, pid, 32, DECKHAND__ERROR_CODE__BAD_REQUEST);
    rg_expect_reply(c, 33, DECKHAND__ERROR_CODE__OK);
    rg_expect_reply(c, 31, DECKHAND__ERROR_CODE__OK);
    rg_expect_reply(c, 32, DECKHAND__ERROR_CODE__BAD_REQUEST);

    /* a lone command is no batch */
    rg_send_resync(c, 34, "m-b1");
    rg_expect_round_trip(c, rg.worker, "m-b1", pid, 34,
                         DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_RESYNC, DECKHAND__ERROR_CODE__OK);
    CU_ASSERT_EQUAL(rg_batches_seen, batches + 1);
    rg_close(c);
}

/* An Internal holding a Resync PlayerCommand of player for match, as cmd_id. */
static void resync_command(Deckhand__Internal__Internal *m, Deckhand__Internal__PlayerCommand *pc,
                           Deckhand__Resync *rs, const char *player, uint64_t cmd_id)
{
    *rs = (Deckhand__Resync)DECKHAND__RESYNC__INIT;
    rs->match_id = (char *)"m-x";
    *pc = (Deckhand__Internal__PlayerCommand)DECKHAND__INTERNAL__PLAYER_COMMAND__INIT;
    pc->match_id = (char *)"m-x";
    pc->player_id = (char *)player;
    pc->cmd_id = cmd_id;
    pc->body_case = DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_RESYNC;
    pc->resync = rs;
    *m = (Deckhand__Internal__Internal)DECKHAND__INTERNAL__INTERNAL__INIT;
    m->body_case = DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_COMMAND;
    m->player_command = pc;
}

static void test_cmdbatch_lone_entry_is_itself_and_several_unpack_in_order(void)
{
    Deckhand__Internal__Internal m[3];
    Deckhand__Internal__PlayerCommand pc[3];
    Deckhand__Resync rs[3];
    static const char *players[3] = {"p-a", "p-b", ""};
    cmdbatch b;
    cmdbatch_init(&b);
    const uint8_t *data;
    size_t len;
    for (int round = 0; round < 2; round++) { /* cleared, the batch is used again */
        resync_command(&m[0], &pc[0], &rs[0], players[0], 1);
        CU_ASSERT_EQUAL_FATAL(cmdbatch_add(&b, &m[0], players[0], 1), 0);
        cmdbatch_message(&b, &data, &len);
        Deckhand__Internal__Internal *u = deckhand__internal__internal__unpack(NULL, len, data);
        CU_ASSERT_FATAL(u != NULL);
        CU_ASSERT_EQUAL(u->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_COMMAND);
        CU_ASSERT_EQUAL(u->player_command->cmd_id, 1);
        deckhand__internal__internal__free_unpacked(u, NULL);

        uint8_t packed[256];
        resync_command(&m[1], &pc[1], &rs[1], players[1], 2);
        size_t n = deckhand__internal__internal__pack(&m[1], packed);
        CU_ASSERT_EQUAL_FATAL(cmdbatch_add_packed(&b, packed, n, players[1], 2), 0);
        resync_command(&m[2], &pc[2], &rs[2], players[2], 0);
        CU_ASSERT_EQUAL_FATAL(cmdbatch_add(&b, &m[2], players[2], 0), 0);
        cmdbatch_message(&b, &data, &len);
        u = deckhand__internal__internal__unpack(NULL, len, data);
        CU_ASSERT_FATAL(u != NULL);
        CU_ASSERT_EQUAL_FATAL(u->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_COMMANDS);
        CU_ASSERT_EQUAL_FATAL(u->player_commands->n_commands, 3);
        CU_ASSERT_EQUAL_FATAL(b.n, 3);
        for (size_t i = 0; i < 3; i++) {
            ProtobufCBinaryData *e = &u->player_commands->commands[i];
            Deckhand__Internal__Internal *one =
                deckhand__internal__internal__unpack(NULL, e->len, e->data);
            CU_ASSERT_FATAL(one != NULL);
            CU_ASSERT_STRING_EQUAL(one->player_command->player_id, players[i]);
            CU_ASSERT_EQUAL(one->player_command->cmd_id, i == 2 ? 0 : i + 1);
            CU_ASSERT_STRING_EQUAL(b.owners[i].player_id, players[i]);
            CU_ASSERT_EQUAL(b.owners[i].cmd_id, i == 2 ? 0 : i + 1);
            deckhand__internal__internal__free_unpacked(one, NULL);
        }
        deckhand__internal__internal__free_unpacked(u, NULL);
        cmdbatch_clear(&b);
        CU_ASSERT_EQUAL(b.n, 0);
    }
    cmdbatch_free(&b);
}

/* A batch past 127 bytes needs a length of two varint bytes, and past 16,383 of three. */
static void test_cmdbatch_long_batches_keep_their_length_right(void)
{
    Deckhand__Internal__Internal m;
    Deckhand__Internal__PlayerCommand pc;
    Deckhand__Resync rs;
    resync_command(&m, &pc, &rs, "p-long", 9);
    cmdbatch b;
    cmdbatch_init(&b);
    for (size_t n = 1; n <= 1000; n++) {
        CU_ASSERT_EQUAL_FATAL(cmdbatch_add(&b, &m, "p-long", 9), 0);
        if (n != 2 && n != 10 && n != 1000)
            continue;
        const uint8_t *data;
        size_t len;
        cmdbatch_message(&b, &data, &len);
        Deckhand__Internal__Internal *u = deckhand__internal__internal__unpack(NULL, len, data);
        CU_ASSERT_FATAL(u != NULL);
        CU_ASSERT_EQUAL(u->player_commands->n_commands, n);
        deckhand__internal__internal__free_unpacked(u, NULL);
    }
    cmdbatch_free(&b);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"gateway_commands_of_one_turn_go_as_one_batch_each_answered",
         test_gateway_commands_of_one_turn_go_as_one_batch_each_answered},
        {"cmdbatch_lone_entry_is_itself_and_several_unpack_in_order",
         test_cmdbatch_lone_entry_is_itself_and_several_unpack_in_order},
        {"cmdbatch_long_batches_keep_their_length_right",
         test_cmdbatch_long_batches_keep_their_length_right},
        {"gateway_sigterm_exits_zero", rg_test_sigterm_exits_zero},
        {NULL, NULL},
    };
    return rg_main("gateway_cmdbatch", cases);
}
