/*
 * member.c: a party's or a lobby's member (see member.h).
 */
#include "member.h"

#include <stdio.h>
#include <string.h>

bool member_text_ok(const char *s, size_t max)
{
    size_t n = 0;
    for (; s && s[n]; n++)
        if ((unsigned char)s[n] < 0x20 || (unsigned char)s[n] == 0x7f)
            return false;
    return n < max;
}

bool member_init(member_info *m, const char *player_id, const char *name, const char *gateway)
{
    memset(m, 0, sizeof *m);
    if (!player_id || !*player_id || !member_text_ok(player_id, sizeof m->player_id) ||
        !member_text_ok(name, sizeof m->name) || !member_text_ok(gateway, sizeof m->gateway))
        return false;
    snprintf(m->player_id, sizeof m->player_id, "%s", player_id);
    snprintf(m->name, sizeof m->name, "%s", name ? name : "");
    snprintf(m->gateway, sizeof m->gateway, "%s", gateway ? gateway : "");
    m->connected = true;
    return true;
}

void member_msg(const member_info *m, Deckhand__Member *out)
{
    deckhand__member__init(out);
    out->player_id = (char *)m->player_id;
    out->name = (char *)m->name;
    out->connected = m->connected;
    out->ready = m->ready;
}

member_info *member_find(member_info *v, size_t n, const char *player_id)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(v[i].player_id, player_id))
            return &v[i];
    return NULL;
}
