/*
 * rig_limits.c: matches of tests/fixtures/limits for the engine bound tests (rig_limits.h).
 */
#include <stdlib.h>
#include <string.h>

#include "dh_test.h"
#include "rig_engine.h"
#include "rig_limits.h"

engine_bundle *rig_limits_load(void)
{
    engine_limits lim = {64u << 20, 1000};
    return rig_engine_load("tests/fixtures/limits", &lim);
}

engine_match *rig_limits_match(engine_bundle *b, const char *game, int np)
{
    static const char *const names[] = {"Ann", "Bob"};
    engine_match_config cfg = {"lim", game, 7, np, names, NULL, NULL, false};
    return rig_engine_match(b, &cfg);
}

engine_code rig_limits_pick(engine_match *m, const char *label, engine_error *err, uint64_t *ms)
{
    uint32_t id = rig_engine_option(m, label);
    CU_ASSERT_FATAL(id != 0);
    uint64_t t0 = dh_test_now_ms();
    engine_code c = rig_engine_answer(m, id, err);
    if (ms)
        *ms = dh_test_now_ms() - t0;
    return c;
}

typedef struct {
    char *text[2];
    size_t len[2], n[2];
} drained;

static void on_event(void *ud, const engine_event *ev)
{
    drained *d = ud;
    int s = ev->to_seat;
    if (s < 0 || s > 1)
        return;
    size_t l = strlen(ev->text);
    char *t = realloc(d->text[s], d->len[s] + l + 2);
    CU_ASSERT_FATAL(t != NULL);
    memcpy(t + d->len[s], ev->text, l);
    t[d->len[s] + l] = '\n';
    t[d->len[s] + l + 1] = 0;
    d->text[s] = t;
    d->len[s] += l + 1;
    d->n[s]++;
}

void rig_limits_drain(engine_match *m, char *text[2], size_t n[2])
{
    drained d = {{calloc(1, 1), calloc(1, 1)}, {0, 0}, {0, 0}};
    CU_ASSERT_FATAL(d.text[0] && d.text[1]);
    engine_match_drain_events(m, on_event, &d);
    for (int s = 0; s < 2; s++) {
        text[s] = d.text[s];
        n[s] = d.n[s];
    }
}
