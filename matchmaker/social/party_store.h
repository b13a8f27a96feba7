/*
 * party_store.h: parties in Redis, so that the matchmaker that wins the lease after a
 * failover finds them: mm:parties, a hash of party code -> PartyRecord (internal.proto),
 * written on every change of a party (a member in or out, a new gateway) and deleted when
 * it closes. One hash beside mm:tickets rather than a key per party: the loading matchmaker
 * reads every party in one HGETALL, with no SCAN and no index to keep in step, and under
 * Redis Cluster it moves with the other mm: keys.
 *
 * Best effort, unfenced: memory is the truth while this matchmaker acts, and a write Redis
 * does not take is logged; the next change of that party writes it whole again. A party's
 * queued ticket is stored with the tickets (its members share a seq), so after a failover
 * the party and its ticket come back together. Whether a member was connected is not
 * stored: a reloaded member counts as connected until its gateway says otherwise.
 */
#ifndef DECKHAND_MM_PARTY_STORE_H
#define DECKHAND_MM_PARTY_STORE_H

#include <stdint.h>

#include "mm_data.h"

struct mm_state;

/* Write p's record, or delete the record of the party code (closed). 0, or -1 when Redis
 * did not take it (logged). */
int party_store_put(struct mm_state *mm, uint64_t now_ms, const party_group *p);
int party_store_del(struct mm_state *mm, uint64_t now_ms, const char *code);
/* Replace the parties in memory by the stored ones (unreadable records skipped with a
 * warning). 0, or -1 when Redis could not be read (memory is then left empty). */
int party_store_load(struct mm_state *mm, uint64_t now_ms);

#endif
