/*
 * options.h: game options a client asks for (QueueJoin.options, LobbyCreate.options),
 * checked against what the game's bundle declares (its OptionSpecs, announced by the
 * workers in WorkerHello and kept by the registry), and their canonical text.
 *
 * The canonical text "name=value;name=value" (sorted by name) is what a queue line's key
 * holds (queue_key.options), so tickets asking for different options never meet; it is
 * also how a placement carries them to StartMatch.options. options_list turns it back
 * into GameOption messages.
 *
 * Limits: at most OPTIONS_MAX options, names of 1..OPTIONS_NAME_MAX and values of
 * 1..OPTIONS_VALUE_MAX characters of [A-Za-z0-9_-] (the engine's rule for declared
 * names and values: engine.h), or, for an option that declares items (OptionSpec.items),
 * a list of them (dh_optlist.h: the engine's rule too), the whole text under
 * QUEUE_OPTIONS_MAX.
 */
#ifndef DECKHAND_MM_OPTIONS_H
#define DECKHAND_MM_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "deckhand.pb-c.h"
#include "queue.h"
#include "registry.h"

#define OPTIONS_MAX       8
#define OPTIONS_NAME_MAX  32
#define OPTIONS_VALUE_MAX 64

/* True when every option is one game declares, given once, with a value it accepts,
 * within the limits above. Else false, with a message for the player in err (the
 * caller answers BAD_REQUEST) naming the option; strings a client sent appear in it
 * only once they are known to hold no control character. NULL opts with n 0 is fine.
 * An unknown game is the caller's to refuse first (UNKNOWN_GAME); here it fails too. */
bool options_check(const registry *reg, const char *game, Deckhand__GameOption *const *opts,
                   size_t n, char *err, size_t errlen);

/* "name=value;name=value" sorted by name into out (cap bytes); options with an empty
 * value are left out, so none at all gives "". Returns the text's length, or cap or
 * more when it does not fit (out then holds "" ). Check the options first. */
size_t options_canon(Deckhand__GameOption *const *opts, size_t n, char *out, size_t cap);

/* As options_canon, leaving out too every option whose value is the game's default,
 * so that asking for the default explicitly waits in the same line as asking for
 * nothing: what a queue line's key holds. */
size_t options_canon_for(const registry *reg, const char *game, Deckhand__GameOption *const *opts,
                         size_t n, char *out, size_t cap);

/* A canonical text as GameOption messages pointing into the list's own copy. */
typedef struct {
    char text[QUEUE_OPTIONS_MAX];
    Deckhand__GameOption v[OPTIONS_MAX];
    Deckhand__GameOption *p[OPTIONS_MAX];
    size_t n;
} options_list;
void options_list_of(options_list *l, const char *canon);

/* The canonical text of GameOptions from storage (TicketRecord, PlacementRecord) into
 * out: 0, or -1 when they are malformed or do not fit. */
int options_from_records(Deckhand__GameOption *const *opts, size_t n, char *out, size_t cap);

#endif
