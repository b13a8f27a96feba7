/*
 * dh_log_ids.h: the ids a log line speaks of, as JSON fields (issue 30). The messages say
 * "match m-1a2b...: seat 2: ...", "bundle 04e6d9a9107e loaded", "p-77ab... is away", and
 * the process name says which worker or gateway wrote them ("worker wk-1"): with
 * --log-format json (dh_log_json.c) those become the fields match, player, bundle,
 * worker, gateway and command, beside the message's own key=value words, so that one
 * match's story can be filtered across every process without a parsing rule per message
 * (docs/OPERATIONS.md, "Logs").
 *
 * Recognised: a word m-<16 hex> (a match id), p-<8 or more hex> (a player id), the hex
 * word (12 to 64 digits) after "bundle" or "canary" (a bundle), the number after
 * "command" (a player's command id), and the id after the process's role ("worker
 * wk-1", "gateway gw-1", "matchmaker mm-1"). A word's trailing ':' ',' ')' or '.' is not
 * part of it. The first one of each kind wins.
 */
#ifndef DECKHAND_DH_LOG_IDS_H
#define DECKHAND_DH_LOG_IDS_H

#include <stddef.h>

#define DH_LOG_IDS_MAX 6

typedef struct {
    const char *key;   /* "match", "player", "bundle", "command", "worker", "gateway"... */
    const char *value; /* into the message or the process name */
    size_t len;
} dh_log_id;

/* The ids of process and msg into out (at most DH_LOG_IDS_MAX); their number. */
size_t dh_log_ids(const char *process, const char *msg, dh_log_id *out);

#endif
