/*
 * seeds.c: writes the seed corpora of the fuzz targets (tests/fuzz/corpus/TARGET/) from
 * real data: messages packed by the generated code, frames from dh_frame, WebSocket heads
 * from dh_ws, and the snapshots and answer log of a real two-player Dominion match played
 * by its default bot. Built in the fuzz build only (build-fuzz/bin/fuzz_seeds SOURCE_DIR);
 * run once, and again only when a format changes; the corpora are committed. The manifest
 * seeds are written by hand.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "dh_frame.h"
#include "dh_snapz.h"
#include "dh_ws.h"
#include "engine.h"
#include "fuzz.h"
#include "proto_types.h"

static const char *seed_root;

/* Write corpus/target/name: a prefix of np bytes (the target's options), then data. */
static void seed_write(const char *target, const char *name, const uint8_t *pre, size_t np,
                       const void *data, size_t n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/fuzz/corpus/%s", seed_root, target);
    FUZZ_CHECK(mkdir(path, 0755) == 0 || errno == EEXIST);
    snprintf(path, sizeof path, "%s/tests/fuzz/corpus/%s/%s", seed_root, target, name);
    FILE *f = fopen(path, "wb");
    FUZZ_CHECK(f);
    FUZZ_CHECK(fwrite(pre, 1, np, f) == np && (n == 0 || fwrite(data, 1, n, f) == n));
    FUZZ_CHECK(fclose(f) == 0);
}

/* ---- messages: proto, frame, ws_frame ------------------------------------------------ */

typedef struct {
    const char *name;
    uint8_t *p; /* packed */
    size_t n;
    uint8_t type; /* index in proto_types */
} seed_msg;

static seed_msg seed_pack(const char *name, const ProtobufCMessage *m)
{
    seed_msg s = {.name = name, .n = protobuf_c_message_get_packed_size(m)};
    s.p = malloc(s.n ? s.n : 1);
    FUZZ_CHECK(s.p && protobuf_c_message_pack(m, s.p) == s.n);
    for (size_t i = 0; i < PROTO_NTYPES; i++)
        if (proto_types[i] == m->descriptor)
            s.type = (uint8_t)i;
    return s;
}

/* A masked client frame (RFC 6455 §5.2) of opcode op, fin set or not, appended at out. */
static size_t seed_ws_frame(uint8_t *out, int op, int fin, const uint8_t *p, size_t n)
{
    static const uint8_t mask[4] = {0x37, 0xfa, 0x21, 0x3d};
    size_t k = 0;
    out[k++] = (uint8_t)((fin ? 0x80 : 0) | op);
    if (n < 126) {
        out[k++] = (uint8_t)(0x80 | n);
    } else {
        out[k++] = 0x80 | 126;
        out[k++] = (uint8_t)(n >> 8);
        out[k++] = (uint8_t)n;
    }
    memcpy(out + k, mask, 4);
    k += 4;
    for (size_t i = 0; i < n; i++)
        out[k + i] = p[i] ^ mask[i % 4];
    return k + n;
}

static void seed_messages(Deckhand__View *view)
{
    Deckhand__Hello hello = DECKHAND__HELLO__INIT;
    hello.name = "ann";
    Deckhand__ClientMessage c_hello = DECKHAND__CLIENT_MESSAGE__INIT;
    c_hello.cmd_id = 1;
    c_hello.body_case = DECKHAND__CLIENT_MESSAGE__BODY_HELLO;
    c_hello.hello = &hello;
    Deckhand__QueueJoin join = DECKHAND__QUEUE_JOIN__INIT;
    join.game = "dominion";
    join.mode = "casual";
    join.players = 2;
    Deckhand__ClientMessage c_join = DECKHAND__CLIENT_MESSAGE__INIT;
    c_join.cmd_id = 2;
    c_join.body_case = DECKHAND__CLIENT_MESSAGE__BODY_QUEUE_JOIN;
    c_join.queue_join = &join;
    uint32_t opts[] = {3, 7};
    Deckhand__Choose choose = DECKHAND__CHOOSE__INIT;
    choose.match_id = "m-5f2a9c";
    choose.decision_id = 12;
    choose.n_option_ids = 2;
    choose.option_ids = opts;
    Deckhand__ClientMessage c_choose = DECKHAND__CLIENT_MESSAGE__INIT;
    c_choose.cmd_id = 3;
    c_choose.body_case = DECKHAND__CLIENT_MESSAGE__BODY_CHOOSE;
    c_choose.choose = &choose;
    Deckhand__Ping ping = DECKHAND__PING__INIT;
    ping.nonce = 99;
    Deckhand__ClientMessage c_ping = DECKHAND__CLIENT_MESSAGE__INIT;
    c_ping.cmd_id = 4;
    c_ping.body_case = DECKHAND__CLIENT_MESSAGE__BODY_PING;
    c_ping.ping = &ping;
    Deckhand__Error error = DECKHAND__ERROR__INIT;
    error.code = DECKHAND__ERROR_CODE__UNKNOWN_MATCH;
    error.message = "no such match";
    Deckhand__Reply reply = DECKHAND__REPLY__INIT;
    reply.cmd_id = 3;
    reply.error = &error;
    Deckhand__ServerMessage s_reply = DECKHAND__SERVER_MESSAGE__INIT;
    s_reply.body_case = DECKHAND__SERVER_MESSAGE__BODY_REPLY;
    s_reply.reply = &reply;
    Deckhand__ServerMessage s_view = DECKHAND__SERVER_MESSAGE__INIT;
    s_view.body_case = DECKHAND__SERVER_MESSAGE__BODY_VIEW;
    s_view.view = view;
    Deckhand__Internal__PlayerCommand cmd = DECKHAND__INTERNAL__PLAYER_COMMAND__INIT;
    cmd.match_id = "m-5f2a9c";
    cmd.player_id = "p-ann";
    cmd.cmd_id = 3;
    cmd.body_case = DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_CHOOSE;
    cmd.choose = &choose;
    Deckhand__Internal__Internal i_cmd = DECKHAND__INTERNAL__INTERNAL__INIT;
    i_cmd.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_COMMAND;
    i_cmd.player_command = &cmd;
    Deckhand__Internal__GameInfo game = DECKHAND__INTERNAL__GAME_INFO__INIT;
    game.name = "dominion";
    game.min_players = 2;
    game.max_players = 4;
    Deckhand__Internal__GameInfo *games[] = {&game};
    Deckhand__Internal__WorkerHello wh = DECKHAND__INTERNAL__WORKER_HELLO__INIT;
    wh.worker_id = "wk-1";
    wh.endpoint = "tcp://127.0.0.1:5571";
    wh.n_games = 1;
    wh.games = games;
    wh.capacity = 500;
    Deckhand__Internal__Internal i_hello = DECKHAND__INTERNAL__INTERNAL__INIT;
    i_hello.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_HELLO;
    i_hello.worker_hello = &wh;
    Deckhand__Internal__TicketRecord ticket = DECKHAND__INTERNAL__TICKET_RECORD__INIT;
    ticket.game = "dominion";
    ticket.mode = "casual";
    ticket.players = 2;
    ticket.player_id = "p-ann";
    ticket.name = "ann";
    ticket.gateway = "gw-1";
    ticket.since_ms = 1764070000000;
    ticket.seq = 4;

    seed_msg msgs[] = {
        seed_pack("client_hello", &c_hello.base),
        seed_pack("client_queue_join", &c_join.base),
        seed_pack("client_choose", &c_choose.base),
        seed_pack("client_ping", &c_ping.base),
        seed_pack("server_reply_error", &s_reply.base),
        seed_pack("server_view", &s_view.base),
        seed_pack("internal_player_command", &i_cmd.base),
        seed_pack("internal_worker_hello", &i_hello.base),
        seed_pack("ticket_record", &ticket.base),
    };
    size_t nm = sizeof msgs / sizeof msgs[0];
    uint8_t stream[4096], ws[4096];
    size_t sn = 0, wn = 0;
    for (size_t i = 0; i < nm; i++) {
        seed_write("proto", msgs[i].name, &msgs[i].type, 1, msgs[i].p, msgs[i].n);
        if (i < 4) { /* what a client sends: frames on TCP, binary messages on WebSocket */
            dh_frame_header(stream + sn, (uint32_t)msgs[i].n);
            memcpy(stream + sn + DH_FRAME_HEADER, msgs[i].p, msgs[i].n);
            sn += DH_FRAME_HEADER + msgs[i].n;
            wn += seed_ws_frame(ws + wn, 2, 1, msgs[i].p, msgs[i].n);
        }
    }
    /* frame: byte 0 the limit / 4, byte 1 the read size - 1 */
    seed_write("frame", "client_session_whole_reads", (const uint8_t[]){255, 63}, 2, stream, sn);
    seed_write("frame", "client_session_small_reads", (const uint8_t[]){255, 2}, 2, stream, sn);
    seed_write("frame", "over_the_limit", (const uint8_t[]){4, 10}, 2, stream, sn);
    /* ws_frame: byte 0 the limit / 16 - 1, byte 1 the read size - 1 */
    seed_write("ws_frame", "client_session", (const uint8_t[]){63, 255}, 2, ws, wn);
    uint8_t more[4096];
    size_t mn = 0;
    mn += seed_ws_frame(more + mn, 9, 1, (const uint8_t *)"hi", 2);     /* ping */
    mn += seed_ws_frame(more + mn, 2, 0, msgs[2].p, 5);                 /* first part */
    mn += seed_ws_frame(more + mn, 0, 1, msgs[2].p + 5, msgs[2].n - 5); /* the rest */
    mn += seed_ws_frame(more + mn, 1, 1, (const uint8_t *)"text", 4);   /* refused */
    mn += seed_ws_frame(more + mn, 8, 1, (const uint8_t[]){0x03, 0xe8, 'o', 'k'}, 4); /* close */
    seed_write("ws_frame", "ping_fragments_text_close", (const uint8_t[]){63, 6}, 2, more, mn);
    uint8_t big[600];
    memset(big, 0x42, sizeof big);
    size_t bn = seed_ws_frame(more, 2, 1, big, sizeof big);
    seed_write("ws_frame", "over_the_limit", (const uint8_t[]){15, 100}, 2, more, bn);
    for (size_t i = 0; i < nm; i++)
        free(msgs[i].p);
}

/* ---- outwire: a worker's PlayerOutputs, as the gateway receives it -------------------- */

static void seed_outputs(void)
{
    static const char *players[3] = {"p-0123456789abcdef", "p-fedcba9876543210",
                                     "p-0123456789abcdef"};
    static const char *bodies[3] = {"\x0a\x02\x08\x01", "a delta", "game over"};
    Deckhand__Internal__PlayerOutput po[3], *ptrs[3];
    for (int i = 0; i < 3; i++) {
        po[i] = (Deckhand__Internal__PlayerOutput)DECKHAND__INTERNAL__PLAYER_OUTPUT__INIT;
        po[i].player_id = (char *)players[i];
        po[i].match_id = (char *)(i ? "m-42" : "");
        po[i].message.data = (uint8_t *)bodies[i];
        po[i].message.len = strlen(bodies[i]);
        po[i].kind = (Deckhand__Internal__PlayerOutput__Kind)i;
        ptrs[i] = &po[i];
    }
    Deckhand__Internal__PlayerOutputs outs = DECKHAND__INTERNAL__PLAYER_OUTPUTS__INIT;
    outs.n_outputs = 3;
    outs.outputs = ptrs;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_OUTPUTS;
    m.player_outputs = &outs;
    seed_msg s = seed_pack("turn", &m.base);
    seed_write("outwire", s.name, (const uint8_t[]){0}, 0, s.p, s.n);
    free(s.p);
    outs.n_outputs = 0;
    s = seed_pack("empty_turn", &m.base);
    seed_write("outwire", s.name, (const uint8_t[]){0}, 0, s.p, s.n);
    free(s.p);
}

/* ---- heads: ws_upgrade, http ----------------------------------------------------------- */

static void seed_heads(void)
{
    char req[1024], resp[1024];
    int n =
        dh_ws_format_request(req, sizeof req, "127.0.0.1:7002", "/ws", "dGhlIHNhbXBsZSBub25jZQ==");
    FUZZ_CHECK(n > 0);
    seed_write("ws_upgrade", "client_request", (const uint8_t[]){0x2a}, 1, req, (size_t)n);
    static const char browser[] =
        "GET /ws?v=1 HTTP/1.1\r\nHost: play.example.org\r\nUser-Agent: Mozilla/5.0\r\n"
        "Connection: keep-alive, Upgrade\r\nupgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
        "Origin: https://play.example.org\r\nSec-WebSocket-Key: x3JJHMbDL1EzLkh9GBhXDw==\r\n"
        "Sec-WebSocket-Extensions: permessage-deflate\r\n\r\n";
    seed_write("ws_upgrade", "browser_request", (const uint8_t[]){0x50}, 1, browser,
               sizeof browser - 1);
    dh_ws_request r;
    const char *why;
    FUZZ_CHECK(dh_ws_parse_request(req, (size_t)n, &r, &why) == n);
    int rn = dh_ws_response(&r, resp, sizeof resp);
    FUZZ_CHECK(rn > 0);
    seed_write("ws_upgrade", "server_response", (const uint8_t[]){1}, 1, resp, (size_t)rn);
    static const char refused[] = "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n";
    seed_write("ws_upgrade", "server_refusal", (const uint8_t[]){3}, 1, refused,
               sizeof refused - 1);

    static const struct {
        const char *name, *text;
        uint8_t limit, read;
    } http[] = {
        {"metrics", "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1:9102\r\nAccept: */*\r\n\r\n", 255,
         255},
        {"healthz_query", "GET /healthz?verbose=1#x HTTP/1.0\r\n\r\n", 255, 3},
        {"post", "POST /readyz HTTP/1.1\r\nContent-Length: 2\r\n\r\nhi", 255, 255},
        {"too_long",
         "GET /metrics HTTP/1.1\r\nX-Padding: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\n", 2, 7},
        {"bad_line", "GET metrics HTTP/2\r\n\r\n", 255, 255},
    };
    for (size_t i = 0; i < sizeof http / sizeof http[0]; i++)
        seed_write("http", http[i].name, (const uint8_t[]){http[i].limit, http[i].read}, 2,
                   http[i].text, strlen(http[i].text));
}

/* ---- a real match: snapshot, log, and a View for proto ------------------------------- */

/* A snapshot stored by codec (the first seeds were written by a release that had only
 * deflate: they stay deflate). */
static void seed_snapshot(engine_match *m, const char *name, dh_snapz_codec codec)
{
    size_t n, zn;
    const uint8_t *raw = engine_match_snapshot(m, &n);
    uint8_t *z;
    FUZZ_CHECK(raw && dh_snapz_pack(codec, raw, n, &z, &zn) == 0);
    seed_write("snapshot", name, (const uint8_t[]){1}, 1, z, zn); /* byte 0: 2 players */
    free(z);
}

static void seed_match(const char *dir)
{
    engine_error err;
    engine_bundle *b = engine_bundle_load(dir, NULL, &err);
    FUZZ_CHECK(b);
    const char *names[] = {"ann", "bob"};
    engine_match_config cfg = {
        .match_id = "m-5f2a9c", .game = "dominion", .seed = 7, .nplayers = 2, .names = names};
    engine_match *m = engine_match_new(b, &cfg, &err);
    FUZZ_CHECK(m);
    seed_snapshot(m, "dominion_start", DH_SNAPZ_ZLIB);
    uint8_t log[4096];
    size_t ln = 0;
    for (int i = 0; i < 200 && !engine_match_finished(m); i++) {
        const engine_decision *d = engine_match_decision(m);
        uint32_t ids[64];
        size_t n = 64;
        FUZZ_CHECK(d && engine_match_bot_answer(m, NULL, ids, &n, &err) == ENGINE_OK);
        engine_answer a = {
            .seat = d->seat, .decision_id = d->decision_id, .option_ids = ids, .n = n};
        FUZZ_CHECK(engine_match_answer(m, a.seat, a.decision_id, ids, n, &err) == ENGINE_OK);
        uint8_t *enc;
        size_t en;
        FUZZ_CHECK(engine_answer_encode(&a, &enc, &en) == 0);
        if (ln + 1 + en <= 512) { /* the log seed: length byte, entry; the first answers */
            log[ln++] = (uint8_t)en;
            memcpy(log + ln, enc, en);
            ln += en;
        }
        free(enc);
        if (i == 60)
            seed_snapshot(m, "dominion_turn_mid", DH_SNAPZ_ZLIB);
    }
    seed_write("log", "dominion_answers", NULL, 0, log, ln);
    seed_snapshot(m, "dominion_late", DH_SNAPZ_ZLIB);
    seed_snapshot(m, "dominion_late_zstd", DH_SNAPZ_ZSTD);
    size_t rn;
    const uint8_t *raw = engine_match_snapshot(m, &rn);
    seed_write("snapshot", "dominion_late_raw", (const uint8_t[]){1}, 1, raw, rn);
    Deckhand__View *v = engine_match_view(m, 0);
    FUZZ_CHECK(v);
    seed_messages(v);
    engine_view_free(v);
    engine_match_free(m);
    engine_bundle_free(b);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: fuzz_seeds SOURCE_DIR (writes SOURCE_DIR/tests/fuzz/corpus/)\n");
        return 2;
    }
    seed_root = argv[1];
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/scripts", seed_root);
    seed_match(dir);
    seed_heads();
    seed_outputs();
    return 0;
}
