/*
 * rematch.c: offers to play a finished match again (see rematch.h).
 */
#include "rematch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_grow.h"
#include "dh_keys.h"
#include "dh_log.h"
#include "mm_play.h"
#include "mm_store.h"
#include "notify.h"

#define REMATCH_SEATS 16 /* a worker's HOST_SEATS_MAX */

typedef struct {
    char match_id[QUEUE_NAME_MAX];
    queue_key key;                     /* the new match's line: game, mode, seats, options */
    queue_ticket seats[REMATCH_SEATS]; /* .bot for a bot seat; a player's gateway once offered */
    bool offered[REMATCH_SEATS];
    size_t n;
    uint64_t until_ms;
    char started[PLACEMENT_ID_LEN + 1]; /* the rematch's id once placed ("" before) */
} rematch;

typedef struct rematch_list {
    rematch *v;
    size_t n, cap;
} rematch_list;

static rematch_list *rematch_of(mm_state *mm)
{
    if (!mm->rematch)
        mm->rematch = calloc(1, sizeof *mm->rematch);
    return mm->rematch;
}

void rematch_free(mm_state *mm)
{
    if (mm->rematch)
        free(mm->rematch->v);
    free(mm->rematch);
    mm->rematch = NULL;
}

static rematch *rematch_find(rematch_list *l, const char *match_id)
{
    for (size_t i = 0; i < l->n; i++)
        if (!strcmp(l->v[i].match_id, match_id))
            return &l->v[i];
    return NULL;
}

static void rematch_drop(rematch_list *l, rematch *x)
{
    *x = l->v[--l->n];
}

/* The human seat of player_id in x, or -1. */
static int rematch_seat(const rematch *x, const char *player_id)
{
    for (size_t i = 0; i < x->n; i++)
        if (!x->seats[i].bot && !strcmp(x->seats[i].player_id, player_id))
            return (int)i;
    return -1;
}

/* Whether gateway id is one of the first n gateways of the registry or of x's seats
 * before seat k (those had the message already). */
static bool rematch_told(const mm_state *mm, const rematch *x, size_t k, const char *id)
{
    for (size_t g = 0; g < mm->reg.ngateways; g++)
        if (!strcmp(mm->reg.gateways[g].id, id))
            return true;
    for (size_t i = 0; i < k; i++)
        if (!strcmp(x->seats[i].gateway, id))
            return true;
    return false;
}

/* RematchState of x to every human seat, through every gateway the matchmaker knows: the
 * registry's (a gateway passes it only to a player connected there) and those the offers
 * came through (a gateway whose hello is yet to come). */
static void rematch_tell(mm_state *mm, const rematch *x, bool declined)
{
    uint32_t offered[REMATCH_SEATS];
    Deckhand__RematchState st = DECKHAND__REMATCH_STATE__INIT;
    st.match_id = (char *)x->match_id;
    st.offered = offered;
    for (size_t i = 0; i < x->n; i++)
        if (x->offered[i])
            offered[st.n_offered++] = (uint32_t)i;
    st.declined = declined;
    st.new_match_id = (char *)x->started;
    for (size_t i = 0; i < x->n; i++) {
        if (x->seats[i].bot)
            continue;
        for (size_t g = 0; g < mm->reg.ngateways; g++)
            notify_body(mm, mm->reg.gateways[g].id, x->seats[i].player_id,
                        DECKHAND__SERVER_MESSAGE__BODY_REMATCH, &st);
        for (size_t k = 0; k < x->n; k++)
            if (x->seats[k].gateway[0] && !rematch_told(mm, x, k, x->seats[k].gateway))
                notify_body(mm, x->seats[k].gateway, x->seats[i].player_id,
                            DECKHAND__SERVER_MESSAGE__BODY_REMATCH, &st);
    }
}

/* The seats of a finished match from its record's lists (ids, names, bot strategies)
 * into x; the first bot's strategy becomes the line's vs_ai (bots stay bots). False when
 * the lists do not hang together. */
static bool rematch_seats(rematch *x, const char *ids, const char *names, const char *bots,
                          uint64_t wall_ms)
{
    const char *ci = ids, *cn = names, *cb = bots ? bots : "", *item;
    size_t len;
    char id[QUEUE_NAME_MAX], name[QUEUE_NAME_MAX], bot[QUEUE_AI_MAX];
    for (x->n = 0; dh_list_next(&ci, &item, &len); x->n++) {
        if (x->n == REMATCH_SEATS || len >= sizeof id)
            return false;
        snprintf(id, sizeof id, "%.*s", (int)len, item);
        name[0] = bot[0] = '\0';
        if (dh_list_next(&cn, &item, &len))
            snprintf(name, sizeof name, "%.*s", (int)len, item);
        if (dh_list_next(&cb, &item, &len))
            snprintf(bot, sizeof bot, "%.*s", (int)len, item);
        if (queue_ticket_init(&x->seats[x->n], id, name, "", 0, wall_ms) != QUEUE_OK)
            return false;
        x->seats[x->n].bot = bot[0] != '\0';
        if (bot[0] && !x->key.vs_ai[0])
            queue_key_vs_ai(&x->key, bot);
    }
    return x->n >= 1;
}

/* A new offer for match_id from its record in Redis. The code, with why. */
static Deckhand__ErrorCode rematch_load(mm_state *mm, const char *match_id, rematch *x,
                                        const char **why, uint64_t now_ms)
{
    char key[DH_KEY_MAX];
    const char *argv[] = {"HMGET",      dh_key_match(key, match_id),
                          DH_F_STATUS,  DH_F_GAME,
                          DH_F_MODE,    DH_F_PLAYER_IDS,
                          DH_F_PLAYERS, DH_F_OPTIONS,
                          DH_F_BOTS};
    redisReply *r = mm->redis_on ? rconn_command(mm, now_ms, 9, argv) : NULL;
    Deckhand__ErrorCode code = DECKHAND__ERROR_CODE__UNAVAILABLE;
    *why = "store unavailable";
    if (!r || r->type != REDIS_REPLY_ARRAY || r->elements != 7)
        goto out;
    const char *f[7];
    for (size_t i = 0; i < 7; i++)
        f[i] = r->element[i]->type == REDIS_REPLY_STRING ? r->element[i]->str : NULL;
    memset(x, 0, sizeof *x);
    code = DECKHAND__ERROR_CODE__UNKNOWN_MATCH;
    *why = "no such match";
    if (!f[0] || !f[1] || !f[3] || !f[4])
        goto out;
    code = DECKHAND__ERROR_CODE__BAD_REQUEST;
    *why = "the match is not over";
    if (strcmp(f[0], DH_STATUS_FINISHED))
        goto out;
    *why = "the match's record does not fit a rematch";
    snprintf(x->match_id, sizeof x->match_id, "%s", match_id);
    if (queue_key_init(&x->key, f[1], f[2], 0) != QUEUE_OK ||
        queue_key_options(&x->key, f[5] ? f[5] : "") != QUEUE_OK ||
        !rematch_seats(x, f[3], f[4], f[6], mm_wall_ms(mm, now_ms)))
        goto out;
    x->key.players = (uint32_t)x->n;
    x->until_ms = now_ms + REMATCH_TTL_MS;
    code = DECKHAND__ERROR_CODE__OK;
    *why = NULL;
out:
    if (r)
        freeReplyObject(r);
    return code;
}

/* Whether a player of x waits in a line or a placement (it went on to another match). */
static bool rematch_busy(mm_state *mm, const rematch *x)
{
    for (size_t i = 0; i < x->n; i++)
        if (!x->seats[i].bot && (queue_has(mm->queues, x->seats[i].player_id) ||
                                 placement_has_player(&mm->placements, x->seats[i].player_id)))
            return true;
    return false;
}

/* Every human seat offered: place the new match now. */
static Deckhand__ErrorCode rematch_start(mm_state *mm, rematch *x, const char **why,
                                         uint64_t now_ms)
{
    if (rematch_busy(mm, x)) {
        *why = "a player of the match is queued for another one";
        return DECKHAND__ERROR_CODE__BAD_REQUEST;
    }
    Deckhand__ErrorCode code =
        placement_place(mm, &x->key, x->seats, x->n, now_ms, x->started, why);
    if (code == DECKHAND__ERROR_CODE__OK)
        dh_info("rematch of %s: every player offered; match %s placed", x->match_id, x->started);
    return code;
}

static Deckhand__ErrorCode rematch_offer(mm_state *mm, rematch_list *l, const char *gateway,
                                         const char *pid, const Deckhand__RematchOffer *o,
                                         const char **why, uint64_t now_ms)
{
    rematch *x = rematch_find(l, o->match_id);
    if (!x && o->decline)
        return DECKHAND__ERROR_CODE__OK; /* no offer to decline */
    if (!x) {
        if (l->n >= REMATCH_MAX || dh_grow(&l->v, &l->cap, l->n + 1, sizeof *l->v, 16) < 0) {
            *why = "too many rematch offers; try again later";
            return DECKHAND__ERROR_CODE__OVERLOADED;
        }
        Deckhand__ErrorCode code = rematch_load(mm, o->match_id, &l->v[l->n], why, now_ms);
        if (code != DECKHAND__ERROR_CODE__OK)
            return code;
        x = &l->v[l->n++];
    }
    int seat = rematch_seat(x, pid);
    if (seat < 0) {
        *why = "you did not play in that match";
        return DECKHAND__ERROR_CODE__BAD_REQUEST;
    }
    if (x->started[0]) { /* placed already: say so again */
        rematch_tell(mm, x, false);
        return DECKHAND__ERROR_CODE__OK;
    }
    if (o->decline) {
        dh_info("rematch of %s declined by %s", x->match_id, pid);
        rematch_tell(mm, x, true);
        rematch_drop(l, x);
        return DECKHAND__ERROR_CODE__OK;
    }
    x->offered[seat] = true;
    snprintf(x->seats[seat].gateway, sizeof x->seats[seat].gateway, "%s", gateway);
    bool all = true;
    for (size_t i = 0; i < x->n; i++)
        all &= x->seats[i].bot || x->offered[i];
    Deckhand__ErrorCode code = all ? rematch_start(mm, x, why, now_ms) : DECKHAND__ERROR_CODE__OK;
    if (code != DECKHAND__ERROR_CODE__OK)
        x->offered[seat] = false;
    rematch_tell(mm, x, false);
    return code;
}

Deckhand__ErrorCode rematch_request(mm_state *mm, const char *gateway,
                                    const Deckhand__Internal__ClientRequest *r, const char **why,
                                    uint64_t now_ms)
{
    const Deckhand__RematchOffer *o = r->message->rematch_offer;
    rematch_list *l = rematch_of(mm);
    rematch_expire(mm, now_ms);
    if (!l) {
        *why = "out of memory";
        return DECKHAND__ERROR_CODE__OVERLOADED;
    }
    if (!o->match_id || !*o->match_id || strlen(o->match_id) >= QUEUE_NAME_MAX) {
        *why = "RematchOffer needs the finished match's id";
        return DECKHAND__ERROR_CODE__BAD_REQUEST;
    }
    return rematch_offer(mm, l, gateway, r->player_id, o, why, now_ms);
}

void rematch_player_gone(mm_state *mm, const char *player_id)
{
    rematch_list *l = mm->rematch;
    for (size_t i = 0; l && i < l->n;) {
        rematch *x = &l->v[i];
        if (x->started[0] || rematch_seat(x, player_id) < 0) {
            i++;
            continue;
        }
        dh_info("rematch of %s ends: %s went on or away", x->match_id, player_id);
        rematch_tell(mm, x, true);
        rematch_drop(l, x); /* the last moves into slot i */
    }
}

void rematch_expire(mm_state *mm, uint64_t now_ms)
{
    rematch_list *l = mm->rematch;
    for (size_t i = 0; l && i < l->n;) {
        rematch *x = &l->v[i];
        if (now_ms < x->until_ms) {
            i++;
            continue;
        }
        if (!x->started[0])
            rematch_tell(mm, x, true);
        rematch_drop(l, x);
    }
}
