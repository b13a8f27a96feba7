/*
 * listen.c: see listen.h.
 *
 * Why not a uv_tcp_t listener: libuv offers no way to stop accepting on one short of
 * closing it, and when accept fails with EMFILE it calls back again at once, forever,
 * inside one loop turn: the gateway spun at 100% CPU, logged 31.7 million lines in 90 s,
 * and no longer answered probes or SIGTERM. Here the listening socket is our own, watched
 * by a uv_poll_t: out of descriptors, the watch stops and listen_tick restarts it on the
 * next tick (a connection may have closed meanwhile), so the loop keeps turning.
 *
 * --max-conns keeps descriptors for ZeroMQ, Redis and the operator port, so the limit is
 * normally met here, not by EMFILE: a connection past it is accepted, sent a framed
 * Reply{cmd_id 0, OVERLOADED} (TCP) or an HTTP 503 (WebSocket, before the upgrade), and
 * closed at once, and counted (deckhand_gateway_connections_refused_total).
 *
 * An address banned for flooding (flood.h) is refused the same way, with a
 * Reply{cmd_id 0, RATE_LIMITED} (TCP) or an HTTP 429 (WebSocket), and counted
 * (deckhand_gateway_flood_bans_refused_total).
 */
#include "listen.h"

#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <arpa/inet.h>

#include "conn.h"
#include "dh_flags.h"
#include "dh_frame.h"
#include "dh_log.h"
#include "flood.h"

#define LISTEN_BACKLOG 1024
#define LISTEN_BATCH   128 /* accepts per readiness callback, so one flood cannot hog a turn */

size_t listen_default_max_conns(unsigned long fd_limit)
{
    unsigned long reserve = GW_FD_RESERVE + fd_limit / 16;
    return fd_limit > reserve ? (size_t)(fd_limit - reserve) : 1;
}

/* The framed Reply{cmd_id 0, error code + message} a refused TCP client gets, into out
 * (cap bytes); its length, 0 when it does not fit. */
static size_t listen_build_refusal(uint8_t *out, size_t cap, Deckhand__ErrorCode code,
                                   const char *message)
{
    Deckhand__Error err = DECKHAND__ERROR__INIT;
    err.code = code;
    err.message = (char *)message;
    Deckhand__Reply reply = DECKHAND__REPLY__INIT;
    reply.error = &err;
    Deckhand__ServerMessage m = DECKHAND__SERVER_MESSAGE__INIT;
    m.body_case = DECKHAND__SERVER_MESSAGE__BODY_REPLY;
    m.reply = &reply;
    size_t n = deckhand__server_message__get_packed_size(&m);
    if (n + DH_FRAME_HEADER > cap)
        return 0;
    dh_frame_header(out, (uint32_t)n);
    deckhand__server_message__pack(&m, out + DH_FRAME_HEADER);
    return n + DH_FRAME_HEADER;
}

/* Best effort, without blocking: the client is dropped either way. Unread input is
 * drained first so that the close is a FIN, not a reset that could destroy the refusal
 * in the client's buffer. banned: refused for flooding rather than for --max-conns. */
static void listen_refuse(gw *g, struct gw_listener *l, int fd, bool banned)
{
    static const char busy[] = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\n"
                               "Connection: close\r\nContent-Length: 13\r\n\r\ngateway full\n";
    static const char ban[] = "HTTP/1.1 429 Too Many Requests\r\nContent-Type: text/plain\r\n"
                              "Connection: close\r\nContent-Length: 30\r\n\r\n"
                              "refused for a while: flooding\n";
    ssize_t n;
    if (l->ws)
        n = banned ? send(fd, ban, sizeof ban - 1, MSG_NOSIGNAL | MSG_DONTWAIT)
                   : send(fd, busy, sizeof busy - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
    else
        n = banned ? send(fd, g->ban_refusal, g->ban_refusal_len, MSG_NOSIGNAL | MSG_DONTWAIT)
                   : send(fd, g->refusal, g->refusal_len, MSG_NOSIGNAL | MSG_DONTWAIT);
    char sink[512];
    while (n >= 0 && (n = recv(fd, sink, sizeof sink, MSG_DONTWAIT)) > 0)
        ;
    shutdown(fd, SHUT_WR);
    close(fd);
    if (banned) {
        dh_counter_inc(&g->stats.banned);
        dh_info_every(DH_LOG_EVERY_MS, "connection refused: its address is banned for flooding");
        return;
    }
    dh_counter_inc(&g->stats.refused);
    dh_warn_every(DH_LOG_EVERY_MS, "connection refused: %zu connections, the --max-conns limit",
                  g->nconns);
}

/* True when the peer of an accepted socket (its address sa) is banned for flooding. */
static bool listen_banned(gw *g, const struct sockaddr_in *sa, socklen_t len)
{
    char ip[INET_ADDRSTRLEN], key[INET_ADDRSTRLEN + 8];
    if (!g->bans.count || len < sizeof *sa || sa->sin_family != AF_INET ||
        !inet_ntop(AF_INET, &sa->sin_addr, ip, sizeof ip))
        return false;
    flood_addr_key(key, sizeof key, ip);
    return flood_banned(g, key);
}

static void listen_pause(gw *g, struct gw_listener *l, int err)
{
    uv_poll_stop(&l->poll);
    l->paused = true;
    dh_counter_inc(&g->stats.accept_pauses);
    dh_warn_every(DH_LOG_EVERY_MS, "accept paused: %s (%zu connections); retrying every tick",
                  strerror(err), g->nconns);
}

static void listen_on_readable(uv_poll_t *h, int status, int events)
{
    struct gw_listener *l = h->data;
    gw *g = l->gw;
    for (int i = 0; i < LISTEN_BATCH; i++) {
        struct sockaddr_in sa;
        socklen_t salen = sizeof sa;
        int fd = accept4(l->fd, (struct sockaddr *)&sa, &salen, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EINTR || errno == ECONNABORTED)
                continue;
            if (errno != EAGAIN && errno != EWOULDBLOCK)
                listen_pause(g, l, errno); /* EMFILE, ENFILE, ENOBUFS, ENOMEM... */
            return;
        }
        if (listen_banned(g, &sa, salen))
            listen_refuse(g, l, fd, true);
        else if (g->nconns >= g->max_conns)
            listen_refuse(g, l, fd, false);
        else
            conn_adopt(g, fd, l->ws);
    }
}

static int listen_one(gw *g, struct gw_listener *l, const char *addr, bool ws)
{
    const char *what = ws ? "ws" : "tcp";
    char host[128];
    int port = 0, one = 1;
    struct sockaddr_in sa;
    l->gw = g;
    l->fd = -1;
    l->ws = ws;
    l->paused = false;
    if (dh_flags_hostport(addr, host, sizeof host, &port) != 0 ||
        uv_ip4_addr(host, port, &sa) != 0) {
        dh_error("bad %s address %s (want ipv4:port)", what, addr);
        return -1;
    }
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0 ||
        bind(fd, (const struct sockaddr *)&sa, sizeof sa) < 0 || listen(fd, LISTEN_BACKLOG) < 0) {
        dh_error("cannot listen on %s %s: %s", what, addr, strerror(errno));
        goto err;
    }
    if (uv_poll_init_socket(g->loop, &l->poll, fd) < 0) {
        dh_error("cannot watch the %s listener %s", what, addr);
        goto err;
    }
    l->poll.data = l;
    l->fd = fd;
    uv_poll_start(&l->poll, UV_READABLE, listen_on_readable);
    return 0;
err:
    if (fd >= 0)
        close(fd);
    return -1;
}

int listen_start(gw *g)
{
    g->refusal_len =
        listen_build_refusal(g->refusal, sizeof g->refusal, DECKHAND__ERROR_CODE__OVERLOADED,
                             "gateway full: too many connections, retry later");
    g->ban_refusal_len = listen_build_refusal(
        g->ban_refusal, sizeof g->ban_refusal, DECKHAND__ERROR_CODE__RATE_LIMITED,
        "refused for a while: this address flooded the gateway");
    if (g->tcp_addr[0]) {
        if (listen_one(g, &g->tcp_listener, g->tcp_addr, false) < 0)
            return -1;
        g->tcp_listening = true;
    }
    if (g->ws_addr[0]) {
        if (listen_one(g, &g->ws_listener, g->ws_addr, true) < 0)
            return -1;
        g->ws_listening = true;
    }
    return 0;
}

void listen_tick(gw *g)
{
    struct gw_listener *ls[] = {&g->tcp_listener, &g->ws_listener};
    bool on[] = {g->tcp_listening, g->ws_listening};
    for (int i = 0; i < 2; i++) {
        if (on[i] && ls[i]->paused) {
            ls[i]->paused = false;
            uv_poll_start(&ls[i]->poll, UV_READABLE, listen_on_readable);
        }
    }
}

static void listen_close_one(struct gw_listener *l)
{
    uv_close((uv_handle_t *)&l->poll, NULL);
    close(l->fd);
    l->fd = -1;
}

void listen_stop(gw *g)
{
    if (g->tcp_listening)
        listen_close_one(&g->tcp_listener);
    if (g->ws_listening)
        listen_close_one(&g->ws_listener);
    g->tcp_listening = g->ws_listening = false;
}
