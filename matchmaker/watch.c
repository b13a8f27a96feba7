/*
 * watch.c: the running matches one may watch (see watch.h). The list is kept in start
 * order, so that an answer walks it from the end (newest first) without sorting; a match
 * ending is found by a linear scan, fine for the thousands of matches one cluster runs.
 */
#include "watch.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_grow.h"
#include "dh_log.h"
#include "dh_zmq.h"
#include "mm.h"
#include "tickets.h"

static void watch_entry_free(watch_entry *e)
{
    for (size_t i = 0; i < e->nplayers; i++)
        free(e->players[i]);
    free(e->players);
}

void watch_list_free(watch_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        watch_entry_free(&l->v[i]);
    free(l->v);
    *l = (watch_list){0};
}

/* Forget the i-th entry, keeping the order of the others. */
static void watch_remove(watch_list *l, size_t i)
{
    watch_entry_free(&l->v[i]);
    memmove(&l->v[i], &l->v[i + 1], (l->n - i - 1) * sizeof *l->v);
    l->n--;
}

void watch_end(watch_list *l, const char *match_id)
{
    for (size_t i = l->n; i-- > 0;)
        if (!strcmp(l->v[i].match_id, match_id))
            watch_remove(l, i);
}

int watch_add(watch_list *l, const char *match_id, const char *game, const char *mode,
              const char *const *players, size_t nplayers, uint64_t started_ms)
{
    watch_end(l, match_id);
    if (l->n >= WATCH_RUNNING_MAX)
        watch_remove(l, 0);
    if (dh_grow(&l->v, &l->cap, l->n + 1, sizeof *l->v, 64) < 0)
        return -1;
    watch_entry e = {0};
    snprintf(e.match_id, sizeof e.match_id, "%s", match_id);
    snprintf(e.game, sizeof e.game, "%s", game);
    snprintf(e.mode, sizeof e.mode, "%s", mode && *mode ? mode : "casual");
    e.started_ms = started_ms;
    e.players = calloc(nplayers ? nplayers : 1, sizeof *e.players);
    if (!e.players)
        return -1;
    for (size_t i = 0; i < nplayers; i++) {
        e.players[i] = strdup(players[i] ? players[i] : "");
        if (!e.players[i]) {
            watch_entry_free(&e);
            return -1;
        }
        e.nplayers++;
    }
    l->v[l->n++] = e;
    return 0;
}

void watch_answer(mm_state *mm, const char *gateway, const Deckhand__Internal__ClientRequest *req)
{
    const char *pid = req->player_id ? req->player_id : "";
    const Deckhand__WatchListRequest *wr = req->message->watch_list_request;
    const char *game = wr && wr->game ? wr->game : "";
    const watch_list *l = &mm->watching;
    Deckhand__WatchEntry ents[WATCH_LIST_MAX], *entp[WATCH_LIST_MAX];
    size_t n = 0;
    for (size_t i = l->n; i-- > 0 && n < WATCH_LIST_MAX;) {
        const watch_entry *e = &l->v[i];
        if (*game && strcmp(e->game, game))
            continue;
        deckhand__watch_entry__init(&ents[n]);
        ents[n].match_id = (char *)e->match_id;
        ents[n].game = (char *)e->game;
        ents[n].mode = (char *)e->mode;
        ents[n].n_players = e->nplayers;
        ents[n].players = e->players;
        ents[n].started_ms = e->started_ms;
        entp[n] = &ents[n];
        n++;
    }
    Deckhand__WatchList wl = DECKHAND__WATCH_LIST__INIT;
    wl.n_matches = n;
    wl.matches = entp;
    Deckhand__ServerMessage sm = DECKHAND__SERVER_MESSAGE__INIT;
    sm.body_case = DECKHAND__SERVER_MESSAGE__BODY_WATCH_LIST;
    sm.watch_list = &wl;
    size_t len = deckhand__server_message__get_packed_size(&sm);
    uint8_t *buf = malloc(len ? len : 1);
    if (!buf) {
        dh_error("watch list for %s: out of memory", pid);
        tickets_reply(mm, gateway, pid, req->cmd_id, DECKHAND__ERROR_CODE__INTERNAL,
                      "out of memory");
        return;
    }
    deckhand__server_message__pack(&sm, buf);
    Deckhand__Internal__PlayerOutput po = DECKHAND__INTERNAL__PLAYER_OUTPUT__INIT;
    po.player_id = (char *)pid;
    po.message.data = buf;
    po.message.len = len;
    Deckhand__Internal__Internal msg = DECKHAND__INTERNAL__INTERNAL__INIT;
    msg.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_MM_OUTPUT;
    msg.mm_output = &po;
    if (dh_zmq_send(mm->router, gateway, &msg) < 0)
        dh_warn_every(DH_LOG_EVERY_MS, "watch list for %s: cannot reach gateway %s: %s", pid,
                      gateway, strerror(errno));
    free(buf);
    tickets_reply(mm, gateway, pid, req->cmd_id, DECKHAND__ERROR_CODE__OK, NULL);
}
