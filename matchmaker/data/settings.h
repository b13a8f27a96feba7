/*
 * settings.h: each queue's match settings (grace, decision and turn timers, what happens
 * to an abandoned seat), which StartMatch carries to the worker and which also bound how
 * long an away ticket keeps its place in line.
 *
 * Defaults come from flags (--grace-ms, --decision-ms, --turn-ms, --abandon); a queues
 * file (--queues FILE) overrides them per (game, mode), one queue a line:
 *
 *     # GAME MODE key=value ...
 *     dominion ranked grace_ms=30000 decision_ms=20000 abandon=forfeit
 *
 * Keys: grace_ms, decision_ms, turn_ms (milliseconds, 0 = off for the timers), abandon
 * (bot|forfeit) and bot: the strategy that plays bot-filled seats and the seats of
 * players who stayed away, one every game has on every worker (SETTINGS_BOTS: the game's
 * "default" bot, "search", the engine's search bot, or a difficulty every game offers,
 * "easy", "normal" or "hard": engine.h, ENGINE_EASY_BOT); another name is refused as the
 * file loads, since no worker could play it. A key a line does not name keeps the default.
 *
 * Matching (queue.h): window (the rating difference in mu accepted at once, default 2),
 * widen_per_s (added per second waited, default 1), window_max (default 50: after about
 * 48 s anyone plays anyone rather than no one) and full_wait_ms: when it is not 0 and the
 * game seats a range (2-4), a join that names no player count waits in one line for all
 * sizes, for a full match first, then one seat fewer after each full_wait_ms (default 0:
 * such a join waits for the game's minimum, as before).
 *
 * Bot fill: bot_fill_ms (default 0: off). When a line's oldest ready ticket has waited
 * that long without a match, its match forms with the game's server-side bots in the
 * seats it lacks (the line's count; the game's minimum for a flexible line), unrated.
 */
#ifndef DECKHAND_MM_SETTINGS_H
#define DECKHAND_MM_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "queue.h"

#define SETTINGS_GRACE_MS    60000
#define SETTINGS_WINDOW      2.0
#define SETTINGS_WIDEN_PER_S 1.0
#define SETTINGS_WINDOW_MAX  50.0
#define SETTINGS_ABANDON_MAX 16
#define SETTINGS_BOT_MAX     16
/* The bot strategies a queue may name: every worker plays them in every game. */
#define SETTINGS_BOTS "default|search|easy|normal|hard"

typedef struct {
    uint32_t grace_ms;
    uint32_t decision_ms;
    uint32_t turn_ms;
    char abandon[SETTINGS_ABANDON_MAX]; /* "bot" or "forfeit" */
    char bot[SETTINGS_BOT_MAX];         /* one of SETTINGS_BOTS: who plays bot seats */
    double window, widen_per_s, window_max;
    uint32_t full_wait_ms;
    uint32_t bot_fill_ms; /* bot fill after this wait (placement.c); 0: off, the default */
} settings_values;

typedef struct {
    char game[QUEUE_NAME_MAX];
    char mode[QUEUE_NAME_MAX];
    settings_values v;
} settings_queue;

typedef struct {
    settings_values defaults;
    settings_queue *queues; /* owned */
    size_t n, cap;
} settings_table;

/* Defaults: grace 60 s, no decision or turn timer, abandoned seats played by a bot, the
 * game's default one. */
void settings_init(settings_table *t);
void settings_free(settings_table *t);

/* Set one key (grace_ms, decision_ms, turn_ms, abandon, bot, window, widen_per_s,
 * window_max, full_wait_ms, bot_fill_ms) of v from text. 0, or -1 when the
 * key is unknown or the value does not parse. */
int settings_set(settings_values *v, const char *key, const char *value);

/* Add the queues of a file (format above). 0, or -1 with a message naming the line in
 * err. Queues already named are overridden by later lines. */
int settings_load(settings_table *t, const char *path, char *err, size_t errlen);
/* Parse one line of that format (comments and blank lines are fine). */
int settings_parse_line(settings_table *t, const char *line, char *err, size_t errlen);

/* Whether players may queue for (game, mode): "casual" (or empty) always, any other mode
 * only when the queues file names it for that game. Modes come from this list, so a client
 * cannot make lines (and matchmaker memory) out of made-up modes. */
bool settings_has_mode(const settings_table *t, const char *game, const char *mode);

/* The settings of a queue: its override, else the defaults. An empty mode is "casual". */
const settings_values *settings_for(const settings_table *t, const char *game, const char *mode);

#endif
