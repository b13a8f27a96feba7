/*
 * engine_replay.h: a recorded match (common/dh_replay.h) rebuilt one answer at a time, as
 * its workers played it: engine_match_new on the match's first bundle with its seed,
 * players, bots and options, each recorded answer through engine_match_answer, and after
 * the HISTLEN answers of each bundle move the rebuild of the match from its snapshot on
 * the next bundle (host_move in worker/host_rebundle.c). `deckhand replay` checks hashes
 * with it; the worker's replays (worker/replay.c) take the public view after each step.
 *
 * Only the public API of engine.h is used; the caller says where bundles come from
 * (Redis for the command, the worker's loaded bundles for the worker) through
 * engine_replay_bundles.
 */
#ifndef DECKHAND_ENGINE_REPLAY_H
#define DECKHAND_ENGINE_REPLAY_H

#include "dh_replay.h"
#include "engine.h"

#define ENGINE_REPLAY_IDS_MAX 1024 /* option ids in one answer */

typedef struct engine_replay engine_replay;

/* Where the bundle of a SHA comes from: get returns it (NULL with why in err), put gives
 * it back once the replay is done with it; moved (may be NULL) hears of each bundle move
 * made, the match on its new bundle. */
typedef struct {
    engine_bundle *(*get)(void *ud, const char *sha, char *err, size_t errlen);
    void (*put)(void *ud, engine_bundle *b);
    void (*moved)(void *ud, const engine_replay *r);
    void *ud;
} engine_replay_bundles;

struct engine_replay {
    const dh_replay_record *rec; /* borrowed */
    engine_replay_bundles src;
    engine_bundle *b;
    engine_match *m;
    const char *sha;    /* b's id, as the record names it */
    size_t answers;     /* recorded answers applied so far */
    size_t next_move;   /* the next of rec->moves */
    engine_answer last; /* the last answer applied (or refused) */
    uint32_t ids[ENGINE_REPLAY_IDS_MAX];
    char err[320]; /* why the last call failed */
};

typedef enum {
    ENGINE_REPLAY_STEP,    /* one more answer applied (moves before it made) */
    ENGINE_REPLAY_END,     /* every answer applied and every move made */
    ENGINE_REPLAY_REFUSED, /* the engine refused the next answer: r->last, error in ee */
    ENGINE_REPLAY_FAILED,  /* an entry does not decode, a bundle or a move fails: r->err */
} engine_replay_status;

/* The match config the record describes (strings borrowed from rec). */
engine_match_config engine_replay_config(const dh_replay_record *rec);

/* Start the match on its first bundle. 0, or -1 with r->err (free r anyway). */
int engine_replay_start(engine_replay *r, const dh_replay_record *rec,
                        const engine_replay_bundles *src);
/* Make the bundle moves due at this point, then apply the next recorded answer; the moves
 * made are r->next_move's progress. */
engine_replay_status engine_replay_step(engine_replay *r, engine_error *ee);
/* The match and its bundle go (given back through put). */
void engine_replay_free(engine_replay *r);

#endif
