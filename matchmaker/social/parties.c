/*
 * parties.c: parties, their requests and what happens to them in the line (see
 * parties.h).
 */
#include "parties.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_log.h"
#include "mm_store.h"
#include "notify.h"
#include "party_store.h"
#include "mm_play.h"

/* ---- what members are told ---------------------------------------------------------- */

const char *parties_queued(mm_state *mm, const party_group *p)
{
    size_t line;
    if (queue_find(mm->queues, p->members[0].player_id, &line))
        return queue_line_key(mm->queues, line)->game;
    return "";
}

/* PartyState for p as it is, or closed (p NULL) for a player no longer in it. */
static void parties_state(mm_state *mm, const party_group *p, const char *gateway,
                          const char *player_id, const char *code)
{
    Deckhand__Member ms[QUEUE_PARTY_MAX];
    Deckhand__Member *mp[QUEUE_PARTY_MAX];
    Deckhand__PartyState st = DECKHAND__PARTY_STATE__INIT;
    st.code = (char *)code;
    if (p) {
        for (size_t i = 0; i < p->n; i++) {
            member_msg(&p->members[i], &ms[i]);
            mp[i] = &ms[i];
        }
        st.leader_id = (char *)p->members[0].player_id;
        st.n_members = p->n;
        st.members = mp;
        st.queued_game = (char *)parties_queued(mm, p);
    } else {
        st.closed = true;
    }
    Deckhand__ServerMessage m = DECKHAND__SERVER_MESSAGE__INIT;
    m.body_case = DECKHAND__SERVER_MESSAGE__BODY_PARTY;
    m.party = &st;
    notify_send(mm, gateway, player_id, &m);
}

void parties_tell(mm_state *mm, const party_group *p)
{
    for (size_t i = 0; i < p->n; i++)
        parties_state(mm, p, p->members[i].gateway, p->members[i].player_id, p->code);
}

/* p changed: stored, and every member told. */
static void parties_changed(mm_state *mm, const party_group *p, uint64_t now_ms)
{
    party_store_put(mm, now_ms, p);
    parties_tell(mm, p);
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
    char code[CODES_LEN + 1];
    party_group *p = NULL;
    party_status st = PARTY_ALREADY;
    if (party_set_of(&mm->parties, who->player_id)) {
        *why = "already in a party; leave it first";
        return DECKHAND__ERROR_CODE__BAD_REQUEST;
    }
    for (int tries = 0; st == PARTY_ALREADY && tries < 8; tries++) {
        if (codes_new(code) < 0)
            break;
        st = party_set_create(&mm->parties, code, who, &p);
    }
    if (st == PARTY_TOO_MANY) {
        *why = "too many parties; try again later";
        return DECKHAND__ERROR_CODE__OVERLOADED;
    }
    if (st != PARTY_OK) {
        *why = "cannot make a party now";
        return DECKHAND__ERROR_CODE__INTERNAL;
    }
    dh_info("party %s made by %s", p->code, who->player_id);
    parties_changed(mm, p, now_ms);
    return DECKHAND__ERROR_CODE__OK;
}

static Deckhand__ErrorCode parties_join_req(mm_state *mm, const member_info *who,
                                            const char *wire_code, const char **why,
                                            uint64_t now_ms)
{
    char code[CODES_LEN + 1];
    party_group *p = codes_read(wire_code, code) ? party_set_find(&mm->parties, code) : NULL;
    if (!p) {
        *why = "no party has that code";
        return DECKHAND__ERROR_CODE__NOT_FOUND;
    }
    if (*parties_queued(mm, p)) {
        *why = "the party waits in a line; its leader leaves the line first";
        return DECKHAND__ERROR_CODE__BAD_REQUEST;
    }
    party_status st = party_set_join(&mm->parties, code, who, &p);
    if (st == PARTY_ALREADY) {
        *why = "already in a party; leave it first";
        return DECKHAND__ERROR_CODE__BAD_REQUEST;
    }
    if (st == PARTY_FULL) {
        *why = "the party is full";
        return DECKHAND__ERROR_CODE__FULL;
    }
    if (st != PARTY_OK) {
        *why = "out of memory";
        return DECKHAND__ERROR_CODE__OVERLOADED;
    }
    dh_info("party %s: %s joined (%zu members)", p->code, who->player_id, p->n);
    parties_changed(mm, p, now_ms);
    return DECKHAND__ERROR_CODE__OK;
}

/* Take player_id out of its party: the party's ticket leaves the line first (a party
 * waits whole or not at all). The rest hear of it, and so does the player (closed). */
static Deckhand__ErrorCode parties_remove(mm_state *mm, const char *player_id, uint64_t now_ms)
{
    party_group *p = party_set_of(&mm->parties, player_id);
    if (!p)
        return DECKHAND__ERROR_CODE__NOT_FOUND;
    if (*parties_queued(mm, p) && tickets_cancel(mm, p->members[0].player_id, now_ms) < 0)
        return DECKHAND__ERROR_CODE__UNAVAILABLE;
    char code[CODES_LEN + 1];
    member_info gone = *party_set_member(p, player_id);
    memcpy(code, p->code, sizeof code);
    party_set_leave(&mm->parties, player_id, &p);
    dh_info("party %s: %s left (%zu members)", code, player_id, p ? p->n : 0);
    parties_state(mm, NULL, gone.gateway, gone.player_id, code);
    if (p)
        parties_changed(mm, p, now_ms);
    else
        party_store_del(mm, now_ms, code);
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
    party_group *p = party_set_of(&mm->parties, pid);
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
        party_store_put(mm, now_ms, p);
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
    party_group *p = party_set_of(&mm->parties, player_id);
    if (p)
        parties_tell(mm, p);
}

void parties_presence(mm_state *mm, const char *player_id, const char *gateway, bool connected,
                      uint64_t now_ms)
{
    party_group *p = party_set_of(&mm->parties, player_id);
    member_info *m = party_set_member(p, player_id);
    if (!m || (!connected && strcmp(m->gateway, gateway ? gateway : "")))
        return; /* an away from a gateway the player left is stale */
    m->connected = connected;
    bool moved = connected && gateway && *gateway && strcmp(m->gateway, gateway);
    if (moved) {
        snprintf(m->gateway, sizeof m->gateway, "%s", gateway);
        party_store_put(mm, now_ms, p);
    }
    parties_tell(mm, p);
}

void parties_dropped(mm_state *mm, const char *player_id, uint64_t now_ms)
{
    party_group *p = party_set_of(&mm->parties, player_id);
    if (!p)
        return;
    char code[CODES_LEN + 1];
    memcpy(code, p->code, sizeof code);
    party_set_leave(&mm->parties, player_id, &p);
    dh_info("party %s: %s away past the grace period: taken out (%zu members wait on)", code,
            player_id, p ? p->n : 0);
    if (p)
        parties_changed(mm, p, now_ms);
    else
        party_store_del(mm, now_ms, code);
}

void parties_load(mm_state *mm, uint64_t now_ms)
{
    party_store_load(mm, now_ms);
}
