/*
 * mm_play.h: the front door of the matchmaker's play wing (matchmaker/play/): from a join to
 * a match on a worker.
 *
 *   tickets.h    joins, leaves, away and back; the batched write of new tickets
 *   placement.h  matches formed from the queues, sent to a worker as StartMatch, and held
 *                until its MatchStarted
 *   ratings.h    players' ratings read from Redis for matching
 *
 * Library dh_mm_play; links the store wing (and through it the data wing).
 */
#ifndef DECKHAND_MM_PLAY_FRONT_H
#define DECKHAND_MM_PLAY_FRONT_H

#include "../placement.h"
#include "../ratings.h"
#include "../tickets.h"

#endif
