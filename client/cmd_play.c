/*
 * cmd_play.c: `deckhand play`, a human player in the terminal.
 *
 * It logs in as a guest, queues, and then redraws the table on every View: the supply
 * with costs, your hand and play area, the counters, the other players' zone counts, the
 * recent log, and the decision in front of you with numbered options. You answer by
 * typing option numbers, or `bot` to let the game's bot answer it on the server
 * (Choose.bot, docs/PROTOCOL.md); `help CARD` shows a card's text. stdin and the socket
 * are polled together, so the table updates while you think.
 *
 * It knows nothing of any game: zones and counters come from the View, kept current by
 * the ViewDeltas that follow it (dh_client_view), card texts from the bundle's Catalog
 * (a zone "supply:Gold" is shown as the Gold pile; counters with an owner are per player).
 * Answers are checked locally first (range, repeats, count) so a typo costs no round trip;
 * the server's errors are still explained if they come. A lost connection is resumed with
 * the session token (a try a second for 30 s, the cmd_id sequence carried on), then a
 * Resync brings the table back; so does an answer refused with UNAVAILABLE or
 * UNKNOWN_MATCH (the match moved to another worker, or a backend is out): you answer
 * again from the table it brings, if the question is still open.
 */
#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli_options.h"
#include "cli.h"
#include "dh_client.h"
#include "dh_client_errors.h"
#include "dh_client_gws.h"
#include "dh_client_msg.h"
#include "dh_client_view.h"
#include "play_social.h"

#include "play.h"

static const char play_who[] = "deckhand play";

static const char play_usage[] =
    "usage: deckhand play --game dominion [--ws] [--name NAME] [--size N] [--gateway ADDR,...]\n"
    "                     [--mode MODE] [--option NAME=VALUE]... [--vs-ai DIFFICULTY]\n"
    "                     [--account NAME [--register]] [--no-queue]\n"
    "  --no-queue: wait for commands (a party, a lobby, `queue`) instead of queueing.\n"
    "  --account NAME: play as that account (rated), the password in DECKHAND_PASSWORD;\n"
    "  --register creates it first (or logs in when it exists).\n"
    "  --mode MODE: casual (the default) or a mode the cluster's queues file names.\n"
    "  --vs-ai DIFFICULTY: play the AI at once (easy, normal, hard), bots in the other seats.\n"
    "  --option NAME=VALUE (repeatable): a game option, e.g. kingdom=random; players who\n"
    "  ask for different options never meet.\n";

static const char play_help[] = "Commands:\n"
                                "  N [N...]    answer the decision with option numbers\n"
                                "  bot, b      let the game's bot answer this decision\n"
                                "  help CARD   a card's cost, types and text\n"
                                "  cards       every card in this game\n"
                                "  view        redraw the table\n"
                                "  log         the whole log so far\n"
                                "  quit        leave (the match goes on without you)\n";

/* ---- the log ------------------------------------------------------------------------- */

static int play_send(play_state *ps, Deckhand__ClientMessage *m)
{
    m->cmd_id = dh_client_next_cmd(ps->c);
    if (dh_client_send(ps->c, m) == 0)
        return 0;
    printf("The connection to the gateway is lost.\n");
    return -1;
}

static int play_queue(play_state *ps)
{
    dh_client_msg msg;
    Deckhand__ClientMessage *m = dh_client_msg_queue_join(&msg, ps->game, ps->size);
    cli_options_apply(&ps->options, m->queue_join);
    printf("Waiting for %u-player %s match...\n", ps->size, ps->game);
    ps->queued = true;
    fflush(stdout);
    return play_send(ps, m);
}

static int play_resync(play_state *ps)
{
    dh_client_msg msg;
    Deckhand__ClientMessage *m = dh_client_msg_resync(&msg, ps->match_id);
    return play_send(ps, m);
}

/* Replace the owned message *slot with m, keeping ps->decision valid. */
static void play_keep(play_state *ps, Deckhand__ServerMessage **slot, Deckhand__ServerMessage *m)
{
    if (*slot && ps->decision) {
        bool inside = (*slot)->body_case == DECKHAND__SERVER_MESSAGE__BODY_VIEW
                          ? ps->decision == (*slot)->view->decision
                          : ps->decision == (*slot)->decision;
        if (inside)
            ps->decision = NULL;
    }
    if (*slot)
        deckhand__server_message__free_unpacked(*slot, NULL);
    *slot = m;
}

/* A change to the View we hold; one we cannot place (a missed delta) asks for the table
 * again. */
static void play_delta(play_state *ps, Deckhand__ViewDelta *d)
{
    Deckhand__View *v = ps->view_msg ? ps->view_msg->view : NULL;
    if (dh_view_apply(v, d) != DH_VIEW_APPLIED) {
        play_resync(ps);
        return;
    }
    ps->decision = v->decision; /* as a full View sets it (the old one went with d) */
    if (v->event_seq > ps->last_seq)
        ps->last_seq = v->event_seq;
    play_draw(ps);
}

/* Handle one message; returns true when ps took ownership of s. */
static bool play_handle(play_state *ps, Deckhand__ServerMessage *s)
{
    switch (s->body_case) {
    case DECKHAND__SERVER_MESSAGE__BODY_REPLY: {
        const Deckhand__Reply *r = s->reply;
        if (r->ok)
            break;
        Deckhand__ErrorCode code = r->error ? r->error->code : DECKHAND__ERROR_CODE__INTERNAL;
        printf("%s: %s%s%s\n", r->cmd_id == ps->choose_cmd ? "Not accepted" : "Error",
               dh_client_error_text(code), r->error && *r->error->message ? " - " : "",
               r->error ? r->error->message : "");
        if (r->cmd_id == ps->choose_cmd && ps->in_match &&
            (code == DECKHAND__ERROR_CODE__UNAVAILABLE ||
             code == DECKHAND__ERROR_CODE__UNKNOWN_MATCH)) {
            printf("Getting the table again...\n");
            play_resync(ps); /* its View shows whether the answer went in */
        } else if (r->cmd_id == ps->choose_cmd && ps->decision) {
            play_print_decision(ps);
        }
        break;
    }
    case DECKHAND__SERVER_MESSAGE__BODY_MATCH_FOUND:
        snprintf(ps->match_id, sizeof ps->match_id, "%s", s->match_found->match_id);
        ps->seat = s->match_found->seat;
        ps->in_match = true;
        ps->last_seq = 0;
        printf("Match found: %s, you are seat %u of %zu.\n", ps->match_id, ps->seat + 1,
               s->match_found->n_players);
        break;
    case DECKHAND__SERVER_MESSAGE__BODY_EVENT: {
        const Deckhand__Event *e = s->event;
        if (strcmp(e->match_id, ps->match_id) != 0 || e->event_seq <= ps->last_seq)
            break;
        if (ps->last_seq && e->event_seq > ps->last_seq + 1)
            play_resync(ps); /* a gap: the View that answers brings us back */
        ps->last_seq = e->event_seq;
        play_log_add(ps, e->text);
        break;
    }
    case DECKHAND__SERVER_MESSAGE__BODY_VIEW:
        if (strcmp(s->view->match_id, ps->match_id) != 0)
            break;
        play_keep(ps, &ps->view_msg, s);
        ps->decision = s->view->decision;
        if (s->view->event_seq > ps->last_seq)
            ps->last_seq = s->view->event_seq;
        play_draw(ps);
        return true;
    case DECKHAND__SERVER_MESSAGE__BODY_VIEW_DELTA:
        if (strcmp(s->view_delta->match_id, ps->match_id) != 0)
            break;
        play_delta(ps, s->view_delta);
        break;
    case DECKHAND__SERVER_MESSAGE__BODY_CATALOG:
        if (ps->catalog_msg)
            deckhand__server_message__free_unpacked(ps->catalog_msg, NULL);
        ps->catalog_msg = s;
        return true;
    case DECKHAND__SERVER_MESSAGE__BODY_DECISION:
        if (strcmp(s->decision->match_id, ps->match_id) != 0 || s->decision->seat != ps->seat)
            break;
        play_keep(ps, &ps->dec_msg, s);
        ps->decision = s->decision;
        if (ps->shown_decision != s->decision->decision_id)
            play_print_decision(ps);
        fflush(stdout);
        return true;
    case DECKHAND__SERVER_MESSAGE__BODY_GAME_OVER: {
        const Deckhand__GameOver *g = s->game_over;
        if (strcmp(g->match_id, ps->match_id) != 0)
            break;
        printf("\n==== Game over ====\n");
        for (size_t i = 0; i < g->n_results; i++) {
            const Deckhand__PlayerResult *p = g->results[i];
            printf("  #%u %-14s %3d points in %u turns%s\n", p->rank, p->name, p->score, p->turns,
                   p->seat == ps->seat ? "  (you)" : "");
        }
        if (g->summary && *g->summary)
            printf("%s\n", g->summary);
        ps->over = true;
        break;
    }
    case DECKHAND__SERVER_MESSAGE__BODY_RECONNECT:
        /* "worker link lost": this gateway cannot reach the match; else it drains */
        printf("The gateway is %s: moving to another.\n",
               s->reconnect->reason && !strcmp(s->reconnect->reason, "worker link lost")
                   ? "cut off from the match's server"
                   : "shutting down");
        ps->moving = true;
        break;
    default:
        if (play_social_show(s))
            fflush(stdout);
        break;
    }
    return false;
}

static int play_send_any(void *arg, Deckhand__ClientMessage *m)
{
    return play_send(arg, m);
}

/* ---- the keyboard ------------------------------------------------------------------- */

/* Parse "2 5 1" against the pending decision; sends Choose when it is valid, else says
 * what is wrong. */
static void play_answer(play_state *ps, char *text)
{
    const Deckhand__DecisionRequest *d = ps->decision;
    if (!d) {
        printf("Nothing to decide right now (type `help` for commands).\n");
        return;
    }
    uint32_t ids[PLAY_MAX_PICK];
    size_t n = 0;
    for (char *save = NULL, *t = strtok_r(text, " \t,", &save); t;
         t = strtok_r(NULL, " \t,", &save)) {
        char *end;
        errno = 0;
        long k = strtol(t, &end, 10);
        if (errno || *end || k < 1 || (size_t)k > d->n_options) {
            printf("'%s' is not an option: pick numbers from 1 to %zu.\n", t, d->n_options);
            return;
        }
        for (size_t i = 0; i < n; i++)
            if (ids[i] == d->options[k - 1]->id) {
                printf("Option %ld is listed twice.\n", k);
                return;
            }
        if (n == PLAY_MAX_PICK) {
            printf("Too many options.\n");
            return;
        }
        ids[n++] = d->options[k - 1]->id;
    }
    if (n < d->min || n > d->max) {
        if (d->min == d->max)
            printf("Pick exactly %u option%s (you gave %zu).\n", d->min, d->min == 1 ? "" : "s", n);
        else
            printf("Pick between %u and %u options (you gave %zu).\n", d->min, d->max, n);
        return;
    }
    dh_client_msg msg;
    Deckhand__ClientMessage *m = dh_client_msg_choose(&msg, ps->match_id, d->decision_id, ids, n);
    if (play_send(ps, m) == 0)
        ps->choose_cmd = m->cmd_id;
}

/* `bot`: the game's default bot answers the pending decision for us, on the server. */
static void play_bot(play_state *ps)
{
    if (!ps->decision) {
        printf("Nothing to decide right now (type `help` for commands).\n");
        return;
    }
    dh_client_msg msg;
    Deckhand__ClientMessage *m =
        dh_client_msg_choose_bot(&msg, ps->match_id, ps->decision->decision_id, "default");
    if (play_send(ps, m) == 0)
        ps->choose_cmd = m->cmd_id;
}

/* One typed line. Returns false to quit. */
static bool play_command(play_state *ps, char *text)
{
    while (isspace((unsigned char)*text))
        text++;
    size_t len = strlen(text);
    while (len && isspace((unsigned char)text[len - 1]))
        text[--len] = '\0';
    if (!strcmp(text, "quit") || !strcmp(text, "q") || !strcmp(text, "exit"))
        return false;
    if (!strcmp(text, "help") || !strcmp(text, "?")) {
        fputs(play_help, stdout);
        fputs(play_social_help, stdout);
    } else if (!strncmp(text, "help ", 5))
        play_show_card(ps, text + 5);
    else if (!strcmp(text, "cards"))
        play_show_cards(ps);
    else if (!strcmp(text, "view") || !strcmp(text, "v"))
        play_draw(ps);
    else if (!strcmp(text, "log"))
        play_log_print(ps, PLAY_LOG_KEEP);
    else if (!strcmp(text, "bot") || !strcmp(text, "b"))
        play_bot(ps);
    else if (*text == '\0' && !(ps->decision && ps->decision->min == 0))
        play_draw(ps); /* an empty line redraws, unless "none" is a valid answer */
    else if (isdigit((unsigned char)*text) || *text == '\0')
        play_answer(ps, text);
    else if (!strcmp(text, "queue"))
        play_queue(ps);
    else if (play_social_command(text, ps->game, play_send_any, ps))
        ;
    else
        printf("Unknown command '%s' (type `help`).\n", text);
    fflush(stdout);
    return true;
}

/* Read what stdin has and run each complete line. Returns false on quit or EOF. */
static bool play_stdin(play_state *ps)
{
    char buf[512];
    ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
    if (n < 0)
        return errno == EINTR;
    if (n == 0)
        return false;
    for (ssize_t i = 0; i < n; i++) {
        if (buf[i] != '\n') {
            if (ps->linelen + 1 < sizeof ps->line)
                ps->line[ps->linelen++] = buf[i];
            continue;
        }
        ps->line[ps->linelen] = '\0';
        ps->linelen = 0;
        if (!play_command(ps, ps->line))
            return false;
    }
    return true;
}

/* Returns false when the connection is gone. */
static bool play_socket(play_state *ps)
{
    Deckhand__ServerMessage *s;
    int rc = 0; /* read below even when a move skips the loop */
    while (!ps->moving && (rc = dh_client_recv(ps->c, 0, &s)) == 1)
        if (!play_handle(ps, s))
            deckhand__server_message__free_unpacked(s, NULL);
    if (rc < 0 && !ps->over)
        printf("The gateway closed the connection.\n");
    return rc == 0 && !ps->moving;
}

/* Connect again and resume the session: back to the match with a Resync, or back into
 * the queue. 0 on success. */
static int play_reconnect(play_state *ps)
{
    /* Go on with the cmd_ids: the worker remembers answers by cmd_id. */
    unsigned long long next_cmd = ps->c ? dh_client_next_cmd(ps->c) : 1;
    if (ps->moving)
        dh_client_gws_next(&ps->gws);
    ps->moving = false;
    for (int attempt = 1; attempt <= PLAY_RECONNECTS; attempt++) {
        printf("Reconnecting (%d/%d)...\n", attempt, PLAY_RECONNECTS);
        fflush(stdout);
        sleep(1);
        dh_client_close(ps->c);
        char err[256];
        ps->c = dh_client_connect(dh_client_gws_current(&ps->gws), err, sizeof err);
        if (!ps->c) {
            printf("  %s: %s\n", dh_client_gws_current(&ps->gws), err);
            dh_client_gws_next(&ps->gws);
            continue;
        }
        char token[sizeof ps->token];
        dh_client_set_next_cmd(ps->c, next_cmd);
        if (dh_client_resume(ps->c, ps->token, NULL, 0, token, sizeof token) < 0) {
            printf("  the gateway did not take our session back\n");
            continue;
        }
        memcpy(ps->token, token, sizeof token);
        printf("Reconnected.\n");
        return ps->in_match ? play_resync(ps) : ps->queued ? play_queue(ps) : 0;
    }
    return -1;
}

static int play_loop(play_state *ps)
{
    for (;;) {
        if (ps->over)
            return 0;
        if (!ps->c || (dh_client_pending(ps->c) && !play_socket(ps))) {
            if (ps->over)
                return 0;
            if (play_reconnect(ps) < 0)
                return 1;
            continue;
        }
        struct pollfd pfd[2] = {{.fd = STDIN_FILENO, .events = POLLIN},
                                {.fd = dh_client_fd(ps->c), .events = POLLIN}};
        if (poll(pfd, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            return 1;
        }
        if (pfd[1].revents && !play_socket(ps)) {
            if (ps->over)
                return 0;
            if (play_reconnect(ps) < 0)
                return 1;
            continue;
        }
        if (pfd[0].revents && !play_stdin(ps))
            return 0;
    }
}

int cmd_play(int argc, char **argv)
{
    static const dh_flag_spec spec[] = {{"game", DH_FLAG_VALUE},
                                        {"name", DH_FLAG_VALUE},
                                        {"size", DH_FLAG_INT},
                                        {"no-queue", DH_FLAG_SWITCH},
                                        {"vs-ai", DH_FLAG_VALUE},
                                        CLI_FLAGS_GATEWAY,
                                        CLI_FLAGS_ACCOUNT,
                                        CLI_OPTIONS_FLAGS,
                                        {NULL, 0}};
    dh_flags fl, *f = &fl;
    cli_options options;
    if (cli_options_collect(argc, argv, play_who, &options) < 0)
        return 2;
    int parsed = dh_flags_parse(f, spec, argc, argv, play_who, play_usage);
    if (parsed == DH_FLAGS_HELP) {
        fputs(play_help, stdout);
        fputs(play_social_help, stdout);
        return 0;
    }
    if (parsed != DH_FLAGS_OK)
        return 2;
    if (f->npos) {
        fprintf(stderr, "%s: unexpected argument '%s'\n\n%s", play_who, f->pos[0], play_usage);
        return 2;
    }
    long size;
    if (cli_int(f, play_who, "size", 2, 1, 64, &size) < 0)
        return 2;
    char err[512];
    options.mode = dh_flags_str(f, "mode", NULL, NULL);
    options.vs_ai = dh_flags_str(f, "vs-ai", NULL, NULL);
    setvbuf(stdout, NULL, _IOLBF, 0); /* a screen piped to a file or `tee` stays current */
    play_state ps = {.game = dh_flags_str(f, "game", NULL, "dominion"),
                     .size = (uint32_t)size,
                     .options = options};
    if (dh_client_gws_parse(&ps.gws, dh_flags_str(f, "gateway", NULL, NULL), dh_flags_has(f, "ws"),
                            err, sizeof err) < 0) {
        fprintf(stderr, "%s: %s\n", play_who, err);
        return 2;
    }
    const char *addr = dh_client_gws_current(&ps.gws);
    const char *account = dh_flags_str(f, "account", NULL, NULL);
    const char *name = account ? account : dh_flags_str(f, "name", "USER", "player");
    snprintf(ps.name, sizeof ps.name, "%s", name);
    int rc = 1;
    ps.c = cli_connect(play_who, addr, account, dh_flags_has(f, "register"), ps.name, ps.token,
                       sizeof ps.token);
    if (!ps.c)
        goto out;
    printf("Logged in at %s as %s. Type `help` for commands.\n", addr, ps.name);
    if (!dh_flags_has(f, "no-queue") && play_queue(&ps) < 0)
        goto out;
    rc = play_loop(&ps);
out:
    if (ps.view_msg)
        deckhand__server_message__free_unpacked(ps.view_msg, NULL);
    if (ps.catalog_msg)
        deckhand__server_message__free_unpacked(ps.catalog_msg, NULL);
    if (ps.dec_msg)
        deckhand__server_message__free_unpacked(ps.dec_msg, NULL);
    for (size_t i = 0; i < PLAY_LOG_KEEP; i++)
        free(ps.log[i]);
    dh_client_close(ps.c);
    return rc;
}
