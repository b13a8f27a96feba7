/*
 * lease.c: the matchmaker lease (see lease.h).
 */
#include "lease.h"

#include <stdio.h>
#include <string.h>

#include "dh_keys.h"
#include "dh_log.h"
#include "mm.h"
#include "rconn.h"

/* 1: the lease is ours until now + LEASE_MS; 0: another holds it (named in holder);
 * -1: Redis did not answer. */
static int lease_try(mm_state *mm, uint64_t now_ms, char *holder, size_t cap)
{
    char ms[16];
    snprintf(ms, sizeof ms, "%d", LEASE_MS);
    holder[0] = '\0';
    if (!mm->lease.held) {
        const char *set[] = {"SET", DH_KEY_MM_LEASE, mm->id, "NX", "PX", ms};
        redisReply *r = rconn_command(mm, now_ms, 6, set);
        if (!r)
            return -1;
        bool won = r->type == REDIS_REPLY_STATUS;
        freeReplyObject(r);
        if (won)
            return 1;
    }
    const dh_script *sc = &mm->scripts.lease_renew;
    const char *renew[] = {"EVALSHA", sc->sha, "1", DH_KEY_MM_LEASE, mm->id, ms};
    redisReply *r = rconn_script(mm, now_ms, sc, 6, renew);
    if (!r)
        return -1;
    int rc = r->type == REDIS_REPLY_INTEGER && r->integer == 1;
    if (!rc && r->type == REDIS_REPLY_STRING)
        snprintf(holder, cap, "%s", r->str);
    freeReplyObject(r);
    return rc;
}

static lease_change lease_step_down(mm_state *mm, const char *why)
{
    lease *l = &mm->lease;
    dh_warn("lease %s lost (%s): standby, %zu waiting players and %zu placements left to "
            "Redis",
            DH_KEY_MM_LEASE, why, queue_total(mm->queues), mm->placements.n);
    l->held = false;
    l->loaded = false;
    l->standby_logged = true;
    return LEASE_DROP;
}

lease_change lease_tick(mm_state *mm, uint64_t now_ms)
{
    lease *l = &mm->lease;
    lease_change change = LEASE_KEEP;
    if (!mm->redis_on)
        return LEASE_KEEP;
    if (l->held && now_ms >= l->until_ms)
        change = lease_step_down(mm, l->until_ms ? "not renewed in time"
                                                 : "another matchmaker holds it");
    if (now_ms >= l->next_ms) {
        char holder[LEASE_ID_MAX];
        l->next_ms = now_ms + LEASE_RENEW_MS;
        int rc = lease_try(mm, now_ms, holder, sizeof holder);
        if (rc == 1) {
            if (!l->held)
                dh_info("lease %s won by %s", DH_KEY_MM_LEASE, mm->id);
            l->held = true;
            l->until_ms = now_ms + LEASE_MS;
        } else if (rc == 0 && l->held) {
            change = lease_step_down(mm, holder[0] ? holder : "expired");
        } else if (rc == 0 && !l->standby_logged) {
            dh_info("standby: %s is held by %s", DH_KEY_MM_LEASE, holder[0] ? holder : "?");
            l->standby_logged = true;
        }
    }
    return l->held && !l->loaded ? LEASE_MUST_LOAD : change;
}

void lease_loaded(mm_state *mm, uint64_t now_ms)
{
    lease *l = &mm->lease;
    l->loaded = true;
    l->since_ms = now_ms;
    l->standby_logged = false;
    dh_info("acting: %zu players waiting, %zu placements resumed", queue_total(mm->queues),
            mm->placements.n);
}

bool lease_acting(const mm_state *mm, uint64_t now_ms)
{
    const lease *l = &mm->lease;
    return !mm->redis_on || (l->held && l->loaded && now_ms < l->until_ms);
}

void lease_lost(mm_state *mm, const char *why)
{
    if (!mm->lease.held)
        return;
    dh_warn("lease %s: %s; stopping at once", DH_KEY_MM_LEASE, why);
    mm->lease.until_ms = 0;
    mm->lease.next_ms = 0;
}

void lease_release(mm_state *mm, uint64_t now_ms)
{
    if (!mm->redis_on || !mm->lease.held)
        return;
    const dh_script *sc = &mm->scripts.lease_release;
    const char *argv[] = {"EVALSHA", sc->sha, "1", DH_KEY_MM_LEASE, mm->id};
    redisReply *r = rconn_script(mm, now_ms, sc, 5, argv);
    if (r) {
        dh_info("lease %s released", DH_KEY_MM_LEASE);
        freeReplyObject(r);
    }
    mm->lease.held = false;
    mm->lease.loaded = false;
}
