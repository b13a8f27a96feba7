/*
 * dh_slot.c: see dh_slot.h. The CRC is computed bit by bit: keys are short and a table
 * would be 512 bytes of constants for no measurable gain at deckhand's rates.
 */
#include "dh_slot.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

uint16_t dh_slot_crc16(const void *data, size_t n)
{
    const unsigned char *p = data;
    uint16_t crc = 0;
    for (size_t i = 0; i < n; i++) {
        crc ^= (uint16_t)(p[i] << 8);
        for (int b = 0; b < 8; b++)
            crc = (crc & 0x8000) ? (uint16_t)((crc << 1) ^ 0x1021) : (uint16_t)(crc << 1);
    }
    return crc;
}

int dh_slot_of(const char *key, size_t n)
{
    const char *open = memchr(key, '{', n);
    if (open) {
        size_t from = (size_t)(open - key) + 1;
        const char *close = memchr(open + 1, '}', n - from);
        if (close && close > open + 1)
            return dh_slot_crc16(open + 1, (size_t)(close - open - 1)) % DH_SLOTS;
    }
    return dh_slot_crc16(key, n) % DH_SLOTS;
}

static size_t slot_len(const char **argv, const size_t *lens, int i)
{
    return lens ? lens[i] : strlen(argv[i]);
}

int dh_slot_of_command(int argc, const char **argv, const size_t *lens)
{
    if (argc < 2)
        return -1;
    const char *cmd = argv[0];
    if (!strcasecmp(cmd, "EVAL") || !strcasecmp(cmd, "EVALSHA")) {
        if (argc < 4 || atoi(argv[2]) < 1)
            return -1;
        return dh_slot_of(argv[3], slot_len(argv, lens, 3));
    }
    static const char *keyless[] = {"PING",  "SCRIPT", "CLUSTER", "AUTH",   "SELECT", "INFO",
                                    "HELLO", "CLIENT", "ACL",     "CONFIG", "WAIT",   "SCAN"};
    for (size_t i = 0; i < sizeof keyless / sizeof *keyless; i++)
        if (!strcasecmp(cmd, keyless[i]))
            return -1;
    return dh_slot_of(argv[1], slot_len(argv, lens, 1));
}

dh_redirect_kind dh_slot_redirect(const char *err, size_t n, dh_redirect *out)
{
    char buf[320];
    memset(out, 0, sizeof *out);
    if (!err || n >= sizeof buf)
        return DH_REDIRECT_NONE;
    memcpy(buf, err, n);
    buf[n] = '\0';
    dh_redirect_kind kind = !strncmp(buf, "MOVED ", 6) ? DH_REDIRECT_MOVED
                            : !strncmp(buf, "ASK ", 4) ? DH_REDIRECT_ASK
                                                       : DH_REDIRECT_NONE;
    if (kind == DH_REDIRECT_NONE)
        return kind;
    char *p = strchr(buf, ' ') + 1, *end;
    long slot = strtol(p, &end, 10);
    if (end == p || *end != ' ' || slot < 0 || slot >= DH_SLOTS)
        return DH_REDIRECT_NONE;
    p = end + 1;
    char *colon = strrchr(p, ':');
    if (!colon || colon == p || (size_t)(colon - p) >= sizeof out->host)
        return DH_REDIRECT_NONE;
    long port = strtol(colon + 1, &end, 10);
    if (end == colon + 1 || *end || port <= 0 || port > 65535)
        return DH_REDIRECT_NONE;
    memcpy(out->host, p, (size_t)(colon - p));
    out->host[colon - p] = '\0';
    out->slot = (int)slot;
    out->port = (int)port;
    out->kind = kind;
    return kind;
}
