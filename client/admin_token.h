/*
 * admin_token.h: the admin token this operator holds, and the name it carries. One lookup
 * for `deckhand admin` (which sends the token) and the script commands (which record its
 * NAME as who made a change), so that a script change and an admin action by the same
 * operator name the same person (docs/SECURITY.md, "One name in both audit trails").
 *
 * Where: the file --token-file (when given), else DECKHAND_ADMIN_TOKEN, else the file
 * DECKHAND_ADMIN_TOKEN_FILE (the environment's, else .run/cluster.env's: the local
 * cluster's). The text is in the matchmaker's form (dh_admin_auth.h): the first line that
 * is neither blank nor a # comment is "NAME:TOKEN", or a bare "TOKEN", which the
 * matchmaker names "admin"; so one file serves both sides.
 */
#ifndef DECKHAND_ADMIN_TOKEN_H
#define DECKHAND_ADMIN_TOKEN_H

#include <stddef.h>

typedef struct {
    char name[64];
    char token[1024];
} admin_token;

/* The first token line of text into t: 1, or 0 when text holds none, or -1 when its
 * name is empty or too long. */
int admin_token_parse(const char *text, admin_token *t);

/* Find this operator's token (above), file the --token-file flag or NULL: 1 with t
 * filled, 0 when there is none anywhere, -1 (logged) when a secret named cannot be read
 * or holds no token line. */
int admin_token_find(const char *file, admin_token *t);

#endif
