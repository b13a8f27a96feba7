/*
 * notify.c: a ServerMessage for one player, sent to its gateway as mm_output (see
 * notify.h).
 */
#include "notify.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_log.h"
#include "mm.h"

bool notify_text_ok(const char *s, size_t max)
{
    size_t n = 0;
    for (; s && s[n]; n++)
        if ((unsigned char)s[n] < 0x20 || (unsigned char)s[n] == 0x7f)
            return false;
    return n < max;
}

bool notify_member_init(notify_member *m, const char *player_id, const char *name,
                        const char *gateway)
{
    memset(m, 0, sizeof *m);
    if (!player_id || !*player_id || !notify_text_ok(player_id, sizeof m->player_id) ||
        !notify_text_ok(name, sizeof m->name) || !notify_text_ok(gateway, sizeof m->gateway))
        return false;
    snprintf(m->player_id, sizeof m->player_id, "%s", player_id);
    snprintf(m->name, sizeof m->name, "%s", name ? name : "");
    snprintf(m->gateway, sizeof m->gateway, "%s", gateway ? gateway : "");
    m->connected = true;
    return true;
}

void notify_member_msg(const notify_member *m, Deckhand__Member *out)
{
    deckhand__member__init(out);
    out->player_id = (char *)m->player_id;
    out->name = (char *)m->name;
    out->connected = m->connected;
    out->ready = m->ready;
}

void notify_send(mm_state *mm, const char *gateway, const char *player_id,
                 const Deckhand__ServerMessage *m)
{
    if (!gateway || !*gateway)
        return;
    size_t len = deckhand__server_message__get_packed_size(m);
    uint8_t *buf = malloc(len ? len : 1);
    if (!buf) {
        dh_warn_every(DH_LOG_EVERY_MS, "out of memory telling player %s", player_id);
        return;
    }
    deckhand__server_message__pack(m, buf);
    Deckhand__Internal__PlayerOutput o = DECKHAND__INTERNAL__PLAYER_OUTPUT__INIT;
    o.player_id = (char *)player_id;
    o.message.data = buf;
    o.message.len = len;
    Deckhand__Internal__Internal msg = DECKHAND__INTERNAL__INTERNAL__INIT;
    msg.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_MM_OUTPUT;
    msg.mm_output = &o;
    if (dh_zmq_send(mm->router, gateway, &msg) < 0)
        dh_warn_every(DH_LOG_EVERY_MS, "cannot tell player %s via gateway %s: %s", player_id,
                      gateway, strerror(errno));
    free(buf);
}
