/*
 * engine_deck.h: the deck kit, what the engine knows of a deck-builder's cards so that
 * the turn every such game plays (draw, reshuffle, clean-up, treasures, buying, the end
 * check) runs in C (engine_deck.c builds kits, engine_deck_turn.c is their g methods).
 *
 * A kit is built once per deck-builder kernel (scripts/deckbuilder/kernel.lua) from the
 * card data its scripts declare, at load time or when a kernel is made later: so a
 * pushed bundle with a changed card changes the kit too. It is a full userdata that no
 * method changes: matches of the VM share it as they share the kernel, and the freeze
 * (engine_freeze.c) has nothing to guard in it. Every kit method does the zone, counter,
 * RNG and event operations that the kernel's Lua did, in the same order, so states,
 * state hashes and event counts are the same with or without it.
 */
#ifndef DECKHAND_ENGINE_DECK_H
#define DECKHAND_ENGINE_DECK_H

#include "engine_internal.h"

#define ENGINE_DECK_MAGIC     0x6b636564u /* "deck" */
#define ENGINE_DECK_MAX_TYPES 32

/* A card's flags. */
#define ENGINE_DECK_PLAIN 1u /* a treasure that only gives coins: play_treasures adds them */
#define ENGINE_DECK_HOOKS 2u /* on_play or an after_play hook: resolving it runs Lua */
#define ENGINE_DECK_SCORE 4u /* a score function: its points come from Lua */
/* The data keywords it has (present and true, as the kernel's `if def.cards` reads them). */
#define ENGINE_DECK_CARDS   8u
#define ENGINE_DECK_ACTIONS 16u
#define ENGINE_DECK_BUYS    32u
#define ENGINE_DECK_COINS   64u
#define ENGINE_DECK_VP      128u

typedef struct {
    uint32_t name;                                 /* interned card name */
    uint32_t own;                                  /* interned "_own:<Card>" */
    int64_t cost, coins, cards, actions, buys, vp; /* 0 when the data has none */
    uint32_t types;                                /* bit i: the kit's type i */
    uint32_t pile; /* its first pile in the order, index + 1 (0: none) */
    uint32_t flags;
} engine_deck_card;

typedef struct {
    uint32_t card; /* index into the kit's cards */
    uint32_t zone; /* interned "supply:<pile>" */
    uint32_t key;  /* interned "_pile:<Card>" */
    uint8_t mixed; /* the pile holds other cards too (pile_of) */
    uint8_t first; /* the first card of the order in its pile (the end check counts it) */
} engine_deck_pile;

/* A bot's buys as data (engine_deck_bot.c): the first rule that holds names the wish
 * list, whose first card the coins buy is bought. */
#define ENGINE_DECK_PLAN_RULES 32
#define ENGINE_DECK_PLAN_WANTS 4
#define ENGINE_DECK_PLAN_NEVER 4

typedef struct {
    int64_t min, max;   /* the coins it holds for */
    uint32_t left_card; /* pile_at_most: that card's pile holds at most left_max */
    uint32_t left_zone; /* supply:<left_card>, its zone when the kit has no pile of it */
    int64_t left_max;   /* (left_card 0: no such condition) */
    uint32_t owns_card; /* owns_fewer: p owns fewer than owns_below of that card */
    int64_t owns_below; /* (owns_card 0: none) */
    uint32_t wants[ENGINE_DECK_PLAN_WANTS]; /* interned card names, best first */
    uint32_t nwants;
} engine_deck_rule;

typedef struct {
    uint32_t bot;                           /* interned bot name */
    int64_t stall_after;                    /* past this many turns: the dearest card */
    uint32_t never[ENGINE_DECK_PLAN_NEVER]; /* ... other than these (interned) */
    uint32_t nnever, nrules;
    engine_deck_rule rules[ENGINE_DECK_PLAN_RULES];
} engine_deck_plan;

typedef struct {
    uint32_t magic;
    uint32_t ncards, npiles, ntypes;
    uint32_t nmap; /* card_of's size: the highest card name id + 1 */
    int64_t hand_size, turn_actions, turn_buys;
    uint32_t type_name[ENGINE_DECK_MAX_TYPES];
    uint32_t treasure, action; /* type bits (0 when no card has the type) */
    /* interned zone and counter names */
    uint32_t z_deck, z_hand, z_discard, z_play, z_aside;
    uint32_t c_active, c_actions, c_buys, c_coins, c_turns, c_bought;
    engine_deck_card *cards;
    engine_deck_pile *piles; /* the kernel's order */
    uint32_t *card_of;       /* interned name -> card index + 1, 0 = not a card */
    uint32_t nzmap;          /* zone_pile's size: the highest pile zone name id + 1 */
    uint32_t *zone_pile;     /* interned "supply:<pile>" -> the index + 1 in piles of the
                              * pile's first card (the one the end check counts) */
    uint32_t nkmap;          /* key_pile's size: the highest _pile:<Card> name id + 1 */
    uint32_t *key_pile;      /* interned "_pile:<Card>" -> the index + 1 in piles of the
                              * first pile with that key (held with zone_pile) */
    uint32_t nplans;         /* the bots whose turn the kit plays (engine_deck_bot.c) */
    engine_deck_plan *plans; /* held by the kit as its second user value */
} engine_deck_kit;

/* One event's text. Longer than any event may be (engine_match_event cuts at
 * ENGINE_MAX_LOG_LINE), so a text cut here is cut there the same way. */
typedef struct {
    char s[ENGINE_MAX_LOG_LINE + 64];
    size_t n;
} engine_deck_text;

/* The g methods ("deck_..."): engine_deck_turn.c's, engine_deck_supply.c's and
 * engine_deck_bot.c's. */
extern const luaL_Reg engine_deck_turn_methods[];
extern const luaL_Reg engine_deck_supply_methods[];
extern const luaL_Reg engine_deck_bot_methods[];

/* engine_deck_supply.c: deck.ends(kit, name, n): a game's finished(g) in C: true when
 * card name's pile is out or at least n supply piles are (kernel:pile_or_three_out). */
int engine_deck_ends_new(lua_State *L);
/* deck.score_refresh(kit, name, plus): kernel:score_refresh's refresh(g) in C, the kit's
 * g:deck_score for every seat and its counter name set to the sum; a seat holding cards
 * with a score function is left to plus(g, p, total, names), which sets it. */
int engine_deck_score_refresh_new(lua_State *L);

/* engine_deck_bot.c: reads kit{plans = bot name -> plan} (the table at index spec) into
 * the kit k at index kit, refusing bad data with an error naming the bot and field. */
void engine_deck_plans_read(engine_bundle *b, lua_State *L, engine_deck_kit *k, int spec, int kit);

/* The turn's steps, shared by the g methods and the bot turn (engine_deck_bot.c):
 * kernel:start_turn after its hooks (returns p's turns counter), moving p's treasures
 * into play and telling them (returns how many; *play: p's play zone), kernel:cleanup,
 * and a buy of card c whose pile's top is id (checked by the caller). */
int64_t engine_deck_turn_start(lua_State *L, engine_match *m, const engine_deck_kit *k, int p);
uint32_t engine_deck_to_play(lua_State *L, engine_match *m, const engine_deck_kit *k, int p,
                             int32_t *play);
void engine_deck_cleanup(lua_State *L, engine_match *m, const engine_deck_kit *k, int p);
void engine_deck_buy(lua_State *L, engine_match *m, const engine_deck_kit *k, int p,
                     const engine_deck_card *c, uint32_t id);
/* The kit's active player (its `active` counter), checked (op names the call in the
 * error); pushing it and the name of the bot answering it inline, or nil (g:bot), as
 * g:deck_active and g:deck_bot_turn answer (returns 2). */
int engine_deck_active(lua_State *L, const engine_match *m, const engine_deck_kit *k,
                       const char *op);
int engine_deck_push_active(lua_State *L, const engine_match *m, int p);
/* The top id of pile pl when its card can be taken from it, else 0; the kernel's pile of
 * the card interned as name (its first in the order), or NULL. */
uint32_t engine_deck_pile_top(engine_match *m, const engine_deck_kit *k,
                              const engine_deck_pile *pl);
const engine_deck_pile *engine_deck_pile_of(const engine_deck_kit *k, uint32_t name);
extern const luaL_Reg engine_deck_setup_methods[]; /* engine_deck_setup.c */

/* engine_deck.c: adds the g methods to g's method table (engine_api_open made it; the
 * names table is their upvalue) and the module `deckhand.deck` (the kit constructor) to the
 * bundle's loaded modules, where require("deckhand.deck") finds it (engine_vm_init). */
void engine_deck_open(engine_bundle *b, lua_State *L);

/* engine_deck.c: a constructor's spec (the table at 1) read as the kit's and the play
 * run's begin: its `cards` table at 2 (seen by the freeze) and its table `field` at 3,
 * both checked. Returns the bundle. */
engine_bundle *engine_deck_spec(lua_State *L, const char *field);

/* engine_deck.c: the state and the events as the g calls reach them, for the methods.
 * A zone's index, created when create is set (as a g call that puts a card there does);
 * -1 when absent. */
int32_t engine_deck_zone(lua_State *L, engine_match *m, uint32_t name, int32_t owner, int create);
uint32_t engine_deck_zone_n(const engine_match *m, int32_t zi);
/* g:counter; the slot g:set_counter writes (created); g:add_counter. */
int64_t engine_deck_counter(const engine_match *m, uint32_t name, int32_t owner);
int64_t *engine_deck_slot(lua_State *L, engine_match *m, uint32_t name, int32_t owner);
int64_t engine_deck_add(lua_State *L, engine_match *m, uint32_t name, int32_t owner, int64_t d);
/* g:move(id, zone): onto the top of the zone at index zi. */
void engine_deck_move(lua_State *L, engine_match *m, uint32_t id, int32_t zi);
const engine_name *engine_deck_name(const engine_match *m, uint32_t id);
/* The player number at argument i. */
int engine_deck_player(lua_State *L, engine_match *m, int i);
void engine_deck_text_add(engine_deck_text *t, const char *s, size_t len);
void engine_deck_text_str(engine_deck_text *t, const char *s);
void engine_deck_text_int(engine_deck_text *t, int64_t v);
/* The card names of ids[0..n), joined by ", " (what g:log makes of an id array). */
void engine_deck_text_ids(engine_deck_text *t, const engine_match *m, const uint32_t *ids,
                          uint32_t n);
void engine_deck_text_player(engine_deck_text *t, const engine_match *m, int p);
/* g:log (to < 0) or g:log_to (to: the seat): counted always, its text kept when read. */
void engine_deck_event(lua_State *L, engine_match *m, int to, const engine_deck_text *t);
/* Raises the error of a refused named choice: p (the bot answering for p, if any) cannot
 * verb ("buy", "play") the card name, because why. */
int engine_deck_refuse(lua_State *L, engine_match *m, int p, const char *verb, const char *name,
                       const char *why);
/* engine_deck_turn.c: kernel:draw (n cards to p's hand, the discard shuffled in only when
 * the deck runs out; quiet: no public "draws N cards"); returns how many were drawn. */
uint32_t engine_deck_draw(lua_State *L, engine_match *m, const engine_deck_kit *k, int p, int64_t n,
                          int quiet);
/* The kit at argument i (raises when it is none). */
const engine_deck_kit *engine_deck_arg(lua_State *L, int i);
/* The card of interned name id in kit k, or NULL. */
static inline const engine_deck_card *engine_deck_card_of(const engine_deck_kit *k, uint32_t id)
{
    return id < k->nmap && k->card_of[id] ? &k->cards[k->card_of[id] - 1] : NULL;
}

#endif
