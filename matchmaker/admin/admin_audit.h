/*
 * admin_audit.h: the admin API's audit trail, the stream audit:{admin} (dh_keys.h):
 * one entry per action (end, remove, drain), with who (the token's name), when, what,
 * the target, why, and how the API answered, refused ones included. The matchmaker's
 * Redis user may only XADD and XREVRANGE it (dh_acl.c), so the trail is append-only for
 * everything but the default user. Every entry is also logged.
 */
#ifndef DECKHAND_MM_ADMIN_AUDIT_H
#define DECKHAND_MM_ADMIN_AUDIT_H

#include <stddef.h>
#include <stdint.h>

#include "dh_json.h"
#include "mm_store.h"

#define ADMIN_AUDIT_MAX 1000 /* entries one read returns at most */

typedef struct {
    const char *who, *action, *target, *reason;
    int status;
    const char *detail; /* what was done, or why not */
} admin_audit_entry;

/* Log e and append it to the stream. 0, or -1 (logged) when Redis did not take it. */
int admin_audit_add(mm_state *mm, const admin_audit_entry *e, uint64_t now_ms);
/* The newest limit entries (1..ADMIN_AUDIT_MAX), newest first, as the JSON object
 * {"entries": [...]} into j: the HTTP status (200, or 503 without Redis). */
int admin_audit_list(mm_state *mm, size_t limit, dh_json *j, uint64_t now_ms);

#endif
