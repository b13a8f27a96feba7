/*
 * rig_mm_options.h: the rig's worker i (rig_mm.h) says hello again, announcing dominion
 * for 2 to 4 players with the option kingdom (first_game, the default; random;
 * big_money) and the bots "default" and "big_money". Pump afterwards.
 */
#ifndef DECKHAND_RIG_MM_OPTIONS_H
#define DECKHAND_RIG_MM_OPTIONS_H

#include "rig_mm.h"

void rig_mm_hello_options(rig_mm *r, int i);
/* pid (also its name) joins dominion for 2 at gw as command cmd, with the kingdom option
 * (NULL: none). */
void rig_mm_join_kingdom(void *gw, const char *pid, uint64_t cmd, const char *kingdom);

#endif
