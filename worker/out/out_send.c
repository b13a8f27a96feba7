/*
 * out_send.c: one ServerMessage to one player, as a PlayerOutput through the gateway that
 * carries the player, marked with what it carries (PlayerOutput.kind: a Reply, a GameOver,
 * or other), into the loop turn's batch for that gateway (out_batch.c), and control messages
 * to the matchmaker (see out.h). The rest of the wing sends through here; out_watch.c packs a frame
 * once and sends the same bytes to every watcher (out_send_packed).
 */
#include "out.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dh_log.h"

/* The match sm is about, or "": the bodies whose match_id names the match they are
 * about, which the gateway drops from a worker that lost that match. Every other body
 * goes out about no match: a Reply, a Catalog (card data, harmless from such a worker),
 * a ReplayFrame or a SpectatorFrame (about finished or watched matches any worker may
 * serve). */
static const char *out_message_match(const Deckhand__ServerMessage *sm)
{
    const char *id = NULL;
    switch (sm->body_case) {
    case DECKHAND__SERVER_MESSAGE__BODY_EVENT:
        id = sm->event->match_id;
        break;
    case DECKHAND__SERVER_MESSAGE__BODY_DECISION:
        id = sm->decision->match_id;
        break;
    case DECKHAND__SERVER_MESSAGE__BODY_VIEW:
        id = sm->view->match_id;
        break;
    case DECKHAND__SERVER_MESSAGE__BODY_VIEW_DELTA:
        id = sm->view_delta->match_id;
        break;
    case DECKHAND__SERVER_MESSAGE__BODY_GAME_OVER:
        id = sm->game_over->match_id;
        break;
    case DECKHAND__SERVER_MESSAGE__BODY_MATCH_FOUND:
        id = sm->match_found->match_id;
        break;
    case DECKHAND__SERVER_MESSAGE__BODY_CHAT:
        id = sm->chat->match_id;
        break;
    case DECKHAND__SERVER_MESSAGE__BODY_UNDO:
        id = sm->undo->match_id;
        break;
    default:
        break;
    }
    return id ? id : "";
}

/* What the gateway must know a ServerMessage to be (PlayerOutput.kind). */
static Deckhand__Internal__PlayerOutput__Kind out_message_kind(const Deckhand__ServerMessage *sm)
{
    if (sm->body_case == DECKHAND__SERVER_MESSAGE__BODY_REPLY)
        return DECKHAND__INTERNAL__PLAYER_OUTPUT__KIND__REPLY;
    if (sm->body_case == DECKHAND__SERVER_MESSAGE__BODY_GAME_OVER)
        return DECKHAND__INTERNAL__PLAYER_OUTPUT__KIND__GAME_OVER;
    return DECKHAND__INTERNAL__PLAYER_OUTPUT__KIND__OTHER;
}

int out_send_packed(host *h, const char *route, const char *player_id, const char *match_id,
                    Deckhand__Internal__PlayerOutput__Kind kind, const uint8_t *msg, size_t len)
{
    return out_batch_put(h, route, player_id, match_id, kind, NULL, msg, len) < 0 ? -1 : 0;
}

size_t out_send(host *h, const char *route, const char *player_id,
                const Deckhand__ServerMessage *sm)
{
    if (!route || !*route)
        return 0;
    ptrdiff_t len = out_batch_put(h, route, player_id, out_message_match(sm), out_message_kind(sm),
                                  sm, NULL, 0);
    return len > 0 ? (size_t)len : 0;
}

void out_reply(host *h, const char *route, const char *player_id, uint64_t cmd_id, int code,
               const char *text)
{
    Deckhand__Reply r = DECKHAND__REPLY__INIT;
    Deckhand__Error e = DECKHAND__ERROR__INIT;
    r.cmd_id = cmd_id;
    r.ok = code == 0;
    if (code) {
        dh_ops_count_code(h->stats.refused, code);
        e.code = (Deckhand__ErrorCode)code;
        e.message = (char *)(text ? text : "");
        r.error = &e;
    }
    Deckhand__ServerMessage sm = DECKHAND__SERVER_MESSAGE__INIT;
    sm.body_case = DECKHAND__SERVER_MESSAGE__BODY_REPLY;
    sm.reply = &r;
    out_send(h, route, player_id, &sm);
}

int out_control_send(host *h, Deckhand__Internal__Internal__BodyCase body, void *msg)
{
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    const ProtobufCFieldDescriptor *f = protobuf_c_message_descriptor_get_field(
        &deckhand__internal__internal__descriptor, (unsigned)body);
    m.body_case = body;
    *(void **)((char *)&m + f->offset) = msg; /* the oneof's member of that case */
    return dh_zmq_send(h->dealer, NULL, &m);
}

void out_control(host *h, Deckhand__Internal__Internal__BodyCase body, void *msg)
{
    if (out_control_send(h, body, msg) < 0)
        dh_warn_every(DH_LOG_EVERY_MS, "cannot reach the matchmaker: %s", strerror(errno));
}

void out_match_started(host *h, const char *match_id, bool ok, const char *error)
{
    Deckhand__Internal__MatchStarted ms = DECKHAND__INTERNAL__MATCH_STARTED__INIT;
    ms.match_id = (char *)match_id;
    ms.ok = ok;
    ms.error = (char *)(error ? error : "");
    ms.worker_id = (char *)h->worker_id;
    out_control(h, DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_STARTED, &ms);
}
