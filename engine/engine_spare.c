/*
 * engine_spare.c: the arrays a match gives back when it settles (engine_match_settle: its
 * previous answer log, its drained events and their text), kept per thread for the next
 * match that needs them, so an answer in the steady state costs no malloc, realloc and free
 * for them (issue 27) while a match at rest still holds none of them (issue 11's memory per
 * match).
 *
 * A worker answers a loop turn's matches before it settles them (their writes go to Redis
 * in one batch), so a thread keeps a stack of arrays per kind, as many as a batch gives
 * back, bounded: SPARE_DEPTH of a kind, each of at most SPARE_MAX bytes, SPARE_BYTES in all
 * (about 7 KB a match in flight for two-player Dominion), behind a key whose destructor
 * frees them when the thread ends. An array is plain heap memory: a match settled on one
 * thread and answered on another takes from the second thread's set, and frees what it
 * holds wherever it is freed (a match is used by one thread at a time: engine.h).
 *
 * Snapshot buffers are not kept here: a stack of them measured 3 KB more resident memory
 * per match held (bench_worker_memory, docs/BENCHMARKS.md), the heap's fragmentation.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

#define SPARE_MAX   65536     /* bytes of one buffer kept, at most */
#define SPARE_DEPTH 64        /* buffers of one kind kept, at most */
#define SPARE_BYTES (1 << 19) /* bytes kept by a thread, at most */

enum { SPARE_LOG_V, SPARE_LOG_IDS, SPARE_EV, SPARE_EVTEXT, SPARE_KINDS };

typedef struct {
    void *p[SPARE_DEPTH];
    size_t cap[SPARE_DEPTH]; /* in the kind's elements */
    int n;
} spare_stack;

typedef struct {
    spare_stack k[SPARE_KINDS];
    size_t bytes;
} spare_set;

static pthread_key_t spare_key;
static pthread_once_t spare_once = PTHREAD_ONCE_INIT;
static int spare_ok;

static void spare_set_free(void *arg)
{
    spare_set *sp = arg;
    for (int k = 0; k < SPARE_KINDS; k++)
        for (int i = 0; i < sp->k[k].n; i++)
            free(sp->k[k].p[i]);
    free(sp);
}

static void spare_init(void)
{
    spare_ok = pthread_key_create(&spare_key, spare_set_free) == 0;
}

/* This thread's set; made when make and it has none. NULL when there is none. */
static spare_set *spare_get(int make)
{
    pthread_once(&spare_once, spare_init);
    if (!spare_ok)
        return NULL;
    spare_set *sp = pthread_getspecific(spare_key);
    if (!sp && make && (sp = calloc(1, sizeof *sp)) && pthread_setspecific(spare_key, sp) != 0) {
        free(sp);
        sp = NULL;
    }
    return sp;
}

/* p (room for cap elements of elem bytes) kept as a buffer of kind k while the bounds
 * allow, else freed. */
static void spare_put(int k, void *p, size_t cap, size_t elem)
{
    if (!p)
        return;
    size_t bytes = cap * elem;
    spare_set *sp = cap <= SPARE_MAX / elem ? spare_get(1) : NULL;
    if (!sp || sp->k[k].n == SPARE_DEPTH || sp->bytes + bytes > SPARE_BYTES) {
        free(p);
        return;
    }
    spare_stack *s = &sp->k[k];
    s->p[s->n] = p;
    s->cap[s->n++] = cap;
    sp->bytes += bytes;
}

/* The buffer of kind k kept last, taken (NULL and 0 when there is none). */
static void *spare_take(int k, size_t elem, size_t *cap)
{
    spare_set *sp = spare_get(0);
    if (!sp || !sp->k[k].n) {
        *cap = 0;
        return NULL;
    }
    spare_stack *s = &sp->k[k];
    s->n--;
    *cap = s->cap[s->n];
    sp->bytes -= *cap * elem;
    return s->p[s->n];
}

void engine_spare_put_log(engine_log *lg)
{
    spare_put(SPARE_LOG_V, lg->v, lg->cap, sizeof *lg->v);
    spare_put(SPARE_LOG_IDS, lg->ids, lg->idcap, sizeof *lg->ids);
    memset(lg, 0, sizeof *lg);
}

void engine_spare_take_log(engine_log *lg)
{
    if (!lg->v) {
        lg->v = spare_take(SPARE_LOG_V, sizeof *lg->v, &lg->cap);
        lg->n = 0;
    }
    if (!lg->ids) {
        lg->ids = spare_take(SPARE_LOG_IDS, sizeof *lg->ids, &lg->idcap);
        lg->nids = 0;
    }
}

void engine_spare_put_events(engine_match *m)
{
    spare_put(SPARE_EV, m->ev, m->evcap, sizeof *m->ev);
    spare_put(SPARE_EVTEXT, m->evtext, m->evtext_cap, 1);
    m->ev = NULL;
    m->evtext = NULL;
    m->nev = m->evcap = m->evtext_len = m->evtext_cap = 0;
}

void engine_spare_take_events(engine_match *m)
{
    if (!m->ev) {
        m->ev = spare_take(SPARE_EV, sizeof *m->ev, &m->evcap);
        m->nev = 0;
    }
    if (!m->evtext) {
        m->evtext = spare_take(SPARE_EVTEXT, 1, &m->evtext_cap);
        m->evtext_len = 0;
    }
}
