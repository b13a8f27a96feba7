/*
 * inmatch.c: see inmatch.h. The checks of a chat line, the chat's token bucket, and the
 * PlayerCommand each of these messages becomes.
 */
#include "inmatch.h"

#include <string.h>
#include <uv.h>

#include "route.h"

static const char *const inmatch_emotes[] = {"gg", "hi", "thanks", "oops", "wow", "think"};

bool inmatch_emote_known(const char *emote)
{
    for (size_t i = 0; i < sizeof inmatch_emotes / sizeof inmatch_emotes[0]; i++)
        if (!strcmp(emote, inmatch_emotes[i]))
            return true;
    return false;
}

/* The length of the UTF-8 sequence at s (n bytes left) when it is valid, else 0. */
static size_t inmatch_utf8_seq(const unsigned char *s, size_t n)
{
    size_t len = s[0] < 0x80                    ? 1
                 : s[0] >= 0xc2 && s[0] <= 0xdf ? 2
                 : s[0] >= 0xe0 && s[0] <= 0xef ? 3
                 : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4
                                                : 0;
    if (!len || len > n)
        return 0;
    for (size_t i = 1; i < len; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] > 0x9f) || /* overlong, surrogate */
        (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] > 0x8f))   /* overlong, too big */
        return 0;
    return len;
}

bool inmatch_utf8_valid(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        size_t len = inmatch_utf8_seq(p + i, n - i);
        if (!len)
            return false;
        i += len;
    }
    return true;
}

/* The chat's bucket: INMATCH_CHAT_PER_SEC refill, INMATCH_CHAT_BURST capacity; a fresh
 * connection starts full. */
static bool inmatch_chat_rate_ok(gw_conn *c)
{
    uint64_t now = uv_now(c->gw->loop);
    if (!c->chat_ms)
        c->chat_tokens = INMATCH_CHAT_BURST;
    else
        c->chat_tokens += (double)(now - c->chat_ms) * INMATCH_CHAT_PER_SEC / 1000.0;
    if (c->chat_tokens > INMATCH_CHAT_BURST)
        c->chat_tokens = INMATCH_CHAT_BURST;
    c->chat_ms = now ? now : 1;
    if (c->chat_tokens < 1.0)
        return false;
    c->chat_tokens -= 1.0;
    return true;
}

/* Why the chat line cs is refused (BAD_REQUEST), or NULL when it may go. */
static const char *inmatch_chat_invalid(const Deckhand__ChatSend *cs)
{
    size_t n = cs->text ? strlen(cs->text) : 0;
    bool emote = cs->emote && cs->emote[0];
    if (emote && n)
        return "a chat line is a text or an emote, not both";
    if (emote)
        return inmatch_emote_known(cs->emote)
                   ? NULL
                   : "unknown emote (one of gg, hi, thanks, oops, wow, think)";
    if (!n)
        return "empty chat line";
    if (n > INMATCH_CHAT_MAX)
        return "chat line too long (at most 200 bytes)";
    return inmatch_utf8_valid(cs->text, n) ? NULL : "chat line is not valid UTF-8";
}

/* The match id each of these messages names. */
static const char *inmatch_match_id(const Deckhand__ClientMessage *m)
{
    switch (m->body_case) {
    case DECKHAND__CLIENT_MESSAGE__BODY_CHAT_SEND:
        return m->chat_send->match_id;
    case DECKHAND__CLIENT_MESSAGE__BODY_UNDO_REQUEST:
        return m->undo_request->match_id;
    case DECKHAND__CLIENT_MESSAGE__BODY_UNDO_ANSWER:
        return m->undo_answer->match_id;
    default:
        return NULL;
    }
}

/* A match id a client may name: 1..GW_MATCH_ID_MAX-1 printable ASCII characters. */
static bool inmatch_match_id_ok(const char *id)
{
    size_t n = id ? strlen(id) : 0;
    if (n == 0 || n >= GW_MATCH_ID_MAX)
        return false;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)id[i] < 0x21 || (unsigned char)id[i] > 0x7e)
            return false;
    return true;
}

Deckhand__ErrorCode inmatch_command(gw_conn *c, uint64_t cmd_id, const Deckhand__ClientMessage *m,
                                    const char **why)
{
    const char *match_id = inmatch_match_id(m);
    if (cmd_id == 0) { /* cmd_id 0 is the gateway's own: the worker does not answer it */
        *why = "cmd_id must not be 0";
        return DECKHAND__ERROR_CODE__BAD_REQUEST;
    }
    if (!inmatch_match_id_ok(match_id)) {
        *why = "match_id must be 1-127 printable ASCII characters";
        return DECKHAND__ERROR_CODE__BAD_REQUEST;
    }
    Deckhand__Internal__PlayerCommand pc = DECKHAND__INTERNAL__PLAYER_COMMAND__INIT;
    pc.match_id = (char *)match_id;
    pc.player_id = c->player_id;
    pc.cmd_id = cmd_id;
    if (m->body_case == DECKHAND__CLIENT_MESSAGE__BODY_CHAT_SEND) {
        if ((*why = inmatch_chat_invalid(m->chat_send)) != NULL)
            return DECKHAND__ERROR_CODE__BAD_REQUEST;
        if (!inmatch_chat_rate_ok(c)) {
            *why = "too many chat lines: at most 5 at once and 1 a second after; "
                   "this one was not sent";
            return DECKHAND__ERROR_CODE__RATE_LIMITED;
        }
        pc.body_case = DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_CHAT;
        pc.chat = m->chat_send;
    } else if (m->body_case == DECKHAND__CLIENT_MESSAGE__BODY_UNDO_REQUEST) {
        pc.body_case = DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_UNDO;
        pc.undo = m->undo_request;
    } else {
        pc.body_case = DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_UNDO_ANSWER;
        pc.undo_answer = m->undo_answer;
    }
    return route_command(c->gw, &pc, false);
}
