/*
 * fuzz_manifest.c: fuzz target `manifest`, a bundle's manifest.lua (engine_bundle_manifest,
 * engine/engine_bundle.c), which `deckhand scripts push` and the workers read from a bundle
 * anyone with push rights wrote: a Lua chunk that must return {label = "...", compatible =
 * true|false}.
 *
 * Input: the whole of manifest.lua. It runs in a sandboxed VM of a bundle holding only that
 * file, under a 4 MiB memory cap and a 5 ms call budget (the engine defaults to 256 MiB and 250 ms:
 * this is what keeps memory bombs and endless loops, which the fuzzer finds at once, cheap).
 * A fresh VM per input (a Lua state, the sandbox, a watchdog thread) would hold the target
 * to ~2,700 inputs/s, so one bundle serves MANIFEST_RENEW inputs: each input replaces the
 * file's bytes and forgets the loaded module, which is all a new bundle would differ by
 * (the sandbox's globals and libraries are read-only to scripts). Properties: the manifest
 * is found, and either refused with a message or read into a NUL-terminated label; the VM
 * is left with an empty stack.
 */
#include <string.h>

#include "engine_internal.h"
#include "fuzz.h"

#define MANIFEST_RENEW 1024 /* inputs per bundle */

static engine_bundle *manifest_bundle;
static unsigned manifest_uses;

/* The bundle, holding manifest.lua with the bytes data[0..size) and not loaded yet. */
static engine_bundle *manifest_with(const uint8_t *data, size_t size)
{
    if (manifest_uses++ % MANIFEST_RENEW == 0) {
        engine_bundle_free(manifest_bundle);
        engine_file_in f = {.path = "manifest.lua", .data = "return {}", .len = 9};
        engine_limits lim = {.mem_limit = 4u << 20, .budget_ms = 5};
        engine_error err;
        manifest_bundle = engine_bundle_load_files("fuzz", &f, 1, &lim, &err);
        FUZZ_CHECK(manifest_bundle && manifest_bundle->nfiles == 1);
    }
    engine_bundle *b = manifest_bundle;
    engine_file *f = &b->files[0];
    char *copy = malloc(size ? size : 1);
    FUZZ_CHECK(copy);
    memcpy(copy, data, size);
    free(f->data);
    f->data = copy;
    f->len = size;
    lua_rawgeti(b->L, LUA_REGISTRYINDEX, b->loaded_ref);
    lua_pushliteral(b->L, "manifest");
    lua_pushnil(b->L);
    lua_rawset(b->L, -3);
    lua_pop(b->L, 1);
    return b;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    engine_bundle *b = manifest_with(data, size);
    engine_manifest m;
    engine_error err;
    int rc = engine_bundle_manifest(b, &m, &err);
    FUZZ_CHECK(rc == 1 || (rc == -1 && err.message[0]));
    FUZZ_CHECK(memchr(m.label, '\0', sizeof m.label));
    FUZZ_CHECK(lua_gettop(b->L) == 0);
    return 0;
}
