/*
 * seated.h: the players this matchmaker has seated in matches that are still running,
 * with the MatchAssigned each was sent.
 *
 * A MatchAssigned can reach nobody: the player's connection dropped in the few
 * milliseconds before its gateway reported it away, or the player resumed on another
 * gateway. Such a player does not know its match and queues again. The matchmaker then
 * sends that player's MatchAssigned again, through the gateway it joined from, instead of
 * queueing it for a second match: the player gets MatchFound and resyncs into the seat it
 * has. Redis must say the match still runs (a player who saw its GameOver may queue again
 * before the worker's MatchEnded reaches us); without Redis nothing is sent again. An
 * entry goes when its match ends (MatchEnded, or Redis says so at such a join), follows
 * its match to a new worker (MatchMoved), and is kept in memory only: a restarted
 * matchmaker starts empty (the worker's own rule, that a seat never attached counts as
 * away, still bounds the wait).
 */
#ifndef DECKHAND_MM_SEATED_H
#define DECKHAND_MM_SEATED_H

#include <stdbool.h>
#include <stddef.h>

#include "dh_table.h"
#include "internal.pb-c.h"

typedef struct {
    dh_table players; /* player id -> Deckhand__Internal__MatchAssigned * (an owned copy) */
    dh_table matches; /* match id -> the same match's first copy: its players' ids */
} seated_list;

/* 0, or -1 out of memory. */
int seated_init(seated_list *l);
void seated_free(seated_list *l);
/* Record (or replace) the assignment of ma->player_id. 0, or -1 out of memory. */
int seated_add(seated_list *l, const Deckhand__Internal__MatchAssigned *ma);
/* The assignment of player_id in a running match, or NULL. */
const Deckhand__Internal__MatchAssigned *seated_find(const seated_list *l, const char *player_id);
/* An operator removed player_id from match_id (the admin API): forget its seat, so that
 * it may queue for another match. False when it was not seated there. */
bool seated_leave(seated_list *l, const char *player_id, const char *match_id);
/* The match ended: forget its players. How many were forgotten. */
size_t seated_end(seated_list *l, const char *match_id);
/* The match moved to worker_id at endpoint: its assignments name the new worker. */
void seated_moved(seated_list *l, const char *match_id, const char *worker_id,
                  const char *endpoint);

#endif
