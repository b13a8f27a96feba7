/*
 * groups.h: the one stack under parties and lobbies. A party and a lobby are both groups
 * (data/group.h); what differs between them is only what a member is told (PartyState or
 * LobbyState) and the record Redis keeps (PartyRecord in mm:parties, LobbyRecord in
 * mm:lobbies, internal.proto): a group_kind names those, and everything else is written
 * once here: a fresh code, storing on every change and deleting on close, telling every
 * member, a member's connection coming and going, a member leaving, and the load after the
 * lease is won.
 *
 * Redis: a hash of code -> record per kind, written on every change of a group (a member in
 * or out, ready or not, a new gateway) and deleted when it closes (or, a lobby, starts).
 * One hash beside mm:tickets rather than a key per group: the loading matchmaker reads them
 * all in one HGETALL, with no SCAN and no index to keep in step, and under Redis Cluster it
 * moves with the other mm: keys. Best effort, unfenced: memory is the truth while this
 * matchmaker acts, and a write Redis does not take is logged; the next change of that group
 * writes it whole again. Whether a member was connected is not stored: a reloaded member
 * counts as connected until its gateway says otherwise.
 */
#ifndef DECKHAND_MM_GROUPS_H
#define DECKHAND_MM_GROUPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "deckhand.pb-c.h"
#include "internal.pb-c.h"
#include "mm_data.h"
#include "mm_store.h"

typedef struct group_kind {
    const char *what; /* "party", "lobby": log lines */
    const char *key;  /* the hash that stores them */
    group_set *(*set)(mm_state *mm);
    const ProtobufCMessageDescriptor *record; /* PartyRecord, LobbyRecord */
    /* g's record packed into a malloc'd buffer (groups_pack; the caller frees); NULL when
     * memory ran out */
    uint8_t *(*pack)(const group *g, size_t *len);
    /* One stored record (of k->record) into s; false when it does not make a group. */
    bool (*add)(group_set *s, const ProtobufCMessage *record);
    /* What one player is told: g as it is, or closed (g's code only) for a player no longer
     * in it, with match_id once a lobby started (NULL otherwise). */
    void (*state)(mm_state *mm, const group *g, const char *gateway, const char *player_id,
                  bool closed, const char *match_id);
} group_kind;

/* A new group like spec (its code is drawn here, fresh) led by who. GROUP_OK with *out, or
 * GROUP_TOO_MANY, or another status when no code or no memory could be had. */
group_status groups_create(mm_state *mm, const group_kind *k, group *spec, const member_info *who,
                           group **out);
/* Every member of g told its state (match_id: a lobby's start, else NULL). */
void groups_tell(mm_state *mm, const group_kind *k, const group *g, const char *match_id);
/* g changed: stored, and every member told. */
void groups_changed(mm_state *mm, const group_kind *k, const group *g, uint64_t now_ms);
/* Take the player out of its group (how: for the log, "left"); told closed when tell_gone.
 * The rest hear of it, or the record goes when the group closed. False when the player is
 * in no group of k. */
bool groups_leave(mm_state *mm, const group_kind *k, const char *player_id, const char *how,
                  bool tell_gone, uint64_t now_ms);
/* The player's connection dropped (connected false) or came back on gateway: its group
 * hears of it, and stores the member's new gateway. */
void groups_presence(mm_state *mm, const group_kind *k, const char *player_id, const char *gateway,
                     bool connected, uint64_t now_ms);

/* Write g's record, or delete the record of code. 0, or -1 when Redis did not take it
 * (logged). */
int groups_store_put(mm_state *mm, uint64_t now_ms, const group_kind *k, const group *g);
int groups_store_del(mm_state *mm, uint64_t now_ms, const group_kind *k, const char *code);
/* Replace the groups in memory by the stored ones (unreadable records skipped with a
 * warning). 0, or -1 when Redis could not be read (memory is then left empty). */
int groups_store_load(mm_state *mm, uint64_t now_ms, const group_kind *k);

/* m packed into a malloc'd buffer of *len bytes (the caller frees); NULL when memory ran
 * out. */
uint8_t *groups_pack(const ProtobufCMessage *m, size_t *len);
/* The messages of a group's parts, pointing into g: its members (g->n) and options. */
void groups_member_msgs(const group *g, Deckhand__Member *ms, Deckhand__Member **mp);
void groups_option_msgs(const group *g, Deckhand__GameOption *os, Deckhand__GameOption **op);
void groups_seat_msgs(const group *g, Deckhand__Internal__Seat *seats,
                      Deckhand__Internal__Seat **sp);
/* A stored group's members into s: the first creates spec, the others join, each with its
 * ready mark when ready (n_ready of them) is given. False when a member does not fit. */
bool groups_add_stored(group_set *s, const group *spec, Deckhand__Internal__Seat *const *members,
                       size_t n, const protobuf_c_boolean *ready, size_t n_ready);

#endif
