/*
 * engine_search_impl.h: what the search bot's two files share (private to engine/): the
 * search's state (the tree, the candidates, the worlds' results) and its generator.
 * engine_search_root.c spends the budget on the root's answers and picks the answer;
 * engine_search.c grows the tree below them; engine_search_world.c makes the worlds the
 * tree is grown in (a copy of the match with the hidden cards dealt again) and plays them
 * out to a result. Each calls only the ones after it.
 */
#ifndef DECKHAND_ENGINE_SEARCH_IMPL_H
#define DECKHAND_ENGINE_SEARCH_IMPL_H

#include <stdint.h>

#include "engine_internal.h"

#define SEARCH_CANDIDATES 48 /* answers looked at per decision */
#define SEARCH_PLAYOUT    "default"
#define SEARCH_MAX_SEATS  16

typedef struct {
    uint64_t key;
    uint32_t child, sibling; /* first child, next sibling: node indices, 0 = none */
    uint32_t visits, avail;
    uint32_t tries; /* play-outs through it (visits without the bot's head start) */
    int mover;      /* the seat whose answer led here */
    double reward;
    uint32_t ids_off, nids; /* children of the root: the answer's option ids in s->ids */
    uint32_t slot;          /* children of the root: their row in s->world_r */
} search_node;

typedef struct {
    uint64_t key;
    uint32_t off, n; /* option ids in cand_ids */
} search_cand;

typedef struct {
    const engine_match *m;
    int seat;
    uint64_t rng;
    engine_match_config cfg;
    const char *bots[SEARCH_MAX_SEATS];
    char *options; /* "k=v;k=v", or NULL */
    engine_answer *log;
    engine_state base; /* s->m's last snapshot, parsed once: every copy starts from it */
    search_node *nodes;
    size_t nnodes, nodes_cap;
    uint32_t *ids; /* root answers */
    size_t nids, ids_cap;
    search_cand cand[SEARCH_CANDIDATES];
    uint32_t cand_ids[SEARCH_CANDIDATES * 8];
    size_t ncand, ncand_ids;
    uint64_t bot_key;  /* the play-out bot's answer to the decision: its key, or 0 */
    uint32_t prior;    /* visits the bot's answer starts with */
    uint64_t worlds;   /* seeds the deals: the n-th try of every root answer gets world n */
    double *world_r;   /* root answer slot x world: the seat's result there, NaN if none */
    uint32_t nworlds;  /* columns of world_r (the iterations) */
    uint32_t root_bot; /* the root child of the play-out bot's own answer, 0 if none */
    uint32_t *shuffle; /* scratch: entity ids of one hidden group */
    size_t shuffle_cap;
    uint32_t *names; /* scratch: their names */
    size_t names_cap;
    /* The hidden groups, the same in every copy (each is restored from the same snapshot
       and answers): found once, each group's entity ids and its names sorted */
    uint32_t *gids, *gnames, *gsize; /* gsize: each group's length, gids/gnames in order */
    size_t ngids, gids_cap, gnames_cap, ngroups, gsize_cap;
    int grouped;
    uint32_t path[1024];
    uint32_t depth;      /* turns a play-out runs before the game's hint scores it; 0: to the end */
    uint32_t iterations; /* the budget */
    int cpu_clock;       /* the time budget counts this thread's CPU time (engine_search_config) */
    engine_search_stats *stats;
} search;

/* Now on the clock the search's time budget counts: monotonic wall time, or with cpu_clock
 * the calling thread's CPU time. */
uint64_t search_now(const search *s);

/* The bot a search of game g plays its worlds out with and measures the other answers
 * against: the game's `search_playout`, else its `default`. */
static inline const char *search_policy(const engine_game *g)
{
    return g->search_playout ? g->search_playout : SEARCH_PLAYOUT;
}

/* The search's own generator (splitmix64): drawn in a fixed order, so a search without a
 * time budget is the same every time. */
static inline uint64_t search_rand(search *s)
{
    uint64_t z = (s->rng += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static inline uint64_t search_below(search *s, uint64_t n)
{
    return n ? search_rand(s) % n : 0;
}

/* Worlds (engine_search_world.c). search_config fills s->cfg, s->bots, s->options, s->log
 * and s->base (freed by the caller) from s->m; -1 when out of memory or too many seats. */
int search_config(search *s);
/* A copy of s->m in world w (the caller frees it with engine_match_free), or NULL with
 * err set. */
engine_match *search_copy(search *s, uint32_t w, engine_error *err);
int search_playout(search *s, engine_match *c);
/* The game's hint on c (0..1 a seat, into r), and each seat's result of a finished c
 * (search_rewards): both with a win worth less the more turns it took after the root. */
int search_evaluate(engine_match *c, uint32_t turns, double *r);
void search_rewards(const engine_match *c, uint32_t turns, double *r);

/* The tree (engine_search.c): one iteration below root child node, in the node's next
 * world; 0, or -1 with err set. */
int search_iterate(search *s, uint32_t node, engine_error *err);

/* The root (engine_search_root.c): spends the budget on the root's children (t0: when
 * the search started; stop: the time it must end by, 0 for none); 0, or -1 with err set.
 * search_final: the child to answer with (0 if none). */
int search_spend(search *s, uint64_t t0, uint64_t stop, engine_error *err);
uint32_t search_final(const search *s);

#endif
