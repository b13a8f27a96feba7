/*
 * dh_client_msg.h: the client's messages to the gateway (deckhand.proto ClientMessage),
 * built on the caller's stack. The CLI (play, bots), the client library's login and the
 * tests all send the same few bodies; building them here keeps one spelling of each.
 *
 *   dh_client_msg msg;
 *   Deckhand__ClientMessage *m = dh_client_msg_resync(&msg, match_id);
 *   m->cmd_id = dh_client_next_cmd(c);
 *   dh_client_send(c, m);
 *
 * The message points at its body inside the same dh_client_msg and borrows every string
 * and array it is given: they must outlive the send. cmd_id is left 0 for the caller.
 */
#ifndef DECKHAND_DH_CLIENT_MSG_H
#define DECKHAND_DH_CLIENT_MSG_H

#include <stddef.h>
#include <stdint.h>

#include "deckhand.pb-c.h"

typedef struct {
    Deckhand__ClientMessage m;
    union {
        Deckhand__Hello hello;
        Deckhand__Ping ping;
        Deckhand__QueueJoin queue_join;
        Deckhand__QueueLeave queue_leave;
        Deckhand__Resync resync;
        Deckhand__Choose choose;
    } body;
} dh_client_msg;

/* The one place a ClientMessage is started: m becomes a message whose oneof body is the
 * message at body, the member numbered body_case (its type must be that member's). The
 * builders here and in dh_client_social.h end with it. Returns m, borrowing body. */
Deckhand__ClientMessage *dh_client_msg_wrap(Deckhand__ClientMessage *m,
                                            Deckhand__ClientMessage__BodyCase body_case,
                                            void *body);
/* The same for a body without fields: body is made an empty message of type desc. */
Deckhand__ClientMessage *dh_client_msg_empty(Deckhand__ClientMessage *m,
                                             Deckhand__ClientMessage__BodyCase body_case,
                                             const ProtobufCMessageDescriptor *desc, void *body);

/* Each fills out and returns &out->m. */
Deckhand__ClientMessage *dh_client_msg_hello(dh_client_msg *out, const char *name,
                                             const char *token);
Deckhand__ClientMessage *dh_client_msg_ping(dh_client_msg *out, uint64_t nonce);
Deckhand__ClientMessage *dh_client_msg_queue_join(dh_client_msg *out, const char *game,
                                                  uint32_t players);
Deckhand__ClientMessage *dh_client_msg_queue_leave(dh_client_msg *out, const char *game);
Deckhand__ClientMessage *dh_client_msg_resync(dh_client_msg *out, const char *match_id);
Deckhand__ClientMessage *dh_client_msg_choose(dh_client_msg *out, const char *match_id,
                                              uint64_t decision_id, const uint32_t *ids, size_t n);
/* A Choose that asks the server to answer decision_id as the game's bot `bot` would
 * (Choose.bot, docs/PROTOCOL.md): no option ids. */
Deckhand__ClientMessage *dh_client_msg_choose_bot(dh_client_msg *out, const char *match_id,
                                                  uint64_t decision_id, const char *bot);

/* m's protobuf bytes into buf (cap bytes) when m is a Choose, written here as protobuf-c
 * writes them (the same bytes: proto3, fields in order, defaults left out, option_ids
 * packed) without its descriptor-driven get_packed_size and pack: an answer, sent once
 * per decision by a load generator. The length, or 0 when m is not a Choose without
 * unknown fields, or does not fit: the caller packs it the usual way. */
size_t dh_client_msg_pack_choose(const Deckhand__ClientMessage *m, uint8_t *buf, size_t cap);

#endif
