/*
 * dh_ops.c: /healthz, /readyz and /metrics over dh_http (dh_ops.h).
 */
#include "dh_ops.h"

#include <stdlib.h>
#include <string.h>

#include "dh_clock.h"
#include "dh_log.h"

int dh_ops_codes(dh_ops *o, const char *name, const char *help, dh_counter *counters)
{
    /* labels are kept by pointer, so they are literals, in deckhand.proto's order */
    static const char *const labels[DH_OPS_CODES] = {
        "",
        "code=\"BAD_FRAME\"",
        "code=\"UNAUTHENTICATED\"",
        "code=\"NOT_YOUR_TURN\"",
        "code=\"ILLEGAL_CHOICE\"",
        "code=\"UNKNOWN_MATCH\"",
        "code=\"RATE_LIMITED\"",
        "code=\"OVERLOADED\"",
        "code=\"SCRIPT_ERROR\"",
        "code=\"BAD_REQUEST\"",
        "code=\"UNAVAILABLE\"",
        "code=\"UNKNOWN_GAME\"",
        "code=\"INTERNAL\"",
        "code=\"NAME_TAKEN\"",
        "code=\"NOT_FOUND\"",
        "code=\"FULL\"",
        "code=\"ALREADY_PLACED\"",
    };
    for (int i = 1; i < DH_OPS_CODES; i++)
        if (dh_metrics_counter(&o->metrics, name, labels[i], help, &counters[i]) < 0)
            return -1;
    return 0;
}

void dh_ops_init(dh_ops *o)
{
    dh_metrics_init(&o->metrics);
    memset(&o->proc, 0, sizeof o->proc);
    dh_proc_register(&o->proc, &o->metrics); /* six series: an empty registry has room */
    atomic_init(&o->beat_ms, 0);
    atomic_init(&o->not_ready, "starting");
    o->http = NULL;
    o->admin = NULL;
}

int dh_ops_admin_on(dh_ops *o, const dh_admin_auth *auth)
{
    o->admin = dh_ops_admin_new(auth);
    return o->admin ? 0 : -1;
}

int dh_ops_start(dh_ops *o, const char *addr)
{
    if (!addr || !addr[0])
        return 0;
    dh_ops_beat(o);
    o->http = dh_http_start(addr, NULL, dh_ops_serve, o);
    if (!o->http)
        return -1;
    if (o->admin)
        o->admin->http = o->http;
    dh_info("http: /healthz /readyz /metrics%s on %s (port %d)",
            !o->admin          ? ""
            : o->admin->auth.n ? " /admin/"
                               : " (admin API off: no DECKHAND_ADMIN_TOKEN)",
            addr, dh_http_port(o->http));
    return 0;
}

void dh_ops_stop(dh_ops *o)
{
    dh_http_stop(o->http);
    o->http = NULL;
    dh_ops_admin_free(o->admin);
    o->admin = NULL;
}

void dh_ops_beat(dh_ops *o)
{
    atomic_store_explicit(&o->beat_ms, dh_now_ms(), memory_order_relaxed);
}

/* How long ago the loop last turned. */
static uint64_t ops_silence_ms(dh_ops *o)
{
    uint64_t beat = atomic_load_explicit(&o->beat_ms, memory_order_relaxed);
    uint64_t now = dh_now_ms();
    return now > beat ? now - beat : 0;
}

void dh_ops_handle(void *arg, const char *path, dh_http_reply *r)
{
    dh_ops *o = arg;
    if (strcmp(path, "/healthz") == 0 || strcmp(path, "/readyz") == 0) {
        uint64_t silent = ops_silence_ms(o);
        const char *why = atomic_load_explicit(&o->not_ready, memory_order_relaxed);
        if (silent > DH_OPS_STALL_MS)
            dh_http_reply_text(r, 503, "stalled: the main loop has not turned for %llu ms\n",
                               (unsigned long long)silent);
        else if (path[1] == 'h')
            dh_http_reply_text(r, 200, "ok\n");
        else if (why)
            dh_http_reply_text(r, 503, "not ready: %s\n", why);
        else
            dh_http_reply_text(r, 200, "ready\n");
    } else if (strcmp(path, "/metrics") == 0) {
        r->body = dh_metrics_render(&o->metrics, &r->len);
        r->status = r->body ? 200 : 500;
        r->content_type = "text/plain; version=0.0.4; charset=utf-8";
    } else {
        dh_http_reply_text(r, 404, "not found (try /healthz, /readyz, /metrics)\n");
    }
}

void dh_ops_serve(void *arg, const dh_http_request *req, dh_http_reply *r)
{
    dh_ops *o = arg;
    if (strcmp(req->path, "/admin") == 0 || strncmp(req->path, "/admin/", 7) == 0) {
        dh_ops_admin_handle(o->admin, req, r);
        return;
    }
    if (strcmp(req->method, "GET") != 0) {
        dh_http_reply_text(r, 405, "only GET here\n");
        r->allow = "GET";
        return;
    }
    dh_ops_handle(o, req->path, r);
}
