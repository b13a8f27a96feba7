/*
 * placement_form.c: where placements come from (see placement.h). A formation pass takes
 * each line's rules (its seats and windows), forms what queue_form allows, fills with bots
 * the seats of a line that waited long enough, then stores the pass's matches in one write
 * and sends their StartMatch; placement_place puts a lobby's players in one match at once.
 * What happens to a placement afterwards (the handshake, storage, expiry) is placement.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_log.h"
#include "mm_data.h"
#include "mm_store.h"
#include "placement_impl.h"
#include "tickets.h"

/* The rules of a line: its seats (the key's count, or the game's range for a flexible
 * line) and its windows (the queue's settings). False when no worker serves the game. */
static bool placement_rules(mm_state *mm, const queue_key *k, queue_rules *r)
{
    const settings_values *v = settings_for(&mm->settings, k->game, k->mode);
    r->window_initial = v->window;
    r->window_per_s = v->widen_per_s;
    r->window_max = v->window_max;
    r->full_wait_ms = v->full_wait_ms;
    r->min_players = r->max_players = k->players;
    if (k->players)
        return true;
    const registry_game *g = registry_game_info(&mm->reg, k->game);
    if (!g)
        return false;
    r->min_players = g->min_players;
    r->max_players = g->max_players;
    return true;
}

/* The quality of a formed match, as histograms: its spread, and each player's wait. */
static void placement_quality(mm_state *mm, const placement *p, const queue_formed *f,
                              uint64_t wall_ms)
{
    const char *game = p->key.game;
    dh_histogram_observe(&mm->stats.match_spread, f->spread);
    dh_histogram_observe(dh_family_histogram(&mm->stats.game_spread, game), f->spread);
    dh_counter_inc(dh_family_counter(&mm->stats.game_formed, game));
    dh_histogram *by_game = dh_family_histogram(&mm->stats.game_wait, game);
    for (size_t i = 0; i < p->n; i++) {
        uint64_t since = p->tickets[i].since_ms;
        double wait = wall_ms > since ? (double)(wall_ms - since) / 1000.0 : 0.0;
        dh_histogram_observe(&mm->stats.match_wait, wait);
        dh_histogram_observe(by_game, wait);
    }
}

/* Name the bot seats of p (after its match id: unique among every placement's players)
 * "Bot 1", "Bot 2"... */
static void placement_name_bots(placement *p)
{
    int k = 0;
    for (size_t i = 0; i < p->n; i++) {
        queue_ticket *t = &p->tickets[i];
        if (!t->bot)
            continue;
        snprintf(t->player_id, sizeof t->player_id, "%s:bot%zu", p->match_id, i + 1);
        snprintf(t->name, sizeof t->name, "Bot %d", ++k);
    }
}

/* The formed tickets (owned: handed over) become a new placement of key on w. False when
 * memory or random bytes ran out (the players are back in line). */
static bool placement_make(mm_state *mm, const queue_key *key, queue_ticket *tickets,
                           const queue_formed *f, size_t n, registry_worker *w, uint64_t now_ms)
{
    placement *p = placement_add(&mm->placements);
    if (!p) {
        dh_error("out of memory forming a match: %zu players back in line", n);
        placement tmp = {.key = *key, .tickets = tickets, .n = n};
        placement_requeue(mm, &tmp);
        free(tickets);
        return false;
    }
    p->tickets = tickets;
    p->key = *key;
    p->n = n;
    bool random_ok = placement_random(p->match_id, &p->seed) == 0;
    placement_name_bots(p);
    p->unrated = key->vs_ai[0] != '\0';
    for (size_t i = 0; i < n; i++)
        p->unrated |= tickets[i].bot;
    if (!random_ok || placement_index(&mm->placements, p) < 0) {
        dh_error("match not formed: no random bytes for its id, or out of memory (%s)",
                 strerror(errno));
        placement_requeue(mm, p);
        placement_remove(&mm->placements, p);
        return false;
    }
    p->settings = *settings_for(&mm->settings, key->game, key->mode);
    snprintf(p->worker, sizeof p->worker, "%s", w->id);
    p->deadline_ms = now_ms + PLACEMENT_TIMEOUT_MS;
    p->formed = *f;
    w->pending++; /* counted now, so that the pass spreads its matches over the workers */
    placement_quality(mm, p, f, mm_wall_ms(mm, now_ms));
    return true;
}

/* Form the line's next match of the pass into a new placement on a worker. False when
 * this pass of the line can form nothing more. */
static bool placement_form_one(mm_state *mm, size_t line, const queue_rules *r, uint64_t now_ms)
{
    queue_key key = *queue_line_key(mm->queues, line);
    if (queue_line_ready(mm->queues, line) < r->min_players)
        return false;
    registry_worker *w = registry_pick(&mm->reg, key.game, r->max_players, now_ms);
    if (!w)
        return false;
    queue_ticket *tickets = calloc(r->max_players, sizeof *tickets);
    queue_formed f;
    if (!tickets || !queue_form(mm->queues, line, r, mm_wall_ms(mm, now_ms), tickets, &f)) {
        free(tickets);
        return false;
    }
    return placement_make(mm, &key, tickets, &f, f.n, w, now_ms);
}

/* Bot fill: when the line's oldest ready ticket has waited its queue's bot_fill_ms and no
 * match formed for it (the pass before this ran), its match forms now, with server-side
 * bots in the seats it lacks: the line's count, or the game's minimum for a flexible
 * line (queue_fill takes the humans). Such a match is unrated. A line against the AI
 * (key.vs_ai) does this at once for each of its tickets, alone (queue_fill_alone), with
 * bots of its difficulty (placement_send_start). */
static bool placement_fill_one(mm_state *mm, size_t line, const queue_rules *r, uint64_t now_ms)
{
    queue_key key = *queue_line_key(mm->queues, line);
    uint32_t fill_ms = settings_for(&mm->settings, key.game, key.mode)->bot_fill_ms;
    uint32_t seats = r->min_players;
    bool ai = key.vs_ai[0] != '\0';
    if ((!fill_ms && !ai) || seats == 0 || queue_line_ready(mm->queues, line) == 0)
        return false;
    registry_worker *w = registry_pick(&mm->reg, key.game, seats, now_ms);
    queue_ticket *tickets = w ? calloc(seats, sizeof *tickets) : NULL;
    uint64_t wall = mm_wall_ms(mm, now_ms);
    size_t n = !tickets ? 0
               : ai     ? queue_fill_alone(mm->queues, line, seats, tickets)
                        : queue_fill(mm->queues, line, seats, fill_ms, wall, tickets);
    if (n == 0) {
        free(tickets);
        return false;
    }
    queue_formed f = {.n = seats, .entries = seats};
    for (size_t i = 0; i < n; i++) {
        uint64_t wait = wall > tickets[i].since_ms ? wall - tickets[i].since_ms : 0;
        f.max_wait_ms = wait > f.max_wait_ms ? wait : f.max_wait_ms;
        f.wait_sum_ms += wait;
    }
    for (size_t i = n; i < seats; i++) {
        queue_ticket_init(&tickets[i], "bot", "Bot", "", 0, wall); /* named once placed */
        tickets[i].bot = true;
    }
    dh_info("%s %s/%s/%u: %zu players waited %llu ms; %zu bots%s%s take the other seats",
            ai ? "against the AI" : "bot fill", key.game, key.mode, key.players, n,
            (unsigned long long)f.max_wait_ms, seats - n, ai ? " at " : "", key.vs_ai);
    return placement_make(mm, &key, tickets, &f, seats, w, now_ms);
}

/* The matches formed since placements.unsent_from: store them in one write, then send
 * each its StartMatch; when Redis does not take the write, none is formed and their
 * players wait on at the front of their lines. */
static void placement_commit(mm_state *mm, uint64_t now_ms)
{
    placement_list *l = &mm->placements;
    size_t from = l->unsent_from, n = l->n - from;
    l->unsent_from = l->n;
    if (n == 0)
        return;
    /* the turn's held joins ride the same write (some may be in these matches) */
    bool joins = mm->joins.n > 0;
    int rc = joins ? tickets_stage(mm, now_ms) : 0;
    if (rc == 0)
        rc = placement_store_many(mm, now_ms, &l->items[from], n);
    state_unstage(mm); /* the write took them; left only when it never went out */
    if (rc < 0)
        dh_warn_every(DH_LOG_EVERY_MS,
                      "%zu matches not formed: redis unavailable; their players wait on", n);
    if (rc < 0) {
        /* from the last: removing one moves the list's last (already handled) into its slot */
        for (size_t i = l->n; i-- > from;) {
            registry_worker *w = registry_find(&mm->reg, l->items[i].worker);
            if (w && w->pending)
                w->pending--;
            placement_requeue(mm, &l->items[i]);
            placement_remove(l, &l->items[i]);
        }
    }
    if (joins)
        tickets_answer(mm, rc); /* refused: out of their lines again, after the requeue */
    if (rc < 0)
        return;
    /* in the order formed; a send that fails removes its placement, and the list's last
     * moves into its slot, to be sent next */
    for (size_t i = from; i < l->n;) {
        placement *p = &l->items[i];
        if (placement_send_start(mm, p) < 0) {
            placement_fail(mm, p, strerror(errno), now_ms);
            continue;
        }
        i++;
        const registry_worker *w = registry_find(&mm->reg, p->worker);
        dh_counter_inc(&mm->stats.matches_formed);
        const queue_formed *f = &p->formed;
        /* at info, though it costs about 14,000 instructions and a write a match (issue 27):
         * it is the matchmaker's line of a match's story across the processes, which
         * operators follow by fields.match (docs/OPERATIONS.md, "Logs"; test_observability) */
        dh_info("match %s: %s/%s %zu players -> %s (load %u+%u); spread %.2f, waited up to %llu "
                "ms (mean %llu), window %.2f",
                p->match_id, p->key.game, p->key.mode, p->n, p->worker, w ? w->active : 0,
                w ? w->pending : 0, f->spread, (unsigned long long)f->max_wait_ms,
                (unsigned long long)(f->wait_sum_ms / (f->n ? f->n : 1)), f->window);
    }
    l->unsent_from = l->n;
}

void placement_form(mm_state *mm, uint64_t now_ms)
{
    mm->placements.unsent_from = mm->placements.n;
    bool all = now_ms >= mm->next_pass_ms;
    if (all)
        mm->next_pass_ms = now_ms + PLACEMENT_PASS_MS;
    for (size_t line = 0; line < queue_lines(mm->queues); line++) {
        queue_rules r;
        if (queue_line_ready(mm->queues, line) == 0 ||
            !placement_rules(mm, queue_line_key(mm->queues, line), &r))
            continue;
        queue_pass_begin(mm->queues, line, all);
        bool ai = queue_line_key(mm->queues, line)->vs_ai[0] != '\0'; /* never player v player */
        while (!ai && placement_form_one(mm, line, &r, now_ms))
            if (mm->placements.n - mm->placements.unsent_from >= PLACEMENT_BATCH_MAX)
                placement_commit(mm, now_ms);
        while (placement_fill_one(mm, line, &r, now_ms))
            if (mm->placements.n - mm->placements.unsent_from >= PLACEMENT_BATCH_MAX)
                placement_commit(mm, now_ms);
    }
    placement_commit(mm, now_ms);
}

Deckhand__ErrorCode placement_place(mm_state *mm, const queue_key *k, const queue_ticket *t,
                                    size_t n, uint64_t now_ms, char match_id[PLACEMENT_ID_LEN + 1],
                                    const char **why)
{
    registry_worker *w = registry_pick(&mm->reg, k->game, (uint32_t)n, now_ms);
    placement *p = w ? placement_add(&mm->placements) : NULL;
    *why = w ? "out of memory" : "no worker has room for the match now";
    if (!p)
        return w ? DECKHAND__ERROR_CODE__OVERLOADED : DECKHAND__ERROR_CODE__UNAVAILABLE;
    p->tickets = calloc(n, sizeof *p->tickets);
    if (p->tickets) {
        memcpy(p->tickets, t, n * sizeof *t);
        p->n = n;
    }
    bool ok = p->tickets && placement_random(p->match_id, &p->seed) == 0;
    if (ok)
        placement_name_bots(p); /* a rematch's bot seats: named after the new match */
    if (!ok || placement_index(&mm->placements, p) < 0) {
        p->n = 0; /* nothing of it is indexed */
        placement_remove(&mm->placements, p);
        return DECKHAND__ERROR_CODE__OVERLOADED;
    }
    p->key = *k;
    p->settings = *settings_for(&mm->settings, k->game, k->mode);
    snprintf(p->worker, sizeof p->worker, "%s", w->id);
    p->deadline_ms = now_ms + PLACEMENT_TIMEOUT_MS;
    p->unrated = k->vs_ai[0] != '\0';
    for (size_t i = 0; i < n; i++)
        p->unrated |= t[i].bot;
    if (placement_store(mm, now_ms, p) < 0) {
        placement_remove(&mm->placements, p);
        *why = "store unavailable";
        return DECKHAND__ERROR_CODE__UNAVAILABLE;
    }
    w->pending++;
    memcpy(match_id, p->match_id, PLACEMENT_ID_LEN + 1);
    mm->placements.unsent_from = mm->placements.n;
    dh_counter_inc(&mm->stats.matches_formed);
    dh_info("match %s: %s/%s %zu players placed together -> %s", p->match_id, k->game, k->mode, n,
            p->worker);
    if (placement_send_start(mm, p) < 0)
        placement_fail(mm, p, strerror(errno), now_ms); /* they wait at the front of the line */
    return DECKHAND__ERROR_CODE__OK;
}
