/*
 * mm_social.h: the front door of the matchmaker's social wing (matchmaker/social/): the one
 * door for the client requests the gateway forwards (social.h). Parties and lobbies, their
 * stored records, the game list and what is told to a player outside a match stay private
 * to the wing.
 *
 * Library dh_mm_social; links the play wing (a party or a lobby joins the queues and is
 * placed).
 */
#ifndef DECKHAND_MM_SOCIAL_FRONT_H
#define DECKHAND_MM_SOCIAL_FRONT_H

#include "../social.h"

#endif
