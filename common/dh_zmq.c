/*
 * dh_zmq.c: see dh_zmq.h.
 */
#include "dh_zmq.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

#include "dh_log.h"

static _Thread_local uint64_t zmq_sends; /* dh_zmq_send calls made by this thread */

uint64_t dh_zmq_sends(void)
{
    return zmq_sends;
}

int dh_zmq_send(void *sock, const char *identity, const Deckhand__Internal__Internal *msg)
{
    zmq_sends++; /* counted before libzmq sees it: even a refused send may process commands */
    size_t len = deckhand__internal__internal__get_packed_size(msg);
    uint8_t stackbuf[4096];
    uint8_t *buf = len <= sizeof stackbuf ? stackbuf : malloc(len);
    if (!buf) {
        errno = ENOMEM;
        return -1;
    }
    deckhand__internal__internal__pack(msg, buf);
    int rc = 0;
    if (identity && zmq_send(sock, identity, strlen(identity), ZMQ_SNDMORE | ZMQ_DONTWAIT) < 0)
        rc = -1;
    if (rc == 0 && zmq_send(sock, buf, len, ZMQ_DONTWAIT) < 0)
        rc = -1;
    if (buf != stackbuf) {
        int saved = errno;
        free(buf);
        errno = saved;
    }
    return rc;
}

/* Read and discard the rest of a multipart message. */
static void zmq_skip_rest(void *sock)
{
    int more = 0;
    size_t sz = sizeof more;
    zmq_getsockopt(sock, ZMQ_RCVMORE, &more, &sz);
    while (more) {
        zmq_msg_t part;
        zmq_msg_init(&part);
        zmq_msg_recv(&part, sock, ZMQ_DONTWAIT);
        zmq_msg_close(&part);
        zmq_getsockopt(sock, ZMQ_RCVMORE, &more, &sz);
    }
}

bool dh_zmq_role_may_send(const char *role, int body_case)
{
    if (!role || !role[0])
        return true; /* no CURVE on this link: nothing to check against */
    switch (body_case) {
    case DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_HELLO:
    case DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_BEAT:
    case DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_STARTED:
    case DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ENDED:
    case DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ADOPTED:
    case DECKHAND__INTERNAL__INTERNAL__BODY_ADMIN_INFO:
        return strcmp(role, "worker") == 0;
    case DECKHAND__INTERNAL__INTERNAL__BODY_GATEWAY_HELLO:
    case DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_JOIN:
    case DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_LEAVE:
    case DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_AWAY:
    case DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_BACK:
    case DECKHAND__INTERNAL__INTERNAL__BODY_CLIENT_REQUEST:
    case DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_COMMAND:
    case DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_COMMANDS:
        return strcmp(role, "gateway") == 0;
    default: /* what only servers send (MatchAssigned, StartMatch...) never reaches a ROUTER */
        return false;
    }
}

int dh_zmq_recv_frame(void *sock, char *identity, zmq_msg_t *body)
{
    zmq_msg_init(body);
    if (zmq_msg_recv(body, sock, ZMQ_DONTWAIT) < 0) {
        zmq_msg_close(body);
        return 0;
    }
    if (identity) {
        size_t n = zmq_msg_size(body);
        if (n > DH_ZMQ_ID_MAX || !zmq_msg_more(body)) {
            zmq_msg_close(body);
            zmq_skip_rest(sock);
            dh_warn("dropped a message with a bad identity frame");
            return -1;
        }
        memcpy(identity, zmq_msg_data(body), n);
        identity[n] = '\0';
        zmq_msg_close(body);
        zmq_msg_init(body);
        if (zmq_msg_recv(body, sock, ZMQ_DONTWAIT) < 0) {
            zmq_msg_close(body);
            return -1;
        }
    }
    if (zmq_msg_more(body))
        zmq_skip_rest(sock);
    return 1;
}

bool dh_zmq_frame_may_send(zmq_msg_t *body, const char *identity, int body_case)
{
    /* The sender's role, from the ZAP handler (dh_zap.h), when the link is CURVE. */
    const char *role = identity ? zmq_msg_gets(body, "User-Id") : NULL;
    return dh_zmq_role_may_send(role, body_case);
}

int dh_zmq_unpack_frame(zmq_msg_t *body, const char *identity, ProtobufCAllocator *pa,
                        Deckhand__Internal__Internal **out)
{
    *out = deckhand__internal__internal__unpack(pa, zmq_msg_size(body), zmq_msg_data(body));
    bool allowed = !*out || dh_zmq_frame_may_send(body, identity, (int)(*out)->body_case);
    zmq_msg_close(body);
    if (!*out) {
        dh_warn("dropped an undecodable internal message");
        return -1;
    }
    if (!allowed) {
        dh_warn("dropped internal message %d from %s: its key's role may not send it",
                (int)(*out)->body_case, identity);
        deckhand__internal__internal__free_unpacked(*out, pa);
        *out = NULL;
        return -1;
    }
    return 1;
}

int dh_zmq_recv(void *sock, char *identity, Deckhand__Internal__Internal **out)
{
    zmq_msg_t body;
    int rc = dh_zmq_recv_frame(sock, identity, &body);
    return rc == 1 ? dh_zmq_unpack_frame(&body, identity, NULL, out) : rc;
}

bool dh_zmq_readable(void *sock)
{
    int events = 0;
    size_t sz = sizeof events;
    if (zmq_getsockopt(sock, ZMQ_EVENTS, &events, &sz) < 0)
        return false;
    return (events & ZMQ_POLLIN) != 0;
}

void *dh_zmq_socket(void *ctx, int type, const char *id, int hwm)
{
    void *s = zmq_socket(ctx, type);
    if (!s)
        return NULL;
    int zero = 0, one = 1;
    zmq_setsockopt(s, ZMQ_LINGER, &zero, sizeof zero);
    zmq_setsockopt(s, ZMQ_SNDHWM, &hwm, sizeof hwm);
    zmq_setsockopt(s, ZMQ_RCVHWM, &hwm, sizeof hwm);
    if (id)
        zmq_setsockopt(s, ZMQ_ROUTING_ID, id, strlen(id));
    if (type == ZMQ_ROUTER)
        zmq_setsockopt(s, ZMQ_ROUTER_MANDATORY, &one, sizeof one);
    return s;
}

void *dh_zmq_monitor_open(void *ctx, void *sock, const char *ep, int events)
{
    if (zmq_socket_monitor(sock, ep, events) < 0)
        return NULL;
    void *mon = zmq_socket(ctx, ZMQ_PAIR);
    int linger = 0;
    if (mon && zmq_setsockopt(mon, ZMQ_LINGER, &linger, sizeof linger) == 0 &&
        zmq_connect(mon, ep) == 0)
        return mon;
    if (mon) {
        int saved = errno;
        zmq_close(mon);
        errno = saved;
    }
    return NULL;
}

unsigned dh_zmq_monitor_event(void *mon)
{
    zmq_msg_t part;
    unsigned event = 0;
    zmq_msg_init(&part);
    if (zmq_msg_recv(&part, mon, ZMQ_DONTWAIT) >= 0) {
        event = ~0u; /* something was read: a reader that drains keeps reading */
        if (zmq_msg_size(&part) >= 2) {
            uint16_t e;
            memcpy(&e, zmq_msg_data(&part), sizeof e);
            event = e ? e : ~0u;
        }
        while (zmq_msg_more(&part) && zmq_msg_recv(&part, mon, ZMQ_DONTWAIT) >= 0)
            ; /* the endpoint */
    }
    zmq_msg_close(&part);
    return event;
}
