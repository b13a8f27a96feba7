/*
 * engine_error.c: filling in the engine_error every public call of the engine may return
 * (engine.h): a code and a message, or ENGINE_OK and an empty message. The caller may pass
 * NULL when it does not want to know why.
 *
 * A script error's message names the script's file and line and repeats its words, which
 * is what an operator needs and what a player must not see (it shows how the rules are
 * written, and a script may put anything in an error). So a script error gets an id, "E"
 * and 8 hex digits, at the head of its message (the operators' log) and in a generic
 * public_message (the players' reply): a player quotes the id, the operator finds the
 * detail. The id hashes the message with the clock, so two failures never share one in
 * practice, without any counter to keep.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "dh_clock.h"
#include "engine_internal.h"

static void error_script(engine_error *err)
{
    char detail[sizeof err->message];
    snprintf(detail, sizeof detail, "%s", err->message);
    uint64_t now = dh_now_ns();
    uint64_t h = engine_fnv1a((const uint8_t *)detail, strlen(detail)) ^
                 engine_fnv1a((const uint8_t *)&now, sizeof now);
    uint32_t id = (uint32_t)(h ^ (h >> 32));
    snprintf(err->message, sizeof err->message, "E%08x: %.*s", id, (int)(sizeof err->message - 12),
             detail);
    snprintf(err->public_message, sizeof err->public_message,
             "the game's rules script failed on this move (error E%08x): the move was not "
             "played and nothing changed; try another move, and quote the error to support",
             id);
}

void engine_error_set(engine_error *err, engine_code code, const char *fmt, ...)
{
    if (!err)
        return;
    va_list ap;
    va_start(ap, fmt);
    err->code = code;
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    if (code == ENGINE_SCRIPT_ERROR)
        error_script(err);
    else
        memcpy(err->public_message, err->message, sizeof err->public_message);
}

void engine_error_ok(engine_error *err)
{
    if (!err)
        return;
    err->code = ENGINE_OK;
    err->message[0] = 0;
    err->public_message[0] = 0;
}
