/*
 * party_store.c: parties in Redis (see party_store.h).
 */
#include "party_store.h"

#include <stdlib.h>
#include <string.h>

#include "dh_keys.h"
#include "dh_log.h"
#include "internal.pb-c.h"
#include "mm_store.h"

/* The reply of a write: 0 when Redis took it. */
static int party_store_done(redisReply *r, const char *what, const char *code)
{
    int rc = r && r->type != REDIS_REPLY_ERROR ? 0 : -1;
    if (rc < 0)
        dh_warn_every(DH_LOG_EVERY_MS, "party %s not %s in redis: %s", code, what,
                      r ? r->str : "unavailable");
    if (r)
        freeReplyObject(r);
    return rc;
}

int party_store_put(mm_state *mm, uint64_t now_ms, const party_group *p)
{
    if (!mm->redis_on)
        return 0;
    Deckhand__Internal__Seat seats[QUEUE_PARTY_MAX];
    Deckhand__Internal__Seat *sp[QUEUE_PARTY_MAX];
    for (size_t i = 0; i < p->n; i++) {
        deckhand__internal__seat__init(&seats[i]);
        seats[i].player_id = (char *)p->members[i].player_id;
        seats[i].name = (char *)p->members[i].name;
        seats[i].gateway_id = (char *)p->members[i].gateway;
        sp[i] = &seats[i];
    }
    Deckhand__Internal__PartyRecord rec = DECKHAND__INTERNAL__PARTY_RECORD__INIT;
    rec.code = (char *)p->code;
    rec.n_members = p->n;
    rec.members = sp;
    uint8_t buf[QUEUE_PARTY_MAX * (3 * (QUEUE_NAME_MAX + DH_ZMQ_ID_MAX) + 16) + 64];
    if (deckhand__internal__party_record__get_packed_size(&rec) > sizeof buf)
        return -1; /* cannot happen: every field is bounded by member_init */
    size_t len = deckhand__internal__party_record__pack(&rec, buf);
    const char *argv[] = {"HSET", DH_KEY_MM_PARTIES, p->code, (const char *)buf};
    const size_t lens[] = {4, strlen(DH_KEY_MM_PARTIES), strlen(p->code), len};
    rconn_cmd c = {.argc = 4, .argv = argv, .lens = lens};
    return party_store_done(rconn_command_cmd(mm, now_ms, &c), "stored", p->code);
}

int party_store_del(mm_state *mm, uint64_t now_ms, const char *code)
{
    if (!mm->redis_on)
        return 0;
    const char *argv[] = {"HDEL", DH_KEY_MM_PARTIES, code};
    return party_store_done(rconn_command(mm, now_ms, 3, argv), "deleted", code);
}

/* One stored party into the set: its first member leads, the others join. False when the
 * record does not make a party (a field too long, a member in another party). */
static bool party_store_add(party_set *s, const Deckhand__Internal__PartyRecord *rec)
{
    char code[CODES_LEN + 1];
    party_group *p = NULL;
    member_info m;
    if (!codes_read(rec->code, code) || rec->n_members == 0 || rec->n_members > QUEUE_PARTY_MAX)
        return false;
    for (size_t i = 0; i < rec->n_members; i++) {
        const Deckhand__Internal__Seat *x = rec->members[i];
        if (!member_init(&m, x->player_id, x->name, x->gateway_id))
            return false;
        party_status st = i ? party_set_join(s, code, &m, &p) : party_set_create(s, code, &m, &p);
        if (st != PARTY_OK)
            return i > 0; /* a member found twice stays where it was first */
    }
    return true;
}

/* One stored record into the set (rconn_hash_each's add). */
static bool party_store_unpack(void *ctx, const uint8_t *value, size_t len)
{
    mm_state *mm = ctx;
    Deckhand__Internal__PartyRecord *rec =
        deckhand__internal__party_record__unpack(NULL, len, value);
    bool ok = rec && party_store_add(&mm->parties, rec);
    if (rec)
        deckhand__internal__party_record__free_unpacked(rec, NULL);
    return ok;
}

int party_store_load(mm_state *mm, uint64_t now_ms)
{
    party_set_free(&mm->parties); /* this term's parties are Redis's */
    if (!mm->redis_on)
        return 0;
    return rconn_hash_each(mm, now_ms, DH_KEY_MM_PARTIES, "party", party_store_unpack, mm) < 0 ? -1
                                                                                               : 0;
}
