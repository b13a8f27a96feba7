/*
 * admin_matches.h: the admin API's match endpoints (docs/OPERATIONS.md, "Admin API").
 * Redis knows the matches (matches:running, match:{ID}); the matchmaker knows which
 * worker to tell. Each call writes one whole JSON object into j (an "error" member when
 * it fails) and returns the HTTP status.
 *
 *   list    HSCAN of matches:running, a step at a time, each step's matches taken in id
 *           order, read in one pipeline and filtered (game, worker, bundle prefix,
 *           min_age_s); a page holds at most limit rows and takes at most
 *           ADMIN_SCAN_STEPS steps, and names the cursor of the next page ("" when the
 *           scan is complete): HSCAN's cursor, or "CURSOR:ID" when the page filled up
 *           inside a step (that step again, after ID). As with SCAN, a match running
 *           throughout the walk is listed once; one that starts or ends meanwhile may or
 *           may not be.
 *   show    match:{ID} with its seats (connected or away since when), its worker, bundle,
 *           age and the answers it has taken (the history's length), and what its worker
 *           said of it ("live": turn, whose decision waits and since when, each seat's
 *           connection, bot and removal; null when the worker was not asked or silent).
 *   end     AdminEndMatch to the match's worker: 202 once sent (the worker ends it).
 *   remove  AdminRemovePlayer to the match's worker: 202 once sent; the answer names the
 *           queue's abandon policy the seat follows ("bot" or "forfeit"). The player is
 *           no longer counted seated there (seated.h), so it may queue again at once.
 * The actions refuse a match that is not running (404 unknown, 409 finished) or whose
 * worker is not alive (409: its matches move first; try again after).
 */
#ifndef DECKHAND_MM_ADMIN_MATCHES_H
#define DECKHAND_MM_ADMIN_MATCHES_H

#include <stdint.h>

#include "dh_json.h"
#include "mm_store.h"

#define ADMIN_LIST_MAX   500 /* rows a page holds at most (limit) */
#define ADMIN_LIST_STEP  100 /* HSCAN COUNT */
#define ADMIN_SCAN_STEPS 20  /* HSCAN steps one page takes at most */
#define ADMIN_REASON_MAX 200 /* bytes of an operator's reason */

typedef struct {
    const char *game, *worker, *bundle; /* NULL: any */
    uint64_t min_age_ms;
    unsigned limit;
    const char *cursor; /* "0" at the start */
} admin_match_filter;

int admin_matches_list(mm_state *mm, const admin_match_filter *f, dh_json *j, uint64_t now_ms);
/* live: the worker's AdminMatchInfo (NULL: it was not asked, or did not answer). */
int admin_matches_show(mm_state *mm, const char *id, const Deckhand__Internal__AdminMatchInfo *live,
                       dh_json *j, uint64_t now_ms);
/* The worker to ask about match id: 0 with its id in worker when the match runs on a
 * live worker, else -1. */
int admin_matches_worker(mm_state *mm, const char *id, char *worker, uint64_t now_ms);
/* detail: what was done, or why not (for the audit trail), cap bytes. */
int admin_matches_end(mm_state *mm, const char *id, const char *reason, const char *who, dh_json *j,
                      char *detail, size_t cap, uint64_t now_ms);
int admin_matches_remove(mm_state *mm, const char *id, const char *player, const char *reason,
                         const char *who, dh_json *j, char *detail, size_t cap, uint64_t now_ms);

#endif
