/*
 * gwout.h: the matchmaker's messages to gateways, one ZeroMQ message per gateway per loop
 * turn (issue 27). Every message to a gateway (QueueReply, MatchAssigned, MatchMoved,
 * mm_output, MatchmakerBeat) goes through gwout_send: to a gateway whose hello says it
 * takes batches (GatewayHello.batches) it is packed and kept, in order, and gwout_flush at
 * the end of the turn sends each such gateway its messages as one MatchmakerOutputs; to
 * any other gateway (an older one, a test's) it goes at once, as before. So a match's two
 * QueueReplies, its two MatchAssigned, cost one send, one wake-up of ZeroMQ's I/O thread
 * and one CURVE box each instead of one per message, and the order of what one gateway
 * hears never changes, since all of it takes the same path.
 */
#ifndef DECKHAND_MM_GWOUT_H
#define DECKHAND_MM_GWOUT_H

#include "internal.pb-c.h"

struct mm_state;

/* Send msg to gateway now, or keep it for the turn's batch. 0, or -1 with errno set
 * (a send refused at once, or out of memory keeping it). */
int gwout_send(struct mm_state *mm, const char *gateway, const Deckhand__Internal__Internal *msg);
/* Send every kept batch, one message per gateway (each failure logged, rate-limited). */
void gwout_flush(struct mm_state *mm);
/* Drop what is kept and free it (mm_free). */
void gwout_free(struct mm_state *mm);

#endif
