/*
 * host_rebundle.c: live-ops --apply-to-running (see host.h, host_apply_bundles): a
 * running match moves onto its game's new current bundle at a quiescent point, rebuilt
 * there from its last snapshot, once Redis has recorded the move.
 */
#include "host_internal.h"
#include "host_options.h"
#include "host_persist.h"

#include <stdio.h>

#include "bundles.h"
#include "dh_log.h"
#include "out.h"

/* Rebuild hm on bundle e from its last snapshot; the Redis write goes first, in a batch of
 * its own. false (nothing changed) when the rebuild or the write fails. */
static bool host_move(host *h, host_match *hm, bundles_entry *e, uint64_t now_ms)
{
    const char *names[HOST_SEATS_MAX];
    for (int i = 0; i < hm->nseats; i++)
        names[i] = hm->seats[i].name;
    const char *bots[HOST_SEATS_MAX];
    host_bots_config(hm, bots);
    engine_match_config cfg = {.match_id = hm->id,
                               .game = hm->game,
                               .nplayers = hm->nseats,
                               .names = names,
                               .bots = host_has_bots(hm) ? bots : NULL,
                               .options = hm->options};
    size_t len = 0;
    const uint8_t *snap = engine_match_snapshot(hm->m, &len);
    engine_error ee = {0};
    engine_match *m = engine_match_restore(e->b, &cfg, snap, len, NULL, 0, &ee);
    if (!m) { /* tried again at every loop turn while the new bundle applies: rate-limited */
        dh_warn_every(DH_LOG_EVERY_MS, "match %s: stays on bundle %.12s, cannot move to %.12s: %s",
                      hm->id, hm->pin->id, e->id, ee.message);
        return false;
    }
    char note[200];
    snprintf(note, sizeof note, "%s %s %llu %llu", hm->pin->id, e->id,
             (unsigned long long)engine_match_snapshot_version(hm->m),
             (unsigned long long)hm->answers);
    int op = store_op(h->st, now_ms);
    /* Redis must hold the snapshot the move starts from (snapshots are written every few
     * turn boundaries, host_persist): an adopter rebuilds the match on the new bundle from
     * it, with no answer of the old bundle's to replay. */
    bool stale = engine_match_snapshot_version(hm->m) != hm->snap_version;
    if (op >= 0 && stale && host_persist(h, hm, NULL) < 0)
        op = -1;
    if (op >= 0 && store_move_bundle(h->st, h->worker_id, hm->id, hm->epoch, e->id, note) < 0)
        op = -1;
    store_flush(h->st, now_ms);
    bool ok = store_ok(h->st, op), fenced = store_fenced(h->st, op);
    store_next(h->st);
    host_persist_landed(hm, ok);
    if (!ok) {
        engine_match_free(m);
        if (fenced)
            host_lose(h, hm);
        return false;
    }
    dh_info("match %s: moved from bundle %.12s to %.12s at snapshot %llu", hm->id, hm->pin->id,
            e->id, (unsigned long long)engine_match_snapshot_version(hm->m));
    engine_match_free(hm->m);
    hm->m = m;
    bundles_entry *old = hm->pin;
    hm->pin = e;
    bundles_pin(e);
    bundles_unpin(h->bs, old);
    for (int i = 0; i < hm->nseats; i++)
        out_view(h, hm, i);
    return true;
}

void host_apply_bundles(host *h, uint64_t now_ms)
{
    h->now_ms = now_ms;
    if (!h->bs || store_pending(h->st))
        return;
    bool any = false; /* the common case, nothing to apply, costs one pass over the games */
    for (size_t i = 0; i < h->bs->ncur; i++)
        any = any || h->bs->cur[i].e->apply_running;
    host_walk w = host_walk_from(h, 0);
    for (host_match *hm; any && (hm = host_walk_next(&w));) {
        bundles_entry *cur = bundles_pick(h->bs, hm->game);
        if (!hm->pin || hm->pin == cur || !cur->apply_running || hm->busy || !hm->started ||
            engine_match_finished(hm->m) || engine_match_log_len(hm->m) != 0)
            continue;
        host_move(h, hm, cur, now_ms);
    }
}
