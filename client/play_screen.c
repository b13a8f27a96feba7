/*
 * play_screen.c: the table `deckhand play` draws (play.h): the supply with costs, your
 * hand and play area, the counters, the other players' zone counts, the recent log, and
 * the decision in front of you with numbered options and the time left to answer it
 * (DecisionRequest.time_left_ms, counted down from when it was first shown, so a redraw
 * tells what is left); card texts on request. It knows no
 * game: everything comes from the View and the bundle's Catalog.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dh_client_view.h"
#include "dh_clock.h"
#include "play.h"

void play_log_add(play_state *ps, const char *text)
{
    char *copy = strdup(text ? text : "");
    if (!copy)
        return; /* the line is lost, nothing else */
    size_t slot = ps->nlog % PLAY_LOG_KEEP;
    free(ps->log[slot]);
    ps->log[slot] = copy;
    ps->nlog++;
}

void play_log_print(const play_state *ps, size_t last)
{
    size_t n = ps->nlog < PLAY_LOG_KEEP ? ps->nlog : PLAY_LOG_KEEP;
    if (last < n)
        n = last;
    for (size_t i = ps->nlog - n; i < ps->nlog; i++)
        printf("  | %s\n", ps->log[i % PLAY_LOG_KEEP]);
}

/* ---- looking things up in the View ------------------------------------------------- */

static const Deckhand__View *play_view(const play_state *ps)
{
    return ps->view_msg ? ps->view_msg->view : NULL;
}

static const Deckhand__CardInfo *play_card(const play_state *ps, const char *name)
{
    return dh_catalog_card(ps->catalog_msg ? ps->catalog_msg->catalog : NULL, name);
}

static const Deckhand__Zone *play_zone(const Deckhand__View *v, const char *name, int owner)
{
    for (size_t i = 0; i < v->n_zones; i++)
        if (v->zones[i]->owner == owner && !strcmp(v->zones[i]->name, name))
            return v->zones[i];
    return NULL;
}

static const char *play_player_name(const Deckhand__View *v, int seat)
{
    for (size_t i = 0; i < v->n_players; i++)
        if ((int)v->players[i]->seat == seat)
            return v->players[i]->name;
    return "?";
}

/* ---- drawing ----------------------------------------------------------------------- */

/* "Copper x3, Estate x2": a zone's visible cards grouped by name, in first-seen order. */
static void play_print_cards(const Deckhand__Zone *z)
{
    if (!z || z->n_cards == 0) {
        printf("%s\n", z && z->count ? "(hidden)" : "-");
        return;
    }
    bool *done = calloc(z->n_cards, sizeof *done);
    const char *sep = "";
    for (size_t i = 0; i < z->n_cards; i++) {
        if (done && done[i])
            continue;
        int n = 1;
        for (size_t j = i + 1; done && j < z->n_cards; j++)
            if (!strcmp(z->cards[i]->name, z->cards[j]->name)) {
                done[j] = true;
                n++;
            }
        printf(n > 1 ? "%s%s x%d" : "%s%s", sep, z->cards[i]->name, n);
        sep = ", ";
    }
    free(done);
    printf("\n");
}

static void play_print_supply(const play_state *ps, const Deckhand__View *v)
{
    printf("Supply:\n");
    char row[256];
    size_t len = 0;
    int col = 0;
    for (size_t i = 0; i < v->n_zones; i++) {
        const Deckhand__Zone *z = v->zones[i];
        if (strncmp(z->name, "supply:", 7) != 0)
            continue;
        const char *card = z->name + 7;
        const Deckhand__CardInfo *ci = play_card(ps, card);
        int n = snprintf(row + len, sizeof row - len, "  %-12.12s $%-2d %3u left    ", card,
                         ci ? ci->cost : 0, z->count);
        len += n > 0 && (size_t)n < sizeof row - len ? (size_t)n : 0;
        if (++col % 3 == 0) {
            printf("%.*s\n", (int)(len - 4), row); /* without the last gap */
            len = 0;
        }
    }
    if (len)
        printf("%.*s\n", (int)(len - 4), row);
    const Deckhand__Zone *trash = play_zone(v, "trash", -1);
    if (trash && trash->count) {
        printf("Trash: ");
        play_print_cards(trash);
    }
}

static void play_print_counters(const Deckhand__View *v, int owner)
{
    const char *sep = "";
    for (size_t i = 0; i < v->n_counters; i++) {
        const Deckhand__Counter *c = v->counters[i];
        if (c->owner != owner || c->name[0] == '_' || !strcmp(c->name, "active"))
            continue;
        printf("%s%s %lld", sep, c->name, (long long)c->value);
        sep = "  ";
    }
    if (*sep)
        printf("\n");
}

static void play_print_players(const play_state *ps, const Deckhand__View *v)
{
    for (size_t i = 0; i < v->n_players; i++) {
        const Deckhand__PlayerInfo *p = v->players[i];
        int seat = (int)p->seat;
        printf("  %s%-12s", seat == (int)ps->seat ? "*" : " ", p->name);
        for (size_t j = 0; j < v->n_zones; j++) {
            const Deckhand__Zone *z = v->zones[j];
            if (z->owner == seat)
                printf("  %s %u", z->name, z->count);
        }
        for (size_t j = 0; j < v->n_counters; j++) {
            const Deckhand__Counter *c = v->counters[j];
            if (c->owner == seat && c->name[0] != '_')
                printf("  %s %lld", c->name, (long long)c->value);
        }
        if (v->waiting_for == seat)
            printf("   <- to play");
        if (!p->connected)
            printf("   (away)");
        printf("\n");
    }
}

/* The decision's countdown: time_left_ms (0: no limit) less what passed since it was
 * first shown, as "1 min 05 s" or "9 s"; false when there is no limit. */
static bool play_time_left(play_state *ps, const Deckhand__DecisionRequest *d, char *out,
                           size_t cap)
{
    if (!d->time_left_ms)
        return false;
    uint64_t now = dh_now_ms();
    if (ps->clock_decision != d->decision_id) {
        ps->clock_decision = d->decision_id;
        ps->clock_ms = now;
    }
    uint64_t passed = now - ps->clock_ms;
    uint64_t left = passed < d->time_left_ms ? (d->time_left_ms - passed + 999) / 1000 : 0;
    if (left >= 60)
        snprintf(out, cap, "%llu min %02llu s", (unsigned long long)(left / 60),
                 (unsigned long long)(left % 60));
    else
        snprintf(out, cap, "%llu s", (unsigned long long)left);
    return true;
}

void play_print_decision(play_state *ps)
{
    const Deckhand__DecisionRequest *d = ps->decision;
    if (!d)
        return;
    char left[32];
    if (play_time_left(ps, d, left, sizeof left))
        printf("\n>> %s   [%s left to answer]\n",
               d->prompt && *d->prompt ? d->prompt : "Your decision", left);
    else
        printf("\n>> %s\n", d->prompt && *d->prompt ? d->prompt : "Your decision");
    for (size_t i = 0; i < d->n_options; i++)
        printf("   %2zu) %s\n", i + 1, d->options[i]->label);
    if (d->min == d->max)
        printf("Choose %u (numbers separated by spaces)%s\n", d->min,
               d->min == 1 ? "" : ", in the order you want");
    else
        printf("Choose %u to %u (numbers separated by spaces; empty line for none)\n", d->min,
               d->max);
    ps->shown_decision = d->decision_id;
}

void play_draw(play_state *ps)
{
    const Deckhand__View *v = play_view(ps);
    if (!v)
        return;
    int me = (int)ps->seat;
    printf("\n==== %s | match %s | you are %s (seat %d) ====\n", v->game, v->match_id,
           play_player_name(v, me), me + 1);
    play_print_supply(ps, v);
    printf("Players:\n");
    play_print_players(ps, v);
    printf("Turn: ");
    play_print_counters(v, -1);
    printf("In play: ");
    play_print_cards(play_zone(v, "play", me));
    printf("Hand:    ");
    play_print_cards(play_zone(v, "hand", me));
    if (ps->nlog) {
        printf("Recent:\n");
        play_log_print(ps, PLAY_LOG_SHOWN);
    }
    if (ps->decision)
        play_print_decision(ps);
    else if (v->waiting_for >= 0 && !v->finished)
        printf("\nWaiting for %s...\n", play_player_name(v, v->waiting_for));
    fflush(stdout);
}

void play_show_card(const play_state *ps, const char *name)
{
    const Deckhand__CardInfo *ci = play_card(ps, name);
    if (!ci) {
        printf("No card called '%s' in this game (try `cards`).\n", name);
        return;
    }
    printf("%s ($%d, %s)\n  %s\n", ci->name, ci->cost, ci->types, ci->text);
}

void play_show_cards(const play_state *ps)
{
    const Deckhand__Catalog *c = ps->catalog_msg ? ps->catalog_msg->catalog : NULL;
    if (!c) {
        printf("No match yet.\n");
        return;
    }
    for (size_t i = 0; i < c->n_cards; i++) {
        const Deckhand__CardInfo *ci = c->cards[i];
        printf("%-14s $%-2d %-22s %s\n", ci->name, ci->cost, ci->types, ci->text);
    }
}

/* ---- talking to the gateway ------------------------------------------------------------ */
