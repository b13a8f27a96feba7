/*
 * games.c: the game list a client asks for (see games.h).
 *
 * Built from what live workers announced (registry.h: each game's GameInfo, with the
 * options and bots its bundle declares) and the queues file (settings.h: the modes
 * configured per game). Nothing is cached: a request is rare, the registry holds a few
 * hundred rows at most, and the answer is then always what serves now.
 */
#include "games.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dh_log.h"
#include "dh_zmq.h"
#include "mm_data.h"
#include "mm_play.h"
#include "notify.h"

static int games_cmp(const void *a, const void *b)
{
    return strcmp((*(const registry_game *const *)a)->name,
                  (*(const registry_game *const *)b)->name);
}

/* One registry_game per game name served by a live worker, sorted by name, into out
 * (cap entries); their count. */
static size_t games_served(const registry *r, const registry_game **out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < r->nworkers; i++) {
        const registry_worker *w = &r->workers[i];
        for (size_t j = 0; w->alive && j < w->ngames; j++) {
            bool seen = false;
            for (size_t k = 0; k < n && !seen; k++)
                seen = !strcmp(out[k]->name, w->games[j].name);
            if (!seen && n < cap)
                out[n++] = &w->games[j];
        }
    }
    qsort(out, n, sizeof *out, games_cmp);
    return n;
}

/* "casual", then each other mode the queues file names for game, once, into modes
 * (room for t->n + 1); their count. */
static size_t games_modes(const settings_table *t, const char *game, char **modes)
{
    size_t n = 0;
    modes[n++] = (char *)"casual";
    for (size_t i = 0; i < t->n; i++) {
        const settings_queue *q = &t->queues[i];
        if (strcmp(q->game, game))
            continue;
        bool seen = false;
        for (size_t k = 0; k < n && !seen; k++)
            seen = !strcmp(modes[k], q->mode);
        if (!seen)
            modes[n++] = (char *)q->mode;
    }
    return n;
}

void games_answer(mm_state *mm, const char *gateway, const Deckhand__Internal__ClientRequest *req)
{
    const char *gw = gateway;
    const char *pid = req->player_id ? req->player_id : "";
    size_t cap = mm->reg.nworkers * REGISTRY_GAMES_MAX + 1;
    const registry_game **served = calloc(cap, sizeof *served);
    size_t n = served ? games_served(&mm->reg, served, cap) : 0;
    Deckhand__GameDesc *descs = calloc(n + 1, sizeof *descs);
    Deckhand__GameDesc **descp = calloc(n + 1, sizeof *descp);
    char **modes = calloc((n + 1) * (mm->settings.n + 1), sizeof *modes);
    int rc = -1;
    if (!served || !descs || !descp || !modes)
        goto out;
    for (size_t i = 0; i < n; i++) {
        const registry_game *g = served[i];
        Deckhand__GameDesc *d = &descs[i];
        deckhand__game_desc__init(d);
        d->game = (char *)g->name;
        d->min_players = g->min_players;
        d->max_players = g->max_players;
        d->modes = modes + i * (mm->settings.n + 1);
        d->n_modes = games_modes(&mm->settings, g->name, d->modes);
        if (g->info) {
            d->n_options = g->info->n_options;
            d->options = g->info->options;
            d->n_bots = g->info->n_bots;
            d->bots = g->info->bots;
            d->title = g->info->title;
            d->summary = g->info->summary;
            d->n_difficulties = g->info->n_difficulties;
            d->difficulties = g->info->difficulties;
            d->deck_builder = g->info->deck_builder;
        }
        descp[i] = d;
    }
    Deckhand__Games games = DECKHAND__GAMES__INIT;
    games.n_games = n;
    games.games = descp;
    rc = notify_body(mm, gw, pid, DECKHAND__SERVER_MESSAGE__BODY_GAMES, &games);
out:
    if (rc < 0)
        dh_error("games for %s: out of memory", pid);
    tickets_reply(mm, gw, pid, req->cmd_id,
                  rc < 0 ? DECKHAND__ERROR_CODE__INTERNAL : DECKHAND__ERROR_CODE__OK,
                  rc < 0 ? "out of memory" : NULL);
    free(served);
    free(descs);
    free(descp);
    free(modes);
}

void games_watch_answer(mm_state *mm, const char *gateway,
                        const Deckhand__Internal__ClientRequest *req)
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
    if (notify_body(mm, gateway, pid, DECKHAND__SERVER_MESSAGE__BODY_WATCH_LIST, &wl) < 0) {
        dh_error("watch list for %s: out of memory", pid);
        tickets_reply(mm, gateway, pid, req->cmd_id, DECKHAND__ERROR_CODE__INTERNAL,
                      "out of memory");
        return;
    }
    tickets_reply(mm, gateway, pid, req->cmd_id, DECKHAND__ERROR_CODE__OK, NULL);
}
