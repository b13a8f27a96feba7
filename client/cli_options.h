/*
 * cli_options.h: `--option NAME=VALUE` (repeatable) and `--mode M` for `deckhand play` and
 * `deckhand bots`: the game options and the mode a QueueJoin asks for (docs/PROTOCOL.md,
 * "Game options and bot fill"; a mode other than casual must be one the queues file names).
 * dh_flags keeps only a flag's last value, so the command declares the flag (so that it parses) and
 * this collects every occurrence from argv before dh_flags reorders it.
 */
#ifndef DECKHAND_CLI_OPTIONS_H
#define DECKHAND_CLI_OPTIONS_H

#include <stddef.h>

#include "deckhand.pb-c.h"

#define CLI_OPTIONS_MAX 8

/* The flags a command declares for cli_options_collect (--option) and for the mode it
 * puts in cli_options.mode (--mode), for its flag table. */
#define CLI_OPTIONS_FLAGS                                                                          \
    {"option", DH_FLAG_VALUE},                                                                     \
    {                                                                                              \
        "mode", DH_FLAG_VALUE                                                                      \
    }

typedef struct {
    char text[CLI_OPTIONS_MAX][256]; /* NAME=VALUE: a kingdom list of 10 cards fits */
    Deckhand__GameOption v[CLI_OPTIONS_MAX];
    Deckhand__GameOption *p[CLI_OPTIONS_MAX];
    size_t n;
    const char *mode;  /* --mode, or NULL: casual */
    const char *vs_ai; /* `deckhand play --vs-ai DIFFICULTY`: against the AI, or NULL */
} cli_options;

/* Every `--option NAME=VALUE` and `--option=NAME=VALUE` of argv[1..argc) into out: 0, or
 * -1 after printing what is wrong (no '=', too long, more than CLI_OPTIONS_MAX) to stderr
 * prefixed with who. Which names and values a game takes is the server's to check. */
int cli_options_collect(int argc, char **argv, const char *who, cli_options *out);
/* Put the options, the mode and vs_ai on a QueueJoin (they point into o, which must outlive the
 * send). */
void cli_options_apply(cli_options *o, Deckhand__QueueJoin *join);

#endif
