/*
 * cli_options.c: collecting `--option NAME=VALUE` flags (see cli_options.h).
 */
#include "cli_options.h"

#include <stdio.h>
#include <string.h>

/* One NAME=VALUE into the next slot of out: 0, or -1 with the reason printed. */
static int cli_option_add(cli_options *out, const char *who, const char *arg)
{
    if (out->n == CLI_OPTIONS_MAX) {
        fprintf(stderr, "%s: at most %d --option flags\n", who, CLI_OPTIONS_MAX);
        return -1;
    }
    const char *eq = arg ? strchr(arg, '=') : NULL;
    if (!eq || eq == arg || strlen(arg) >= sizeof out->text[0]) {
        fprintf(stderr, "%s: --option takes NAME=VALUE (e.g. --option kingdom=random)\n", who);
        return -1;
    }
    char *t = out->text[out->n];
    snprintf(t, sizeof out->text[0], "%s", arg);
    t[eq - arg] = '\0';
    Deckhand__GameOption *o = &out->v[out->n];
    deckhand__game_option__init(o);
    o->name = t;
    o->value = t + (eq - arg) + 1;
    out->p[out->n] = o;
    out->n++;
    return 0;
}

int cli_options_collect(int argc, char **argv, const char *who, cli_options *out)
{
    memset(out, 0, sizeof *out);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) /* what follows are positionals */
            break;
        if (!strncmp(a, "--option=", 9) && cli_option_add(out, who, a + 9) < 0)
            return -1;
        if (!strcmp(a, "--option") && i + 1 < argc && cli_option_add(out, who, argv[++i]) < 0)
            return -1;
    }
    return 0;
}

void cli_options_apply(cli_options *o, Deckhand__QueueJoin *join)
{
    for (size_t i = 0; i < o->n; i++) { /* o may have been copied: point into this copy */
        o->v[i].name = o->text[i];
        o->v[i].value = o->text[i] + strlen(o->text[i]) + 1;
        o->p[i] = &o->v[i];
    }
    join->n_options = o->n;
    join->options = o->n ? o->p : NULL;
    if (o->mode && *o->mode)
        join->mode = (char *)o->mode;
    if (o->vs_ai && *o->vs_ai)
        join->vs_ai = (char *)o->vs_ai;
}
