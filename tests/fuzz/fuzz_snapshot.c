/*
 * fuzz_snapshot.c: fuzz target `snapshot`, a match snapshot as a worker reads it back from
 * Redis (match:{ID}:snap) when it adopts or replays a match: dh_snapz_unpack (zstd or
 * inflate, or a raw snapshot as it is), then engine_state_load, the decoder engine_match_restore
 * runs first (engine/engine_state.c).
 *
 * Input: byte 0 picks the player count (1..8; the seeds, from two-player matches, hold 1);
 * the rest is the stored value. Properties: a "DHZS" or "DHSZ" value that decompresses
 * packs by either codec and unpacks back to the same bytes; a snapshot that loads saves
 * (engine_state_save) to a canonical form that loads again and saves to the same bytes. Names are
 * interned into one empty bundle's VM, made again once it holds many (interning is per bundle and
 * never shrinks), so that an input costs no VM of its own.
 */
#include <string.h>

#include "dh_snapz.h"
#include "engine_internal.h"
#include "fuzz.h"

#define SNAP_RENEW_NAMES 20000 /* names interned before the bundle is made again */

typedef struct {
    engine_state *st;
    engine_bundle *b;
    const uint8_t *p;
    size_t len;
    int rc;
    char why[128];
} snap_load;

static engine_bundle *snap_bundle;

static int snap_load_cf(lua_State *L)
{
    snap_load *a = lua_touserdata(L, 1);
    a->rc = engine_state_load(a->st, a->b, L, a->p, a->len, a->why, sizeof a->why);
    return 0;
}

/* engine_state_load in protected mode, as the engine calls it: 0 loaded, -1 refused. */
static int snap_state_load(engine_state *st, const uint8_t *p, size_t len)
{
    snap_load a = {.st = st, .b = snap_bundle, .p = p, .len = len, .rc = -1};
    lua_State *L = snap_bundle->L;
    lua_pushcfunction(L, snap_load_cf);
    lua_pushlightuserdata(L, &a);
    if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
        lua_pop(L, 1);
        return -1;
    }
    return a.rc;
}

static void snap_renew(void)
{
    if (snap_bundle && snap_bundle->names.n < SNAP_RENEW_NAMES)
        return;
    engine_bundle_free(snap_bundle);
    engine_error err;
    engine_limits lim = {.mem_limit = 64u << 20, .budget_ms = 1000};
    snap_bundle = engine_bundle_load_files("fuzz", NULL, 0, &lim, &err);
    FUZZ_CHECK(snap_bundle);
}

/* A stored value that decompressed packs by codec and unpacks back to the same raw bytes. */
static void snap_repack(const uint8_t *raw, size_t n, dh_snapz_codec codec)
{
    uint8_t *z, *back;
    size_t zn, bn;
    FUZZ_CHECK(dh_snapz_pack(codec, raw, n, &z, &zn) == 0);
    FUZZ_CHECK(dh_snapz_unpack(z, zn, &back, &bn) == 0);
    FUZZ_CHECK(bn == n && memcmp(back, raw, n) == 0);
    free(z);
    free(back);
}

/* A loaded state saves, loads and saves again to the same bytes. */
static void snap_canonical(const engine_state *st, int np)
{
    engine_buf b1 = {0}, b2 = {0};
    engine_state st2;
    FUZZ_CHECK(engine_state_save(st, &snap_bundle->names, &b1) == 0);
    FUZZ_CHECK(engine_state_init(&st2, np) == 0);
    FUZZ_CHECK(snap_state_load(&st2, b1.p, b1.len) == 0);
    FUZZ_CHECK(engine_state_save(&st2, &snap_bundle->names, &b2) == 0);
    FUZZ_CHECK(b1.len == b2.len && memcmp(b1.p, b2.p, b1.len) == 0);
    engine_state_free(&st2);
    engine_buf_free(&b1);
    engine_buf_free(&b2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int np = data[0] % 8 + 1;
    uint8_t *raw;
    size_t n;
    if (dh_snapz_unpack(data + 1, size - 1, &raw, &n) < 0)
        return 0;
    if (size - 1 >= 4 && (!memcmp(data + 1, "DHSZ", 4) || !memcmp(data + 1, "DHZS", 4))) {
        snap_repack(raw, n, DH_SNAPZ_ZSTD);
        snap_repack(raw, n, DH_SNAPZ_ZLIB);
    }
    snap_renew();
    engine_state st;
    FUZZ_CHECK(engine_state_init(&st, np) == 0);
    if (snap_state_load(&st, raw, n) == 0)
        snap_canonical(&st, np);
    engine_state_free(&st);
    free(raw);
    return 0;
}
