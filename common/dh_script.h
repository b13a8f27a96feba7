/*
 * dh_script.h: server-side scripts (dh_keys.h) called by hash.
 *
 * EVAL sends a script's whole text with every call; EVALSHA sends its 40-digit SHA1, which
 * Redis knows once the script was loaded (SCRIPT LOAD, or any EVAL of it). Redis forgets
 * its scripts on a restart or SCRIPT FLUSH and then answers NOSCRIPT: the callers load
 * every script they use after each (re)connect (dh_redis.connects tells them one
 * happened) and, on a NOSCRIPT reply, load again and retry or fail that one command. A
 * NOSCRIPT reply means the script did not run at all, so nothing was written.
 */
#ifndef DECKHAND_DH_SCRIPT_H
#define DECKHAND_DH_SCRIPT_H

#include <hiredis/hiredis.h>
#include <stdbool.h>
#include <stddef.h>

#define DH_SCRIPT_SHA_LEN 40

typedef struct {
    const char *text;                /* one of dh_keys.h's scripts (static, not owned) */
    char sha[DH_SCRIPT_SHA_LEN + 1]; /* its SHA1 in lowercase hex, as Redis names it */
} dh_script;

/* Name text by its hash (computed here, no Redis needed). */
void dh_script_init(dh_script *s, const char *text);
/* SCRIPT LOAD each of n scripts on c, synchronously: only on a connection with no
 * pipelined replies pending. 0, or -1 when Redis refused or the connection broke (the
 * caller drops it then). */
int dh_script_load(redisContext *c, const dh_script *const *scripts, size_t n);
/* The reply says Redis does not know the script (it was flushed or restarted). */
bool dh_script_missing(const redisReply *r);

#endif
