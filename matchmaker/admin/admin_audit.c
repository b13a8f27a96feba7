/*
 * admin_audit.c: the admin API's audit trail (admin_audit.h).
 */
#include "admin_audit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_keys.h"
#include "dh_log.h"
#include "mm_store.h"

int admin_audit_add(mm_state *mm, const admin_audit_entry *e, uint64_t now_ms)
{
    char at[32], status[16];
    snprintf(at, sizeof at, "%llu", (unsigned long long)mm_wall_ms(mm, now_ms));
    snprintf(status, sizeof status, "%d", e->status);
    dh_info("admin: %s by %s on %s (reason \"%s\"): %d %s", e->action, e->who, e->target, e->reason,
            e->status, e->detail);
    const char *argv[] = {
        "XADD",    DH_KEY_AUDIT_ADMIN, "*",       DH_F_AUDIT_AT,     at,        DH_F_AUDIT_WHO,
        e->who,    DH_F_AUDIT_ACTION,  e->action, DH_F_AUDIT_TARGET, e->target, DH_F_AUDIT_REASON,
        e->reason, DH_F_AUDIT_STATUS,  status,    DH_F_AUDIT_DETAIL, e->detail};
    redisReply *r = rconn_command(mm, now_ms, (int)(sizeof argv / sizeof *argv), argv);
    int rc = r && r->type == REDIS_REPLY_STRING ? 0 : -1;
    if (rc < 0)
        dh_error("admin: the audit trail did not take %s on %s: %s", e->action, e->target,
                 r && r->type == REDIS_REPLY_ERROR ? r->str : "Redis unreachable");
    if (r)
        freeReplyObject(r);
    return rc;
}

/* One stream entry [id, [field, value, ...]] as a JSON object. */
static void audit_entry_json(dh_json *j, const redisReply *e)
{
    dh_json_object(j);
    if (e->type != REDIS_REPLY_ARRAY || e->elements != 2 ||
        e->element[0]->type != REDIS_REPLY_STRING || e->element[1]->type != REDIS_REPLY_ARRAY) {
        dh_json_end(j);
        return;
    }
    dh_json_kstr(j, "id", e->element[0]->str);
    const redisReply *f = e->element[1];
    for (size_t i = 0; i + 1 < f->elements; i += 2) {
        if (f->element[i]->type != REDIS_REPLY_STRING ||
            f->element[i + 1]->type != REDIS_REPLY_STRING)
            continue;
        const char *k = f->element[i]->str, *v = f->element[i + 1]->str;
        dh_json_key(j, k);
        if (!strcmp(k, DH_F_AUDIT_AT) || !strcmp(k, DH_F_AUDIT_STATUS))
            dh_json_uint(j, strtoull(v, NULL, 10));
        else
            dh_json_strn(j, v, f->element[i + 1]->len);
    }
    dh_json_end(j);
}

int admin_audit_list(mm_state *mm, size_t limit, dh_json *j, uint64_t now_ms)
{
    char count[16];
    snprintf(count, sizeof count, "%zu", limit);
    const char *argv[] = {"XREVRANGE", DH_KEY_AUDIT_ADMIN, "+", "-", "COUNT", count};
    redisReply *r = rconn_command(mm, now_ms, 6, argv);
    dh_json_object(j);
    if (!r || r->type != REDIS_REPLY_ARRAY) {
        dh_json_kstr(j, "error", r && r->type == REDIS_REPLY_ERROR ? r->str : "Redis unreachable");
        dh_json_end(j);
        if (r)
            freeReplyObject(r);
        return 503;
    }
    dh_json_key(j, "entries");
    dh_json_array(j);
    for (size_t i = 0; i < r->elements; i++)
        audit_entry_json(j, r->element[i]);
    dh_json_end(j);
    dh_json_end(j);
    freeReplyObject(r);
    return 200;
}
