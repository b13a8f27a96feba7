/*
 * dh_client_gws.c: see dh_client_gws.h.
 */
#include "dh_client_gws.h"

#include <stdio.h>
#include <string.h>

#include "dh_client_env.h"

int dh_client_gws_parse(dh_client_gws *g, const char *list, bool ws, char *err, size_t errlen)
{
    char item[DH_CLIENT_ADDR_MAX];
    memset(g, 0, sizeof *g);
    if (!list || !*list) {
        if (dh_client_gateway_addr(NULL, ws, NULL, g->addrs[0], sizeof g->addrs[0], err, errlen) <
            0)
            return -1;
        g->n = 1;
        return 0;
    }
    for (const char *p = list;; p++) {
        size_t n = strcspn(p, ",");
        if (n == 0 || n >= sizeof item || g->n == DH_CLIENT_GWS_MAX) {
            snprintf(err, errlen, "--gateway wants 1..%d comma-separated addresses",
                     DH_CLIENT_GWS_MAX);
            return -1;
        }
        memcpy(item, p, n);
        item[n] = '\0';
        if (dh_client_gateway_addr(item, ws, NULL, g->addrs[g->n], sizeof g->addrs[0], err,
                                   errlen) < 0)
            return -1;
        g->n++;
        p += n;
        if (!*p)
            return 0;
    }
}

const char *dh_client_gws_current(const dh_client_gws *g)
{
    return g->addrs[g->cur];
}

const char *dh_client_gws_next(dh_client_gws *g)
{
    g->cur = g->n ? (g->cur + 1) % g->n : 0;
    return g->addrs[g->cur];
}

long dh_client_reconnect_after(const Deckhand__ServerMessage *s)
{
    if (!s || s->body_case != DECKHAND__SERVER_MESSAGE__BODY_RECONNECT || !s->reconnect)
        return -1;
    return (long)s->reconnect->after_ms;
}
