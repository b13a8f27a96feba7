/*
 * strand.c: see strand.h.
 *
 * Nothing is looked for while no worker link is lost (the dealers are a handful, the
 * connections many). While one is, the commands waiting for a worker (few) are looked at
 * every tick, and the connections when the link is found lost and every STRAND_RESCAN_MS
 * after, since a dead worker's dealer stays lost for good once its matches have moved:
 * the gateway does not walk every connection four times a second for it. A player is
 * found through its connection's matches and through its commands still waiting for a
 * worker (a player who resumed here during the cut and whose Resync was never answered
 * has no match noted yet). Its connection is closed with a flush, so the Reconnect goes
 * out first; the close then reports the player away as any dropped connection does (the
 * away waits in the dead link's queue, and a late away from a gateway the player left
 * changes nothing). A Reply still owed to it is not sent: the protocol tells the client to
 * resync after a Reconnect, as after a drop.
 */
#include "strand.h"

#include "conn.h"
#include "dh_log.h"
#include "inflight.h"
#include "route.h"
#include "session.h"
#include "zsock.h"

typedef struct {
    gw *g;
    uint64_t now;
    size_t lost, told;
    bool scan; /* some lost link's connections are due to be looked for */
} strand_scan;

static void strand_find_lost(const char *key, void *val, void *arg)
{
    strand_scan *st = arg;
    zsock *s = val;
    if (!wlink_lost(&s->link, st->now))
        return;
    st->lost++;
    if (!s->link.reported || st->now - s->link.scanned >= STRAND_RESCAN_MS) {
        s->link.scanned = st->now;
        st->scan = true;
    }
    if (s->link.reported)
        return;
    s->link.reported = true;
    dh_counter_inc(&st->g->stats.worker_links_lost);
    dh_warn("%s: %s closed for silence %llu ms ago, nothing heard for %llu ms: its players "
            "are told to reconnect elsewhere",
            STRAND_REASON, s->endpoint, (unsigned long long)(st->now - s->link.down_since),
            (unsigned long long)(st->now - s->link.heard));
}

static bool strand_routed_lost(gw *g, const char *match_id, uint64_t now)
{
    if (!match_id[0])
        return false;
    zsock *s = route_owner(g, match_id);
    return s && wlink_lost(&s->link, now);
}

/* Tell c to reconnect elsewhere and close it once that is written. */
static void strand_tell(strand_scan *st, gw_conn *c)
{
    if (!c || c->state != CONN_OPEN)
        return;
    Deckhand__Reconnect rc = DECKHAND__RECONNECT__INIT;
    rc.after_ms = STRAND_AFTER_MS;
    rc.reason = STRAND_REASON;
    Deckhand__ServerMessage m = DECKHAND__SERVER_MESSAGE__INIT;
    m.body_case = DECKHAND__SERVER_MESSAGE__BODY_RECONNECT;
    m.reconnect = &rc;
    if (session_send(c, &m) == 0) {
        st->told++;
        dh_counter_inc(&st->g->stats.reconnects_sent);
    }
    conn_close(c, true);
}

static void strand_commands(const char *key, void *val, void *arg)
{
    strand_scan *st = arg;
    inflight *p = val;
    if (!p->expired && strand_routed_lost(st->g, p->match_id, st->now))
        strand_tell(st, session_find(st->g, p->player_id));
}

static void strand_conns(strand_scan *st)
{
    for (gw_conn *c = st->g->conns; c; c = c->next) {
        if (c->state != CONN_OPEN || !c->authed)
            continue;
        for (int i = 0; i < GW_CONN_MATCHES; i++)
            if (strand_routed_lost(st->g, c->matches[i], st->now)) {
                strand_tell(st, c);
                break;
            }
    }
}

size_t strand_tick(gw *g)
{
    strand_scan st = {g, uv_now(g->loop), 0, 0, false};
    dh_table_each(&g->dealers, strand_find_lost, &st);
    if (!st.lost)
        return 0;
    if (st.scan)
        strand_conns(&st);
    dh_table_each(&g->commands, strand_commands, &st);
    if (st.told)
        dh_info("%s: %zu players told to reconnect elsewhere", STRAND_REASON, st.told);
    return st.told;
}
