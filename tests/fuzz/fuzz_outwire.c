/*
 * fuzz_outwire.c: fuzz target `outwire`, the gateway's in-place reading of a worker's
 * PlayerOutputs (gateway/outwire.h) against protobuf-c's unpack of the same bytes.
 *
 * Input: an encoded Internal. Properties: whatever the in-place reader takes, the unpack
 * takes too and reads the same outputs (ids, kind, message bytes, in order), and every
 * output's bytes lie inside the input; what the reader leaves (NULL) is the unpack's to
 * take or refuse. Read twice, so the slots kept between messages are reused.
 */
#include <string.h>

#include "fuzz.h"
#include "internal.pb-c.h"
#include "outwire.h"

static void outwire_compare(const Deckhand__Internal__Internal *m,
                            const Deckhand__Internal__Internal *u, const uint8_t *data, size_t size)
{
    FUZZ_CHECK(u && u->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_OUTPUTS);
    const Deckhand__Internal__PlayerOutputs *a = m->player_outputs, *b = u->player_outputs;
    FUZZ_CHECK(a->n_outputs == b->n_outputs);
    for (size_t i = 0; i < a->n_outputs; i++) {
        const Deckhand__Internal__PlayerOutput *x = a->outputs[i], *y = b->outputs[i];
        FUZZ_CHECK(!strcmp(x->player_id, y->player_id));
        FUZZ_CHECK(!strcmp(x->match_id, y->match_id));
        FUZZ_CHECK(x->kind == y->kind);
        FUZZ_CHECK(x->message.len == y->message.len);
        if (!x->message.len)
            continue;
        FUZZ_CHECK(x->message.data >= data && x->message.data + x->message.len <= data + size);
        FUZZ_CHECK(!memcmp(x->message.data, y->message.data, x->message.len));
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    outwire w;
    outwire_init(&w);
    Deckhand__Internal__Internal *u = deckhand__internal__internal__unpack(NULL, size, data);
    for (int round = 0; round < 2; round++) {
        Deckhand__Internal__Internal *m = outwire_read(&w, data, size);
        if (m)
            outwire_compare(m, u, data, size);
    }
    if (u)
        deckhand__internal__internal__free_unpacked(u, NULL);
    outwire_free(&w);
    return 0;
}
