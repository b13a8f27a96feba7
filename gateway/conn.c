/*
 * conn.c: client sockets on libuv: listeners, reads into the frame decoder or wslay,
 * bounded write queues, orderly and forced closes.
 *
 * Why this shape: thousands of connections share one loop, so nothing here blocks and
 * every connection's memory is bounded: the read side by the frame limit, the write side
 * by GW_WRITE_CAP (a client that stops reading is dropped rather than buffered forever).
 * An idle connection holds no buffer: reads land in the loop's one read buffer, a partial
 * frame is kept only until it completes, and output lives only until it is written.
 *
 * Writes are coalesced: what a loop turn sends to a connection (often several messages
 * after one command) is appended to its output and written once, by a check handle after
 * the turn's I/O, with uv_try_write when nothing is queued; only what the kernel did not
 * take goes to a uv_write request, which takes the output buffer over without a copy. One
 * system call per connection per turn instead of one per message.
 *
 * What a connection receives goes up through g->conn_events (the session layer's, set by
 * main.c): this module sits below the session layer and never calls it.
 */
#include "conn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dh_grow.h"
#include "dh_log.h"
#include "dh_ws.h"
#include "static.h"

typedef struct {
    uv_write_t req;
    gw_conn *conn;
    uint8_t *buf; /* owned: the connection's output buffer, handed over */
    size_t len;   /* bytes still to write, from buf + off */
    size_t off;
} conn_write_req;

/* Forget the connection's output (written, or closed without a flush): a buffer of the
 * pooled size goes back to the loop's pool while it has room. */
static void conn_out_drop(gw_conn *c)
{
    gw *g = c->gw;
    if (c->out && c->out_cap == GW_OUT_POOLED && g->out_pool_n < GW_OUT_POOL)
        g->out_pool[g->out_pool_n++] = c->out;
    else
        free(c->out);
    c->out = NULL;
    c->out_len = c->out_cap = 0;
}

/* Room for need bytes of output: a pooled buffer first (no malloc), grown as needed. */
static int conn_out_room(gw_conn *c, size_t need)
{
    gw *g = c->gw;
    if (!c->out && need <= GW_OUT_POOLED && g->out_pool_n > 0) {
        c->out = g->out_pool[--g->out_pool_n];
        c->out_cap = GW_OUT_POOLED;
    }
    return dh_grow(&c->out, &c->out_cap, need, 1, GW_OUT_POOLED);
}

void conn_free(gw *g)
{
    while (g->out_pool_n > 0)
        free(g->out_pool[--g->out_pool_n]);
}

static void conn_flush_unlink(gw_conn *c)
{
    gw_conn **p = &c->gw->flush_list;
    while (*p && *p != c)
        p = &(*p)->flush_next;
    if (*p)
        *p = c->flush_next;
    c->flush_queued = false;
    c->flush_next = NULL;
}

static void conn_on_close(uv_handle_t *h)
{
    gw_conn *c = h->data;
    gw *g = c->gw;
    g->conn_events.close(c);
    if (c->prev)
        c->prev->next = c->next;
    else
        g->conns = c->next;
    if (c->next)
        c->next->prev = c->prev;
    g->nconns--;
    dh_gauge_add(&g->stats.conns[c->kind], -1);
    if (c->flush_queued)
        conn_flush_unlink(c);
    conn_out_drop(c);
    dh_frame_decoder_free(&c->frames);
    free(c->hs);
    if (c->ws)
        wslay_event_context_free(c->ws);
    dh_debug("conn %llu closed (%s)", (unsigned long long)c->serial, c->peer);
    free(c);
}

/* The FIN went out after the last write. Keep reading (and discarding) until the peer
 * closes too, so that closing with unread input does not turn into a reset that could
 * destroy our last Reply in the peer's buffer; conn_sweep bounds the wait. */
static void conn_on_shutdown(uv_shutdown_t *req, int status)
{
    gw_conn *c = req->handle->data;
    if (status < 0)
        conn_close(c, false);
}

static void conn_flush(gw_conn *c);
static wslay_event_context_ptr conn_ws_ctx(gw_conn *c);

void conn_close(gw_conn *c, bool flush)
{
    if (c->state == CONN_CLOSED)
        return;
    if (flush && c->state == CONN_CLOSING)
        return;
    if (flush) {
        if (c->kind == CONN_WS && c->state == CONN_OPEN && conn_ws_ctx(c)) {
            wslay_event_queue_close(c->ws, WSLAY_CODE_POLICY_VIOLATION, NULL, 0);
            wslay_event_send(c->ws);
            if (c->state == CONN_CLOSED)
                return;
        }
        conn_flush(c); /* what this turn sent goes out before the FIN */
        if (c->state == CONN_CLOSED)
            return;
        c->state = CONN_CLOSING;
        c->closing_since = uv_now(c->gw->loop);
        if (uv_shutdown(&c->shutdown, (uv_stream_t *)&c->tcp, conn_on_shutdown) == 0)
            return;
    }
    c->state = CONN_CLOSED;
    conn_out_drop(c);
    if (!uv_is_closing((uv_handle_t *)&c->tcp))
        uv_close((uv_handle_t *)&c->tcp, conn_on_close);
}

static void conn_on_write(uv_write_t *req, int status)
{
    conn_write_req *w = (conn_write_req *)req;
    gw_conn *c = w->conn;
    c->wq_bytes -= w->len;
    free(w->buf);
    free(w);
    if (status < 0 && status != UV_ECANCELED && c->state != CONN_CLOSED) {
        dh_debug("conn %llu write failed: %s", (unsigned long long)c->serial, uv_strerror(status));
        conn_close(c, false);
    }
}

/* Write the connection's output: what the kernel takes at once, the rest through a
 * uv_write request that takes the buffer over. */
static void conn_flush(gw_conn *c)
{
    if (c->out_len == 0 || c->state == CONN_CLOSED)
        return;
    size_t done = 0;
    if (c->wq_bytes == 0) {
        uv_buf_t b = uv_buf_init((char *)c->out, (unsigned)c->out_len);
        int rc = uv_try_write((uv_stream_t *)&c->tcp, &b, 1);
        if (rc > 0)
            done = (size_t)rc;
        else if (rc < 0 && rc != UV_EAGAIN) {
            conn_close(c, false);
            return;
        }
    }
    if (done == c->out_len) {
        conn_out_drop(c);
        return;
    }
    conn_write_req *w = malloc(sizeof *w);
    if (!w)
        goto err;
    *w = (conn_write_req){.conn = c, .buf = c->out, .len = c->out_len - done, .off = done};
    uv_buf_t b = uv_buf_init((char *)w->buf + done, (unsigned)w->len);
    if (uv_write(&w->req, (uv_stream_t *)&c->tcp, &b, 1, conn_on_write) < 0) {
        free(w);
        goto err;
    }
    c->wq_bytes += w->len;
    c->out = NULL;
    c->out_len = c->out_cap = 0;
    return;
err:
    dh_warn_every(DH_LOG_EVERY_MS, "conn %llu write failed, closing",
                  (unsigned long long)c->serial);
    conn_close(c, false);
}

/* The end of a loop turn: every connection written to during it is flushed once. */
static void conn_on_check(uv_check_t *h)
{
    gw *g = h->data;
    while (g->flush_list) {
        gw_conn *c = g->flush_list;
        g->flush_list = c->flush_next;
        c->flush_next = NULL;
        c->flush_queued = false;
        conn_flush(c);
    }
    uv_idle_stop(&g->flush_idle);
}

static void conn_idle_noop(uv_idle_t *h) {}

void conn_init(gw *g)
{
    uv_check_init(g->loop, &g->flush_check);
    uv_idle_init(g->loop, &g->flush_idle);
    g->flush_check.data = g->flush_idle.data = g;
    uv_check_start(&g->flush_check, conn_on_check);
    g->flush_ready = true;
}

/* Append n buffers, in order, to the connection's output. Returns 0, or -1 when the
 * connection cannot take them. */
static int conn_write(gw_conn *c, const uv_buf_t *bufs, unsigned n)
{
    size_t total = 0;
    if (c->state == CONN_CLOSED || c->state == CONN_CLOSING)
        return -1;
    for (unsigned i = 0; i < n; i++)
        total += bufs[i].len;
    if (c->wq_bytes + c->out_len + total > GW_WRITE_CAP) {
        dh_warn_every(DH_LOG_EVERY_MS,
                      "conn %llu (%s) dropped: write queue over %u bytes (slow consumer)",
                      (unsigned long long)c->serial, c->peer, GW_WRITE_CAP);
        conn_close(c, false);
        return -1;
    }
    if (conn_out_room(c, c->out_len + total) < 0) {
        dh_warn_every(DH_LOG_EVERY_MS, "conn %llu write failed, closing",
                      (unsigned long long)c->serial);
        conn_close(c, false);
        return -1;
    }
    for (unsigned i = 0; i < n; i++) {
        memcpy(c->out + c->out_len, bufs[i].base, bufs[i].len);
        c->out_len += bufs[i].len;
    }
    if (!c->flush_queued) {
        gw *g = c->gw;
        if (!g->flush_list)
            uv_idle_start(&g->flush_idle, conn_idle_noop);
        c->flush_next = g->flush_list;
        g->flush_list = c;
        c->flush_queued = true;
    }
    return 0;
}

/* ---- WebSocket transport (wslay callbacks) -------------------------------------------- */

static ssize_t conn_ws_recv(wslay_event_context_ptr ctx, uint8_t *buf, size_t len, int flags,
                            void *user)
{
    gw_conn *c = user;
    if (c->ws_in_len == 0 || c->state != CONN_OPEN) {
        wslay_event_set_error(ctx, WSLAY_ERR_WOULDBLOCK);
        return -1;
    }
    size_t n = len < c->ws_in_len ? len : c->ws_in_len;
    memcpy(buf, c->ws_in, n);
    c->ws_in += n;
    c->ws_in_len -= n;
    return (ssize_t)n;
}

static ssize_t conn_ws_send(wslay_event_context_ptr ctx, const uint8_t *data, size_t len, int flags,
                            void *user)
{
    gw_conn *c = user;
    uv_buf_t b = uv_buf_init((char *)data, (unsigned)len);
    if (conn_write(c, &b, 1) < 0) {
        wslay_event_set_error(ctx, WSLAY_ERR_CALLBACK_FAILURE);
        return -1;
    }
    return (ssize_t)len;
}

static void conn_ws_msg(wslay_event_context_ptr ctx, const struct wslay_event_on_msg_recv_arg *arg,
                        void *user)
{
    gw_conn *c = user;
    if (c->state != CONN_OPEN)
        return;
    if (arg->opcode == WSLAY_BINARY_FRAME)
        c->gw->conn_events.frame(c, arg->msg, arg->msg_length);
    else if (arg->opcode == WSLAY_TEXT_FRAME)
        c->gw->conn_events.bad_frame(c, "text frames are not accepted; send binary frames");
}

/* Push out what wslay has queued, and close when the WebSocket is finished. Between
 * messages, with nothing left to send, the context goes: wslay keeps about 9 KB of
 * buffers in it, which an idle connection does not need (docs/BENCHMARKS.md, "Gateway:
 * memory per idle connection"); conn_ws_ctx makes a fresh one for the next frame. */
static void conn_ws_flush(gw_conn *c)
{
    if (c->state != CONN_OPEN || !c->ws)
        return;
    if (wslay_event_send(c->ws) != 0) {
        conn_close(c, false);
        return;
    }
    if (!wslay_event_want_read(c->ws) && !wslay_event_want_write(c->ws)) {
        conn_close(c, true);
        return;
    }
    if (!c->ws_busy && c->state == CONN_OPEN && !wslay_event_want_write(c->ws) &&
        dh_ws_guard_idle(&c->ws_guard)) {
        wslay_event_context_free(c->ws);
        c->ws = NULL;
    }
}

static int conn_ws_start(gw_conn *c)
{
    static const struct wslay_event_callbacks cbs = {
        .recv_callback = conn_ws_recv,
        .send_callback = conn_ws_send,
        .on_msg_recv_callback = conn_ws_msg,
    };
    if (wslay_event_context_server_init(&c->ws, &cbs, c) != 0)
        return -1;
    /* A backstop: the frame guard (conn_ws_feed) refuses a larger message at its header,
     * with a BAD_FRAME Reply, before wslay sees it. wslay applies it to control frames
     * too, which may carry 125 bytes whatever --max-frame says. */
    uint64_t max = c->gw->max_frame < 125 ? 125 : (uint64_t)c->gw->max_frame;
    wslay_event_config_set_max_recv_msg_length(c->ws, max);
    return 0;
}

/* The connection's wslay context, made when it has none (a new connection, or one that
 * was idle); NULL when out of memory. */
static wslay_event_context_ptr conn_ws_ctx(gw_conn *c)
{
    if (!c->ws && conn_ws_start(c) < 0)
        c->ws = NULL;
    return c->ws;
}

/* Bytes of frames: what the guard accepts goes to wslay; a header it refuses (a message
 * over the frame limit, however long, even before any payload) never does: the client
 * gets BAD_FRAME, as on TCP, and the close. */
static void conn_ws_feed(gw_conn *c, const uint8_t *data, size_t len)
{
    const char *why = NULL;
    size_t ok = dh_ws_guard_scan(&c->ws_guard, data, len, c->gw->max_frame, &why);
    int rc = 0;
    if (ok > 0 && !conn_ws_ctx(c)) {
        dh_error_every(DH_LOG_EVERY_MS, "conn %llu out of memory", (unsigned long long)c->serial);
        conn_close(c, false);
        return;
    }
    if (ok > 0) {
        c->ws_in = data;
        c->ws_in_len = ok;
        c->ws_busy = true;
        rc = wslay_event_recv(c->ws);
        c->ws_busy = false;
        c->ws_in = NULL;
        c->ws_in_len = 0;
    }
    if (c->state == CONN_CLOSED)
        return;
    if (rc != 0) {
        conn_close(c, false);
        return;
    }
    if (ok < len && c->state == CONN_OPEN) {
        c->gw->conn_events.bad_frame(c, why);
        return;
    }
    conn_ws_flush(c);
}

static void conn_http_error(gw_conn *c, const char *status, const char *why)
{
    char buf[512];
    int n = snprintf(buf, sizeof buf,
                     "HTTP/1.1 %s\r\nContent-Type: text/plain\r\nConnection: close\r\n"
                     "Content-Length: %zu\r\n\r\n%s\n",
                     status, strlen(why) + 1, why);
    if (n > 0 && (size_t)n < sizeof buf) {
        uv_buf_t b = uv_buf_init(buf, (unsigned)n);
        conn_write(c, &b, 1);
    }
    conn_close(c, true);
}

/* A page load, not an upgrade: the web client's file (static.h), then close. */
static void conn_static(gw_conn *c)
{
    static_answer a;
    static_answer_request(&c->gw->web, c->hs, c->hs_len, &a);
    uv_buf_t b[2] = {uv_buf_init(a.head, (unsigned)a.head_len),
                     uv_buf_init((char *)a.body, (unsigned)a.body_len)};
    if (conn_write(c, b, a.body_len ? 2 : 1) == 0)
        conn_close(c, true);
}

/* Accumulate the Upgrade request (or a plain GET of the web client); answer it once
 * complete. */
static void conn_ws_handshake(gw_conn *c, const uint8_t *data, size_t len)
{
    dh_ws_request req;
    const char *why = NULL;
    char resp[512];
    if (!c->hs && !(c->hs = malloc(DH_WS_HEADER_MAX))) {
        conn_close(c, false);
        return;
    }
    size_t room = DH_WS_HEADER_MAX - c->hs_len;
    size_t take = len < room ? len : room;
    memcpy(c->hs + c->hs_len, data, take);
    c->hs_len += take;
    long head = dh_ws_parse_request(c->hs, c->hs_len, &req, &why);
    if (head == 0)
        return;
    if (head < 0 && static_is_plain(c->hs, c->hs_len)) {
        conn_static(c);
        return;
    }
    if (head < 0) {
        dh_debug("conn %llu bad upgrade: %s", (unsigned long long)c->serial, why);
        conn_http_error(c, "400 Bad Request", why);
        return;
    }
    if (strcmp(req.path, "/ws") != 0) {
        conn_http_error(c, "404 Not Found", "the WebSocket endpoint is /ws");
        return;
    }
    int n = dh_ws_response(&req, resp, sizeof resp);
    if (n < 0) {
        conn_http_error(c, "500 Internal Server Error", "cannot start the WebSocket");
        return;
    }
    uv_buf_t b = uv_buf_init(resp, (unsigned)n);
    if (conn_write(c, &b, 1) < 0)
        return;
    c->state = CONN_OPEN;
    /* Bytes after the request head are already frames: they sit in the part of data
     * beyond what the head used. */
    size_t used_now = (size_t)head - (c->hs_len - take);
    free(c->hs);
    c->hs = NULL;
    c->hs_len = 0;
    c->gw->conn_events.open(c);
    if (used_now < len)
        conn_ws_feed(c, data + used_now, len - used_now);
}

/* ---- reads ---------------------------------------------------------------------------- */

static void conn_alloc(uv_handle_t *h, size_t hint, uv_buf_t *buf)
{
    gw_conn *c = h->data;
    /* One buffer per loop: every read is consumed before the callback returns. */
    *buf = uv_buf_init(c->gw->readbuf, sizeof c->gw->readbuf);
}

/* Hand every whole frame of d up; false when the connection stopped taking them (closed,
 * or a frame over the limit), true when d waits for more bytes. */
static bool conn_tcp_take(gw_conn *c, dh_frame_decoder *d)
{
    const uint8_t *p;
    size_t n;
    while (c->state == CONN_OPEN) {
        int rc = dh_frame_next(d, &p, &n);
        if (rc == 0)
            return true;
        if (rc < 0) {
            c->gw->conn_events.bad_frame(c, "frame larger than the frame limit");
            return false;
        }
        c->gw->conn_events.frame(c, p, n);
    }
    return false;
}

static void conn_tcp_feed(gw_conn *c, const uint8_t *data, size_t len)
{
    if (dh_frame_buffered(&c->frames) == 0) {
        /* The usual case: whole frames, read from the loop's read buffer where they are (a
         * decoder that only looks at it) instead of copied into the connection's decoder
         * (a malloc, a copy and a free per read); only a partial frame left over is kept. */
        dh_frame_decoder view = {
            .buf = (uint8_t *)data, .len = len, .cap = len, .max = c->gw->max_frame};
        if (!conn_tcp_take(c, &view) || view.off == len)
            return;
        data += view.off;
        len -= view.off;
    }
    if (dh_frame_feed(&c->frames, data, len) < 0) {
        dh_error_every(DH_LOG_EVERY_MS, "conn %llu out of memory", (unsigned long long)c->serial);
        conn_close(c, false);
        return;
    }
    conn_tcp_take(c, &c->frames);
    /* Nothing left over: an idle connection keeps no read buffer. */
    if (dh_frame_buffered(&c->frames) == 0) {
        dh_frame_decoder_free(&c->frames);
        dh_frame_decoder_init(&c->frames, c->gw->max_frame);
    }
}

static void conn_on_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf)
{
    gw_conn *c = s->data;
    if (nread < 0) {
        conn_close(c, false);
        return;
    }
    if (nread == 0 || c->state == CONN_CLOSING || c->state == CONN_CLOSED)
        return;
    const uint8_t *data = (const uint8_t *)buf->base;
    if (c->kind == CONN_TCP)
        conn_tcp_feed(c, data, (size_t)nread);
    else if (c->state == CONN_HANDSHAKE)
        conn_ws_handshake(c, data, (size_t)nread);
    else
        conn_ws_feed(c, data, (size_t)nread);
}

int conn_send(gw_conn *c, const uint8_t *msg, size_t len)
{
    if (c->state != CONN_OPEN)
        return -1;
    dh_counter_inc(&c->gw->stats.frames_out);
    if (c->kind == CONN_TCP) {
        uint8_t hdr[DH_FRAME_HEADER];
        dh_frame_header(hdr, (uint32_t)len);
        uv_buf_t b[2] = {uv_buf_init((char *)hdr, sizeof hdr), uv_buf_init((char *)msg, len)};
        return conn_write(c, b, 2);
    }
    struct wslay_event_msg m = {WSLAY_BINARY_FRAME, msg, len};
    if (!conn_ws_ctx(c) || wslay_event_queue_msg(c->ws, &m) != 0)
        return -1;
    conn_ws_flush(c);
    return c->state == CONN_CLOSED ? -1 : 0;
}

/* ---- adopting accepted sockets (listen.c accepts) -------------------------------------- */

void conn_adopt(gw *g, int fd, bool ws)
{
    gw_conn *c = calloc(1, sizeof *c);
    if (!c || uv_tcp_init(g->loop, &c->tcp) < 0) {
        dh_error_every(DH_LOG_EVERY_MS, "out of memory accepting a connection");
        free(c);
        close(fd);
        return;
    }
    c->gw = g;
    c->kind = ws ? CONN_WS : CONN_TCP;
    c->state = ws ? CONN_HANDSHAKE : CONN_OPEN;
    c->serial = ++g->next_serial;
    c->opened_at = uv_now(g->loop);
    dh_frame_decoder_init(&c->frames, g->max_frame);
    c->tcp.data = c;
    c->next = g->conns;
    if (g->conns)
        g->conns->prev = c;
    g->conns = c;
    g->nconns++;
    dh_gauge_add(&g->stats.conns[c->kind], 1);
    snprintf(c->peer, sizeof c->peer, "?");
    if (uv_tcp_open(&c->tcp, fd) < 0) {
        close(fd);
        conn_close(c, false);
        return;
    }
    uv_tcp_nodelay(&c->tcp, 1);
    struct sockaddr_storage ss;
    int sl = sizeof ss;
    if (uv_tcp_getpeername(&c->tcp, (struct sockaddr *)&ss, &sl) == 0 && ss.ss_family == AF_INET) {
        struct sockaddr_in *in = (struct sockaddr_in *)&ss;
        char ip[32];
        uv_ip4_name(in, ip, sizeof ip);
        snprintf(c->peer, sizeof c->peer, "%s:%d", ip, ntohs(in->sin_port));
        snprintf(c->addr, sizeof c->addr, "%s", ip);
    }
    if (!ws)
        c->gw->conn_events.open(c);
    if (c->state != CONN_CLOSED &&
        uv_read_start((uv_stream_t *)&c->tcp, conn_alloc, conn_on_read) < 0)
        conn_close(c, false);
    dh_debug("conn %llu open (%s %s)", (unsigned long long)c->serial, ws ? "ws" : "tcp", c->peer);
}

void conn_sweep(gw *g)
{
    uint64_t now = uv_now(g->loop);
    for (gw_conn *c = g->conns; c; c = c->next) {
        if (c->state == CONN_CLOSING && now - c->closing_since > GW_CLOSE_GRACE)
            conn_close(c, false);
        else if ((c->state == CONN_OPEN || c->state == CONN_HANDSHAKE) && !c->authed &&
                 now - c->opened_at > GW_LOGIN_GRACE) {
            dh_info_every(DH_LOG_EVERY_MS, "conn %llu (%s) closed: no login in %d ms",
                          (unsigned long long)c->serial, c->peer, GW_LOGIN_GRACE);
            conn_close(c, true);
        }
    }
}

void conn_stop(gw *g)
{
    for (gw_conn *c = g->conns; c; c = c->next)
        conn_close(c, false);
    if (g->flush_ready) {
        uv_close((uv_handle_t *)&g->flush_check, NULL);
        uv_close((uv_handle_t *)&g->flush_idle, NULL);
        g->flush_ready = false;
    }
}
