/*
 * groups.c: the stack under parties and lobbies (see groups.h).
 */
#include "groups.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_log.h"
#include "notify.h"

group_status groups_create(mm_state *mm, const group_kind *k, group *spec, const member_info *who,
                           group **out)
{
    group_status st = GROUP_ALREADY;
    for (int tries = 0; st == GROUP_ALREADY && tries < 8; tries++) {
        if (codes_new(spec->code) < 0)
            break;
        st = group_set_create(k->set(mm), spec, who, out);
    }
    return st;
}

void groups_tell(mm_state *mm, const group_kind *k, const group *g, const char *match_id)
{
    for (size_t i = 0; i < g->n; i++)
        k->state(mm, g, g->members[i].gateway, g->members[i].player_id, match_id != NULL, match_id);
}

void groups_changed(mm_state *mm, const group_kind *k, const group *g, uint64_t now_ms)
{
    groups_store_put(mm, now_ms, k, g);
    groups_tell(mm, k, g, NULL);
}

bool groups_leave(mm_state *mm, const group_kind *k, const char *player_id, const char *how,
                  bool tell_gone, uint64_t now_ms)
{
    group *g = group_set_of(k->set(mm), player_id);
    if (!g)
        return false;
    member_info gone = *group_set_member(g, player_id);
    group was = *g; /* its code, for the closed state the player gets */
    was.n = 0;
    group_set_leave(k->set(mm), player_id, &g);
    dh_info("%s %s: %s %s (%zu members)", k->what, was.code, player_id, how, g ? g->n : 0);
    if (tell_gone)
        k->state(mm, &was, gone.gateway, gone.player_id, true, NULL);
    if (g)
        groups_changed(mm, k, g, now_ms);
    else
        groups_store_del(mm, now_ms, k, was.code);
    return true;
}

void groups_presence(mm_state *mm, const group_kind *k, const char *player_id, const char *gateway,
                     bool connected, uint64_t now_ms)
{
    group *g = group_set_of(k->set(mm), player_id);
    member_info *m = group_set_member(g, player_id);
    if (!m || (!connected && strcmp(m->gateway, gateway ? gateway : "")))
        return; /* an away from a gateway the player left is stale */
    m->connected = connected;
    bool moved = connected && gateway && *gateway && strcmp(m->gateway, gateway);
    if (moved) {
        snprintf(m->gateway, sizeof m->gateway, "%s", gateway);
        groups_store_put(mm, now_ms, k, g);
    }
    groups_tell(mm, k, g, NULL);
}

/* ---- Redis ------------------------------------------------------------------------- */

/* The reply of a write: 0 when Redis took it. */
static int groups_store_done(const group_kind *k, redisReply *r, const char *what, const char *code)
{
    int rc = r && r->type != REDIS_REPLY_ERROR ? 0 : -1;
    if (rc < 0)
        dh_warn_every(DH_LOG_EVERY_MS, "%s %s not %s in redis: %s", k->what, code, what,
                      r ? r->str : "unavailable");
    if (r)
        freeReplyObject(r);
    return rc;
}

int groups_store_put(mm_state *mm, uint64_t now_ms, const group_kind *k, const group *g)
{
    if (!mm->redis_on)
        return 0;
    size_t len;
    uint8_t *buf = k->pack(g, &len);
    if (!buf)
        return -1;
    const char *argv[] = {"HSET", k->key, g->code, (const char *)buf};
    const size_t lens[] = {4, strlen(k->key), strlen(g->code), len};
    rconn_cmd c = {.argc = 4, .argv = argv, .lens = lens};
    int rc = groups_store_done(k, rconn_command_cmd(mm, now_ms, &c), "stored", g->code);
    free(buf);
    return rc;
}

int groups_store_del(mm_state *mm, uint64_t now_ms, const group_kind *k, const char *code)
{
    if (!mm->redis_on)
        return 0;
    const char *argv[] = {"HDEL", k->key, code};
    return groups_store_done(k, rconn_command(mm, now_ms, 3, argv), "deleted", code);
}

typedef struct {
    const group_kind *k;
    group_set *s;
} groups_load_ctx;

/* One stored record into the set (rconn_hash_each's add). */
static bool groups_store_unpack(void *ctx, const uint8_t *value, size_t len)
{
    const groups_load_ctx *c = ctx;
    ProtobufCMessage *rec = protobuf_c_message_unpack(c->k->record, NULL, len, value);
    bool ok = rec && c->k->add(c->s, rec);
    if (rec)
        protobuf_c_message_free_unpacked(rec, NULL);
    return ok;
}

int groups_store_load(mm_state *mm, uint64_t now_ms, const group_kind *k)
{
    group_set_free(k->set(mm)); /* this term's groups are Redis's */
    if (!mm->redis_on)
        return 0;
    groups_load_ctx c = {.k = k, .s = k->set(mm)};
    return rconn_hash_each(mm, now_ms, k->key, k->what, groups_store_unpack, &c) < 0 ? -1 : 0;
}

/* ---- messages ---------------------------------------------------------------------- */

uint8_t *groups_pack(const ProtobufCMessage *m, size_t *len)
{
    *len = protobuf_c_message_get_packed_size(m);
    uint8_t *buf = malloc(*len ? *len : 1);
    if (buf)
        protobuf_c_message_pack(m, buf);
    return buf;
}

void groups_member_msgs(const group *g, Deckhand__Member *ms, Deckhand__Member **mp)
{
    for (size_t i = 0; i < g->n; i++) {
        member_msg(&g->members[i], &ms[i]);
        mp[i] = &ms[i];
    }
}

void groups_option_msgs(const group *g, Deckhand__GameOption *os, Deckhand__GameOption **op)
{
    for (size_t i = 0; i < g->noptions; i++) {
        deckhand__game_option__init(&os[i]);
        os[i].name = (char *)g->options[i].name;
        os[i].value = (char *)g->options[i].value;
        op[i] = &os[i];
    }
}

void groups_seat_msgs(const group *g, Deckhand__Internal__Seat *seats,
                      Deckhand__Internal__Seat **sp)
{
    for (size_t i = 0; i < g->n; i++) {
        deckhand__internal__seat__init(&seats[i]);
        seats[i].player_id = (char *)g->members[i].player_id;
        seats[i].name = (char *)g->members[i].name;
        seats[i].gateway_id = (char *)g->members[i].gateway;
        sp[i] = &seats[i];
    }
}

bool groups_add_stored(group_set *s, const group *spec, Deckhand__Internal__Seat *const *members,
                       size_t n, const protobuf_c_boolean *ready, size_t n_ready)
{
    group *g = NULL;
    member_info m;
    for (size_t i = 0; i < n; i++) {
        const Deckhand__Internal__Seat *x = members[i];
        if (!member_init(&m, x->player_id, x->name, x->gateway_id))
            return false;
        group_status st =
            i ? group_set_join(s, spec->code, &m, &g) : group_set_create(s, spec, &m, &g);
        if (st != GROUP_OK)
            return i > 0; /* a member found twice stays where it was first */
        if (i < n_ready)
            group_set_ready(s, m.player_id, ready[i]);
    }
    return true;
}
