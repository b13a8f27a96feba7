/*
 * bots_party.c: `deckhand bots --party N`: the bots play in parties of N (bots 1..N, N+1..2N,
 * ...), as players who queue together would (docs/PROTOCOL.md, "Parties and lobbies").
 * Each party's first bot leads: it makes the party (PartyCreate), invites the others with
 * the code its PartyState brings (each sends PartyJoin once it is logged in and the code
 * is known), and queues the party once it is complete; the members never send a
 * QueueJoin, their MatchFound comes with the party's. After a match the leader queues the
 * party again. A member that is in no party by then is an error, as is any refused party
 * request.
 */
#include <stdio.h>

#include "bots.h"
#include "dh_client_social.h"

static bool bots_party_leads(const bots_run *r, const bot *b)
{
    return (b - r->bots) % r->party == 0;
}

static bot *bots_party_leader(bots_run *r, bot *b)
{
    return &r->bots[(b - r->bots) / r->party * r->party];
}

/* Member b asks to join the party with the code (once). */
static void bots_party_ask(bots_run *r, bot *b, const char *code)
{
    if (!b->c || b->party_code[0] || b->party_cmd)
        return;
    dh_client_social msg;
    Deckhand__ClientMessage *m = dh_client_social_party_join(&msg, code);
    if (bots_send(r, b, m) == 0)
        b->party_cmd = m->cmd_id;
}

bool bots_party_join(bots_run *r, bot *b)
{
    if (r->party <= 1)
        return false;
    b->want_match = true;
    b->join_at = 0;
    if (!bots_party_leads(r, b)) {
        bot *lead = bots_party_leader(r, b);
        if (lead->party_code[0])
            bots_party_ask(r, b, lead->party_code);
        return true; /* the leader queues the party */
    }
    if (b->party_ready)
        return false; /* a QueueJoin for the whole party */
    if (!b->party_code[0] && !b->party_cmd && b->c) {
        dh_client_social msg;
        Deckhand__ClientMessage *m = dh_client_social_party_create(&msg);
        if (bots_send(r, b, m) == 0)
            b->party_cmd = m->cmd_id;
    }
    return true;
}

void bots_party_state(bots_run *r, bot *b, const Deckhand__PartyState *p)
{
    if (r->party <= 1)
        return;
    if (p->closed || !p->code) {
        b->party_code[0] = '\0';
        b->party_ready = false;
        return;
    }
    snprintf(b->party_code, sizeof b->party_code, "%s", p->code);
    if (!bots_party_leads(r, b))
        return;
    if (p->n_members < (size_t)r->party) {
        b->party_ready = false;
        int first = (int)(b - r->bots);
        for (int i = first + 1; i < first + r->party && i < r->n; i++)
            if (r->bots[i].want_match)
                bots_party_ask(r, &r->bots[i], b->party_code);
        return;
    }
    if (b->party_ready)
        return;
    b->party_ready = true;
    if (!r->quiet)
        fprintf(stderr, "bots: %s: party %s of %d complete: queueing it\n", b->name, b->party_code,
                r->party);
    if (b->want_match && !b->match_id[0] && !b->join_cmd)
        bots_join(r, b);
}

bool bots_party_reply(bots_run *r, bot *b, const Deckhand__Reply *rep)
{
    if (!b->party_cmd || rep->cmd_id != b->party_cmd)
        return false;
    b->party_cmd = 0;
    bots_request_reply(r, b, "party", rep);
    return true;
}
