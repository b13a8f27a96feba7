/*
 * dh_optlist.h: list-valued game options (issue 30), the one rule the engine and the
 * matchmaker both apply. A game may declare an option whose value is either one of its
 * words (`values`) or a comma-separated list of distinct items it names (`list`, e.g.
 * Dominion's kingdom cards), of exactly `list_size` items when it says so: so a player
 * can ask over the network for `kingdom=Cellar,Chapel,...,Throne Room`, checked against
 * the cards of the bundle that declared the list, not only for a preset.
 *
 * An item is 1..DH_OPTLIST_ITEM_MAX characters of A-Z a-z 0-9 _ - and space (card names
 * hold spaces), never a comma, ';' or '=' (the separators of "name=value;name=value");
 * a list value is at most DH_OPTLIST_VALUE_MAX characters.
 */
#ifndef DECKHAND_DH_OPTLIST_H
#define DECKHAND_DH_OPTLIST_H

#include <stdbool.h>
#include <stddef.h>

#define DH_OPTLIST_ITEMS_MAX 128 /* items one option may declare */
#define DH_OPTLIST_ITEM_MAX  32  /* characters of one item */
#define DH_OPTLIST_VALUE_MAX 200 /* characters of a list value */

/* Whether s (len bytes) may be an item. */
bool dh_optlist_item_ok(const char *s, size_t len);

/* Whether v (len bytes) is a list of distinct items among items[0..nitems), size of them
 * (1..nitems when size is 0). When it is not and why is not NULL, why says what is wrong
 * for the player, naming an item only once it is known to be made of item characters. */
bool dh_optlist_check(const char *v, size_t len, const char *const *items, size_t nitems,
                      size_t size, char *why, size_t whylen);

#endif
