/*
 * engine_error.c: filling in the engine_error every public call of the engine may return
 * (engine.h): a code and a message, or ENGINE_OK and an empty message. The caller may pass
 * NULL when it does not want to know why.
 */
#include <stdarg.h>
#include <stdio.h>

#include "engine_internal.h"

void engine_error_set(engine_error *err, engine_code code, const char *fmt, ...)
{
    if (!err)
        return;
    va_list ap;
    va_start(ap, fmt);
    err->code = code;
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
}

void engine_error_ok(engine_error *err)
{
    if (!err)
        return;
    err->code = ENGINE_OK;
    err->message[0] = 0;
}
