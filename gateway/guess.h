/*
 * guess.h: party and lobby codes cannot be found by guessing (issue 24). A code join
 * (PartyJoin, LobbyJoin) that names no open party or lobby is a wrong guess; this module
 * counts them per client address and per player, and makes each key wait longer after
 * every wrong code past the first few (docs/SECURITY.md, "Guessing codes").
 *
 * The gateway knows the address, the matchmaker whether a code exists, so the work is
 * split: the gateway asks guess_try before it forwards a code join (a key that must
 * still wait is refused RATE_LIMITED, the matchmaker never asked), and counts the try at
 * once, provisionally, so that joins sent together cannot outrun their answers; the
 * matchmaker's answer settles it (guess_answered): NOT_FOUND keeps it as a wrong code,
 * any other answer (the code exists, or was never looked at) takes it back. Only that
 * try's own count is taken back: a player who joins a party of its own between guesses
 * gains nothing.
 *
 * After GUESS_FREE wrong codes a key waits GUESS_BASE_MS before the next, and each
 * further one doubles the wait, up to GUESS_MAX_MS (an hour); a key's count is forgotten
 * GUESS_FORGET_MS (a day) after its last wrong code. So one address tries at most 16
 * codes in its first hour and one an hour after that (24 a day), where the 50 messages/s
 * limit alone let 20 connections try 900 a second. An IPv6 address counts by its /64, the block one
 * host is usually given. At most GUESS_KEYS_MAX keys are held; past that, new keys share one (and
 * so one wait), so filling the table throttles its filler too.
 *
 * Per gateway: behind G gateways an address gets G times these tries.
 */
#ifndef DECKHAND_GW_GUESS_H
#define DECKHAND_GW_GUESS_H

#include <stdbool.h>
#include <stdint.h>

#include "dh_metrics.h"
#include "dh_table.h"

#define GUESS_FREE      5                     /* wrong codes a key may send without waiting */
#define GUESS_BASE_MS   1000ULL               /* the wait after the first wrong code past those */
#define GUESS_MAX_MS    (3600ULL * 1000)      /* the longest wait: one wrong code an hour */
#define GUESS_FORGET_MS (24ULL * 3600 * 1000) /* a key's count goes a day after its last */
#define GUESS_KEYS_MAX  65536                 /* keys held at most; past it, one shared */
#define GUESS_SWEEP_MS  1000                  /* guess_tick looks for forgotten keys this often */

typedef struct {
    dh_table keys;      /* "a:ADDRESS" / "p:PLAYER_ID" -> guess_key* (owned) */
    uint64_t swept_ms;  /* guess_tick's last sweep */
    dh_counter failed;  /* code joins the matchmaker answered NOT_FOUND */
    dh_counter refused; /* code joins refused RATE_LIMITED while their key waited */
} guess_table;

/* 0, or -1 out of memory. */
int guess_init(guess_table *t);
void guess_free(guess_table *t);

/* A code join from addr (the peer's address) by player_id at now_ms. 0: it may go, and it
 * is counted as a wrong code until guess_answered says otherwise. Otherwise the
 * milliseconds addr or player_id must still wait (counted in refused): refuse it. */
uint64_t guess_try(guess_table *t, const char *addr, const char *player_id, uint64_t now_ms);

/* The matchmaker answered a code join that guess_try let go: not_found (a wrong code)
 * keeps its count (and counts it in failed); any other answer takes it back. */
void guess_answered(guess_table *t, const char *addr, const char *player_id, bool not_found);

/* Periodic: forget the keys whose last wrong code is GUESS_FORGET_MS old. */
void guess_tick(guess_table *t, uint64_t now_ms);

#endif
