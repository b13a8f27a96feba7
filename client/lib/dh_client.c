/*
 * dh_client.c: one blocking connection to a gateway, over TCP or WebSocket (dh_client.h).
 *
 * Everything read from the socket goes through one parser that turns the byte stream into
 * decoded ServerMessages on a small queue: for TCP it cuts 4-byte length-prefixed frames,
 * for WebSocket it reassembles fragmented data frames and answers ping and close on the
 * spot. dh_client_pending() is then just "is the queue non-empty", which is what lets a
 * caller multiplex many clients with poll() without missing a message that arrived in the
 * same read as the previous one.
 *
 * Limits: messages over DH_CLIENT_MAX_MSG bytes end the connection; connect and the
 * WebSocket handshake wait at most 5 s each. No TLS (wss://).
 */
#include "dh_client.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "dh_client_arena.h"
#include "dh_client_lean.h"
#include "dh_client_msg.h"
#include "dh_client_ws.h"
#include "dh_clock.h"
#include "dh_frame.h"
#include "dh_grow.h"
#include "dh_ws.h"
#include "dh_random.h"

#define DH_CLIENT_MAX_MSG      (16u << 20)
#define DH_CLIENT_CONNECT_MS   5000
#define DH_CLIENT_HANDSHAKE_MS 5000
#define DH_CLIENT_LOGIN_MS     10000
#define DH_CLIENT_READ_CHUNK   16384
#define DH_CLIENT_SEND_STACK   1024

struct dh_client {
    int fd;
    bool ws;
    dh_frame_decoder tcp; /* TCP: the shared length-prefix decoder */
    bool closed;          /* EOF, a close frame or a protocol error: nothing more will arrive */
    uint8_t *rbuf;        /* WebSocket: bytes read but not yet parsed */
    size_t rlen, rcap;
    uint8_t *frag; /* a fragmented WebSocket message being reassembled */
    size_t fraglen, fragcap;
    bool in_frag;
    Deckhand__ServerMessage **q; /* decoded messages not yet handed out, q[qhead..qlen) */
    size_t qhead, qlen, qcap;
    unsigned long long next_cmd;
    bool lean;              /* decode only what a bot reads (dh_client_lean.h) */
    dh_lean_last lean_last; /* the decision of the View or ViewDelta decoded last */
    bool rx_stamps;         /* SO_TIMESTAMPNS on: reads take the kernel's receive time */
    uint64_t rx_ns;         /* when the bytes of the last read arrived (dh_now_ns's clock) */
    dh_arena *arena;        /* the caller's, to decode into (dh_client_set_arena), or NULL */
};

static int reserve(uint8_t **buf, size_t *cap, size_t need)
{
    return dh_grow(buf, cap, need, 1, 4096);
}

static int write_all(int fd, const uint8_t *buf, size_t len)
{
    while (len > 0) {
        ssize_t n = send(fd, buf, len, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        buf += n;
        len -= (size_t)n;
    }
    return 0;
}

/* ---- framing out --------------------------------------------------------------------- */

/* Header room in front of a payload, so a frame goes out in one write. */
static size_t frame_header_len(const dh_client *c, size_t len)
{
    if (!c->ws)
        return DH_FRAME_HEADER;
    return 2 + (len < 126 ? 0 : len <= 0xFFFF ? 2 : 8) + 4;
}

/* buf holds frame_header_len(len) free bytes followed by the payload: fill the header,
 * mask the payload when on WebSocket, and write the frame. */
static int send_framed(dh_client *c, uint8_t *buf, size_t len, int opcode)
{
    size_t hl = frame_header_len(c, len);
    if (!c->ws) {
        if (len > UINT32_MAX)
            return -1;
        dh_frame_header(buf, (uint32_t)len);
    } else {
        uint8_t mask[4];
        if (dh_random_bytes(mask, sizeof mask) < 0)
            return -1;
        dh_client_ws_header_write(buf, opcode, true, len, mask);
        dh_client_ws_mask(buf + hl, len, mask, 0);
    }
    return write_all(c->fd, buf, hl + len);
}

static int send_payload(dh_client *c, const void *payload, size_t len, int opcode)
{
    size_t hl = frame_header_len(c, len);
    uint8_t *buf = malloc(hl + len + 1);
    if (!buf)
        return -1;
    if (len)
        memcpy(buf + hl, payload, len);
    int rc = send_framed(c, buf, len, opcode);
    free(buf);
    return rc;
}

int dh_client_send(dh_client *c, const Deckhand__ClientMessage *m)
{
    uint8_t choose[DH_CLIENT_SEND_STACK]; /* an answer, packed by hand */
    size_t hl = frame_header_len(c, sizeof choose), len;
    if (!c->ws && (len = dh_client_msg_pack_choose(m, choose + hl, sizeof choose - hl)) > 0)
        return send_framed(c, choose, len, DH_CLIENT_WS_BINARY);
    len = deckhand__client_message__get_packed_size(m);
    hl = frame_header_len(c, len);
    uint8_t stack[DH_CLIENT_SEND_STACK]; /* an answer fits: no allocation per answer */
    uint8_t *buf = hl + len <= sizeof stack ? stack : malloc(hl + len);
    if (!buf)
        return -1;
    deckhand__client_message__pack(m, buf + hl);
    int rc = send_framed(c, buf, len, DH_CLIENT_WS_BINARY);
    if (buf != stack)
        free(buf);
    return rc;
}

int dh_client_send_raw(dh_client *c, const void *buf, size_t len)
{
    return send_payload(c, buf, len, DH_CLIENT_WS_BINARY);
}

int dh_client_send_bytes(dh_client *c, const void *buf, size_t len)
{
    return write_all(c->fd, buf, len);
}

/* ---- parsing in ---------------------------------------------------------------------- */

static int queue_push(dh_client *c, Deckhand__ServerMessage *m)
{
    if (c->qlen == c->qcap) {
        if (c->qhead > 0) {
            memmove(c->q, c->q + c->qhead, (c->qlen - c->qhead) * sizeof *c->q);
            c->qlen -= c->qhead;
            c->qhead = 0;
        } else if (dh_grow(&c->q, &c->qcap, c->qlen + 1, sizeof *c->q, 16) < 0) {
            return -1;
        }
    }
    c->q[c->qlen++] = m;
    return 0;
}

/* Decode one complete message and queue it; an undecodable one ends the connection. */
static int deliver(dh_client *c, const uint8_t *buf, size_t len)
{
    Deckhand__ServerMessage *m = NULL;
    ProtobufCAllocator *pa = c->arena ? &c->arena->pa : NULL;
    switch (c->lean ? dh_client_lean_decode(buf, len, &c->lean_last, c->arena, &m)
                    : DH_LEAN_WHOLE) {
    case DH_LEAN_DROPPED:
        return 0;
    case DH_LEAN_FAILED:
        return -1;
    case DH_LEAN_WHOLE:
        m = deckhand__server_message__unpack(pa, len, buf);
        break;
    case DH_LEAN_DECODED:
        break;
    }
    if (!m)
        return -1;
    if (queue_push(c, m) < 0) {
        dh_arena_release(c->arena, m);
        return -1;
    }
    return 0;
}

/* One complete WebSocket frame whose payload is already unmasked. */
static int ws_frame(dh_client *c, const dh_client_ws_header *h, const uint8_t *payload)
{
    switch (h->opcode) {
    case DH_CLIENT_WS_PING:
        return send_payload(c, payload, (size_t)h->len, DH_CLIENT_WS_PONG);
    case DH_CLIENT_WS_PONG:
        return 0;
    case DH_CLIENT_WS_CLOSE:
        /* Echo the status code, then stop: the server closes the TCP connection. */
        send_payload(c, payload, h->len >= 2 ? 2 : 0, DH_CLIENT_WS_CLOSE);
        return -1;
    case DH_CLIENT_WS_CONT:
        if (!c->in_frag)
            return -1;
        break;
    default: /* text or binary: a new message */
        if (c->in_frag)
            return -1;
        if (h->fin)
            return deliver(c, payload, (size_t)h->len);
        c->in_frag = true;
        c->fraglen = 0;
        break;
    }
    if (c->fraglen + h->len > DH_CLIENT_MAX_MSG)
        return -1;
    if (reserve(&c->frag, &c->fragcap, c->fraglen + (size_t)h->len + 1) < 0)
        return -1;
    memcpy(c->frag + c->fraglen, payload, (size_t)h->len);
    c->fraglen += (size_t)h->len;
    if (!h->fin)
        return 0;
    c->in_frag = false;
    return deliver(c, c->frag, c->fraglen);
}

/* Decode every whole frame the TCP decoder holds. -1 when the stream is broken. */
static int parse_tcp(dh_client *c)
{
    const uint8_t *payload;
    size_t len;
    int r;
    while ((r = dh_frame_next(&c->tcp, &payload, &len)) > 0)
        if (deliver(c, payload, len) < 0)
            return -1;
    return r;
}

/* Cut every complete WebSocket frame out of rbuf. -1 when the stream is broken. */
static int parse_ws(dh_client *c)
{
    size_t off = 0;
    int rc = 0;
    for (;;) {
        uint8_t *p = c->rbuf + off;
        size_t avail = c->rlen - off;
        dh_client_ws_header h;
        int hr = dh_client_ws_parse(p, avail, &h);
        if (hr < 0 || (hr > 0 && h.len > DH_CLIENT_MAX_MSG)) {
            rc = -1;
            break;
        }
        if (hr == 0 || avail - h.hdrlen < h.len)
            break;
        uint8_t *payload = p + h.hdrlen;
        if (h.masked)
            dh_client_ws_mask(payload, (size_t)h.len, h.mask, 0);
        if (ws_frame(c, &h, payload) < 0) {
            rc = -1;
            break;
        }
        off += h.hdrlen + (size_t)h.len;
    }
    memmove(c->rbuf, c->rbuf + off, c->rlen - off);
    c->rlen -= off;
    return rc;
}

/* The kernel's receive time in mh's control data (CLOCK_REALTIME), on dh_now_ns's
 * clock; now when there is none. */
static uint64_t rx_time(struct msghdr *mh)
{
    uint64_t now = dh_now_ns();
    for (struct cmsghdr *cm = CMSG_FIRSTHDR(mh); cm; cm = CMSG_NXTHDR(mh, cm)) {
        if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_TIMESTAMPNS)
            continue;
        struct timespec at, real;
        memcpy(&at, CMSG_DATA(cm), sizeof at);
        clock_gettime(CLOCK_REALTIME, &real);
        int64_t ago = ((int64_t)real.tv_sec - at.tv_sec) * 1000000000 + (real.tv_nsec - at.tv_nsec);
        return ago > 0 && (uint64_t)ago < now ? now - (uint64_t)ago : now;
    }
    return now;
}

/* recv() into buf[0..cap), retried on EINTR; with rx_stamps, as recvmsg with the
 * kernel's receive time of the bytes into rx_ns. */
static ssize_t recv_some(dh_client *c, uint8_t *buf, size_t cap, int flags)
{
    ssize_t n;
    if (!c->rx_stamps) {
        do
            n = recv(c->fd, buf, cap, flags);
        while (n < 0 && errno == EINTR);
        return n;
    }
    union {
        char b[CMSG_SPACE(sizeof(struct timespec))];
        struct cmsghdr align;
    } ctl;
    struct iovec iov = {.iov_base = buf, .iov_len = cap};
    struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1};
    do {
        mh.msg_control = ctl.b;
        mh.msg_controllen = sizeof ctl.b;
        n = recvmsg(c->fd, &mh, flags);
    } while (n < 0 && errno == EINTR);
    if (n > 0)
        c->rx_ns = rx_time(&mh);
    return n;
}

/* One read(), then parse. 1 when bytes arrived, 0 when none were there (MSG_DONTWAIT in
 * flags), -1 when the stream ended or broke. TCP reads straight into the frame decoder
 * (no copy through a buffer of its own); WebSocket into rbuf, which it unmasks in place. */
static int fill(dh_client *c, int flags)
{
    uint8_t *room = c->ws ? NULL : dh_frame_room(&c->tcp, DH_CLIENT_READ_CHUNK);
    if (c->ws && reserve(&c->rbuf, &c->rcap, c->rlen + DH_CLIENT_READ_CHUNK) == 0)
        room = c->rbuf + c->rlen;
    if (!room)
        return -1;
    ssize_t n = recv_some(c, room, DH_CLIENT_READ_CHUNK, flags);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        return 0;
    if (n <= 0)
        return -1;
    if (c->ws) {
        c->rlen += (size_t)n;
        return parse_ws(c) < 0 ? -1 : 1;
    }
    dh_frame_wrote(&c->tcp, (size_t)n);
    return parse_tcp(c) < 0 ? -1 : 1;
}

bool dh_client_pending(const dh_client *c)
{
    return c->qhead < c->qlen;
}

void dh_client_set_lean(dh_client *c, bool lean)
{
    c->lean = lean;
}

void dh_client_set_arena(dh_client *c, dh_arena *a)
{
    c->arena = a;
}

int dh_client_set_rx_stamps(dh_client *c, bool on)
{
    int v = on;
    if (c->ws || setsockopt(c->fd, SOL_SOCKET, SO_TIMESTAMPNS, &v, sizeof v) < 0)
        return -1;
    c->rx_stamps = on;
    return 0;
}

uint64_t dh_client_rx_ns(const dh_client *c)
{
    return c->rx_ns;
}

int dh_client_read(dh_client *c)
{
    if (c->closed)
        return -1;
    int fr = fill(c, MSG_DONTWAIT);
    if (fr < 0)
        c->closed = true; /* keep what was decoded before the break */
    return fr;
}

int dh_client_next(dh_client *c, Deckhand__ServerMessage **out)
{
    if (!dh_client_pending(c))
        return c->closed ? -1 : 0;
    *out = c->q[c->qhead++];
    if (c->qhead == c->qlen)
        c->qhead = c->qlen = 0;
    return 1;
}

int dh_client_recv(dh_client *c, int timeout_ms, Deckhand__ServerMessage **out)
{
    long long deadline = timeout_ms < 0 ? -1 : (long long)dh_now_ms() + timeout_ms;
    while (!dh_client_pending(c)) {
        if (c->closed)
            return -1;
        int wait = -1;
        if (deadline >= 0) {
            long long left = deadline - (long long)dh_now_ms();
            wait = left > 0 ? (int)left : 0;
        }
        if (wait == 0) { /* no wait: one read that does not block, not a poll and a read */
            int fr = fill(c, MSG_DONTWAIT);
            if (fr < 0)
                c->closed = true; /* keep what was decoded before the break */
            else if (fr == 0)
                return 0;
            continue;
        }
        struct pollfd pfd = {.fd = c->fd, .events = POLLIN};
        int pr = poll(&pfd, 1, wait);
        if (pr < 0 && errno != EINTR)
            return -1;
        if (pr > 0 && fill(c, 0) < 0)
            c->closed = true; /* keep what was decoded before the break */
        else if (pr == 0)
            return 0;
    }
    *out = c->q[c->qhead++];
    if (c->qhead == c->qlen)
        c->qhead = c->qlen = 0;
    return 1;
}

/* ---- connecting ------------------------------------------------------------------------ */

/* connect() that gives up after DH_CLIENT_CONNECT_MS instead of the kernel's minutes of
 * SYN retries; the socket is blocking again afterwards. 0, or -1 with errno set. */
static int connect_timeout(int fd, const struct sockaddr *sa, socklen_t len)
{
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0)
        return -1;
    int rc = connect(fd, sa, len);
    if (rc < 0 && errno == EINPROGRESS) {
        struct pollfd pfd = {.fd = fd, .events = POLLOUT};
        int pr;
        do
            pr = poll(&pfd, 1, DH_CLIENT_CONNECT_MS);
        while (pr < 0 && errno == EINTR);
        int soerr = 0;
        socklen_t sl = sizeof soerr;
        if (pr == 0) {
            errno = ETIMEDOUT;
        } else if (pr > 0 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) == 0) {
            rc = soerr ? -1 : 0;
            errno = soerr;
        }
    }
    if (rc == 0 && fcntl(fd, F_SETFL, flags) < 0)
        return -1;
    return rc;
}

static int tcp_connect(const char *host, const char *port, char *err, size_t errlen)
{
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM};
    struct addrinfo *res = NULL;
    int gr = getaddrinfo(host, port, &hints, &res);
    if (gr != 0) {
        snprintf(err, errlen, "resolve %s: %s", host, gai_strerror(gr));
        return -1;
    }
    int fd = -1;
    int saved = 0;
    for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
        if (fd < 0) {
            saved = errno;
            continue;
        }
        if (connect_timeout(fd, ai->ai_addr, ai->ai_addrlen) == 0)
            break;
        saved = errno;
        close(fd);
        fd = -1;
    }
    freeaddrinfo(res);
    if (fd < 0) {
        snprintf(err, errlen, "connect %s:%s: %s", host, port, strerror(saved));
        return -1;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

/* Split "host:port[/path]" (the part after ws:// or the whole TCP address). */
static int split_addr(const char *s, char *host, size_t hostlen, char *port, size_t portlen,
                      const char **path)
{
    const char *slash = strchr(s, '/');
    const char *end = slash ? slash : s + strlen(s);
    const char *colon = NULL;
    for (const char *p = s; p < end; p++)
        if (*p == ':')
            colon = p;
    if (!colon || colon == s || (size_t)(colon - s) >= hostlen ||
        (size_t)(end - colon - 1) >= portlen || end == colon + 1)
        return -1;
    memcpy(host, s, (size_t)(colon - s));
    host[colon - s] = '\0';
    memcpy(port, colon + 1, (size_t)(end - colon - 1));
    port[end - colon - 1] = '\0';
    *path = slash ? slash : "/";
    return 0;
}

/* Upgrade the connection: send the request, then read until dh_ws has a verdict on the
 * answer. The bytes after the response head are already frames and stay in rbuf. */
static int ws_handshake(dh_client *c, const char *host, const char *port, const char *path,
                        char *err, size_t errlen)
{
    char key[DH_WS_KEY_LEN + 1], hostport[300], req[1024];
    snprintf(hostport, sizeof hostport, "%s:%s", host, port);
    int n;
    if (dh_ws_make_key(key) < 0 ||
        (n = dh_ws_format_request(req, sizeof req, hostport, path, key)) < 0) {
        snprintf(err, errlen, "handshake: cannot build the request");
        return -1;
    }
    if (write_all(c->fd, (const uint8_t *)req, (size_t)n) < 0) {
        snprintf(err, errlen, "handshake: %s", strerror(errno));
        return -1;
    }
    long long deadline = (long long)dh_now_ms() + DH_CLIENT_HANDSHAKE_MS;
    for (;;) {
        const char *why = "bad answer";
        long head = c->rlen ? dh_ws_check_response((const char *)c->rbuf, c->rlen, key, &why) : 0;
        if (head > 0) {
            memmove(c->rbuf, c->rbuf + head, c->rlen - (size_t)head);
            c->rlen -= (size_t)head;
            return 0;
        }
        if (head < 0) {
            snprintf(err, errlen, "handshake refused: %s", why);
            return -1;
        }
        long long left = deadline - (long long)dh_now_ms();
        struct pollfd pfd = {.fd = c->fd, .events = POLLIN};
        if (left <= 0 || poll(&pfd, 1, (int)left) <= 0) {
            snprintf(err, errlen, "handshake: no answer");
            return -1;
        }
        if (reserve(&c->rbuf, &c->rcap, c->rlen + DH_CLIENT_READ_CHUNK) < 0) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        ssize_t r = recv(c->fd, c->rbuf + c->rlen, c->rcap - c->rlen, 0);
        if (r <= 0) {
            snprintf(err, errlen, "handshake: connection closed");
            return -1;
        }
        c->rlen += (size_t)r;
    }
}

dh_client *dh_client_connect(const char *addr, char *err, size_t errlen)
{
    dh_client *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    c->fd = -1;
    c->next_cmd = 1;
    dh_frame_decoder_init(&c->tcp, DH_CLIENT_MAX_MSG);
    c->ws = strncmp(addr, "ws://", 5) == 0;
    char host[256], port[16];
    const char *path;
    if (split_addr(c->ws ? addr + 5 : addr, host, sizeof host, port, sizeof port, &path) < 0) {
        snprintf(err, errlen, "bad address '%s' (want host:port or ws://host:port/path)", addr);
        goto err;
    }
    if (!c->ws && strcmp(path, "/") != 0) {
        snprintf(err, errlen, "bad address '%s': a TCP address has no path", addr);
        goto err;
    }
    c->fd = tcp_connect(host, port, err, errlen);
    if (c->fd < 0)
        goto err;
    if (c->ws && ws_handshake(c, host, port, path, err, errlen) < 0)
        goto err;
    if (c->rlen && parse_ws(c) < 0)
        c->closed = true;
    return c;
err:
    dh_client_close(c);
    return NULL;
}

void dh_client_close(dh_client *c)
{
    if (!c)
        return;
    if (c->fd >= 0)
        close(c->fd);
    for (size_t i = c->qhead; i < c->qlen; i++)
        dh_arena_release(c->arena, c->q[i]);
    free(c->q);
    dh_frame_decoder_free(&c->tcp);
    free(c->rbuf);
    free(c->frag);
    free(c);
}

int dh_client_fd(const dh_client *c)
{
    return c->fd;
}

unsigned long long dh_client_next_cmd(dh_client *c)
{
    return c->next_cmd++;
}

void dh_client_set_next_cmd(dh_client *c, unsigned long long next)
{
    c->next_cmd = next ? next : 1;
}

/* ---- login ----------------------------------------------------------------------------- */

static void copy_str(char *dst, size_t len, const char *src)
{
    if (dst && len)
        snprintf(dst, len, "%s", src ? src : "");
}

/* Hello{name, token}, then wait for the Welcome and the Reply with the Hello's cmd_id;
 * other messages in between are dropped. */
static int hello(dh_client *c, const char *name, const char *token, char *player_id, size_t idlen,
                 char *tokout, size_t toklen)
{
    dh_client_msg msg;
    Deckhand__ClientMessage *m = dh_client_msg_hello(&msg, name, token);
    m->cmd_id = dh_client_next_cmd(c);
    if (dh_client_send(c, m) < 0)
        return -1;
    bool welcomed = false;
    long long deadline = (long long)dh_now_ms() + DH_CLIENT_LOGIN_MS;
    for (;;) {
        long long left = deadline - (long long)dh_now_ms();
        Deckhand__ServerMessage *s = NULL;
        if (left <= 0 || dh_client_recv(c, (int)left, &s) != 1)
            return -1;
        int done = 0;
        if (s->body_case == DECKHAND__SERVER_MESSAGE__BODY_WELCOME) {
            copy_str(player_id, idlen, s->welcome->player_id);
            copy_str(tokout, toklen, s->welcome->token);
            welcomed = true;
        } else if (s->body_case == DECKHAND__SERVER_MESSAGE__BODY_REPLY &&
                   s->reply->cmd_id == m->cmd_id) {
            done = (s->reply->ok && welcomed) ? 1 : -1;
        }
        dh_arena_release(c->arena, s);
        if (done)
            return done > 0 ? 0 : -1;
    }
}

int dh_client_login(dh_client *c, const char *name, char *player_id, size_t idlen, char *token,
                    size_t toklen)
{
    return hello(c, name, "", player_id, idlen, token, toklen);
}

int dh_client_resume(dh_client *c, const char *token, char *player_id, size_t idlen, char *newtoken,
                     size_t toklen)
{
    return hello(c, "", token, player_id, idlen, newtoken, toklen);
}
