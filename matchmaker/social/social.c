/*
 * social.c: client requests by body, and the queue messages a party changes (see
 * social.h).
 */
#include "social.h"

#include "dh_log.h"
#include "games.h"
#include "lobbies.h"
#include "mm_play.h"
#include "mm_store.h"
#include "parties.h"
#include "rematch.h"

static void social_dropped(mm_state *mm, const char *player_id, uint64_t now_ms)
{
    parties_dropped(mm, player_id, now_ms);
}

static void social_seated(mm_state *mm, const char *player_id)
{
    parties_seated(mm, player_id);
}

/* The lease was won and the queues loaded: the stored parties and lobbies replace those in
 * memory. */
static void social_loaded(mm_state *mm, uint64_t now_ms)
{
    groups_store_load(mm, now_ms, &parties_kind);
    groups_store_load(mm, now_ms, &lobbies_kind);
}

void social_init(mm_state *mm)
{
    group_set_init(&mm->parties, PARTIES_MAX);
    group_set_init(&mm->lobbies, LOBBIES_MAX);
    mm->on_dropped = social_dropped;
    mm->on_seated = social_seated;
    mm->on_loaded = social_loaded;
}

void social_free(mm_state *mm)
{
    group_set_free(&mm->parties);
    group_set_free(&mm->lobbies);
    rematch_free(mm);
    mm->on_dropped = NULL;
    mm->on_seated = NULL;
    mm->on_loaded = NULL;
}

bool social_request(mm_state *mm, const char *gateway, const Deckhand__Internal__ClientRequest *r,
                    uint64_t now_ms)
{
    const char *pid = r->player_id ? r->player_id : "";
    const char *why = NULL;
    char text[160];
    Deckhand__ErrorCode code = DECKHAND__ERROR_CODE__BAD_REQUEST;
    tickets_flush(mm, now_ms); /* held joins are written before any later change */
    if (!*pid || !r->message) {
        why = "missing player id or message";
    } else {
        switch (r->message->body_case) {
        case DECKHAND__CLIENT_MESSAGE__BODY_PARTY_CREATE:
        case DECKHAND__CLIENT_MESSAGE__BODY_PARTY_JOIN:
        case DECKHAND__CLIENT_MESSAGE__BODY_PARTY_LEAVE:
            code = parties_request(mm, gateway, r, &why, now_ms);
            break;
        case DECKHAND__CLIENT_MESSAGE__BODY_LOBBY_CREATE:
        case DECKHAND__CLIENT_MESSAGE__BODY_LOBBY_JOIN:
        case DECKHAND__CLIENT_MESSAGE__BODY_LOBBY_LEAVE:
        case DECKHAND__CLIENT_MESSAGE__BODY_LOBBY_READY:
        case DECKHAND__CLIENT_MESSAGE__BODY_LOBBY_START:
        case DECKHAND__CLIENT_MESSAGE__BODY_LOBBY_LIST_REQUEST:
            code = lobbies_request(mm, gateway, r, &why, text, sizeof text, now_ms);
            break;
        case DECKHAND__CLIENT_MESSAGE__BODY_REMATCH_OFFER:
            code = rematch_request(mm, gateway, r, &why, now_ms);
            break;
        case DECKHAND__CLIENT_MESSAGE__BODY_GAMES_REQUEST:
            games_answer(mm, gateway, r); /* Games as mm_output, then the reply */
            return true;
        case DECKHAND__CLIENT_MESSAGE__BODY_WATCH_LIST_REQUEST:
            games_watch_answer(mm, gateway, r); /* WatchList as mm_output, then the reply */
            return true;
        default:
            why = "not a request the matchmaker answers";
            break;
        }
    }
    if (code != DECKHAND__ERROR_CODE__OK)
        dh_info("request %d from %s refused: %s", r->message ? (int)r->message->body_case : 0, pid,
                why ? why : "");
    tickets_reply(mm, gateway, pid, r->cmd_id, code, code ? why : NULL);
    return code == DECKHAND__ERROR_CODE__OK;
}

bool social_queue_join(mm_state *mm, const char *gateway, const Deckhand__Internal__QueueJoin *j,
                       uint64_t now_ms)
{
    const char *pid = j->player_id ? j->player_id : "";
    const group *p = group_set_of(&mm->parties, pid);
    const char *why = group_set_of(&mm->lobbies, pid) ? "in a lobby; leave it first" : NULL;
    for (size_t i = 0; p && !why && i < p->n; i++)
        if (group_set_of(&mm->lobbies, p->members[i].player_id))
            why = "a party member is in a lobby";
    if (why) {
        dh_info("queue join %s refused: %s", pid, why);
        tickets_reply(mm, gateway, pid, j->cmd_id, DECKHAND__ERROR_CODE__BAD_REQUEST, why);
        return false;
    }
    rematch_player_gone(mm, pid); /* it went on to another match */
    return parties_queue_join(mm, gateway, j, now_ms);
}

bool social_queue_leave(mm_state *mm, const char *gateway, const Deckhand__Internal__QueueLeave *l,
                        uint64_t now_ms)
{
    bool form = tickets_leave(mm, gateway, l, now_ms);
    parties_queue_left(mm, l->player_id ? l->player_id : "");
    return form;
}

/* The player's connection dropped (connected false) or came back on gateway: its party and
 * its lobby hear of it. */
static void social_presence(mm_state *mm, const char *player_id, const char *gateway,
                            bool connected, uint64_t now_ms)
{
    groups_presence(mm, &parties_kind, player_id, gateway, connected, now_ms);
    groups_presence(mm, &lobbies_kind, player_id, gateway, connected, now_ms);
}

bool social_away(mm_state *mm, const char *gateway, const Deckhand__Internal__PlayerAway *a,
                 uint64_t now_ms)
{
    bool form = tickets_away(mm, gateway, a, now_ms);
    social_presence(mm, a->player_id ? a->player_id : "", gateway, false, now_ms);
    rematch_player_gone(mm, a->player_id ? a->player_id : "");
    return form;
}

void social_tick(mm_state *mm, uint64_t now_ms)
{
    rematch_expire(mm, now_ms);
}

bool social_back(mm_state *mm, const char *gateway, const Deckhand__Internal__PlayerBack *b,
                 uint64_t now_ms)
{
    bool form = tickets_back(mm, gateway, b, now_ms);
    social_presence(mm, b->player_id ? b->player_id : "", gateway, true, now_ms);
    return form;
}
