/*
 * tickets.c: joins, leaves, away and back (see tickets.h).
 */
#include "tickets.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_grow.h"
#include "dh_keys.h"
#include "dh_log.h"
#include "dh_zmq.h"
#include "mm_data.h"
#include "mm_store.h"
#include "placement.h"
#include "ratings.h"

#define TICKETS_STORE_DOWN "store unavailable"

void tickets_reply(mm_state *mm, const char *gateway, const char *player_id, uint64_t cmd_id,
                   Deckhand__ErrorCode code, const char *text)
{
    Deckhand__Internal__QueueReply qr = DECKHAND__INTERNAL__QUEUE_REPLY__INIT;
    Deckhand__Error err = DECKHAND__ERROR__INIT;
    qr.player_id = (char *)player_id;
    qr.cmd_id = cmd_id;
    qr.ok = code == DECKHAND__ERROR_CODE__OK;
    if (!qr.ok) {
        err.code = code;
        err.message = (char *)text;
        qr.error = &err;
    }
    Deckhand__Internal__Internal msg = DECKHAND__INTERNAL__INTERNAL__INIT;
    msg.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_REPLY;
    msg.queue_reply = &qr;
    if (gwout_send(mm, gateway, &msg) < 0)
        dh_warn_every(DH_LOG_EVERY_MS, "cannot reply to gateway %s: %s", gateway, strerror(errno));
}

/* The player's ticket joins again (same line): it keeps its place, moves to gateway and
 * is no longer away. */
static Deckhand__ErrorCode tickets_rejoin(mm_state *mm, queue_ticket *old, const queue_key *key,
                                          const queue_ticket *t, uint64_t now_ms)
{
    queue_ticket upd = *old;
    memcpy(upd.gateway, t->gateway, sizeof upd.gateway);
    memcpy(upd.name, t->name, sizeof upd.name);
    upd.cmd_id = t->cmd_id;
    upd.away_since_ms = 0;
    if (state_ticket_put(mm, now_ms, key, &upd) < 0)
        return DECKHAND__ERROR_CODE__UNAVAILABLE;
    memcpy(old->name, upd.name, sizeof old->name);
    old->cmd_id = upd.cmd_id;
    queue_back(mm->queues, upd.player_id, upd.gateway);
    return DECKHAND__ERROR_CODE__OK;
}

/* Queue a new ticket. With Redis it is held (TICKETS_HELD): queued in memory, its record
 * written with the batch's (tickets_flush), its player answered then. */
#define TICKETS_HELD ((Deckhand__ErrorCode)-1)

static Deckhand__ErrorCode tickets_add(mm_state *mm, const char *gateway, const queue_key *key,
                                       queue_ticket *t, uint64_t now_ms, const char **why)
{
    t->seq = mm->next_seq;
    rating_fill(&mm->ratings, key, t);
    tickets_batch *b = &mm->joins;
    if (mm->redis_on && dh_grow(&b->v, &b->cap, b->n + 1, sizeof *b->v, 64) < 0)
        return DECKHAND__ERROR_CODE__OVERLOADED;
    if (mm->redis_on && dh_redis_full(&mm->redis, now_ms)) {
        *why = "the store is full; try again later"; /* Redis near maxmemory: docs/OPERATIONS.md */
        return DECKHAND__ERROR_CODE__OVERLOADED;
    }
    queue_status qs = queue_join(mm->queues, key, t);
    if (qs != QUEUE_OK) {
        *why = qs == QUEUE_TOO_MANY ? "too many queues in use; try again later" : "out of memory";
        return DECKHAND__ERROR_CODE__OVERLOADED;
    }
    mm->next_seq++;
    if (!mm->redis_on)
        return DECKHAND__ERROR_CODE__OK;
    tickets_held *h = &b->v[b->n++];
    memcpy(h->player_id, t->player_id, sizeof h->player_id);
    snprintf(h->gateway, sizeof h->gateway, "%s", gateway);
    h->cmd_id = t->cmd_id;
    return TICKETS_HELD;
}

/* Queue a party's ticket: t (j's player) first, then the others, one ticket; every member
 * held for the batch's write, only t answered (the others have cmd_id 0). */
static Deckhand__ErrorCode tickets_add_party(mm_state *mm, const char *gateway,
                                             const queue_key *key, queue_ticket *t,
                                             const tickets_member *others, size_t n,
                                             uint64_t now_ms, const char **why)
{
    queue_ticket party[QUEUE_PARTY_MAX];
    if (n + 1 > QUEUE_PARTY_MAX) {
        *why = "the party is too large";
        return DECKHAND__ERROR_CODE__BAD_REQUEST;
    }
    t->seq = mm->next_seq;
    party[0] = *t;
    for (size_t i = 0; i < n; i++) {
        if (queue_ticket_init(&party[i + 1], others[i].player_id, others[i].name, others[i].gateway,
                              0, t->since_ms) != QUEUE_OK) {
            *why = "a field is too long";
            return DECKHAND__ERROR_CODE__BAD_REQUEST;
        }
        party[i + 1].seq = t->seq;
        party[i + 1].away_since_ms = others[i].away ? mm_wall_ms(mm, now_ms) : 0;
    }
    for (size_t i = 0; i <= n; i++)
        rating_fill(&mm->ratings, key, &party[i]);
    tickets_batch *b = &mm->joins;
    if (mm->redis_on && dh_grow(&b->v, &b->cap, b->n + n + 1, sizeof *b->v, 64) < 0)
        return DECKHAND__ERROR_CODE__OVERLOADED;
    queue_status qs = queue_join_party(mm->queues, key, party, n + 1);
    if (qs == QUEUE_BAD_PARTY) {
        *why = "the party has more players than the match seats";
        return DECKHAND__ERROR_CODE__BAD_REQUEST;
    }
    if (qs != QUEUE_OK) {
        *why = qs == QUEUE_TOO_MANY ? "too many queues in use; try again later" : "out of memory";
        return DECKHAND__ERROR_CODE__OVERLOADED;
    }
    mm->next_seq++;
    if (!mm->redis_on)
        return DECKHAND__ERROR_CODE__OK;
    for (size_t i = 0; i <= n; i++) {
        tickets_held *h = &b->v[b->n++];
        memcpy(h->player_id, party[i].player_id, sizeof h->player_id);
        snprintf(h->gateway, sizeof h->gateway, "%s", i ? party[i].gateway : gateway);
        h->cmd_id = i ? 0 : t->cmd_id;
    }
    return TICKETS_HELD;
}

/* Whether one of the others waits or is being placed already. */
static bool tickets_others_queued(mm_state *mm, const tickets_member *others, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (queue_has(mm->queues, others[i].player_id) ||
            placement_has_player(&mm->placements, others[i].player_id))
            return true;
    return false;
}

void tickets_rate_held(mm_state *mm, uint64_t now_ms)
{
    tickets_batch *b = &mm->joins;
    if (b->n == 0 || b->rated)
        return;
    const char **ids = calloc(b->n, sizeof *ids);
    if (!ids)
        return;
    for (size_t i = 0; i < b->n; i++)
        ids[i] = b->v[i].player_id;
    ratings_refresh(mm, now_ms, ids, b->n);
    free(ids);
    b->rated = true;
}

int tickets_stage(mm_state *mm, uint64_t now_ms)
{
    tickets_batch *b = &mm->joins;
    size_t n = b->n;
    if (n == 0)
        return 0;
    tickets_rate_held(mm, now_ms);
    const queue_key **keys = calloc(n, sizeof *keys);
    const queue_ticket **ts = calloc(n, sizeof *ts);
    size_t m = 0;
    for (size_t i = 0; keys && ts && i < n; i++) {
        size_t line;
        const queue_ticket *t = queue_find(mm->queues, b->v[i].player_id, &line);
        if (!t) {
            /* a held ticket formed into a placement this turn: its record as placed */
            size_t seat;
            const placement *p = placement_of_player(&mm->placements, b->v[i].player_id, &seat);
            if (!p)
                continue; /* cannot happen: every other ticket change flushes first */
            keys[m] = &p->key;
            ts[m++] = &p->tickets[seat];
            continue;
        }
        keys[m] = queue_line_key(mm->queues, line);
        ts[m++] = t;
    }
    int rc = keys && ts && m == n ? state_stage_tickets(mm, keys, ts, m) : -1;
    free(keys);
    free(ts);
    return rc;
}

void tickets_answer(mm_state *mm, int rc)
{
    tickets_batch *b = &mm->joins;
    size_t n = b->n;
    b->n = 0;
    b->rated = false;
    for (size_t i = 0; i < n; i++) {
        const tickets_held *h = &b->v[i];
        if (rc < 0)
            queue_leave(mm->queues, h->player_id, NULL);
        if (!h->cmd_id)
            continue; /* a party member: its leader's join is answered */
        tickets_reply(mm, h->gateway, h->player_id, h->cmd_id,
                      rc < 0 ? DECKHAND__ERROR_CODE__UNAVAILABLE : DECKHAND__ERROR_CODE__OK,
                      rc < 0 ? TICKETS_STORE_DOWN : NULL);
    }
    if (rc < 0)
        dh_warn_every(DH_LOG_EVERY_MS, "%zu joins refused: " TICKETS_STORE_DOWN, n);
    else if (n)
        dh_debug("%zu joins stored in one write", n);
}

bool tickets_flush(mm_state *mm, uint64_t now_ms)
{
    if (mm->joins.n == 0)
        return false;
    int rc = tickets_stage(mm, now_ms);
    if (rc == 0)
        rc = state_write_staged(mm, now_ms);
    state_unstage(mm); /* the write took them; left only when it never went out */
    tickets_answer(mm, rc);
    return rc == 0;
}

/* A join from a player already seated in a running match: it lost that match's
 * MatchFound (seated.h), so it gets its assignment again, through this gateway, rather
 * than a second match. */
static void tickets_reseat(mm_state *mm, const char *gateway,
                           const Deckhand__Internal__QueueJoin *j,
                           const Deckhand__Internal__MatchAssigned *seat)
{
    dh_info("queue join %s: seated in running match %s; its assignment sent again via %s",
            j->player_id, seat->match_id, gateway);
    tickets_reply(mm, gateway, j->player_id, j->cmd_id, DECKHAND__ERROR_CODE__OK, NULL);
    Deckhand__Internal__Internal msg = DECKHAND__INTERNAL__INTERNAL__INIT;
    msg.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ASSIGNED;
    msg.match_assigned = (Deckhand__Internal__MatchAssigned *)seat;
    if (gwout_send(mm, gateway, &msg) < 0)
        dh_warn_every(DH_LOG_EVERY_MS, "match %s: cannot tell gateway %s about player %s: %s",
                      seat->match_id, gateway, j->player_id, strerror(errno));
}

/* Whether Redis says match_id is still running. The worker records the end before any
 * player hears of it, so a player who saw its GameOver and queues again at once (before
 * the worker's MatchEnded reached us) is not sent back into the finished match. False
 * without Redis, or when it does not answer: the join then queues as usual. */
static bool tickets_match_running(mm_state *mm, const char *match_id, uint64_t now_ms)
{
    if (!mm->redis_on)
        return false;
    char key[DH_KEY_MAX];
    const char *argv[] = {"HGET", dh_key_match(key, match_id), DH_F_STATUS};
    redisReply *r = rconn_command(mm, now_ms, 3, argv);
    bool running = r && r->type == REDIS_REPLY_STRING && !strcmp(r->str, DH_STATUS_RUNNING);
    if (r)
        freeReplyObject(r);
    return running;
}

/* A client's string (game, mode, name) free of control characters: the gateway refuses
 * them first; this guard keeps a gateway that does not out of the queue and the logs. */
static bool tickets_text_ok(const char *s)
{
    for (; s && *s; s++)
        if ((unsigned char)*s < 0x20 || (unsigned char)*s == 0x7f)
            return false;
    return true;
}

/* Whether difficulty is one the game offers against the AI: its GameInfo.difficulties, or
 * while its workers do not list them, the engine's three (engine.h ENGINE_EASY_BOT...) that
 * its bots list names. Writes why not into buf. */
static bool tickets_vs_ai_ok(const registry_game *g, const char *difficulty, char *buf, size_t cap)
{
    static const char *const known[] = {"easy", "normal", "hard"};
    const Deckhand__Internal__GameInfo *gi = g->info;
    bool ok = false;
    for (size_t i = 0; gi && i < gi->n_difficulties && !ok; i++)
        ok = !strcmp(gi->difficulties[i], difficulty);
    for (size_t k = 0; gi && !gi->n_difficulties && k < 3 && !ok; k++)
        for (size_t i = 0; !strcmp(known[k], difficulty) && i < gi->n_bots && !ok; i++)
            ok = !strcmp(gi->bots[i], difficulty);
    if (!ok)
        snprintf(buf, cap, "%s has no difficulty '%.32s' to play against (easy, normal, hard)",
                 g->name, difficulty);
    return ok;
}

/* The seats of a match against the AI: the join's count, else the game's minimum, or the
 * party's size when it is larger. */
static uint32_t tickets_vs_ai_seats(const registry_game *g, const Deckhand__Internal__QueueJoin *j,
                                    size_t nothers)
{
    uint32_t seats = j->players ? j->players : g->min_players;
    return !j->players && 1 + nothers > seats ? (uint32_t)(1 + nothers) : seats;
}

/* The line a join of players (validated) waits in: the flexible line (players 0) when
 * the join named no count, the queue prefers fuller matches (full_wait_ms) and the game
 * seats a range; else the line of that count. */
static uint32_t tickets_line_players(const mm_state *mm, const registry_game *g,
                                     const Deckhand__Internal__QueueJoin *j, uint32_t players)
{
    if (j->players || g->max_players <= g->min_players || (j->vs_ai && *j->vs_ai))
        return players;
    return settings_for(&mm->settings, g->name, j->mode)->full_wait_ms ? 0 : players;
}

bool tickets_join(mm_state *mm, const char *gateway, const Deckhand__Internal__QueueJoin *j,
                  const tickets_member *others, size_t nothers, uint64_t now_ms)
{
    const char *pid = j->player_id ? j->player_id : "";
    const Deckhand__Internal__MatchAssigned *seat = *pid ? seated_find(&mm->seated, pid) : NULL;
    if (seat && !tickets_match_running(mm, seat->match_id, now_ms)) {
        seated_end(&mm->seated, seat->match_id); /* over: its MatchEnded is on its way */
        seat = NULL;
    }
    if (seat) {
        tickets_reseat(mm, gateway, j, seat);
        return false;
    }
    Deckhand__ErrorCode code = DECKHAND__ERROR_CODE__OK;
    const char *why = NULL;
    char buf[160];
    if (queue_has(mm->queues, pid))
        tickets_flush(mm, now_ms); /* a join again: its first write goes first */
    queue_key key;
    queue_ticket t;
    const registry_game *g = registry_game_info(&mm->reg, j->game ? j->game : "");
    const char *ai = j->vs_ai ? j->vs_ai : "";
    uint32_t players = *ai && g ? tickets_vs_ai_seats(g, j, nothers) : j->players;
    size_t line;
    queue_ticket *old;
    bool again = false;
    if (!*pid) {
        code = DECKHAND__ERROR_CODE__BAD_REQUEST;
        why = "missing player id";
    } else if (!tickets_text_ok(pid) || !tickets_text_ok(j->game) || !tickets_text_ok(j->mode) ||
               !tickets_text_ok(j->name) || !tickets_text_ok(ai)) {
        code = DECKHAND__ERROR_CODE__BAD_REQUEST;
        why = "game, mode and name must not hold control characters";
    } else if (!g && mm->first_tick_ms && now_ms - mm->first_tick_ms < REGISTRY_DEAD_MS) {
        /* Just (re)started: the workers have not all reported their games yet. */
        code = DECKHAND__ERROR_CODE__UNAVAILABLE;
        why = "the matchmaker is starting; join again in a moment";
    } else if (!g) {
        code = DECKHAND__ERROR_CODE__UNKNOWN_GAME;
        snprintf(buf, sizeof buf, "no worker serves game '%.64s'", j->game ? j->game : "");
        why = buf;
    } else if (!settings_has_mode(&mm->settings, g->name, j->mode)) {
        code = DECKHAND__ERROR_CODE__BAD_REQUEST;
        snprintf(buf, sizeof buf,
                 "%.32s has no mode '%.32s' (casual, or one the queues file names)", g->name,
                 j->mode);
        why = buf;
    } else if ((players = players ? players : g->min_players) < g->min_players ||
               players > g->max_players || players == 0) {
        code = DECKHAND__ERROR_CODE__BAD_REQUEST;
        snprintf(buf, sizeof buf, "%s is for %u to %u players", g->name, g->min_players,
                 g->max_players);
        why = buf;
    } else if (!options_check(&mm->reg, g->name, j->options, j->n_options, buf, sizeof buf) ||
               (*ai && !tickets_vs_ai_ok(g, ai, buf, sizeof buf))) {
        code = DECKHAND__ERROR_CODE__BAD_REQUEST;
        why = buf;
    } else if (queue_key_init(&key, j->game, j->mode, tickets_line_players(mm, g, j, players)) !=
                   QUEUE_OK ||
               queue_key_vs_ai(&key, ai) != QUEUE_OK ||
               options_canon_for(&mm->reg, g->name, j->options, j->n_options, key.options,
                                 sizeof key.options) >= sizeof key.options ||
               queue_ticket_init(&t, pid, j->name, gateway, j->cmd_id, mm_wall_ms(mm, now_ms)) !=
                   QUEUE_OK) {
        code = DECKHAND__ERROR_CODE__BAD_REQUEST;
        why = "a field is too long";
    } else if (placement_has_player(&mm->placements, pid)) {
        code = DECKHAND__ERROR_CODE__BAD_REQUEST;
        why = "already queued";
    } else if (nothers && 1 + nothers > (key.players ? key.players : g->max_players)) {
        code = DECKHAND__ERROR_CODE__BAD_REQUEST;
        why = "the party has more players than the match seats";
    } else if (nothers &&
               (queue_has(mm->queues, pid) || tickets_others_queued(mm, others, nothers))) {
        code = DECKHAND__ERROR_CODE__BAD_REQUEST;
        why = "the party (or one of its members) is queued already";
    } else if (nothers) {
        code = tickets_add_party(mm, gateway, &key, &t, others, nothers, now_ms, &why);
    } else if ((old = queue_find(mm->queues, pid, &line))) {
        const queue_key *k = queue_line_key(mm->queues, line);
        if (k->players != key.players || strcmp(k->game, key.game) || strcmp(k->mode, key.mode) ||
            strcmp(k->options, key.options) || strcmp(k->vs_ai, key.vs_ai)) {
            code = DECKHAND__ERROR_CODE__BAD_REQUEST;
            why = "already queued";
        } else {
            again = true;
            code = tickets_rejoin(mm, old, &key, &t, now_ms);
        }
    } else {
        code = tickets_add(mm, gateway, &key, &t, now_ms, &why);
    }
    if (code == DECKHAND__ERROR_CODE__UNAVAILABLE && !why)
        why = TICKETS_STORE_DOWN;
    else if (code == DECKHAND__ERROR_CODE__OVERLOADED && !why)
        why = "out of memory";
    if (code == DECKHAND__ERROR_CODE__OK || code == TICKETS_HELD)
        dh_debug("queue join %s (%s) %s/%s/%u [%s] via %s%s", pid, t.name, key.game, key.mode,
                 key.players, key.options, gateway, again ? " (again: keeps its place)" : "");
    else
        dh_info("queue join %s refused: %s", pid, why);
    if (code == TICKETS_HELD) {
        if (mm->joins.n >= TICKETS_BATCH_MAX)
            tickets_flush(mm, now_ms);
        return false; /* formation waits for the batch's write */
    }
    tickets_reply(mm, gateway, pid, j->cmd_id, code, why);
    return code == DECKHAND__ERROR_CODE__OK;
}

/* Delete the stored records of the player's ticket: every member of a party (a party
 * waits and leaves as one ticket). 0, or -1 when Redis did not take one (those deleted
 * stay deleted: a load then finds the party smaller, never larger). */
static int tickets_unstore(mm_state *mm, const char *player_id, uint64_t now_ms)
{
    const queue_ticket *members[QUEUE_PARTY_MAX];
    char ids[QUEUE_PARTY_MAX][QUEUE_NAME_MAX];
    size_t n = queue_party(mm->queues, player_id, members, QUEUE_PARTY_MAX);
    for (size_t i = 0; i < n; i++)
        memcpy(ids[i], members[i]->player_id, QUEUE_NAME_MAX);
    for (size_t i = 0; i < n; i++)
        if (state_ticket_del(mm, now_ms, ids[i]) < 0)
            return -1;
    return 0;
}

/* The player's ticket (NULL: none) and its line, once the held joins are written: they go
 * before any later change. */
static queue_ticket *tickets_of(mm_state *mm, const char *player_id, size_t *line, uint64_t now_ms)
{
    tickets_flush(mm, now_ms);
    return queue_find(mm->queues, player_id, line);
}

/* Whether the player (with no ticket) is placed already: in a placement waiting for its
 * worker, or seated in a match Redis says still runs (without Redis, any seat kept). A leave
 * that comes after the formation lost the race, and says so (ALREADY_PLACED) rather than
 * ok: the MatchFound follows, or came. */
static bool tickets_placed(mm_state *mm, const char *player_id, uint64_t now_ms)
{
    if (placement_has_player(&mm->placements, player_id))
        return true;
    const Deckhand__Internal__MatchAssigned *seat = seated_find(&mm->seated, player_id);
    return seat && (!mm->redis_on || tickets_match_running(mm, seat->match_id, now_ms));
}

bool tickets_leave(mm_state *mm, const char *gateway, const Deckhand__Internal__QueueLeave *l,
                   uint64_t now_ms)
{
    const char *pid = l->player_id ? l->player_id : "";
    size_t line;
    queue_ticket *t = tickets_of(mm, pid, &line, now_ms);
    if (!t && *pid && l->cmd_id && tickets_placed(mm, pid, now_ms)) {
        dh_info("queue leave %s refused: already placed in a match", pid);
        tickets_reply(mm, gateway, pid, l->cmd_id, DECKHAND__ERROR_CODE__ALREADY_PLACED,
                      "too late: already placed in a match; its MatchFound follows");
        return false;
    }
    if (t && l->game && *l->game && strcmp(queue_line_key(mm->queues, line)->game, l->game))
        t = NULL;
    /* cmd_id 0 is the gateway's own leave for a player who disconnected: only the gateway
     * holding the ticket may do that (the player may have resumed elsewhere) */
    if (t && !l->cmd_id && strcmp(t->gateway, gateway)) {
        dh_info("queue leave %s from %s ignored: the ticket is on %s", pid, gateway, t->gateway);
        return false;
    }
    Deckhand__ErrorCode code = DECKHAND__ERROR_CODE__OK;
    if (t && tickets_unstore(mm, pid, now_ms) < 0)
        code = DECKHAND__ERROR_CODE__UNAVAILABLE;
    else if (t)
        queue_leave(mm->queues, pid, NULL);
    dh_info("queue leave %s %s", pid,
            code ? "refused: " TICKETS_STORE_DOWN
            : t  ? "done"
                 : "(was not queued)");
    if (l->cmd_id)
        tickets_reply(mm, gateway, pid, l->cmd_id, code, code ? TICKETS_STORE_DOWN : NULL);
    return false;
}

bool tickets_away(mm_state *mm, const char *gateway, const Deckhand__Internal__PlayerAway *a,
                  uint64_t now_ms)
{
    const char *pid = a->player_id ? a->player_id : "";
    size_t line;
    queue_ticket *t = tickets_of(mm, pid, &line, now_ms);
    if (!t || t->away_since_ms)
        return false;
    if (strcmp(t->gateway, gateway)) {
        dh_info("player %s away on %s ignored: the ticket is on %s", pid, gateway, t->gateway);
        return false;
    }
    queue_ticket upd = *t;
    upd.away_since_ms = mm_wall_ms(mm, now_ms);
    if (state_ticket_put(mm, now_ms, queue_line_key(mm->queues, line), &upd) < 0) {
        dh_warn_every(DH_LOG_EVERY_MS, "player %s away: not recorded (" TICKETS_STORE_DOWN ")",
                      pid);
        return false;
    }
    queue_away(mm->queues, pid, upd.away_since_ms);
    dh_info("player %s away: keeps the place for %u ms", pid,
            settings_for(&mm->settings, queue_line_key(mm->queues, line)->game,
                         queue_line_key(mm->queues, line)->mode)
                ->grace_ms);
    return false;
}

bool tickets_back(mm_state *mm, const char *gateway, const Deckhand__Internal__PlayerBack *b,
                  uint64_t now_ms)
{
    const char *pid = b->player_id ? b->player_id : "";
    size_t line, seat;
    queue_ticket *t = tickets_of(mm, pid, &line, now_ms);
    if (t) {
        queue_ticket upd = *t;
        snprintf(upd.gateway, sizeof upd.gateway, "%s", gateway);
        upd.away_since_ms = 0;
        if (state_ticket_put(mm, now_ms, queue_line_key(mm->queues, line), &upd) < 0) {
            dh_warn_every(DH_LOG_EVERY_MS,
                          "player %s back on %s: not recorded (" TICKETS_STORE_DOWN ")", pid,
                          gateway);
            return false;
        }
        queue_back(mm->queues, pid, gateway);
        dh_info("player %s back on %s: waiting again", pid, gateway);
        return true;
    }
    placement *p = placement_of_player(&mm->placements, pid, &seat);
    if (!p)
        return false;
    char old[sizeof p->tickets[seat].gateway];
    memcpy(old, p->tickets[seat].gateway, sizeof old);
    snprintf(p->tickets[seat].gateway, sizeof p->tickets[seat].gateway, "%s", gateway);
    p->tickets[seat].away_since_ms = 0;
    if (placement_store(mm, now_ms, p) < 0) {
        memcpy(p->tickets[seat].gateway, old, sizeof old);
        dh_warn_every(DH_LOG_EVERY_MS,
                      "player %s back on %s: not recorded (" TICKETS_STORE_DOWN ")", pid, gateway);
        return false;
    }
    dh_info("player %s back on %s: its match %s is being placed", pid, gateway, p->match_id);
    return false;
}

int tickets_cancel(mm_state *mm, const char *player_id, uint64_t now_ms)
{
    tickets_flush(mm, now_ms); /* held joins are written before any later change */
    if (tickets_unstore(mm, player_id, now_ms) < 0)
        return -1;
    queue_leave(mm->queues, player_id, NULL);
    return 0;
}

/* Take only player_id off its ticket: the other members of a party join again as one
 * ticket (same seq and join time, so a load rebuilds the same). 0, or -1 when Redis did
 * not take the delete (nothing changed). */
static int tickets_drop(mm_state *mm, const char *player_id, uint64_t now_ms)
{
    const queue_ticket *members[QUEUE_PARTY_MAX];
    queue_ticket rest[QUEUE_PARTY_MAX];
    size_t line, n = queue_party(mm->queues, player_id, members, QUEUE_PARTY_MAX), m = 0;
    if (n == 0 || !queue_find(mm->queues, player_id, &line))
        return 0;
    queue_key key = *queue_line_key(mm->queues, line);
    for (size_t i = 0; i < n; i++)
        if (strcmp(members[i]->player_id, player_id))
            rest[m++] = *members[i];
    if (state_ticket_del(mm, now_ms, player_id) < 0)
        return -1;
    queue_leave(mm->queues, player_id, NULL);
    if (m && queue_join_party(mm->queues, &key, rest, m) != QUEUE_OK)
        dh_error("party of %s: %zu members not put back in line (out of memory); their tickets "
                 "stay stored for the next load",
                 player_id, m);
    return 0;
}

void tickets_expire(mm_state *mm, uint64_t now_ms)
{
    uint64_t wall = mm_wall_ms(mm, now_ms);
    for (size_t line = 0; line < queue_lines(mm->queues); line++) {
        const queue_key *k = queue_line_key(mm->queues, line);
        uint64_t grace = settings_for(&mm->settings, k->game, k->mode)->grace_ms;
        /* the away list is in the order tickets went away: stop at the first in grace */
        for (const queue_ticket *t;
             (t = queue_line_away_first(mm->queues, line)) && wall >= t->away_since_ms + grace;) {
            char pid[sizeof t->player_id];
            memcpy(pid, t->player_id, sizeof pid);
            /* held joins are written before any later change (only then: a turn's joins
             * wait for its formation pass, to be written with their matches) */
            tickets_flush(mm, now_ms);
            if (tickets_drop(mm, pid, now_ms) < 0)
                return; /* Redis is down: try again next tick */
            dh_info("player %s away past the %llu ms grace: left %s/%s/%u", pid,
                    (unsigned long long)grace, k->game, k->mode, k->players);
            if (mm->on_dropped)
                mm->on_dropped(mm, pid, now_ms);
        }
    }
}
