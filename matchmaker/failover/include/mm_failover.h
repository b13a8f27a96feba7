/*
 * mm_failover.h: the front door of the matchmaker's failover wing (matchmaker/failover/):
 * what is left behind when a process dies.
 *
 *   takeover.h    the matches of a dead worker moved to a live one
 *   watch_load.h  the watch list rebuilt from Redis when this matchmaker wins the lease
 *
 * Library dh_mm_failover; links the play wing (a takeover places a match again).
 */
#ifndef DECKHAND_MM_FAILOVER_FRONT_H
#define DECKHAND_MM_FAILOVER_FRONT_H

#include "../takeover.h"
#include "../watch_load.h"

#endif
