/*
 * rig_mm_options.c: a worker of the matchmaker rig (rig_mm.h) announcing game options and
 * bots, for the tests of options, bot fill and the game list (see rig_mm_options.h).
 */
#include "rig_mm_options.h"

#include <stdio.h>

/* Worker i says hello again, now announcing dominion's kingdom option (three values, or
 * a list of 3 of four cards) and two bots. */
void rig_mm_hello_options(rig_mm *r, int i)
{
    char *values[] = {"first_game", "random", "big_money"};
    char *bots[] = {"default", "big_money"};
    Deckhand__OptionSpec os = DECKHAND__OPTION_SPEC__INIT;
    Deckhand__OptionSpec *osp[] = {&os};
    os.name = "kingdom";
    os.n_values = 3;
    os.values = values;
    os.default_value = "first_game";
    os.help = "the kingdom";
    char *items[] = {"Cellar", "Chapel", "Throne Room", "Witch"};
    os.n_items = 4;
    os.items = items;
    os.list_size = 3;
    Deckhand__Internal__GameInfo gi = DECKHAND__INTERNAL__GAME_INFO__INIT;
    Deckhand__Internal__GameInfo *gis[] = {&gi};
    gi.name = "dominion";
    gi.min_players = 2;
    gi.max_players = 4;
    gi.n_options = 1;
    gi.options = osp;
    gi.n_bots = 2;
    gi.bots = bots;
    Deckhand__Internal__WorkerHello h = DECKHAND__INTERNAL__WORKER_HELLO__INIT;
    h.worker_id = (char *)rig_mm_worker_ids[i];
    char ep[32];
    snprintf(ep, sizeof ep, "tcp://%c:1", 'a' + i);
    h.endpoint = ep;
    h.n_games = 1;
    h.games = gis;
    h.capacity = 1000;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_HELLO;
    m.worker_hello = &h;
    rig_mm_send(r->w[i], &m);
}

void rig_mm_join_kingdom(void *gw, const char *pid, uint64_t cmd, const char *kingdom)
{
    Deckhand__GameOption o = DECKHAND__GAME_OPTION__INIT;
    Deckhand__GameOption *op[] = {&o};
    o.name = "kingdom";
    o.value = (char *)kingdom;
    Deckhand__Internal__QueueJoin j = DECKHAND__INTERNAL__QUEUE_JOIN__INIT;
    j.player_id = (char *)pid;
    j.name = (char *)pid;
    j.cmd_id = cmd;
    j.game = "dominion";
    j.players = 2;
    j.n_options = kingdom ? 1 : 0;
    j.options = op;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_JOIN;
    m.queue_join = &j;
    rig_mm_send(gw, &m);
}
