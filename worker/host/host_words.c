/*
 * host_words.c: what a player reads when a card script fails on its move (issue 29:
 * "the player is told in words and offered the way out"). The engine's public message
 * names the failure by an error id only (engine_error.c: the detail is for operators);
 * here it becomes a sentence a player understands, saying what happened (the move was not
 * played, nothing changed), what to do (choose again, or let the bot answer: Choose.bot)
 * and what happens if it goes on (the worker's own answers failing again and again end
 * the match as a script error: no winner, no rating moved).
 */
#include "host_internal.h"

#include <stdio.h>
#include <string.h>

/* The error id ("E1a2b3c4d") heading an engine script error's message, or "" when none. */
static void host_words_id(const engine_error *ee, char *id, size_t n)
{
    size_t len = strspn(ee->message + 1, "0123456789abcdef");
    if (ee->message[0] == 'E' && len == 8 && ee->message[9] == ':')
        snprintf(id, n, "%.9s", ee->message);
    else
        snprintf(id, n, "unknown");
}

void host_script_words(const engine_error *ee, bool bot, char *out, size_t n)
{
    char id[16];
    host_words_id(ee, id, sizeof id);
    if (bot)
        snprintf(out, n,
                 "The bot could not answer: the game's rules failed (error %s). Nothing "
                 "changed. Choose a move yourself. If the rules keep failing, the match is "
                 "stopped with no winner and no rating change.",
                 id);
    else
        snprintf(out, n,
                 "Your move could not be played: the game's rules failed on it (error %s). "
                 "Nothing changed. Choose another move, or let the bot answer for you. If the "
                 "rules keep failing, the match is stopped with no winner and no rating change.",
                 id);
}
