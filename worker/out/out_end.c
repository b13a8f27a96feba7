/*
 * out_end.c: the end screen's data a GameOver carries (out.h, "the end screen"): why the
 * match ended and who won in a player's words, each seat's deck for the deck-builders, and
 * whether it was rated. The rules' own words for their end come from the game's scripts
 * (engine_match_end_summary); the words for the ends the server makes (a resignation, a
 * forfeit, a quarantine, an operator, the turn cap) are here, the same for every game.
 * The seats' GameOver (out_seat.c) and a replay's last frame (worker/replay.c) both use it.
 */
#include <stdio.h>
#include <string.h>

#include "dh_keys.h"
#include "dh_rating.h"
#include "dh_token.h"
#include "out.h"

static const char *out_end_name(const out_end_why *w, int seat)
{
    return seat >= 0 && seat < w->nseats && w->names[seat] ? w->names[seat] : "";
}

/* The winners: "Ann wins.", "Ann and Bob share the win.", "It's a draw." (every seat
 * first), or nothing when nobody won (every rank 0). */
static void out_end_winners(const out_end_why *w, const engine_result *res, size_t n, char *buf,
                            size_t cap)
{
    size_t first = 0, at = 0;
    for (size_t i = 0; i < n; i++)
        first += res[i].rank == 1;
    buf[0] = '\0';
    if (first == 0)
        return;
    if (first == n && n > 1) {
        snprintf(buf, cap, "It's a draw.");
        return;
    }
    for (size_t i = 0, k = 0; i < n && at < cap; i++) {
        if (res[i].rank != 1)
            continue;
        const char *sep = k == 0 ? "" : k + 1 == first ? " and " : ", ";
        int len = snprintf(buf + at, cap - at, "%s%s", sep, out_end_name(w, res[i].seat));
        at += len > 0 ? (size_t)len : 0;
        k++;
    }
    if (at < cap)
        snprintf(buf + at, cap - at, first == 1 ? " wins." : " share the win.");
}

/* The words for why the match ended, into buf. */
static void out_end_why_words(const out_end_why *w, char *buf, size_t cap)
{
    const char *reason = w->reason ? w->reason : "";
    const char *who = out_end_name(w, w->forfeit_seat);
    if (!strcmp(reason, DH_END_RESIGNED))
        snprintf(buf, cap, "%s resigned.", who);
    else if (!strcmp(reason, DH_END_SCRIPT_ERROR))
        snprintf(buf, cap, "A card script kept failing, so the match was stopped; nobody won.");
    else if (!strncmp(reason, DH_END_ADMIN, strlen(DH_END_ADMIN)))
        snprintf(buf, cap, "An operator ended the match; nobody won.");
    else if (!strcmp(reason, DH_END_IDLE))
        snprintf(buf, cap, "%s did not answer in time.", who);
    else if (!strcmp(reason, DH_END_TURN_CAP))
        snprintf(buf, cap, "The turn limit was reached.");
    else if (w->forfeit_seat >= 0)
        snprintf(buf, cap, "%s left the match.", who);
    else
        snprintf(buf, cap, "%s", w->rules ? w->rules : "");
}

void out_end_summary(const out_end_why *w, const engine_result *res, size_t n, char *buf,
                     size_t cap)
{
    char why[OUT_END_SUMMARY_MAX], who[OUT_END_SUMMARY_MAX];
    out_end_why_words(w, why, sizeof why);
    out_end_winners(w, res, n, who, sizeof who);
    snprintf(buf, cap, "%s%s%s", why, why[0] && who[0] ? " " : "", who);
}

size_t out_end_deck(const engine_match *m, int seat, Deckhand__DeckCount *dc,
                    Deckhand__DeckCount **dcp)
{
    engine_deck_count cards[OUT_END_DECK_MAX];
    size_t n = engine_match_deck(m, seat, cards, OUT_END_DECK_MAX);
    for (size_t i = 0; i < n; i++) {
        deckhand__deck_count__init(&dc[i]);
        dc[i].card = (char *)cards[i].card;
        dc[i].count = cards[i].count;
        dcp[i] = &dc[i];
    }
    return n;
}

bool out_end_unrated(bool unrated, const char *reason, const char *const *ids, int n)
{
    reason = reason ? reason : "";
    if (unrated || !strcmp(reason, DH_END_SCRIPT_ERROR) ||
        !strncmp(reason, DH_END_ADMIN, strlen(DH_END_ADMIN)) || n < 2 || n > DH_RATING_SEATS)
        return true;
    for (int i = 0; i < n; i++) {
        if (!ids[i] || !dh_token_is_account_id(ids[i]))
            return true; /* a guest: nothing is rated */
        for (int j = 0; j < i; j++)
            if (!strcmp(ids[i], ids[j]))
                return true;
    }
    return false;
}
