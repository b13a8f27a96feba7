/*
 * host_chat.c: a seat's line of chat (PlayerCommand.chat, checked by its gateway:
 * gateway/inmatch.h), relayed as a ChatMessage to every seat whose player is connected,
 * through each seat's own gateway (seats may sit on different gateways), and to the
 * match's watchers, who read it at once (their frames are delayed, a chat line is not:
 * it shows nothing of the match). The sender gets it too: what it shows is what every
 * other reader got.
 *
 * Nothing of it is kept: not in the engine (it is no game event), not in Redis (neither
 * the log nor the history a replay is made of), not in a log line (its text is the
 * players' own). A retried cmd_id is answered from the seat's memory of replies and not
 * relayed twice. Mute is the client's: it hides a seat's lines.
 */
#include "host_internal.h"
#include "host_persist.h"

#include "out.h"

void host_chat(host *h, host_match *hm, int seat, uint64_t cmd_id, const Deckhand__ChatSend *cs)
{
    host_seat *s = &hm->seats[seat];
    if (out_recall(s, cmd_id)) {
        out_reply(h, s->route, s->player_id, cmd_id, DECKHAND__ERROR_CODE__OK, NULL);
        return;
    }
    Deckhand__ServerMessage sm = DECKHAND__SERVER_MESSAGE__INIT;
    Deckhand__ChatMessage cm = DECKHAND__CHAT_MESSAGE__INIT;
    cm.match_id = hm->id;
    cm.seat = seat;
    cm.name = s->name;
    cm.text = cs->text ? cs->text : "";
    cm.emote = cs->emote ? cs->emote : "";
    cm.at_ms = host_wall_ms(h);
    sm.body_case = DECKHAND__SERVER_MESSAGE__BODY_CHAT;
    sm.chat = &cm;
    out_remember(s, cmd_id, DECKHAND__ERROR_CODE__OK, NULL);
    out_reply(h, s->route, s->player_id, cmd_id, DECKHAND__ERROR_CODE__OK, NULL);
    for (int i = 0; i < hm->nseats; i++) {
        const host_seat *to = &hm->seats[i];
        if (to->route[0] && !to->away_ms && !to->removed)
            out_send(h, to->route, to->player_id, &sm);
    }
    out_watch_send(h, hm, &sm);
}
