/*
 * flood.c: the flood guard and its bans (flood.h says how they work and why).
 */
#include "flood.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dh_log.h"

int flood_init(gw *g)
{
    return dh_table_init(&g->bans);
}

void flood_free(gw *g)
{
    if (g->bans.buckets)
        dh_table_free(&g->bans, NULL);
}

void flood_addr_key(char *out, size_t n, const char *addr)
{
    snprintf(out, n, "a:%s", addr);
}

void flood_player_key(char *out, size_t n, const char *player_id)
{
    snprintf(out, n, "p:%s", player_id);
}

/* The ban's end is the value itself (a loop time, never 0), so a ban costs no allocation
 * beyond the table's entry. */
bool flood_banned(gw *g, const char *key)
{
    uintptr_t until = (uintptr_t)dh_table_get(&g->bans, key);
    if (!until)
        return false;
    if (until > uv_now(g->loop))
        return true;
    dh_table_del(&g->bans, key);
    return false;
}

static void flood_ban(gw *g, const char *key)
{
    if (!g->flood_ban_ms || !key[0] || key[2] == '\0')
        return;
    if (g->bans.count >= GW_FLOOD_BANS && !dh_table_get(&g->bans, key)) {
        dh_warn_every(DH_LOG_EVERY_MS, "%s not banned: %d bans held already", key, GW_FLOOD_BANS);
        return;
    }
    uintptr_t until = (uintptr_t)(uv_now(g->loop) + g->flood_ban_ms);
    if (dh_table_set(&g->bans, key, (void *)until) < 0)
        dh_warn_every(DH_LOG_EVERY_MS, "%s not banned: out of memory", key);
}

flood_verdict flood_refused(gw_conn *c)
{
    uint64_t now = uv_now(c->gw->loop);
    c->flood_debt -= (double)(now - c->flood_ms) * GW_RATE_PER_SEC / 1000.0;
    if (c->flood_debt < 0)
        c->flood_debt = 0;
    c->flood_ms = now;
    c->flood_debt += 1.0;
    c->rate_refused++;
    if (c->flood_debt >= GW_FLOOD_MAX)
        return FLOOD_DROP;
    if (c->flood_debt > GW_FLOOD_QUIET) {
        c->rate_silent++;
        c->rate_silent_total++;
        dh_counter_inc(&c->gw->stats.rate_silent);
        return FLOOD_SILENT;
    }
    return FLOOD_REPLY;
}

void flood_reply_text(gw_conn *c, char *out, size_t n)
{
    if (c->rate_silent)
        snprintf(out, n, "too many messages (%" PRIu64 " refused before this one got no reply)",
                 c->rate_silent);
    else
        snprintf(out, n, "too many messages");
    c->rate_silent = 0;
}

void flood_drop_text(gw_conn *c, char *out, size_t n)
{
    snprintf(out, n,
             "disconnected for flooding: %" PRIu64 " messages refused, %" PRIu64
             " of them without a reply; refused for %" PRIu64 " s",
             c->rate_refused, c->rate_silent_total, (c->gw->flood_ban_ms + 999) / 1000);
}

void flood_drop(gw_conn *c)
{
    gw *g = c->gw;
    char key[GW_ADDR_MAX];
    dh_counter_inc(&g->stats.floods);
    dh_warn_every(DH_LOG_EVERY_MS,
                  "conn %llu (%s, player %s) dropped for flooding: %" PRIu64
                  " messages refused, %" PRIu64 " without a reply; banned for %" PRIu64 " ms",
                  (unsigned long long)c->serial, c->peer, c->authed ? c->player_id : "-",
                  c->rate_refused, c->rate_silent_total, g->flood_ban_ms);
    flood_addr_key(key, sizeof key, c->addr);
    flood_ban(g, key);
    if (c->authed) {
        flood_player_key(key, sizeof key, c->player_id);
        flood_ban(g, key);
    }
    conn_close(c, true);
}

static void flood_expire_one(const char *key, void *val, void *arg)
{
    gw *g = arg;
    if ((uintptr_t)val <= uv_now(g->loop))
        dh_table_del(&g->bans, key);
}

void flood_tick(gw *g)
{
    if (g->bans.count)
        dh_table_each(&g->bans, flood_expire_one, g);
}
