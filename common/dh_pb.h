/*
 * dh_pb.h: setting a protobuf-c oneof in one step. Every message the processes and the
 * client send is a ServerMessage, ClientMessage or Internal whose body is a oneof; spelled
 * by hand that is two assignments that must agree (`m.body_case = ..._BODY_GAMES;
 * m.games = &games;`). dh_pb_oneof sets both from the member's field number, found in the
 * generated descriptor, and checks that the body is of the member's type.
 */
#ifndef DECKHAND_DH_PB_H
#define DECKHAND_DH_PB_H

#include <protobuf-c/protobuf-c.h>

/* Points the oneof member numbered field of msg at body and sets that oneof's case to it.
 * msg and body are protobuf-c messages (their first member is the base); body stays the
 * caller's. Returns msg. A field that is not a message member of a oneof of msg, or a body
 * of another type, is a programming error (assert). */
void *dh_pb_oneof(void *msg, unsigned field, void *body);

#endif
