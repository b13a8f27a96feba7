/*
 * load_joins.c: `deckhand load --join-once`, a join storm: N players log in (spread over
 * the --gateway list), and once every one of them is in, all send their QueueJoin at the
 * same moment and wait for its Reply and for their MatchFound; nobody plays, leaves or
 * retries. What a population arriving at once sees of the queue: how soon each join is
 * acknowledged, how soon everyone is placed, and whether any player was told something
 * the cluster then contradicted (a refused join followed by a match: the player would not
 * know it is seated).
 *
 * The players run in as many processes as the descriptor limit needs (load.h); each logs
 * its share in, says so on a shared pipe and waits for the parent's go, so the joins of
 * every process leave together. Each process writes one load_joins_report when its
 * players are done (or --seconds after the go), and the parent prints the sum:
 *   joins players=N ok=O refused=R unavailable=U found=F found_after_refusal=X
 *   ack_p50_ms=A ack_p99_ms=B ack_max_ms=C all_found_ms=D errors=E
 * The exit status is 0 only when every player got Reply{ok} and MatchFound.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bots.h"
#include "cli.h"
#include "dh_clock.h"
#include "dh_client.h"
#include "dh_client_msg.h"
#include "load.h"

/* One process's result, written whole down its pipe. Times are dh_now_ns, which is the
 * same clock in every process of the machine. */
typedef struct {
    uint64_t players, logged_in;
    uint64_t ok, refused, unavailable; /* Replies to the joins (unavailable: of the refused) */
    uint64_t found, found_after_refusal;
    uint64_t errors;        /* logins failed, connections lost, players never done */
    uint64_t last_found_ns; /* the last MatchFound, 0: none */
    dh_hist ack;            /* join -> its Reply */
    dh_hist placed;         /* join -> MatchFound */
} load_joins_report;

/* One player of a process. */
typedef struct {
    dh_client *c;
    unsigned long long join_cmd;
    uint64_t sent_ns;
    int reply; /* 0: none yet, 1: ok, -1: refused */
    bool found;
} load_joiner;

typedef struct {
    int ready[2]; /* children write one byte each once logged in */
    int go[2];    /* the parent writes one byte per child: join now */
} load_joins_sync;

/* ---- one process ------------------------------------------------------------------------ */

static void load_joins_message(load_joiner *p, load_joins_report *rep, Deckhand__ServerMessage *m,
                               uint64_t now)
{
    if (m->body_case == DECKHAND__SERVER_MESSAGE__BODY_REPLY && m->reply->cmd_id == p->join_cmd &&
        !p->reply) {
        dh_hist_record(&rep->ack, (now - p->sent_ns) / 1000);
        p->reply = m->reply->ok ? 1 : -1;
        if (m->reply->ok) {
            rep->ok++;
            return;
        }
        rep->refused++;
        Deckhand__ErrorCode code = m->reply->error ? m->reply->error->code : 0;
        if (code == DECKHAND__ERROR_CODE__UNAVAILABLE)
            rep->unavailable++;
        if (rep->refused <= 5)
            fprintf(stderr, "load: join refused (code %d): %s\n", (int)code,
                    m->reply->error && m->reply->error->message ? m->reply->error->message : "");
    } else if (m->body_case == DECKHAND__SERVER_MESSAGE__BODY_MATCH_FOUND && !p->found) {
        p->found = true;
        rep->found++;
        rep->last_found_ns = now;
        dh_hist_record(&rep->placed, (now - p->sent_ns) / 1000);
        if (p->reply < 0)
            rep->found_after_refusal++;
    }
}

/* Read what p's connection holds; false when it is lost. */
static bool load_joins_drain(load_joiner *p, load_joins_report *rep)
{
    do {
        Deckhand__ServerMessage *m = NULL;
        int rc = dh_client_recv(p->c, 0, &m);
        if (rc < 0)
            return false;
        if (rc == 0)
            return true;
        load_joins_message(p, rep, m, dh_now_ns());
        deckhand__server_message__free_unpacked(m, NULL);
    } while (dh_client_pending(p->c));
    return true;
}

static bool load_joins_done(const load_joiner *p)
{
    return !p->c || (p->reply && (p->found || p->reply < 0));
}

/* Wait on every connection until each player is done or deadline_ns passes. */
static void load_joins_wait(load_joiner *ps, int n, load_joins_report *rep, uint64_t deadline_ns)
{
    int ep = epoll_create1(EPOLL_CLOEXEC);
    struct epoll_event *ev = calloc((size_t)n, sizeof *ev);
    int left = 0;
    for (int i = 0; ep >= 0 && ev && i < n; i++) {
        struct epoll_event e = {.events = EPOLLIN, .data.u32 = (uint32_t)i};
        if (ps[i].c && epoll_ctl(ep, EPOLL_CTL_ADD, dh_client_fd(ps[i].c), &e) == 0)
            left++;
    }
    while (left > 0 && ev && dh_now_ns() < deadline_ns) {
        int got = epoll_wait(ep, ev, n, 100);
        for (int k = 0; k < got; k++) {
            load_joiner *p = &ps[ev[k].data.u32];
            if (!p->c || load_joins_done(p))
                continue;
            if (!load_joins_drain(p, rep)) {
                fprintf(stderr, "load: a player's connection was lost\n");
                rep->errors++;
                dh_client_close(p->c);
                p->c = NULL;
            }
            left -= load_joins_done(p);
        }
    }
    free(ev);
    if (ep >= 0)
        close(ep);
}

/* Log in, wait for the go, join, wait. */
static void load_joins_run(const load_share *share, const load_joins_sync *sync,
                           const bots_run *gws, load_joins_report *rep)
{
    const char *game = dh_flags_str(share->flags, "game", NULL, "dominion");
    load_joiner *ps = calloc((size_t)share->players, sizeof *ps);
    rep->players = (uint64_t)share->players;
    for (int i = 0; ps && i < share->players; i++) {
        char err[256], name[32];
        snprintf(name, sizeof name, "j-%d-%d", (int)getpid() % 100000, i + 1);
        ps[i].c = dh_client_connect(gws->addrs[i % gws->naddrs], err, sizeof err);
        if (ps[i].c && dh_client_login(ps[i].c, name, NULL, 0, NULL, 0) == 0) {
            rep->logged_in++;
            continue;
        }
        if (rep->errors++ < 5)
            fprintf(stderr, "load: %s: %s\n", name, ps[i].c ? "login failed" : err);
        dh_client_close(ps[i].c);
        ps[i].c = NULL;
    }
    char b = 'r';
    if (write(sync->ready[1], &b, 1) != 1 || read(sync->go[0], &b, 1) != 1)
        rep->errors++;
    for (int i = 0; ps && i < share->players; i++) {
        dh_client_msg msg;
        Deckhand__ClientMessage *m = dh_client_msg_queue_join(&msg, game, share->size);
        if (!ps[i].c)
            continue;
        m->cmd_id = ps[i].join_cmd = dh_client_next_cmd(ps[i].c);
        ps[i].sent_ns = dh_now_ns();
        if (dh_client_send(ps[i].c, m) < 0) {
            rep->errors++;
            dh_client_close(ps[i].c);
            ps[i].c = NULL;
        }
    }
    if (ps)
        load_joins_wait(ps, share->players, rep,
                        dh_now_ns() + (uint64_t)share->seconds * 1000000000);
    for (int i = 0; ps && i < share->players; i++) {
        if (ps[i].c && !load_joins_done(&ps[i]))
            rep->errors++;
        dh_client_close(ps[i].c);
    }
    if (!ps) {
        fprintf(stderr, "load: out of memory\n");
        rep->errors++;
    }
    free(ps);
}

static int load_joins_child(const load_share *share, const load_joins_sync *sync,
                            const bots_run *gws, int fd)
{
    load_joins_report rep;
    memset(&rep, 0, sizeof rep);
    load_joins_run(share, sync, gws, &rep);
    const char *p = (const char *)&rep;
    for (size_t left = sizeof rep; left;) {
        ssize_t w = write(fd, p, left);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return 1;
        p += w;
        left -= (size_t)w;
    }
    return rep.errors == 0 ? 0 : 1;
}

/* ---- the parent ------------------------------------------------------------------------- */

/* Read one whole report from fd; -1 when the child ended without it. */
static int load_joins_read(int fd, load_joins_report *rep)
{
    char *p = (char *)rep;
    for (size_t left = sizeof *rep; left;) {
        ssize_t r = read(fd, p, left);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        p += r;
        left -= (size_t)r;
    }
    return 0;
}

static void load_joins_add(load_joins_report *sum, const load_joins_report *r)
{
    sum->players += r->players;
    sum->logged_in += r->logged_in;
    sum->ok += r->ok;
    sum->refused += r->refused;
    sum->unavailable += r->unavailable;
    sum->found += r->found;
    sum->found_after_refusal += r->found_after_refusal;
    sum->errors += r->errors;
    if (r->last_found_ns > sum->last_found_ns)
        sum->last_found_ns = r->last_found_ns;
    dh_hist_merge(&sum->ack, &r->ack);
    dh_hist_merge(&sum->placed, &r->placed);
}

static void load_joins_print(const load_joins_report *s, uint64_t go_ns)
{
    double all_ms = s->last_found_ns > go_ns ? (double)(s->last_found_ns - go_ns) / 1e6 : 0;
    fprintf(stderr, "load: %llu players, %llu logged in; MatchFound p50 %.1f ms, p99 %.1f ms\n",
            (unsigned long long)s->players, (unsigned long long)s->logged_in,
            (double)dh_hist_percentile(&s->placed, 50) / 1000.0,
            (double)dh_hist_percentile(&s->placed, 99) / 1000.0);
    printf("joins players=%llu ok=%llu refused=%llu unavailable=%llu found=%llu "
           "found_after_refusal=%llu ack_p50_ms=%.1f ack_p99_ms=%.1f ack_max_ms=%.1f "
           "all_found_ms=%.1f errors=%llu\n",
           (unsigned long long)s->players, (unsigned long long)s->ok,
           (unsigned long long)s->refused, (unsigned long long)s->unavailable,
           (unsigned long long)s->found, (unsigned long long)s->found_after_refusal,
           (double)dh_hist_percentile(&s->ack, 50) / 1000.0,
           (double)dh_hist_percentile(&s->ack, 99) / 1000.0, (double)s->ack.max_us / 1000.0, all_ms,
           (unsigned long long)s->errors);
}

int load_joins(const load_share *all, int nprocs)
{
    bots_run gws = {0};
    load_joins_sync sync;
    int fds[LOAD_PROCS_MAX];
    pid_t pids[LOAD_PROCS_MAX];
    int started = 0;
    load_joins_report sum;
    memset(&sum, 0, sizeof sum);
    if (bots_gateways(all->flags, "deckhand load", &gws) < 0 || pipe(sync.ready) < 0)
        return 2;
    if (pipe(sync.go) < 0)
        return 1;
    fflush(NULL);
    for (; started < nprocs; started++) {
        load_share share = *all;
        share.players = all->players / nprocs + (started < all->players % nprocs);
        int p[2];
        if (pipe(p) < 0)
            break;
        pid_t pid = fork();
        if (pid == 0) {
            close(p[0]);
            close(sync.ready[0]);
            close(sync.go[1]);
            for (int j = 0; j < started; j++)
                close(fds[j]);
            _exit(load_joins_child(&share, &sync, &gws, p[1]));
        }
        close(p[1]);
        if (pid < 0) {
            close(p[0]);
            break;
        }
        fds[started] = p[0];
        pids[started] = pid;
    }
    close(sync.ready[1]); /* a child that dies before it is ready ends the wait */
    close(sync.go[0]);
    char b;
    int ready = 0;
    while (ready < started && read(sync.ready[0], &b, 1) == 1)
        ready++;
    uint64_t go_ns = dh_now_ns();
    for (int i = 0; i < started; i++)
        if (write(sync.go[1], "g", 1) != 1)
            sum.errors++;
    fprintf(stderr, "load: %d players logged in over %d processes; joining\n", all->players,
            started);
    for (int i = 0; i < started; i++) {
        load_joins_report r;
        if (load_joins_read(fds[i], &r) == 0)
            load_joins_add(&sum, &r);
        else
            sum.errors++;
        close(fds[i]);
        waitpid(pids[i], NULL, 0);
    }
    close(sync.ready[0]);
    close(sync.go[1]);
    sum.errors += (uint64_t)(nprocs - started);
    if (sum.players < (uint64_t)all->players)
        sum.players = (uint64_t)all->players;
    load_joins_print(&sum, go_ns);
    bool all_in = sum.ok == sum.players && sum.found == sum.players;
    return sum.errors == 0 && all_in && !sum.found_after_refusal ? 0 : 1;
}
