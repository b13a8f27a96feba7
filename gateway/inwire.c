/*
 * inwire.c: see inwire.h. Field numbers: ClientMessage.cmd_id 1, .choose 13; Choose.match_id
 * 1, .decision_id 2, .option_ids 3 (repeated uint32, packed or not), .bot 4;
 * Internal.player_command 40; PlayerCommand.match_id 1, .player_id 2, .cmd_id 3, .choose 10.
 */
#include "inwire.h"

#include <string.h>

#define INWIRE_CMD_ID    1
#define INWIRE_CHOOSE    13
#define INWIRE_MATCH_ID  1
#define INWIRE_DECISION  2
#define INWIRE_OPTIONS   3
#define INWIRE_BOT       4
#define INWIRE_INTERNAL  40 /* Internal.player_command */
#define INWIRE_PC_MATCH  1
#define INWIRE_PC_PLAYER 2
#define INWIRE_PC_CMD_ID 3
#define INWIRE_PC_CHOOSE 10

/* Printable ASCII only (what the ordinary path's checks let through, and stricter). */
static bool inwire_printable(dh_wire_span s)
{
    for (size_t i = 0; i < s.len; i++)
        if (s.data[i] < 0x20 || s.data[i] > 0x7e)
            return false;
    return true;
}

static bool inwire_option(const uint8_t **p, const uint8_t *end)
{
    uint64_t v;
    return dh_wire_varint(p, end, &v) && v <= UINT32_MAX;
}

/* Packed option ids: varints that fill the span exactly. */
static bool inwire_options(dh_wire_span s)
{
    const uint8_t *p = s.data, *end = s.data + s.len;
    while (p < end)
        if (!inwire_option(&p, end))
            return false;
    return true;
}

/* The Choose's fields; its match id copied into ch. */
static bool inwire_choose_fields(dh_wire_span body, inwire_choose *ch)
{
    const uint8_t *p = body.data, *end = body.data + body.len;
    dh_wire_span match = {NULL, 0}, bot = {NULL, 0}, opts;
    bool seen_decision = false;
    uint64_t key, v;
    while (p < end) {
        if (!dh_wire_varint(&p, end, &key))
            return false;
        bool ok;
        if (key == DH_WIRE_LEN(INWIRE_MATCH_ID))
            ok = !match.data && dh_wire_bytes(&p, end, &match);
        else if (key == DH_WIRE_VARINT(INWIRE_DECISION)) {
            ok = !seen_decision && dh_wire_varint(&p, end, &v);
            seen_decision = true;
        } else if (key == DH_WIRE_VARINT(INWIRE_OPTIONS))
            ok = inwire_option(&p, end);
        else if (key == DH_WIRE_LEN(INWIRE_OPTIONS))
            ok = dh_wire_bytes(&p, end, &opts) && inwire_options(opts);
        else if (key == DH_WIRE_LEN(INWIRE_BOT))
            ok = !bot.data && dh_wire_bytes(&p, end, &bot) && inwire_printable(bot);
        else
            ok = false;
        if (!ok)
            return false;
    }
    if (!match.data || match.len == 0 || match.len >= sizeof ch->match_id ||
        !inwire_printable(match))
        return false;
    memcpy(ch->match_id, match.data, match.len);
    ch->match_id[match.len] = '\0';
    return true;
}

bool inwire_read_choose(const uint8_t *data, size_t len, inwire_choose *ch)
{
    const uint8_t *p = data, *end = data + len;
    bool seen_id = false;
    uint64_t key;
    ch->cmd_id = 0;
    ch->choose.data = NULL;
    while (p < end) {
        if (!dh_wire_varint(&p, end, &key))
            return false;
        bool ok;
        if (key == DH_WIRE_VARINT(INWIRE_CMD_ID)) {
            ok = !seen_id && dh_wire_varint(&p, end, &ch->cmd_id);
            seen_id = true;
        } else if (key == DH_WIRE_LEN(INWIRE_CHOOSE))
            ok = !ch->choose.data && dh_wire_bytes(&p, end, &ch->choose);
        else
            ok = false;
        if (!ok)
            return false;
    }
    return ch->cmd_id != 0 && ch->choose.data && inwire_choose_fields(ch->choose, ch);
}

/* The PlayerCommand's bytes (the Internal field's body). */
static size_t inwire_body_size(const inwire_choose *ch, size_t mlen, size_t plen)
{
    size_t n = 1 + dh_wire_varint_size(mlen) + mlen;
    if (plen)
        n += 1 + dh_wire_varint_size(plen) + plen;
    n += 1 + dh_wire_varint_size(ch->cmd_id);
    return n + 1 + dh_wire_varint_size(ch->choose.len) + ch->choose.len;
}

size_t inwire_command_size(const inwire_choose *ch, const char *player_id)
{
    size_t body = inwire_body_size(ch, strlen(ch->match_id), strlen(player_id));
    return dh_wire_varint_size(DH_WIRE_LEN(INWIRE_INTERNAL)) + dh_wire_varint_size(body) + body;
}

static size_t inwire_put_bytes(uint8_t *out, unsigned field, const void *data, size_t len)
{
    size_t n = dh_wire_put_varint(out, DH_WIRE_LEN(field));
    n += dh_wire_put_varint(out + n, len);
    if (len)
        memcpy(out + n, data, len);
    return n + len;
}

size_t inwire_command_pack(const inwire_choose *ch, const char *player_id, uint8_t *out)
{
    size_t mlen = strlen(ch->match_id), plen = strlen(player_id);
    size_t n = dh_wire_put_varint(out, DH_WIRE_LEN(INWIRE_INTERNAL));
    n += dh_wire_put_varint(out + n, inwire_body_size(ch, mlen, plen));
    n += inwire_put_bytes(out + n, INWIRE_PC_MATCH, ch->match_id, mlen);
    if (plen) /* as protobuf-c packs a proto3 string: an empty one not at all */
        n += inwire_put_bytes(out + n, INWIRE_PC_PLAYER, player_id, plen);
    n += dh_wire_put_varint(out + n, DH_WIRE_VARINT(INWIRE_PC_CMD_ID));
    n += dh_wire_put_varint(out + n, ch->cmd_id);
    n += inwire_put_bytes(out + n, INWIRE_PC_CHOOSE, ch->choose.data, ch->choose.len);
    return n;
}
