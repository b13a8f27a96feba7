/*
 * cmd_watch.c: `deckhand watch`, spectating from a terminal (docs/PROTOCOL.md,
 * "Watching"): `--list` prints the running matches one may watch (WatchList); with a
 * match id it spectates that match and prints every SpectatorFrame as text, delayed as
 * the workers delay them, until the match's GameOver.
 *
 * Output:
 *   MATCH_ID GAME MODE STARTED_UTC PLAYER,PLAYER...          (--list, newest first)
 *   frame N (S watching, D ms behind): waiting for SEAT
 *     NAME: COUNTER=V ...                                     (per player)
 *     ZONE[OWNER] (COUNT): CARD, CARD ...                     (cards shown only)
 *     | EVENT TEXT                                            (the public log)
 *   game over: SEAT NAME score S rank R ...
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "dh_client.h"
#include "dh_signal.h"

static const char watch_who[] = "deckhand watch";

static const char watch_usage[] =
    "usage: deckhand watch MATCH_ID [--gateway ADDR] [--ws] [--account NAME]\n"
    "       deckhand watch --list [--game G] [--gateway ADDR] [--ws]\n"
    "  Watch a running match (only what no player hides, some seconds behind it) until it\n"
    "  ends, or list the running matches (of game G). --account logs in to NAME (password\n"
    "  in DECKHAND_PASSWORD) instead of as a guest.\n";

/* Send m as the next command and wait for its Reply, printing what comes before it with
 * show (NULL: nothing). 0 ok, else -1 with the error on stderr. */
static int watch_request(dh_client *c, Deckhand__ClientMessage *m,
                         void (*show)(const Deckhand__ServerMessage *))
{
    m->cmd_id = dh_client_next_cmd(c);
    if (dh_client_send(c, m) < 0) {
        fprintf(stderr, "%s: the gateway closed the connection\n", watch_who);
        return -1;
    }
    for (;;) {
        Deckhand__ServerMessage *s = NULL;
        int r = dh_client_recv(c, 10000, &s);
        if (r != 1) {
            fprintf(stderr, "%s: %s\n", watch_who,
                    r ? "the gateway closed the connection" : "no answer within 10 s");
            return -1;
        }
        bool done =
            s->body_case == DECKHAND__SERVER_MESSAGE__BODY_REPLY && s->reply->cmd_id == m->cmd_id;
        int rc = 0;
        if (done && !s->reply->ok) {
            fprintf(stderr, "%s: %s\n", watch_who,
                    s->reply->error && s->reply->error->message ? s->reply->error->message
                                                                : "refused");
            rc = -1;
        } else if (!done && show) {
            show(s);
        }
        deckhand__server_message__free_unpacked(s, NULL);
        if (done)
            return rc;
    }
}

static void watch_show_list(const Deckhand__ServerMessage *s)
{
    if (s->body_case != DECKHAND__SERVER_MESSAGE__BODY_WATCH_LIST)
        return;
    const Deckhand__WatchList *wl = s->watch_list;
    if (!wl->n_matches)
        printf("no running match to watch\n");
    for (size_t i = 0; i < wl->n_matches; i++) {
        const Deckhand__WatchEntry *e = wl->matches[i];
        time_t t = (time_t)(e->started_ms / 1000);
        struct tm tm;
        char when[32];
        gmtime_r(&t, &tm);
        strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
        printf("%s %s %s %s ", e->match_id, e->game, e->mode, when);
        for (size_t p = 0; p < e->n_players; p++)
            printf("%s%s", p ? "," : "", e->players[p]);
        printf("\n");
    }
}

static const char *watch_player(const Deckhand__View *v, int seat)
{
    for (size_t i = 0; i < v->n_players; i++)
        if ((int)v->players[i]->seat == seat)
            return v->players[i]->name;
    return seat < 0 ? "nobody" : "?";
}

static void watch_show_frame(const Deckhand__SpectatorFrame *f, unsigned n)
{
    const Deckhand__View *v = f->view;
    printf("frame %u (%u watching, %u ms behind)", n, f->spectators, f->delay_ms);
    if (v && !v->finished)
        printf(": waiting for %s", watch_player(v, v->waiting_for));
    printf("\n");
    for (size_t p = 0; v && p < v->n_players; p++) {
        printf("  %s%s:", v->players[p]->name, v->players[p]->connected ? "" : " (away)");
        for (size_t i = 0; i < v->n_counters; i++)
            if (v->counters[i]->owner == (int)v->players[p]->seat)
                printf(" %s=%lld", v->counters[i]->name, (long long)v->counters[i]->value);
        printf("\n");
    }
    for (size_t z = 0; v && z < v->n_zones; z++) {
        const Deckhand__Zone *zone = v->zones[z];
        if (!zone->count)
            continue;
        printf("  %s[%s] (%u)", zone->name, zone->owner < 0 ? "-" : watch_player(v, zone->owner),
               zone->count);
        for (size_t c = 0; c < zone->n_cards; c++)
            printf("%s%s", c ? ", " : ": ", zone->cards[c]->name);
        printf("\n");
    }
    for (size_t e = 0; e < f->n_events; e++)
        printf("  | %s\n", f->events[e]->text);
    if (f->game_over) {
        printf("game over%s%s:", f->game_over->reason && *f->game_over->reason ? " " : "",
               f->game_over->reason ? f->game_over->reason : "");
        for (size_t i = 0; i < f->game_over->n_results; i++) {
            const Deckhand__PlayerResult *r = f->game_over->results[i];
            printf(" %s score %d rank %u;", r->name, r->score, r->rank);
        }
        printf("\n");
    }
    fflush(stdout);
}

/* Print frames until the GameOver (0), the connection's end or a signal (1). */
static int watch_frames(dh_client *c)
{
    unsigned n = 0;
    while (!dh_signal_stop_asked()) {
        Deckhand__ServerMessage *s = NULL;
        int r = dh_client_recv(c, 500, &s);
        if (r < 0) {
            fprintf(stderr, "%s: the gateway closed the connection\n", watch_who);
            return 1;
        }
        if (r == 0)
            continue;
        bool over = false;
        if (s->body_case == DECKHAND__SERVER_MESSAGE__BODY_SPECTATOR_FRAME) {
            watch_show_frame(s->spectator_frame, ++n);
            over = s->spectator_frame->game_over != NULL;
        }
        deckhand__server_message__free_unpacked(s, NULL);
        if (over)
            return 0;
    }
    return 1;
}

int cmd_watch(int argc, char **argv)
{
    static const dh_flag_spec spec[] = {{"account", DH_FLAG_VALUE},
                                        {"list", DH_FLAG_SWITCH},
                                        {"game", DH_FLAG_VALUE},
                                        CLI_FLAGS_GATEWAY,
                                        {NULL, 0}};
    dh_flags fl, *f = &fl;
    int done = dh_flags_parse_main(f, spec, argc, argv, watch_who, watch_usage, 0, 1);
    if (done >= 0)
        return done;
    bool list = dh_flags_has(f, "list");
    const char *match_id = f->npos ? f->pos[0] : NULL;
    char addr[512], token[512];
    if (list == (match_id != NULL)) {
        fprintf(stderr, "%s: give a match id or --list\n%s", watch_who, watch_usage);
        return 2;
    }
    if (cli_gateway(f, watch_who, addr, sizeof addr) < 0)
        return 2;
    dh_client *c = cli_connect(watch_who, addr, dh_flags_str(f, "account", NULL, NULL), false,
                               "watcher", token, sizeof token);
    if (!c)
        return 1;
    int rc = 1;
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    if (list) {
        Deckhand__WatchListRequest wr = DECKHAND__WATCH_LIST_REQUEST__INIT;
        wr.game = (char *)dh_flags_str(f, "game", NULL, "");
        m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_WATCH_LIST_REQUEST;
        m.watch_list_request = &wr;
        rc = watch_request(c, &m, watch_show_list) < 0 ? 1 : 0;
        goto out;
    }
    Deckhand__Spectate sp = DECKHAND__SPECTATE__INIT;
    sp.match_id = (char *)match_id;
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_SPECTATE;
    m.spectate = &sp;
    if (watch_request(c, &m, NULL) < 0)
        goto out;
    dh_signal_on_stop(false);
    printf("watching %s\n", match_id);
    fflush(stdout);
    rc = watch_frames(c);
out:
    dh_client_close(c);
    return rc;
}
