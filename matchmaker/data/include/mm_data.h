/*
 * mm_data.h: the front door of the matchmaker's data wing (matchmaker/data/), the pure data
 * structures every other wing stands on. Nothing here talks to Redis or ZeroMQ or knows the
 * process state: each structure is handed its own data and the clock.
 *
 *   queue.h     the waiting tickets by line, and how a match forms from them (queue_*.c)
 *   settings.h  the queues file: a line's size, mode, bots and waits
 *   rating.h    where a ticket's rating comes from (players' stored ratings)
 *   registry.h  the live workers and gateways, and the games they serve
 *   seated.h    the players in running matches
 *   watch.h     the running matches one may watch
 *   options.h   game options checked against the registry, and their canonical text
 *   group.h     the parties and lobbies, one structure (over member.h, codes.h, code_index.h)
 *
 * The wing is its own library (dh_mm_data) that links no other wing: the headers above
 * are reachable only through this file, and queue_impl.h (the queue's insides) not at all.
 */
#ifndef DECKHAND_MM_DATA_FRONT_H
#define DECKHAND_MM_DATA_FRONT_H

#include "../codes.h"
#include "../group.h"
#include "../options.h"
#include "../queue.h"
#include "../rating.h"
#include "../registry.h"
#include "../seated.h"
#include "../settings.h"
#include "../watch.h"

#endif
