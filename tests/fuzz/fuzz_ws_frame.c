/*
 * fuzz_ws_frame.c: fuzz target `ws_frame`, WebSocket frames from a client as the gateway
 * reads them (gateway/conn.c, conn_ws_feed and conn_ws_flush): each read goes through the
 * frame guard (dh_ws_guard_scan) first and only the bytes it accepts reach a wslay server
 * context set up as the gateway sets it up (the same message-length backstop); whatever
 * wslay answers (pongs, closes) is sent and dropped; between messages, with nothing left
 * to send, the context is freed and a fresh one made for the next read, as an idle
 * connection's is.
 *
 * Input: byte 0 picks the frame limit (16..4096 bytes), byte 1 the size of each read
 * (1..256); the rest is the byte stream after the upgrade. Properties: no message longer
 * than the limit is ever delivered (the guard refuses its header first, however the bytes
 * are split), a delivered message is readable to its last byte, and the guard says idle
 * only between whole messages (a fresh context then reads the next frame correctly). The
 * frame coding is wslay's (a system library, not instrumented); what this target pins is
 * the gateway's use of it.
 */
#include <stdbool.h>
#include <string.h>
#include <wslay/wslay.h>

#include "dh_ws.h"
#include "fuzz.h"

typedef struct {
    const uint8_t *in; /* bytes of the current read not yet taken by wslay */
    size_t in_len;
    uint64_t max_frame;
    uint64_t delivered; /* a sum over every delivered byte, so each is read */
} ws_fuzz;

static ssize_t ws_recv(wslay_event_context_ptr ctx, uint8_t *buf, size_t len, int flags, void *user)
{
    (void)flags;
    ws_fuzz *f = user;
    if (f->in_len == 0) {
        wslay_event_set_error(ctx, WSLAY_ERR_WOULDBLOCK);
        return -1;
    }
    size_t n = len < f->in_len ? len : f->in_len;
    memcpy(buf, f->in, n);
    f->in += n;
    f->in_len -= n;
    return (ssize_t)n;
}

static ssize_t ws_send(wslay_event_context_ptr ctx, const uint8_t *data, size_t len, int flags,
                       void *user)
{
    (void)ctx, (void)data, (void)flags, (void)user;
    return (ssize_t)len;
}

static void ws_msg(wslay_event_context_ptr ctx, const struct wslay_event_on_msg_recv_arg *arg,
                   void *user)
{
    (void)ctx;
    ws_fuzz *f = user;
    if (!(arg->opcode & 0x8))
        FUZZ_CHECK(arg->msg_length <= f->max_frame);
    for (size_t i = 0; i < arg->msg_length; i++)
        f->delivered += arg->msg[i];
}

static wslay_event_context_ptr ws_new(ws_fuzz *f)
{
    static const struct wslay_event_callbacks cbs = {
        .recv_callback = ws_recv,
        .send_callback = ws_send,
        .on_msg_recv_callback = ws_msg,
    };
    wslay_event_context_ptr ctx;
    FUZZ_CHECK(wslay_event_context_server_init(&ctx, &cbs, f) == 0);
    uint64_t max = f->max_frame < 125 ? 125 : f->max_frame;
    wslay_event_config_set_max_recv_msg_length(ctx, max);
    return ctx;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    ws_fuzz f = {.max_frame = ((uint64_t)data[0] + 1) * 16};
    size_t chunk = (size_t)data[1] + 1;
    dh_ws_guard g = {0};
    wslay_event_context_ptr ctx = NULL;
    for (size_t off = 2; off < size; off += chunk) {
        size_t len = size - off < chunk ? size - off : chunk;
        const char *why = NULL;
        size_t ok = dh_ws_guard_scan(&g, data + off, len, f.max_frame, &why);
        if (ok > 0) {
            if (!ctx)
                ctx = ws_new(&f);
            f.in = data + off;
            f.in_len = ok;
            if (wslay_event_recv(ctx) != 0)
                break;
            FUZZ_CHECK(f.in_len == 0); /* wslay takes every byte it is offered */
        }
        if (ok < len) {
            FUZZ_CHECK(why != NULL); /* the gateway answers BAD_FRAME and closes */
            break;
        }
        if (ctx && wslay_event_send(ctx) != 0)
            break;
        if (ctx && !wslay_event_want_read(ctx) && !wslay_event_want_write(ctx))
            break; /* a close: the gateway closes too */
        if (ctx && !wslay_event_want_write(ctx) && dh_ws_guard_idle(&g)) {
            wslay_event_context_free(ctx);
            ctx = NULL;
        }
    }
    if (ctx)
        wslay_event_context_free(ctx);
    return 0;
}
