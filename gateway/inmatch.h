/*
 * inmatch.h: a seated player's commands about its running match that are not answers
 * (docs/PROTOCOL.md, "In a match"): ChatSend, UndoRequest and UndoAnswer. The gateway
 * checks what it can alone and forwards the rest to the match's worker as a
 * PlayerCommand (route.h), which answers with the Reply and relays the result (a
 * ChatMessage, an UndoState) to every seat's gateway.
 *
 * Chat is checked here, so that nothing refused costs the worker anything: its own token
 * bucket per connection (INMATCH_CHAT_BURST lines at once, INMATCH_CHAT_PER_SEC after;
 * past it RATE_LIMITED and nothing is relayed), a text of 1..INMATCH_CHAT_MAX bytes of
 * valid UTF-8 (control characters are refused for every message by textguard.h) or one
 * emote of the fixed list, never both. A chat line's text never reaches a log line.
 */
#ifndef DECKHAND_GW_INMATCH_H
#define DECKHAND_GW_INMATCH_H

#include "conn.h"

#define INMATCH_CHAT_MAX     200 /* bytes of a chat line's text */
#define INMATCH_CHAT_BURST   5.0 /* chat lines one connection may send at once */
#define INMATCH_CHAT_PER_SEC 1.0 /* ...and how fast that allowance comes back */

/* Whether emote is one of the fixed list ("gg", "hi", "thanks", "oops", "wow", "think"). */
bool inmatch_emote_known(const char *emote);
/* Whether s[0..n) is valid UTF-8 (no overlong form, no surrogate, at most U+10FFFF). */
bool inmatch_utf8_valid(const char *s, size_t n);

/* A ChatSend, UndoRequest or UndoAnswer from c's player (m's body is one of them): checked,
 * then sent to the match's worker. OK when sent (the worker replies); else the code for
 * session.c to answer with, and *why its words when the check found them (else NULL). */
Deckhand__ErrorCode inmatch_command(gw_conn *c, uint64_t cmd_id, const Deckhand__ClientMessage *m,
                                    const char **why);

#endif
