/*
 * play_social.c: party and lobby commands and states in `deckhand play` (see
 * play_social.h).
 */
#include "play_social.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_client_social.h"

const char play_social_help[] =
    "Parties and lobbies (start with --no-queue to gather first):\n"
    "  party                 make a party; others join with its code\n"
    "  party join CODE       join a party\n"
    "  party leave           leave it (a queued party leaves the line)\n"
    "  queue                 queue (a party's leader queues the whole party)\n"
    "  lobby create [public] [SEATS]   a lobby of this game (private unless public)\n"
    "  lobby join CODE       join a lobby\n"
    "  lobby list            the open public lobbies of this game\n"
    "  lobby leave           leave it\n"
    "  ready, unready        mark yourself in the lobby\n"
    "  start                 the host starts the lobby's match (everyone ready)\n";

static bool social_word(const char *text, const char *word, const char **rest)
{
    size_t n = strlen(word);
    if (strncmp(text, word, n) || (text[n] && text[n] != ' '))
        return false;
    for (*rest = text + n; **rest == ' ';)
        (*rest)++;
    return true;
}

/* `lobby create [public] [SEATS]`. */
static Deckhand__ClientMessage *social_lobby_create(dh_client_social *msg, const char *args,
                                                    const char *game)
{
    bool public_ = false;
    long seats = 0;
    const char *rest;
    if (social_word(args, "public", &rest)) {
        public_ = true;
        args = rest;
    }
    if (*args) {
        char *end;
        seats = strtol(args, &end, 10);
        if (*end || seats < 1 || seats > 64)
            return NULL;
    }
    return dh_client_social_lobby_create(msg, game, "", (uint32_t)seats, public_, NULL, 0);
}

bool play_social_command(const char *text, const char *game, play_social_send send, void *arg)
{
    dh_client_social msg;
    Deckhand__ClientMessage *m = NULL;
    const char *rest, *args;
    if (!strcmp(text, "ready") || !strcmp(text, "unready"))
        m = dh_client_social_lobby_ready(&msg, text[0] == 'r');
    else if (!strcmp(text, "start"))
        m = dh_client_social_lobby_start(&msg);
    else if (social_word(text, "party", &args)) {
        if (!*args)
            m = dh_client_social_party_create(&msg);
        else if (social_word(args, "join", &rest) && *rest)
            m = dh_client_social_party_join(&msg, rest);
        else if (!strcmp(args, "leave"))
            m = dh_client_social_party_leave(&msg);
    } else if (social_word(text, "lobby", &args)) {
        if (social_word(args, "create", &rest))
            m = social_lobby_create(&msg, rest, game);
        else if (social_word(args, "join", &rest) && *rest)
            m = dh_client_social_lobby_join(&msg, rest);
        else if (!strcmp(args, "list"))
            m = dh_client_social_lobby_list(&msg, game);
        else if (!strcmp(args, "leave"))
            m = dh_client_social_lobby_leave(&msg);
    } else {
        return false;
    }
    if (!m)
        fputs(play_social_help, stdout);
    else
        send(arg, m);
    return true;
}

static void social_members(Deckhand__Member **ms, size_t n, const char *lead, const char *role,
                           bool ready)
{
    for (size_t i = 0; i < n; i++)
        printf("    %s%s%s%s\n", ms[i]->name, !strcmp(ms[i]->player_id, lead) ? role : "",
               ms[i]->connected ? "" : " (away)",
               ready ? (ms[i]->ready ? " ready" : " not ready") : "");
}

static void social_party(const Deckhand__PartyState *p)
{
    if (p->closed) {
        printf("You are no longer in party %s.\n", p->code);
        return;
    }
    printf("Party %s (%zu): others join with `party join %s`%s%s\n", p->code, p->n_members, p->code,
           *p->queued_game ? "; waiting in line for " : "", p->queued_game);
    social_members(p->members, p->n_members, p->leader_id, " (leader)", false);
}

static void social_lobby(const Deckhand__LobbyState *l)
{
    if (l->closed && *l->match_id) {
        printf("Lobby %s started: match %s.\n", l->code, l->match_id);
        return;
    }
    if (l->closed) {
        printf("You are no longer in lobby %s.\n", l->code);
        return;
    }
    printf("Lobby %s: %s/%s, %zu of %u seats, %s", l->code, l->game, l->mode, l->n_members,
           l->players, l->public_ ? "public" : "private (join with the code)");
    for (size_t i = 0; i < l->n_options; i++)
        printf("%s%s=%s", i ? ", " : "; options ", l->options[i]->name, l->options[i]->value);
    printf("\n");
    social_members(l->members, l->n_members, l->host_id, " (host)", true);
}

static void social_list(const Deckhand__LobbyList *ls)
{
    if (ls->n_lobbies == 0) {
        printf("No open public lobbies; `lobby create public` makes one.\n");
        return;
    }
    printf("Open lobbies (join with `lobby join CODE`):\n");
    for (size_t i = 0; i < ls->n_lobbies; i++) {
        const Deckhand__LobbySummary *s = ls->lobbies[i];
        printf("  %s  %s/%s  %u of %u seats  host %s\n", s->code, s->game, s->mode, s->members,
               s->players, s->host);
    }
}

bool play_social_show(const Deckhand__ServerMessage *s)
{
    switch (s->body_case) {
    case DECKHAND__SERVER_MESSAGE__BODY_PARTY:
        social_party(s->party);
        return true;
    case DECKHAND__SERVER_MESSAGE__BODY_LOBBY:
        social_lobby(s->lobby);
        return true;
    case DECKHAND__SERVER_MESSAGE__BODY_LOBBY_LIST:
        social_list(s->lobby_list);
        return true;
    default:
        return false;
    }
}
