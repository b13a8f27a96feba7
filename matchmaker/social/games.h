/*
 * games.h: what the cluster offers a client: the answer to its GamesRequest (which games
 * the cluster serves now, with their player counts, modes, options and bots: deckhand.proto
 * Games) and to its WatchListRequest (the running matches it may watch: WatchList).
 */
#ifndef DECKHAND_MM_GAMES_H
#define DECKHAND_MM_GAMES_H

#include "internal.pb-c.h"
#include "mm_store.h"

/* Build a Games message (a GameDesc per game a live worker serves, in name order: its
 * min and max players as announced, the modes "casual" plus those the queues file
 * names for it, the OptionSpecs and bots its bundle declares) and send it to the
 * request's player as Internal.mm_output (a PlayerOutput holding the serialized
 * ServerMessage) through gateway (the identity the request came from), then QueueReply ok
 * for req->cmd_id. When
 * memory runs out the reply is INTERNAL and no Games goes out. */
void games_answer(mm_state *mm, const char *gateway, const Deckhand__Internal__ClientRequest *req);
/* Answer req (a WatchListRequest) with a WatchList (watch.h: the running matches of its
 * game, or of every game, newest first, at most WATCH_LIST_MAX) as Internal.mm_output
 * through gateway, then QueueReply ok; INTERNAL (and no WatchList) when memory runs out. */
void games_watch_answer(mm_state *mm, const char *gateway,
                        const Deckhand__Internal__ClientRequest *req);

#endif
