/*
 * fuzz_log.c: fuzz target `log`, a match's answer log as Redis stores it
 * (match:{ID}:log, one entry per accepted answer since the snapshot), decoded by
 * engine_answer_decode (engine/engine_log.c) when a worker adopts or replays a match
 * (worker/host_adopt.c).
 *
 * Input: a list of entries, each a length byte and that many bytes (the last one cut to
 * what is left), decoded as the adopting worker does, with room for HOST_BOT_IDS (64)
 * option ids. Properties: a decoded entry holds at most that many ids and a seat the
 * format allows, and it encodes (engine_answer_encode) to bytes that decode to the same
 * answer.
 */
#include <string.h>

#include "engine.h"
#include "fuzz.h"

#define LOG_IDS 64 /* worker/host_internal.h HOST_BOT_IDS: what the adopting worker allows */

/* One entry: decoded answers must survive an encode and decode unchanged. */
static void log_entry(const uint8_t *p, size_t len)
{
    uint32_t ids[LOG_IDS], ids2[LOG_IDS];
    engine_answer a, b;
    if (engine_answer_decode(p, len, &a, ids, LOG_IDS) != 0)
        return;
    FUZZ_CHECK(a.n <= LOG_IDS && a.seat >= 0 && a.seat <= 64 && a.option_ids == ids);
    uint8_t *enc;
    size_t n;
    FUZZ_CHECK(engine_answer_encode(&a, &enc, &n) == 0);
    FUZZ_CHECK(n <= len); /* the encoder writes the shortest form */
    FUZZ_CHECK(engine_answer_decode(enc, n, &b, ids2, LOG_IDS) == 0);
    FUZZ_CHECK(b.seat == a.seat && b.decision_id == a.decision_id && b.n == a.n);
    FUZZ_CHECK(a.n == 0 || memcmp(ids, ids2, sizeof ids[0] * a.n) == 0);
    free(enc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t pos = 0;
    while (pos < size) {
        size_t len = data[pos++];
        if (len > size - pos)
            len = size - pos;
        /* each entry in an allocation of its own, as Redis hands it over */
        uint8_t *e = malloc(len ? len : 1);
        FUZZ_CHECK(e);
        memcpy(e, data + pos, len);
        log_entry(e, len);
        free(e);
        pos += len;
    }
    return 0;
}
