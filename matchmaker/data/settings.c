/*
 * settings.c: per-queue match settings (see settings.h).
 */
#include "settings.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_grow.h"

#define SETTINGS_LINE_MAX 1024

void settings_init(settings_table *t)
{
    memset(t, 0, sizeof *t);
    t->defaults.grace_ms = SETTINGS_GRACE_MS;
    t->defaults.window = SETTINGS_WINDOW;
    t->defaults.widen_per_s = SETTINGS_WIDEN_PER_S;
    t->defaults.window_max = SETTINGS_WINDOW_MAX;
    snprintf(t->defaults.abandon, sizeof t->defaults.abandon, "bot");
    snprintf(t->defaults.bot, sizeof t->defaults.bot, "default");
}

void settings_free(settings_table *t)
{
    free(t->queues);
    t->queues = NULL;
    t->n = t->cap = 0;
}

static int settings_ms(const char *value, uint32_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(value, &end, 10);
    if (!*value || *end || errno || v > UINT32_MAX || value[0] == '-')
        return -1;
    *out = (uint32_t)v;
    return 0;
}

/* A rating difference: a finite number from 0 to 1000. */
static int settings_rating(const char *value, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(value, &end);
    if (!*value || *end || errno || !(v >= 0 && v <= 1000))
        return -1;
    *out = v;
    return 0;
}

/* A queue's bot: one of SETTINGS_BOTS. */
static bool settings_bot_ok(const char *value)
{
    static const char *const bots[] = {"default", "search", "easy", "normal", "hard"};
    for (size_t i = 0; i < sizeof bots / sizeof *bots; i++)
        if (!strcmp(value, bots[i]))
            return true;
    return false;
}

int settings_set(settings_values *v, const char *key, const char *value)
{
    if (!strcmp(key, "window"))
        return settings_rating(value, &v->window);
    if (!strcmp(key, "widen_per_s"))
        return settings_rating(value, &v->widen_per_s);
    if (!strcmp(key, "window_max"))
        return settings_rating(value, &v->window_max);
    if (!strcmp(key, "full_wait_ms"))
        return settings_ms(value, &v->full_wait_ms);
    if (!strcmp(key, "bot_fill_ms"))
        return settings_ms(value, &v->bot_fill_ms);
    if (!strcmp(key, "grace_ms"))
        return settings_ms(value, &v->grace_ms);
    if (!strcmp(key, "decision_ms"))
        return settings_ms(value, &v->decision_ms);
    if (!strcmp(key, "turn_ms"))
        return settings_ms(value, &v->turn_ms);
    if (!strcmp(key, "bot") && settings_bot_ok(value)) {
        snprintf(v->bot, sizeof v->bot, "%s", value);
        return 0;
    }
    if (!strcmp(key, "abandon") && (!strcmp(value, "bot") || !strcmp(value, "forfeit"))) {
        snprintf(v->abandon, sizeof v->abandon, "%s", value);
        return 0;
    }
    return -1;
}

static settings_queue *settings_queue_find(const settings_table *t, const char *game,
                                           const char *mode)
{
    for (size_t i = 0; i < t->n; i++)
        if (!strcmp(t->queues[i].game, game) && !strcmp(t->queues[i].mode, mode))
            return &t->queues[i];
    return NULL;
}

/* The entry for (game, mode), added with the defaults when missing; NULL on allocation
 * failure. */
static settings_queue *settings_queue_get(settings_table *t, const char *game, const char *mode)
{
    settings_queue *q = settings_queue_find(t, game, mode);
    if (q)
        return q;
    if (dh_grow(&t->queues, &t->cap, t->n + 1, sizeof *t->queues, 8) < 0)
        return NULL;
    q = &t->queues[t->n++];
    memset(q, 0, sizeof *q);
    snprintf(q->game, sizeof q->game, "%s", game);
    snprintf(q->mode, sizeof q->mode, "%s", mode);
    q->v = t->defaults;
    return q;
}

int settings_parse_line(settings_table *t, const char *line, char *err, size_t errlen)
{
    char buf[SETTINGS_LINE_MAX];
    if (strlen(line) >= sizeof buf) {
        snprintf(err, errlen, "line too long");
        return -1;
    }
    snprintf(buf, sizeof buf, "%s", line);
    char *hash = strchr(buf, '#');
    if (hash)
        *hash = '\0';
    char *save = NULL;
    const char *game = strtok_r(buf, " \t\r\n", &save);
    if (!game)
        return 0;
    const char *mode = strtok_r(NULL, " \t\r\n", &save);
    if (!mode) {
        snprintf(err, errlen, "'%.64s' needs a mode after the game", game);
        return -1;
    }
    if (strlen(game) >= QUEUE_NAME_MAX || strlen(mode) >= QUEUE_NAME_MAX) {
        snprintf(err, errlen, "game or mode longer than %d characters", QUEUE_NAME_MAX - 1);
        return -1;
    }
    settings_values v = t->defaults;
    const settings_queue *old = settings_queue_find(t, game, mode);
    if (old)
        v = old->v;
    for (char *kv; (kv = strtok_r(NULL, " \t\r\n", &save));) {
        char *eq = strchr(kv, '=');
        if (eq)
            *eq = '\0';
        if (eq && !strcmp(kv, "bot") && settings_set(&v, kv, eq + 1) < 0) {
            snprintf(err, errlen,
                     "unknown bot '%.32s': a queue's bot must be one every worker plays in every "
                     "game (" SETTINGS_BOTS ")",
                     eq + 1);
            return -1;
        }
        if (!eq || settings_set(&v, kv, eq + 1) < 0) {
            snprintf(err, errlen,
                     "bad setting '%.64s' (grace_ms, decision_ms, turn_ms, full_wait_ms, "
                     "bot_fill_ms: ms; "
                     "abandon: bot|forfeit; bot: " SETTINGS_BOTS
                     "; window, widen_per_s, window_max: 0-1000)",
                     kv);
            return -1;
        }
    }
    settings_queue *q = settings_queue_get(t, game, mode);
    if (!q) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    q->v = v;
    return 0;
}

int settings_load(settings_table *t, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    char line[SETTINGS_LINE_MAX], why[256];
    int rc = 0;
    for (int no = 1; fgets(line, sizeof line, f); no++) {
        if (settings_parse_line(t, line, why, sizeof why) < 0) {
            snprintf(err, errlen, "%s:%d: %s", path, no, why);
            rc = -1;
            break;
        }
    }
    fclose(f);
    return rc;
}

bool settings_has_mode(const settings_table *t, const char *game, const char *mode)
{
    if (!mode || !*mode || !strcmp(mode, "casual"))
        return true;
    return settings_queue_find(t, game, mode) != NULL;
}

const settings_values *settings_for(const settings_table *t, const char *game, const char *mode)
{
    const settings_queue *q = settings_queue_find(t, game, (mode && *mode) ? mode : "casual");
    return q ? &q->v : &t->defaults;
}
