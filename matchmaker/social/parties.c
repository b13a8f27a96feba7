/*
 * parties.c: parties, their requests and what happens to them in the line (see
 * parties.h).
 */
#include "parties.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_keys.h"
#include "dh_log.h"
#include "groups.h"
#include "mm_play.h"
#include "mm_store.h"
#include "notify.h"

/* ---- what members are told, and what Redis keeps --------------------------------- */

/* The game p's ticket waits in, or "" when p is not queued. */
static const char *parties_queued(mm_state *mm, const group *p)
{
    size_t line;
    if (queue_find(mm->queues, p->members[0].player_id, &line))
        return queue_line_key(mm->queues, line)->game;
    return "";
}

/* PartyState for p as it is, or closed (p's code only) for a player no longer in it. */
static void parties_state(mm_state *mm, const group *p, const char *gateway, const char *player_id,
                          bool closed, const char *match_id)
{
    (void)match_id; /* a party is not started: its leader queues it */
    Deckhand__Member ms[GROUP_MEMBERS_MAX];
    Deckhand__Member *mp[GROUP_MEMBERS_MAX];
    Deckhand__PartyState st = DECKHAND__PARTY_STATE__INIT;
    st.code = (char *)p->code;
    st.closed = closed;
    if (!closed) {
        groups_member_msgs(p, ms, mp);
        st.leader_id = (char *)p->members[0].player_id;
        st.n_members = p->n;
        st.members = mp;
        st.queued_game = (char *)parties_queued(mm, p);
    }
    notify_body(mm, gateway, player_id, DECKHAND__SERVER_MESSAGE__BODY_PARTY, &st);
}

/* p's PartyRecord: its members in order (the first leads), each with its gateway. */
static uint8_t *parties_pack(const group *p, size_t *len)
{
    Deckhand__Internal__Seat seats[GROUP_MEMBERS_MAX];
    Deckhand__Internal__Seat *sp[GROUP_MEMBERS_MAX];
    groups_seat_msgs(p, seats, sp);
    Deckhand__Internal__PartyRecord rec = DECKHAND__INTERNAL__PARTY_RECORD__INIT;
    rec.code = (char *)p->code;
    rec.n_members = p->n;
    rec.members = sp;
    return groups_pack(&rec.base, len);
}

/* A stored PartyRecord into s: its first member leads, the others join. */
static bool parties_add(group_set *s, const ProtobufCMessage *m)
{
    const Deckhand__Internal__PartyRecord *rec = (const Deckhand__Internal__PartyRecord *)m;
    char code[CODES_LEN + 1];
    if (!codes_read(rec->code, code) || rec->n_members == 0 || rec->n_members > GROUP_MEMBERS_MAX)
        return false;
    group spec = group_party_spec(code);
    return groups_add_stored(s, &spec, rec->members, rec->n_members, NULL, 0);
}

static group_set *parties_set(mm_state *mm)
{
    return &mm->parties;
}

const group_kind parties_kind = {
    .what = "party",
    .key = DH_KEY_MM_PARTIES,
    .set = parties_set,
    .record = &deckhand__internal__party_record__descriptor,
    .pack = parties_pack,
    .add = parties_add,
    .state = parties_state,
};

/* PartyState to every member of p. */
static void parties_tell(mm_state *mm, const group *p)
{
    groups_tell(mm, &parties_kind, p, NULL);
}

/* ---- requests ----------------------------------------------------------------------- */

/* Whether the player waits in a line or is being placed. */
static bool parties_player_queued(mm_state *mm, const char *player_id)
{
    return queue_has(mm->queues, player_id) || placement_has_player(&mm->placements, player_id);
}

static Deckhand__ErrorCode parties_create_req(mm_state *mm, const member_info *who,
                                              const char **why, uint64_t now_ms)
{
    group spec = group_party_spec(""), *p = NULL;
    if (group_set_of(&mm->parties, who->player_id)) {
        *why = "already in a party; leave it first";
        return DECKHAND__ERROR_CODE__BAD_REQUEST;
    }
    group_status st = groups_create(mm, &parties_kind, &spec, who, &p);
    if (st == GROUP_TOO_MANY) {
        *why = "too many parties; try again later";
        return DECKHAND__ERROR_CODE__OVERLOADED;
    }
    if (st != GROUP_OK) {
        *why = "cannot make a party now";
        return DECKHAND__ERROR_CODE__INTERNAL;
    }
    dh_info("party %s made by %s", p->code, who->player_id);
    groups_changed(mm, &parties_kind, p, now_ms);
    return DECKHAND__ERROR_CODE__OK;
}

static Deckhand__ErrorCode parties_join_req(mm_state *mm, const member_info *who,
                                            const char *wire_code, const char **why,
                                            uint64_t now_ms)
{
    char code[CODES_LEN + 1];
    group *p = codes_read(wire_code, code) ? group_set_find(&mm->parties, code) : NULL;
    if (!p) {
        *why = "no party has that code";
        return DECKHAND__ERROR_CODE__NOT_FOUND;
    }
    if (*parties_queued(mm, p)) {
        *why = "the party waits in a line; its leader leaves the line first";
        return DECKHAND__ERROR_CODE__BAD_REQUEST;
    }
    group_status st = group_set_join(&mm->parties, code, who, &p);
    if (st == GROUP_ALREADY) {
        *why = "already in a party; leave it first";
        return DECKHAND__ERROR_CODE__BAD_REQUEST;
    }
    if (st == GROUP_FULL) {
        *why = "the party is full";
        return DECKHAND__ERROR_CODE__FULL;
    }
    if (st != GROUP_OK) {
        *why = "out of memory";
        return DECKHAND__ERROR_CODE__OVERLOADED;
    }
    dh_info("party %s: %s joined (%zu members)", p->code, who->player_id, p->n);
    groups_changed(mm, &parties_kind, p, now_ms);
    return DECKHAND__ERROR_CODE__OK;
}

/* Take player_id out of its party: the party's ticket leaves the line first (a party
 * waits whole or not at all). The rest hear of it, and so does the player (closed). */
static Deckhand__ErrorCode parties_remove(mm_state *mm, const char *player_id, uint64_t now_ms)
{
    group *p = group_set_of(&mm->parties, player_id);
    if (!p)
        return DECKHAND__ERROR_CODE__NOT_FOUND;
    if (*parties_queued(mm, p) && tickets_cancel(mm, p->members[0].player_id, now_ms) < 0)
        return DECKHAND__ERROR_CODE__UNAVAILABLE;
    groups_leave(mm, &parties_kind, player_id, "left", true, now_ms);
    return DECKHAND__ERROR_CODE__OK;
}

Deckhand__ErrorCode parties_request(mm_state *mm, const char *gateway,
                                    const Deckhand__Internal__ClientRequest *r, const char **why,
                                    uint64_t now_ms)
{
    const Deckhand__ClientMessage *m = r->message;
    member_info who;
    if (!member_init(&who, r->player_id, r->name, gateway)) {
        *why = "player id or name too long";
        return DECKHAND__ERROR_CODE__BAD_REQUEST;
    }
    if (m->body_case == DECKHAND__CLIENT_MESSAGE__BODY_PARTY_LEAVE) {
        Deckhand__ErrorCode code = parties_remove(mm, who.player_id, now_ms);
        *why = code == DECKHAND__ERROR_CODE__NOT_FOUND ? "not in a party" : "store unavailable";
        return code;
    }
    if (parties_player_queued(mm, who.player_id)) {
        *why = "waiting in a line; leave it first";
        return DECKHAND__ERROR_CODE__BAD_REQUEST;
    }
    if (m->body_case == DECKHAND__CLIENT_MESSAGE__BODY_PARTY_CREATE)
        return parties_create_req(mm, &who, why, now_ms);
    return parties_join_req(mm, &who, m->party_join->code, why, now_ms);
}

/* ---- the line ----------------------------------------------------------------------- */

bool parties_queue_join(mm_state *mm, const char *gateway, const Deckhand__Internal__QueueJoin *j,
                        uint64_t now_ms)
{
    const char *pid = j->player_id ? j->player_id : "";
    group *p = group_set_of(&mm->parties, pid);
    /* a queued party's leader joining again (its client reconnected) keeps the ticket's
     * place, as a solo player's repeated join does */
    if (!p || (!strcmp(p->members[0].player_id, pid) && *parties_queued(mm, p)))
        return tickets_join(mm, gateway, j, NULL, 0, now_ms);
    const char *why = NULL;
    if (strcmp(p->members[0].player_id, pid))
        why = "only the party's leader queues the party";
    if (why) {
        dh_info("queue join %s refused: %s", pid, why);
        tickets_reply(mm, gateway, pid, j->cmd_id, DECKHAND__ERROR_CODE__BAD_REQUEST, why);
        return false;
    }
    /* the leader's gateway is the one this join came through */
    bool moved = strcmp(p->members[0].gateway, gateway) != 0;
    snprintf(p->members[0].gateway, sizeof p->members[0].gateway, "%s", gateway);
    if (moved)
        groups_store_put(mm, now_ms, &parties_kind, p);
    tickets_member others[QUEUE_PARTY_MAX];
    for (size_t i = 1; i < p->n; i++) {
        others[i - 1].player_id = p->members[i].player_id;
        others[i - 1].name = p->members[i].name;
        others[i - 1].gateway = p->members[i].gateway;
        others[i - 1].away = !p->members[i].connected;
    }
    bool form = tickets_join(mm, gateway, j, others, p->n - 1, now_ms);
    if (*parties_queued(mm, p))
        parties_tell(mm, p); /* queued_game: every member's gateway now reports its absence */
    return form;
}

void parties_queue_left(mm_state *mm, const char *player_id)
{
    group *p = group_set_of(&mm->parties, player_id);
    if (p)
        parties_tell(mm, p);
}

void parties_seated(mm_state *mm, const char *player_id)
{
    group *p = group_set_of(&mm->parties, player_id);
    if (p && !strcmp(p->members[0].player_id, player_id)) /* once per party: its leader */
        parties_tell(mm, p);
}

void parties_dropped(mm_state *mm, const char *player_id, uint64_t now_ms)
{
    groups_leave(mm, &parties_kind, player_id, "away past the grace period: taken out", false,
                 now_ms);
}
