/*
 * lobby_store.h: lobbies in Redis, as party_store.h keeps parties and for the same
 * reasons: mm:lobbies, a hash of lobby code -> LobbyRecord (internal.proto), written on
 * every change of a lobby (a member in or out, ready or not, a new gateway) and deleted
 * when it closes or starts; the matchmaker that wins the lease loads them all in one
 * HGETALL. Best effort and unfenced, like parties; whether a member was connected is not
 * stored.
 */
#ifndef DECKHAND_MM_LOBBY_STORE_H
#define DECKHAND_MM_LOBBY_STORE_H

#include <stdint.h>

#include "mm_data.h"

struct mm_state;

/* Write l's record, or delete the record of the lobby code. 0, or -1 (logged). */
int lobby_store_put(struct mm_state *mm, uint64_t now_ms, const lobby *l);
int lobby_store_del(struct mm_state *mm, uint64_t now_ms, const char *code);
/* Replace the lobbies in memory by the stored ones. 0, or -1 when Redis could not be read
 * (memory is then left empty). */
int lobby_store_load(struct mm_state *mm, uint64_t now_ms);

#endif
