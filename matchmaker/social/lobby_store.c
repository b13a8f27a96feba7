/*
 * lobby_store.c: lobbies in Redis (see lobby_store.h).
 */
#include "lobby_store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_keys.h"
#include "dh_log.h"
#include "internal.pb-c.h"
#include "mm_store.h"

static int lobby_store_done(redisReply *r, const char *what, const char *code)
{
    int rc = r && r->type != REDIS_REPLY_ERROR ? 0 : -1;
    if (rc < 0)
        dh_warn_every(DH_LOG_EVERY_MS, "lobby %s not %s in redis: %s", code, what,
                      r ? r->str : "unavailable");
    if (r)
        freeReplyObject(r);
    return rc;
}

int lobby_store_put(mm_state *mm, uint64_t now_ms, const lobby *l)
{
    if (!mm->redis_on)
        return 0;
    Deckhand__Internal__Seat seats[LOBBY_SEATS_MAX];
    Deckhand__Internal__Seat *sp[LOBBY_SEATS_MAX];
    protobuf_c_boolean ready[LOBBY_SEATS_MAX];
    Deckhand__GameOption os[LOBBY_OPTIONS_MAX];
    Deckhand__GameOption *op[LOBBY_OPTIONS_MAX];
    for (size_t i = 0; i < l->n; i++) {
        deckhand__internal__seat__init(&seats[i]);
        seats[i].player_id = (char *)l->members[i].player_id;
        seats[i].name = (char *)l->members[i].name;
        seats[i].gateway_id = (char *)l->members[i].gateway;
        sp[i] = &seats[i];
        ready[i] = l->members[i].ready;
    }
    for (size_t i = 0; i < l->noptions; i++) {
        deckhand__game_option__init(&os[i]);
        os[i].name = (char *)l->options[i].name;
        os[i].value = (char *)l->options[i].value;
        op[i] = &os[i];
    }
    Deckhand__Internal__LobbyRecord rec = DECKHAND__INTERNAL__LOBBY_RECORD__INIT;
    rec.code = (char *)l->code;
    rec.game = (char *)l->game;
    rec.mode = (char *)l->mode;
    rec.seats = l->seats;
    rec.public_ = l->public;
    rec.n_options = l->noptions;
    rec.options = op;
    rec.n_members = l->n;
    rec.members = sp;
    rec.n_ready = l->n;
    rec.ready = ready;
    size_t len = deckhand__internal__lobby_record__get_packed_size(&rec);
    uint8_t *buf = malloc(len ? len : 1);
    if (!buf)
        return -1;
    deckhand__internal__lobby_record__pack(&rec, buf);
    const char *argv[] = {"HSET", DH_KEY_MM_LOBBIES, l->code, (const char *)buf};
    const size_t lens[] = {4, strlen(DH_KEY_MM_LOBBIES), strlen(l->code), len};
    rconn_cmd c = {.argc = 4, .argv = argv, .lens = lens};
    int rc = lobby_store_done(rconn_command_cmd(mm, now_ms, &c), "stored", l->code);
    free(buf);
    return rc;
}

int lobby_store_del(mm_state *mm, uint64_t now_ms, const char *code)
{
    if (!mm->redis_on)
        return 0;
    const char *argv[] = {"HDEL", DH_KEY_MM_LOBBIES, code};
    return lobby_store_done(rconn_command(mm, now_ms, 3, argv), "deleted", code);
}

/* The lobby a record describes, without its members, into spec. False when it does not
 * fit. */
static bool lobby_store_spec(const Deckhand__Internal__LobbyRecord *rec, lobby *spec)
{
    memset(spec, 0, sizeof *spec);
    if (!codes_read(rec->code, spec->code) || !member_text_ok(rec->game, sizeof spec->game) ||
        !member_text_ok(rec->mode, sizeof spec->mode) || rec->n_options > LOBBY_OPTIONS_MAX ||
        rec->n_members == 0 || rec->n_members > LOBBY_SEATS_MAX || rec->seats > LOBBY_SEATS_MAX)
        return false;
    snprintf(spec->game, sizeof spec->game, "%s", rec->game);
    snprintf(spec->mode, sizeof spec->mode, "%s", rec->mode);
    for (size_t i = 0; i < rec->n_options; i++) {
        const Deckhand__GameOption *o = rec->options[i];
        if (!member_text_ok(o->name, LOBBY_TEXT_MAX) || !member_text_ok(o->value, LOBBY_TEXT_MAX))
            return false;
        snprintf(spec->options[i].name, LOBBY_TEXT_MAX, "%s", o->name ? o->name : "");
        snprintf(spec->options[i].value, LOBBY_TEXT_MAX, "%s", o->value ? o->value : "");
    }
    spec->noptions = rec->n_options;
    spec->seats = rec->seats;
    spec->public = rec->public_;
    return true;
}

/* One stored lobby into the set, members and their ready marks included. */
static bool lobby_store_add(lobby_set *s, const Deckhand__Internal__LobbyRecord *rec)
{
    lobby spec, *l = NULL;
    member_info m;
    if (!lobby_store_spec(rec, &spec))
        return false;
    for (size_t i = 0; i < rec->n_members; i++) {
        const Deckhand__Internal__Seat *x = rec->members[i];
        if (!member_init(&m, x->player_id, x->name, x->gateway_id))
            return false;
        lobby_status st =
            i ? lobby_set_join(s, spec.code, &m, &l) : lobby_set_create(s, &spec, &m, &l);
        if (st != LOBBY_OK)
            return i > 0;
        if (i < rec->n_ready)
            lobby_set_ready(s, m.player_id, rec->ready[i]);
    }
    return true;
}

/* One stored record into the set (rconn_hash_each's add). */
static bool lobby_store_unpack(void *ctx, const uint8_t *value, size_t len)
{
    mm_state *mm = ctx;
    Deckhand__Internal__LobbyRecord *rec =
        deckhand__internal__lobby_record__unpack(NULL, len, value);
    bool ok = rec && lobby_store_add(&mm->lobbies, rec);
    if (rec)
        deckhand__internal__lobby_record__free_unpacked(rec, NULL);
    return ok;
}

int lobby_store_load(mm_state *mm, uint64_t now_ms)
{
    lobby_set_free(&mm->lobbies); /* this term's lobbies are Redis's */
    if (!mm->redis_on)
        return 0;
    return rconn_hash_each(mm, now_ms, DH_KEY_MM_LOBBIES, "lobby", lobby_store_unpack, mm) < 0 ? -1
                                                                                               : 0;
}
