/*
 * bots_lobby.c: `deckhand bots --lobby`: instead of queueing, every --size bots (1..S,
 * S+1..2S, ...) meet in a private lobby (docs/PROTOCOL.md, "Parties and lobbies"). The
 * first hosts: it makes the lobby with the run's game, mode, seats and options; the others
 * join it by the code its LobbyState brings (each once it is logged in and the code is
 * known); every member marks itself ready; the host starts the lobby once every seat is
 * taken and ready, and the match is placed like a queued one (MatchFound follows). After a
 * match the host makes a new lobby. Any refused lobby request is an error.
 */
#include <stdio.h>

#include "bots.h"
#include "dh_client_social.h"

static bool bots_lobby_hosts(const bots_run *r, const bot *b)
{
    return (b - r->bots) % (int)r->size == 0;
}

static bot *bots_lobby_host(bots_run *r, bot *b)
{
    return &r->bots[(b - r->bots) / (int)r->size * (int)r->size];
}

/* Send one lobby request for b (slot: BOTS_LOBBY_ENTER, _READY or _START), its cmd_id
 * remembered for the Reply. */
static void bots_lobby_send(bots_run *r, bot *b, int slot, Deckhand__ClientMessage *m)
{
    if (bots_send(r, b, m) == 0)
        b->lobby_cmd[slot] = m->cmd_id;
}

static void bots_lobby_ask(bots_run *r, bot *b, const char *code)
{
    if (!b->c || b->lobby_code[0] || b->lobby_cmd[BOTS_LOBBY_ENTER])
        return;
    dh_client_social msg;
    bots_lobby_send(r, b, BOTS_LOBBY_ENTER, dh_client_social_lobby_join(&msg, code));
}

bool bots_lobby_join(bots_run *r, bot *b)
{
    if (!r->lobby)
        return false;
    b->want_match = true;
    b->join_at = 0;
    if (!bots_lobby_hosts(r, b)) {
        bot *host = bots_lobby_host(r, b);
        if (host->lobby_code[0])
            bots_lobby_ask(r, b, host->lobby_code);
        return true;
    }
    if (!b->lobby_code[0] && !b->lobby_cmd[BOTS_LOBBY_ENTER] && b->c) {
        dh_client_social msg;
        Deckhand__QueueJoin want = DECKHAND__QUEUE_JOIN__INIT; /* the run's mode and options */
        cli_options_apply(&r->options, &want);
        bots_lobby_send(r, b, BOTS_LOBBY_ENTER,
                        dh_client_social_lobby_create(&msg, r->game, want.mode, r->size, false,
                                                      want.options, want.n_options));
    }
    return true;
}

/* Every seat taken and ready: the lobby can start. */
static bool bots_lobby_full(const bots_run *r, const Deckhand__LobbyState *l)
{
    if (l->n_members < r->size)
        return false;
    for (size_t i = 0; i < l->n_members; i++)
        if (!l->members[i]->ready)
            return false;
    return true;
}

void bots_lobby_state(bots_run *r, bot *b, const Deckhand__LobbyState *l)
{
    if (!r->lobby)
        return;
    if (l->closed || !l->code) {
        b->lobby_code[0] = '\0';
        b->lobby_ready = b->lobby_started = false;
        return;
    }
    snprintf(b->lobby_code, sizeof b->lobby_code, "%s", l->code);
    if (!b->lobby_ready) {
        dh_client_social msg;
        bots_lobby_send(r, b, BOTS_LOBBY_READY, dh_client_social_lobby_ready(&msg, true));
        b->lobby_ready = true;
    }
    if (!bots_lobby_hosts(r, b))
        return;
    int first = (int)(b - r->bots);
    for (int i = first + 1; i < first + (int)r->size && i < r->n; i++)
        if (r->bots[i].want_match)
            bots_lobby_ask(r, &r->bots[i], b->lobby_code);
    if (bots_lobby_full(r, l) && !b->lobby_started) {
        dh_client_social msg;
        bots_lobby_send(r, b, BOTS_LOBBY_START, dh_client_social_lobby_start(&msg));
        b->lobby_started = true;
    }
}

bool bots_lobby_reply(bots_run *r, bot *b, const Deckhand__Reply *rep)
{
    int slot = 0;
    while (slot < BOTS_LOBBY_SLOTS && (!rep->cmd_id || b->lobby_cmd[slot] != rep->cmd_id))
        slot++;
    if (slot == BOTS_LOBBY_SLOTS)
        return false;
    b->lobby_cmd[slot] = 0;
    bots_request_reply(r, b, "lobby", rep);
    return true;
}
