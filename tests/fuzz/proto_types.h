/*
 * proto_types.h: every message type of proto/deckhand.proto and proto/internal.proto, in
 * the order the `proto` fuzz target numbers them (its inputs start with the index), shared
 * with the seed writer so that seeds name the type they hold. Keep it in step with the
 * .proto files: a type missing here is fuzzed only inside the messages that hold it.
 */
#ifndef DECKHAND_FUZZ_PROTO_TYPES_H
#define DECKHAND_FUZZ_PROTO_TYPES_H

#include "deckhand.pb-c.h"
#include "internal.pb-c.h"

static const ProtobufCMessageDescriptor *const proto_types[] = {
    &deckhand__client_message__descriptor,
    &deckhand__hello__descriptor,
    &deckhand__queue_join__descriptor,
    &deckhand__queue_leave__descriptor,
    &deckhand__choose__descriptor,
    &deckhand__resync__descriptor,
    &deckhand__ping__descriptor,
    &deckhand__server_message__descriptor,
    &deckhand__error__descriptor,
    &deckhand__reply__descriptor,
    &deckhand__welcome__descriptor,
    &deckhand__match_found__descriptor,
    &deckhand__event__descriptor,
    &deckhand__option__descriptor,
    &deckhand__decision_request__descriptor,
    &deckhand__card__descriptor,
    &deckhand__zone__descriptor,
    &deckhand__counter__descriptor,
    &deckhand__card_info__descriptor,
    &deckhand__player_info__descriptor,
    &deckhand__catalog__descriptor,
    &deckhand__view__descriptor,
    &deckhand__view_delta__descriptor,
    &deckhand__player_result__descriptor,
    &deckhand__game_over__descriptor,
    &deckhand__pong__descriptor,
    &deckhand__internal__internal__descriptor,
    &deckhand__internal__game_info__descriptor,
    &deckhand__internal__worker_hello__descriptor,
    &deckhand__internal__worker_beat__descriptor,
    &deckhand__internal__seat__descriptor,
    &deckhand__internal__queue_settings__descriptor,
    &deckhand__internal__start_match__descriptor,
    &deckhand__internal__adopt_match__descriptor,
    &deckhand__internal__match_adopted__descriptor,
    &deckhand__internal__match_moved__descriptor,
    &deckhand__internal__player_away__descriptor,
    &deckhand__internal__player_back__descriptor,
    &deckhand__internal__match_started__descriptor,
    &deckhand__internal__match_ended__descriptor,
    &deckhand__internal__gateway_hello__descriptor,
    &deckhand__internal__queue_join__descriptor,
    &deckhand__internal__queue_leave__descriptor,
    &deckhand__internal__queue_reply__descriptor,
    &deckhand__internal__match_assigned__descriptor,
    &deckhand__internal__player_command__descriptor,
    &deckhand__internal__away__descriptor,
    &deckhand__internal__player_output__descriptor,
    &deckhand__internal__ticket_record__descriptor,
    &deckhand__internal__placement_record__descriptor,
};

#define PROTO_NTYPES (sizeof proto_types / sizeof proto_types[0])

#endif
