/*
 * notify.c: a ServerMessage for one player, sent to its gateway as mm_output (see
 * notify.h).
 */
#include "notify.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_log.h"
#include "dh_pb.h"
#include "mm_store.h"

static int notify_send(mm_state *mm, const char *gateway, const char *player_id,
                       const Deckhand__ServerMessage *m)
{
    if (!gateway || !*gateway)
        return 0;
    size_t len = deckhand__server_message__get_packed_size(m);
    uint8_t *buf = malloc(len ? len : 1);
    if (!buf) {
        dh_warn_every(DH_LOG_EVERY_MS, "out of memory telling player %s", player_id);
        return -1;
    }
    deckhand__server_message__pack(m, buf);
    Deckhand__Internal__PlayerOutput o = DECKHAND__INTERNAL__PLAYER_OUTPUT__INIT;
    o.player_id = (char *)player_id;
    o.message.data = buf;
    o.message.len = len;
    Deckhand__Internal__Internal msg = DECKHAND__INTERNAL__INTERNAL__INIT;
    msg.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_MM_OUTPUT;
    msg.mm_output = &o;
    if (gwout_send(mm, gateway, &msg) < 0)
        dh_warn_every(DH_LOG_EVERY_MS, "cannot tell player %s via gateway %s: %s", player_id,
                      gateway, strerror(errno));
    free(buf);
    return 0;
}

int notify_body(mm_state *mm, const char *gateway, const char *player_id,
                Deckhand__ServerMessage__BodyCase body_case, void *body)
{
    Deckhand__ServerMessage m = DECKHAND__SERVER_MESSAGE__INIT;
    return notify_send(mm, gateway, player_id, dh_pb_oneof(&m, (unsigned)body_case, body));
}
