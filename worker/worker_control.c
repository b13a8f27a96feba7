/*
 * worker_control.c: the worker's messages with the matchmaker and the gateways (see
 * worker.h).
 */
#include "worker.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bundles.h"
#include "dh_clock.h"
#include "dh_log.h"
#include "dh_zmq.h"
#include "host.h"
#include "out.h"

#define WORKER_DRAIN_MAX  1000 /* messages per socket per call */
#define WORKER_CONTROL_MS 50   /* ...and the matchmaker's at most this long per call */
#define WORKER_GAMES_MAX  32
#define WORKER_BOTS_MAX   32 /* strategies announced per game */

/* The options and bots a game declares, pointing into the bundle's strings. */
typedef struct {
    Deckhand__OptionSpec v[ENGINE_OPTIONS_MAX];
    Deckhand__OptionSpec *p[ENGINE_OPTIONS_MAX];
    char *bots[WORKER_BOTS_MAX + 2]; /* the game's strategies, then the search bot's names */
    char *difficulties[3];           /* QueueJoin.vs_ai values, easiest first */
} worker_specs;

/* The difficulties a game offers (GameInfo.difficulties), easiest first: "easy" and
 * "normal" when its bots list them (engine_bots.c gives both to a game with a default
 * bot), then "hard", the search, which every game has. */
static void worker_game_difficulties(const engine_game_info *in, Deckhand__Internal__GameInfo *out,
                                     worker_specs *specs)
{
    static const char *const named[] = {ENGINE_EASY_BOT, ENGINE_NORMAL_BOT};
    size_t n = 0;
    for (size_t k = 0; k < 2; k++)
        for (size_t i = 0; i < in->nbots; i++)
            if (!strcmp(in->bots[i], named[k])) {
                specs->difficulties[n++] = (char *)named[k];
                break;
            }
    specs->difficulties[n++] = (char *)ENGINE_HARD_BOT;
    out->n_difficulties = n;
    out->difficulties = specs->difficulties;
}

static void worker_game_info(const engine_game_info *in, Deckhand__Internal__GameInfo *out,
                             worker_specs *specs)
{
    deckhand__internal__game_info__init(out);
    out->name = (char *)in->name;
    out->min_players = (uint32_t)in->min_players;
    out->max_players = (uint32_t)in->max_players;
    size_t n = in->noptions < ENGINE_OPTIONS_MAX ? in->noptions : ENGINE_OPTIONS_MAX;
    for (size_t i = 0; i < n; i++) {
        Deckhand__OptionSpec *o = &specs->v[i];
        deckhand__option_spec__init(o);
        o->name = (char *)in->options[i].name;
        o->n_values = in->options[i].nvalues;
        o->values = (char **)in->options[i].values;
        o->default_value = (char *)in->options[i].default_value;
        o->help = (char *)in->options[i].help;
        o->n_items = in->options[i].nitems;
        o->items = (char **)in->options[i].items;
        o->list_size = (uint32_t)in->options[i].list_size;
        o->label = (char *)in->options[i].label;
        o->n_value_labels = in->options[i].nvalues;
        o->value_labels = (char **)in->options[i].value_labels;
        specs->p[i] = o;
    }
    out->n_options = n;
    out->options = specs->p;
    size_t nb = in->nbots < WORKER_BOTS_MAX ? in->nbots : WORKER_BOTS_MAX;
    for (size_t i = 0; i < nb; i++)
        specs->bots[i] = (char *)in->bots[i];
    specs->bots[nb++] = (char *)ENGINE_SEARCH_BOT; /* a Choose.bot may name it in any game */
    specs->bots[nb++] = (char *)ENGINE_HARD_BOT;   /* the search, as a difficulty */
    out->n_bots = nb;
    out->bots = specs->bots;
    out->title = (char *)in->title;
    out->summary = (char *)in->summary;
    out->deck_builder = in->deck_builder;
    worker_game_difficulties(in, out, specs);
}

/* What the hello says of game info[i] (the default bundle's): what its current bundle
 * declares, so that the matchmaker checks joins against the options of the bundle new
 * matches start on (a pushed bundle may add a preset or a card to a list option), not
 * the embedded default's. The strings stay the bundle's: it outlives the hello. */
static void worker_game_current(host *h, engine_game_info *info)
{
    const bundles_entry *e = h->bs ? bundles_pick(h->bs, info->name) : NULL;
    if (!e || e->b == h->bundle)
        return;
    engine_game_info cur[WORKER_GAMES_MAX];
    size_t n = engine_bundle_games(e->b, cur, WORKER_GAMES_MAX);
    for (size_t i = 0; i < n && i < WORKER_GAMES_MAX; i++)
        if (!strcmp(cur[i].name, info->name))
            *info = cur[i];
}

void worker_control_hello(host *h, struct beat *b, uint64_t now_ms)
{
    engine_game_info info[WORKER_GAMES_MAX];
    size_t n = engine_bundle_games(h->bundle, info, WORKER_GAMES_MAX);
    if (n > WORKER_GAMES_MAX)
        n = WORKER_GAMES_MAX;
    for (size_t i = 0; i < n; i++)
        worker_game_current(h, &info[i]);
    Deckhand__Internal__GameInfo games[WORKER_GAMES_MAX];
    Deckhand__Internal__GameInfo *gamep[WORKER_GAMES_MAX];
    worker_specs *specs = calloc(n ? n : 1, sizeof *specs);
    if (!specs) {
        dh_warn("hello not sent: out of memory");
        return;
    }
    for (size_t i = 0; i < n; i++) {
        worker_game_info(&info[i], &games[i], &specs[i]);
        gamep[i] = &games[i];
    }
    Deckhand__Internal__WorkerHello wh = DECKHAND__INTERNAL__WORKER_HELLO__INIT;
    wh.worker_id = (char *)h->worker_id;
    wh.endpoint = (char *)h->endpoint;
    wh.n_games = n;
    wh.games = gamep;
    wh.bundle = (char *)engine_bundle_id(h->bundle);
    wh.capacity = h->capacity;
    wh.version = beat_hello_digest(&wh);
    /* not repeated while the matchmaker says it holds this one (beat.c) */
    if (beat_hello_due(b, wh.version, now_ms)) {
        if (out_control_send(h, DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_HELLO, &wh) < 0)
            dh_debug("hello not sent: %s", strerror(errno));
        beat_hello_sent(b, wh.version);
    }
    free(specs);
}

void worker_control_lease(host *h, uint64_t now_ms)
{
    if (h->bs)
        bundles_report(h->bs, now_ms);
    /* the lease rides in the turn's pipeline; a lost lease only delays readiness */
    if (store_op(h->st, now_ms) >= 0)
        store_lease(h->st, h->worker_id, h->endpoint, WORKER_LEASE_MS);
}

void worker_control_stopping(host *h)
{
    Deckhand__Internal__WorkerBeat wb = DECKHAND__INTERNAL__WORKER_BEAT__INIT;
    wb.worker_id = (char *)h->worker_id;
    wb.active_matches = (uint32_t)host_active(h);
    wb.draining = true;
    wb.stopping = true;
    wb.redis_ok = h->st->up;
    if (out_control_send(h, DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_BEAT, &wb) < 0)
        dh_debug("stopping beat not sent: %s", strerror(errno));
}

bool worker_control_matchmaker(host *h, struct beat *b, uint64_t now_ms)
{
    bool adopt = false;
    uint64_t start = dh_now_ms();
    /* A StartMatch costs a match's set-up (milliseconds under load): bounded in time like
     * the inbox's batch, so that a burst of them does not hold the beat back. */
    for (int i = 0; i < WORKER_DRAIN_MAX && dh_now_ms() - start < WORKER_CONTROL_MS; i++) {
        Deckhand__Internal__Internal *msg = NULL;
        int rc = dh_zmq_recv(h->dealer, NULL, &msg);
        if (rc == 0)
            return adopt;
        if (rc < 0)
            continue;
        if (msg->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_START_MATCH)
            host_start_match(h, msg->start_match, now_ms);
        else if (msg->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_ADOPT_MATCH)
            adopt = true;
        else if (msg->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_ADMIN_END)
            host_admin_end(h, msg->admin_end, now_ms);
        else if (msg->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_ADMIN_REMOVE)
            host_admin_remove(h, msg->admin_remove, now_ms);
        else if (msg->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_ADMIN_DRAIN)
            host_admin_drain(h, msg->admin_drain);
        else if (msg->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_ADMIN_QUERY)
            host_admin_query(h, msg->admin_query, now_ms);
        /* a WorkerProbe answers a beat about our hello, or asks nothing (that it reached
         * our route is its answer) */
        else if (msg->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_PROBE)
            beat_probe(b, msg->worker_probe, now_ms);
        else
            dh_warn_every(DH_LOG_EVERY_MS, "unexpected message %d from the matchmaker",
                          (int)msg->body_case);
        deckhand__internal__internal__free_unpacked(msg, NULL);
    }
    return adopt;
}

/* Answer a command the full inbox cannot take: OVERLOADED, not remembered, so the
 * client's retry of the same cmd_id is worked normally. */
static void worker_control_refuse(host *h, const char *route,
                                  const Deckhand__Internal__PlayerCommand *pc)
{
    out_reply(h, route, pc->player_id ? pc->player_id : "", pc->cmd_id,
              DECKHAND__ERROR_CODE__OVERLOADED, "the worker is overloaded; retry");
}

/* Queue one PlayerCommand msg from the gateway at route: the inbox owns it, or it is
 * answered OVERLOADED and freed. True when refused. */
static bool worker_control_queue(host *h, inbox *q, const char *route,
                                 Deckhand__Internal__Internal *msg)
{
    if (!inbox_full(q, msg) && inbox_push(q, route, msg) == 0)
        return false;
    worker_control_refuse(h, route, msg->player_command);
    deckhand__internal__internal__free_unpacked(msg, NULL);
    return true;
}

/* A gateway's commands of one loop turn (Internal.player_commands), queued in order as if
 * each had come alone. An entry that is not a packed PlayerCommand is dropped alone: its
 * player and cmd_id cannot be read, so there is nobody to answer. Returns those refused. */
static size_t worker_control_batch(host *h, inbox *q, const char *route,
                                   const Deckhand__Internal__PlayerCommands *b)
{
    size_t refused = 0;
    for (size_t i = 0; i < b->n_commands; i++) {
        Deckhand__Internal__Internal *msg =
            deckhand__internal__internal__unpack(NULL, b->commands[i].len, b->commands[i].data);
        if (msg && msg->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_COMMAND) {
            refused += worker_control_queue(h, q, route, msg);
            continue;
        }
        dh_warn_every(DH_LOG_EVERY_MS,
                      "entry %zu of a command batch from %s is no command: dropped", i, route);
        if (msg)
            deckhand__internal__internal__free_unpacked(msg, NULL);
    }
    return refused;
}

size_t worker_control_receive(host *h, inbox *q)
{
    char identity[DH_ZMQ_ID_MAX + 1];
    size_t refused = 0;
    for (int i = 0; i < WORKER_DRAIN_MAX; i++) {
        Deckhand__Internal__Internal *msg = NULL;
        int rc = dh_zmq_recv(h->router, identity, &msg);
        if (rc == 0)
            break;
        if (rc < 0)
            continue;
        out_batch_heard(h, identity);
        if (msg->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_COMMAND) {
            refused += worker_control_queue(h, q, identity, msg);
            continue; /* the inbox owns msg now, or it is freed */
        }
        if (msg->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_COMMANDS)
            refused += worker_control_batch(h, q, identity, msg->player_commands);
        else
            dh_warn_every(DH_LOG_EVERY_MS, "unexpected message %d from %s", (int)msg->body_case,
                          identity);
        deckhand__internal__internal__free_unpacked(msg, NULL);
    }
    return refused;
}

size_t worker_control_work(host *h, inbox *q, uint64_t until_ms)
{
    size_t done = 0;
    inbox_item *it;
    while ((!done || dh_now_ms() < until_ms) && (it = inbox_pop(q))) {
        h->cmd_recv_ns = it->recv_ns;
        const Deckhand__Internal__PlayerCommand *pc = it->msg->player_command;
        if (pc->body_case == DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_REPLAY)
            replay_request(h, it->route, pc, dh_now_ms()); /* worked by replay_work */
        else
            host_command(h, it->route, pc, dh_now_ms());
        h->cmd_recv_ns = 0;
        deckhand__internal__internal__free_unpacked(it->msg, NULL);
        done++;
    }
    return done;
}
