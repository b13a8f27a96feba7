/*
 * admin.h: the admin API's work in the matchmaker (docs/OPERATIONS.md, "Admin API").
 *
 * The operator port's thread admits requests with a valid bearer token
 * (common/dh_ops_admin.h); the main loop polls the queue's descriptor and calls
 * admin_serve, which routes each request, answers it, and audits every action:
 *
 *   GET  /admin/matches[?game=&worker=&bundle=&min_age_s=&limit=&cursor=]
 *   GET  /admin/matches/ID
 *   POST /admin/matches/ID/end?reason=R
 *   POST /admin/matches/ID/remove?player=P&reason=R
 *   GET  /admin/workers
 *   POST /admin/workers/ID/drain?reason=R[&force=1]
 *   GET  /admin/gateways
 *   GET  /admin/audit[?limit=N]
 *
 * The matches live in Redis (admin_matches.h), workers and gateways in the registry,
 * the trail in audit:{admin} (admin_audit.h). A standby matchmaker answers 503: only the
 * acting one (the lease holder) may tell workers what to do, and the Service in front
 * of the matchmakers leads to it.
 */
#ifndef DECKHAND_MM_ADMIN_H
#define DECKHAND_MM_ADMIN_H

#include <stdint.h>

#include "dh_json.h"
#include "dh_ops_admin.h"
#include "mm_store.h"

#define ADMIN_GATEWAY_SILENT_MS 5000 /* a gateway unheard this long is listed as not alive */

#define ADMIN_QUERY_MS 1000 /* a show waits this long for the worker's AdminMatchInfo */

/* Answer every request waiting in a. A show of a running match on a live worker asks the
 * worker too (AdminQuery) and is answered when its AdminMatchInfo comes (admin_info) or
 * after ADMIN_QUERY_MS without it (admin_expire). */
void admin_serve(mm_state *mm, dh_ops_admin *a, uint64_t now_ms);
/* A worker's AdminMatchInfo: answer the show waiting for it. */
void admin_info(mm_state *mm, const Deckhand__Internal__AdminMatchInfo *info, uint64_t now_ms);
/* Answer the shows whose worker did not answer in time. */
void admin_expire(mm_state *mm, uint64_t now_ms);
/* Answer (503) and free what still waits: the process stops. */
void admin_free(mm_state *mm);
/* One request (exposed for the unit tests): its status, the JSON in j. */
int admin_handle(mm_state *mm, const dh_ops_admin_req *q, dh_json *j, uint64_t now_ms);

#endif
