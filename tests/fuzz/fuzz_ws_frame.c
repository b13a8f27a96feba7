/*
 * fuzz_ws_frame.c: fuzz target `ws_frame`, WebSocket frames from a client as the gateway
 * reads them: a wslay server context set up as gateway/conn.c sets it up (the same
 * message-length backstop, the same per-message byte count at each frame's start, reading
 * stopped once a message is over the limit), fed the input in reads of a chosen size, with
 * whatever wslay answers (pongs, closes) sent and dropped.
 *
 * Input: byte 0 picks the frame limit (16..4096 bytes), byte 1 the size of each read
 * (1..256); the rest is the byte stream after the upgrade. Properties: wslay delivers no
 * message longer than the backstop (twice the limit plus one), and a delivered message is
 * readable to its last byte. The frame coding is wslay's (a system library, not
 * instrumented); what this target pins is the gateway's use of it.
 */
#include <stdbool.h>
#include <string.h>
#include <wslay/wslay.h>

#include "fuzz.h"

typedef struct {
    const uint8_t *in; /* bytes of the current read not yet taken by wslay */
    size_t in_len;
    uint64_t max_frame, msg_bytes;
    bool too_big;
    uint64_t delivered; /* a sum over every delivered byte, so each is read */
} ws_fuzz;

static ssize_t ws_recv(wslay_event_context_ptr ctx, uint8_t *buf, size_t len, int flags, void *user)
{
    ws_fuzz *f = user;
    if (f->too_big || f->in_len == 0) {
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
    return (ssize_t)len;
}

static void ws_frame_start(wslay_event_context_ptr ctx,
                           const struct wslay_event_on_frame_recv_start_arg *arg, void *user)
{
    ws_fuzz *f = user;
    if (arg->opcode & 0x8)
        return;
    if (arg->opcode == WSLAY_CONTINUATION_FRAME)
        f->msg_bytes += arg->payload_length;
    else
        f->msg_bytes = arg->payload_length;
    if (f->msg_bytes > f->max_frame)
        f->too_big = true;
}

static void ws_msg(wslay_event_context_ptr ctx, const struct wslay_event_on_msg_recv_arg *arg,
                   void *user)
{
    ws_fuzz *f = user;
    FUZZ_CHECK(arg->msg_length <= 2 * f->max_frame + 1);
    for (size_t i = 0; i < arg->msg_length; i++)
        f->delivered += arg->msg[i];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const struct wslay_event_callbacks cbs = {
        .recv_callback = ws_recv,
        .send_callback = ws_send,
        .on_frame_recv_start_callback = ws_frame_start,
        .on_msg_recv_callback = ws_msg,
    };
    if (size < 2)
        return 0;
    ws_fuzz f = {.max_frame = ((uint64_t)data[0] + 1) * 16};
    size_t chunk = (size_t)data[1] + 1;
    wslay_event_context_ptr ctx;
    FUZZ_CHECK(wslay_event_context_server_init(&ctx, &cbs, &f) == 0);
    wslay_event_config_set_max_recv_msg_length(ctx, 2 * f.max_frame + 1);
    for (size_t off = 2; off < size && !f.too_big; off += chunk) {
        f.in = data + off;
        f.in_len = size - off < chunk ? size - off : chunk;
        if (wslay_event_recv(ctx) != 0 || wslay_event_send(ctx) != 0)
            break;
        if (!wslay_event_want_read(ctx) && !wslay_event_want_write(ctx))
            break;
    }
    wslay_event_context_free(ctx);
    return 0;
}
