/*
 * fuzz_manifest.c: fuzz target `manifest`, a bundle's manifest.lua (engine_bundle_manifest,
 * engine/engine_bundle.c), which `deckhand scripts push` and the workers read from a bundle
 * anyone with push rights wrote: a Lua chunk that must return {label = "...", compatible =
 * true|false}.
 *
 * Input: the whole of manifest.lua, loaded as a bundle of that one file (with a small
 * memory cap and call budget, so memory bombs and endless loops cost little) in a fresh
 * sandboxed VM, as a push would. Properties: the manifest is found, and either refused
 * with a message or read into a NUL-terminated label.
 */
#include <string.h>

#include "engine.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    engine_file_in f = {.path = "manifest.lua", .data = (const char *)data, .len = size};
    engine_limits lim = {.mem_limit = 16u << 20, .budget_ms = 50};
    engine_error err;
    engine_bundle *b = engine_bundle_load_files("fuzz", &f, 1, &lim, &err);
    FUZZ_CHECK(b);
    engine_manifest m;
    int rc = engine_bundle_manifest(b, &m, &err);
    FUZZ_CHECK(rc == 1 || (rc == -1 && err.message[0]));
    FUZZ_CHECK(memchr(m.label, '\0', sizeof m.label));
    engine_bundle_free(b);
    return 0;
}
