/*
 * host_internal.h: what host.c lends the host's upper files and nobody else may use
 * (host.h is the public face). The host's files form layers; each calls only the ones
 * below it:
 *
 *   host_adopt.c, host_timers.c, host_rebundle.c   adoption, timers, bundle moves
 *   host_admin.c                                    what an operator asks (end, remove)
 *   host.c                                          the table, new matches, commands, the batch
 *   host_chat.c, host_undo.c                        a seat's chat (never stored), its undo
 *   host_words.c                                    a script failure in a player's words
 *   host_persist.c, host_bot.c, host_options.c,     writing to Redis, bot answers, options,
 *   host_stall.c, host_resign.c                     the stall watcher, a player's Resign
 * and below the wing: out.h (what is sent), bundles.h, store.h.
 */
#ifndef DECKHAND_WORKER_HOST_INTERNAL_H
#define DECKHAND_WORKER_HOST_INTERNAL_H

#include "host.h"

#define HOST_BOT_IDS 64 /* option ids a default answer (or a logged one) may hold */

/* HOST_ACT_END: the match ends without an answer (a forfeit, a quarantine); HOST_ACT_UNDO:
 * a seat's last answer taken back (host_undo.c). */
typedef enum { HOST_ACT_START, HOST_ACT_CHOOSE, HOST_ACT_END, HOST_ACT_UNDO } host_act_kind;

/* Outputs held until the batch's writes are acknowledged. */
typedef struct host_action {
    host_act_kind kind;
    host_match *hm;
    int op; /* store op, -1 when it could not even start */
    int seat;
    uint64_t cmd_id;
    char route[DH_ZMQ_ID_MAX + 1];
    uint64_t recv_ns; /* a player's command: when the worker received it (0: not timed) */
    int undo_seat;    /* HOST_ACT_UNDO: the seat whose answer is taken back (seat: replied to) */
} host_action;

/* The one walk of the table of hosted matches: every match once, starting at index first
 * (modulo the table's size, so a walk can go round from where the last one stopped).
 *   host_walk w = host_walk_from(h, 0);
 *   for (host_match *hm; (hm = host_walk_next(&w));) ...
 * w.at is the index of the match last returned. A walk may change the match it is on but
 * not add or drop matches (host_check_owned walks a copy to drop). */
typedef struct {
    const host *h;
    size_t first, at, k;
} host_walk;
host_walk host_walk_from(const host *h, size_t first);
host_match *host_walk_next(host_walk *w);

/* Room for one more match in h->matches; false: out of memory. */
bool host_reserve(host *h);
void host_match_free(host_match *hm);
/* Remove hm from the table and free it (and unpin its bundle). */
void host_drop(host *h, host_match *hm);
/* hm is another worker's now: count it and drop it without a word to the matchmaker. */
void host_lose(host *h, host_match *hm);
/* Apply one answer for seat and hold its outputs until Redis has it (cmd_id 0: a timer or a
 * bot answered for the seat). ENGINE_OK when held. */
engine_code host_apply(host *h, host_match *hm, int seat, uint64_t cmd_id, uint64_t decision_id,
                       const uint32_t *ids, size_t n, uint64_t now_ms, engine_error *ee);

/* A seat's line of chat, relayed to every connected seat and watcher (host_chat.c), and
 * the Reply to cmd_id. */
void host_chat(host *h, host_match *hm, int seat, uint64_t cmd_id, const Deckhand__ChatSend *cs);

/* Undo (host_undo.c): a seat's UndoRequest and UndoAnswer (each Replied to cmd_id); an
 * asked undo ends when any answer is applied (host_undo_expire) or HOST_UNDO_MS pass
 * (host_undo_tick, from the timers); an undo's write landed or failed (from the batch:
 * false when the match turned out to be another worker's, for the caller to host_lose). */
void host_undo_request(host *h, host_match *hm, int seat, uint64_t cmd_id, uint64_t now_ms);
void host_undo_answer(host *h, host_match *hm, int seat, uint64_t cmd_id, bool accept,
                      uint64_t now_ms);
void host_undo_expire(host *h, host_match *hm);
void host_undo_tick(host *h, host_match *hm, uint64_t now_ms);
bool host_undo_release(host *h, host_action *a, uint64_t now_ms);

/* The words a player reads when a card script failed on its answer (bot: the bot it asked
 * for failed), with the error's id (host_words.c), into out (n bytes). */
void host_script_words(const engine_error *ee, bool bot, char *out, size_t n);

/* A script error in hm (a player's answer or the worker's own): the metric, and once per
 * match the canary's trial it belongs to (bundles_trial_note, which may abort the canary). */
void host_script_error(host *h, host_match *hm, uint64_t now_ms);
/* hm was quarantined: its canary's trial counts it. */
void host_trial_quarantined(host *h, host_match *hm, uint64_t now_ms);

#endif
