/*
 * mmbench.c: deckhand-mmbench, the matchmaker's matching core in one process (no
 * sockets, no Redis): how fast tickets go into a line, how long one formation pass over
 * a full line takes, and the quality of the matches (rating spread, waits).
 *
 *   deckhand-mmbench --tickets N --seed S [--quality]
 *
 * Headline: N rated tickets arrive over the last 60 s (evenly spaced, ratings below) and
 * join one two-player line (timed: intake per second, the ticket's fields copied as a
 * join does); then one pass over the whole line at the end of those 60 s, every match it
 * can form (timed: pass_ms). The structure's invariants are checked after (not timed).
 *
 * --quality: open-arrival simulations at 1,000, 10,000 and 100,000 players arriving per
 * minute (Poisson), 120 simulated seconds, the matchmaker's rhythm: arrivals in 10 ms
 * steps each followed by a pass over the new tickets, a pass over all every 50 ms.
 * Reported after a 20 s warm-up: mean players queued, matches, mean spread, p50/p99
 * wait. Then bursts: 1,000, 10,000 and 100,000 players joining within 10 ms (a
 * tournament's start, a restart), every one of them measured: the same figures when that
 * many are queued at once. Last, the open arrivals again into one flexible line for 2 to
 * 4 players that waits 5 s per seat fewer: how many matches are full.
 *
 * Ratings: 90% established players, mu ~ Normal(25, 6) cut to 0..50, sigma 1..4; 10%
 * new, mu 25, sigma 25/3. Matching rules: the defaults of settings.h (window 2, +1 per
 * second, at most 50).
 *
 * The last line is exactly: tickets=N intake_per_sec=X pass_ms=Y mean_spread=Z
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_clock.h"
#include "mm_data.h"

#define BENCH_T0      1000000000ULL /* the wall clock at the start of arrivals */
#define BENCH_SPAN_MS 60000ULL
#define BENCH_STEP_MS 10
#define BENCH_PASS_MS 50
#define BENCH_SIM_MS  120000ULL
#define BENCH_WARMUP  20000ULL

typedef struct {
    uint64_t x;
} bench_rng;

static uint64_t bench_next(bench_rng *r)
{
    r->x ^= r->x >> 12;
    r->x ^= r->x << 25;
    r->x ^= r->x >> 27;
    return r->x * 2685821657736338717ULL;
}

static double bench_unit(bench_rng *r)
{
    return ((double)(bench_next(r) >> 11) + 0.5) / 9007199254740992.0;
}

static void bench_rating(bench_rng *r, queue_ticket *t)
{
    if (bench_next(r) % 10 == 0) {
        t->mu = QUEUE_MU_DEFAULT;
        t->sigma = QUEUE_SIGMA_DEFAULT;
        return;
    }
    double g = sqrt(-2 * log(bench_unit(r))) * cos(2 * M_PI * bench_unit(r));
    double mu = 25 + 6 * g;
    t->mu = mu < 0 ? 0 : mu > 50 ? 50 : mu;
    t->sigma = 1 + 3 * bench_unit(r);
}

/* Player i's ticket, joined at since_ms, with a rating drawn from r. */
static queue_status bench_join(queue_set *s, const queue_key *k, bench_rng *r, uint64_t i,
                               uint64_t since_ms)
{
    char id[24];
    snprintf(id, sizeof id, "p%llu", (unsigned long long)i);
    queue_ticket t;
    queue_ticket_init(&t, id, id, i % 2 ? "gw-1" : "gw-2", i, since_ms);
    t.seq = i + 1;
    bench_rating(r, &t);
    return queue_join(s, k, &t);
}

static queue_rules bench_rules(uint32_t players)
{
    return (queue_rules){.min_players = players,
                         .max_players = players,
                         .window_initial = SETTINGS_WINDOW,
                         .window_per_s = SETTINGS_WIDEN_PER_S,
                         .window_max = SETTINGS_WINDOW_MAX};
}

/* ---- the headline: intake and one pass ------------------------------------------------ */

typedef struct {
    double intake_per_sec, pass_ms, mean_spread;
    size_t matches, left;
} bench_result;

static int bench_headline(uint64_t n, uint64_t seed, bench_result *out)
{
    queue_set *s = queue_set_new();
    queue_key k;
    queue_key_init(&k, "dominion", "ranked", 2);
    bench_rng r = {seed * 0x9E3779B97F4A7C15ULL + 1};
    uint64_t t0 = dh_now_ns();
    for (uint64_t i = 0; i < n; i++) {
        if (bench_join(s, &k, &r, i, BENCH_T0 + i * BENCH_SPAN_MS / (n ? n : 1)) != QUEUE_OK) {
            fprintf(stderr, "mmbench: join %llu failed\n", (unsigned long long)i);
            queue_set_free(s);
            return -1;
        }
    }
    uint64_t t1 = dh_now_ns();
    queue_rules rules = bench_rules(2);
    queue_ticket pair[2];
    queue_formed f;
    double spread = 0;
    size_t matches = 0;
    queue_pass_begin(s, 0, true);
    while (queue_form(s, 0, &rules, BENCH_T0 + BENCH_SPAN_MS, pair, &f)) {
        spread += f.spread;
        matches++;
    }
    uint64_t t2 = dh_now_ns();
    char why[256];
    if (!queue_check(s, why, sizeof why)) {
        fprintf(stderr, "mmbench: structure broken: %s\n", why);
        queue_set_free(s);
        return -1;
    }
    out->intake_per_sec = (double)n / ((double)(t1 - t0) / 1e9);
    out->pass_ms = (double)(t2 - t1) / 1e6;
    out->mean_spread = matches ? spread / (double)matches : 0;
    out->matches = matches;
    out->left = queue_total(s);
    queue_set_free(s);
    return 0;
}

/* ---- quality under open arrival ------------------------------------------------------- */

typedef struct {
    uint32_t *waits; /* ms, per player matched after the warm-up */
    size_t n, cap;
    double spread_sum;
    size_t matches;
    double queued_sum;
    size_t queued_samples, queued_peak;
    size_t by_size[5]; /* matches of 2, 3, 4 players */
} bench_quality;

static void bench_record(bench_quality *q, const queue_ticket *t, const queue_formed *f,
                         uint64_t now)
{
    q->spread_sum += f->spread;
    q->matches++;
    q->by_size[f->n < 5 ? f->n : 4]++;
    for (size_t i = 0; i < f->n; i++) {
        if (q->n == q->cap) {
            q->cap = q->cap ? q->cap * 2 : 4096;
            q->waits = realloc(q->waits, q->cap * sizeof *q->waits);
            if (!q->waits)
                abort();
        }
        q->waits[q->n++] = (uint32_t)(now - t[i].since_ms);
    }
}

static int bench_cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static void bench_pass(queue_set *s, const queue_rules *rules, uint64_t now, bool all,
                       bench_quality *q, bool measure)
{
    queue_ticket seats[4];
    queue_formed f;
    queue_pass_begin(s, 0, all);
    while (queue_form(s, 0, rules, now, seats, &f))
        if (measure)
            bench_record(q, seats, &f, now);
}

/* per_minute arrivals (Poisson) for arrive_ms of BENCH_SIM_MS; measured after warmup_ms.
 * flex: one line for 2 to 4 players that waits 5 s for each seat fewer (full_wait_ms). */
static void bench_simulate(uint64_t per_minute, uint64_t arrive_ms, uint64_t warmup_ms, bool flex,
                           uint64_t seed)
{
    queue_set *s = queue_set_new();
    queue_key k;
    queue_key_init(&k, "dominion", "ranked", flex ? 0 : 2);
    queue_rules rules = bench_rules(2);
    if (flex) {
        rules.max_players = 4;
        rules.full_wait_ms = 5000;
    }
    bench_rng r = {seed * 0x2545F4914F6CDD1DULL + per_minute};
    bench_quality q = {0};
    double rate_ms = (double)per_minute / 60000.0;
    double next = -log(bench_unit(&r)) / rate_ms;
    uint64_t id = 0;
    for (uint64_t t = 0; t < BENCH_SIM_MS; t += BENCH_STEP_MS) {
        for (; next < (double)(t + BENCH_STEP_MS) && next < (double)arrive_ms;
             next += -log(bench_unit(&r)) / rate_ms)
            bench_join(s, &k, &r, id++, BENCH_T0 + (uint64_t)next);
        uint64_t now = BENCH_T0 + t + BENCH_STEP_MS;
        bool measure = t >= warmup_ms;
        size_t before = queue_total(s);
        if (measure && before > q.queued_peak)
            q.queued_peak = before; /* before the step's pass: what it found waiting */
        bench_pass(s, &rules, now, (t + BENCH_STEP_MS) % BENCH_PASS_MS == 0, &q, measure);
        if (measure) {
            q.queued_sum += (double)queue_total(s);
            q.queued_samples++;
        }
    }
    qsort(q.waits, q.n, sizeof *q.waits, bench_cmp_u32);
    printf("quality %s=%llu mean_queued=%.1f peak_queued=%zu matches=%zu mean_spread=%.3f "
           "wait_p50_ms=%u "
           "wait_p99_ms=%u\n",
           flex                       ? "flex_2_4_arrivals_per_min"
           : arrive_ms < BENCH_SIM_MS ? "burst_at_once"
                                      : "arrivals_per_min",
           (unsigned long long)(arrive_ms < BENCH_SIM_MS ? per_minute / 6000 : per_minute),
           q.queued_sum / (double)(q.queued_samples ? q.queued_samples : 1), q.queued_peak,
           q.matches, q.matches ? q.spread_sum / (double)q.matches : 0.0,
           q.n ? q.waits[q.n / 2] : 0, q.n ? q.waits[q.n * 99 / 100] : 0);
    if (flex)
        printf("quality flex_2_4 matches_of_4=%zu of_3=%zu of_2=%zu\n", q.by_size[4], q.by_size[3],
               q.by_size[2]);
    free(q.waits);
    queue_set_free(s);
}

int main(int argc, char **argv)
{
    uint64_t n = 1000000, seed = 1;
    bool quality = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--tickets") && i + 1 < argc)
            n = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--quality"))
            quality = true;
        else {
            fprintf(stderr, "usage: deckhand-mmbench [--tickets N] [--seed S] [--quality]\n");
            return 2;
        }
    }
    for (uint64_t q = 1000; quality && q <= 100000; q *= 10)
        bench_simulate(q, BENCH_SIM_MS, BENCH_WARMUP, false, seed);
    for (uint64_t q = 1000; quality && q <= 100000; q *= 10)
        bench_simulate(q * 6000, BENCH_STEP_MS, 0, false, seed); /* q players within 10 ms */
    for (uint64_t q = 1000; quality && q <= 100000; q *= 10)
        bench_simulate(q, BENCH_SIM_MS, BENCH_WARMUP, true, seed);
    bench_result res;
    if (bench_headline(n, seed, &res) < 0)
        return 1;
    printf("matches=%zu left_waiting=%zu\n", res.matches, res.left);
    printf("tickets=%llu intake_per_sec=%.0f pass_ms=%.1f mean_spread=%.3f\n",
           (unsigned long long)n, res.intake_per_sec, res.pass_ms, res.mean_spread);
    return 0;
}
