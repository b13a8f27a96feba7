/*
 * bots.h: what the files of `deckhand bots` share (see cmd_bots.c for what the command
 * does): one bot's state, the run's, and the calls between the layers. cmd_bots.c (flags,
 * the run) calls bots_loop.c (connections, the poll loop), which calls bots_play.c
 * (matches and replies: what each message does to a bot), which calls bots_send.c
 * (pacing and sending). Nothing calls upwards.
 */
#ifndef DECKHAND_BOTS_H
#define DECKHAND_BOTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cli_options.h"
#include "dh_client.h"
#include "dh_client_arena.h"
#include "dh_client_gws.h"
#include "dh_client_track.h"
#include "dh_flags.h"

#define BOTS_FD_MARGIN   16 /* descriptors kept for other uses than players (epoll, logs) */
#define BOTS_MAX_PICK    64
#define BOTS_RATE        40    /* default messages per second per bot */
#define BOTS_BUCKET_MIN  2     /* a bucket holds at least this: a Resync and its answer */
#define BOTS_REPLY_LATE  10000 /* ms without a Reply after which an answer is unanswered */
#define BOTS_RETRY_MS    100   /* pause before resending a rate-limited answer */
#define BOTS_BACKOFF_MIN 250   /* first pause before a resync, re-join or reconnect */
#define BOTS_BACKOFF_MAX 1000  /* the pause doubles up to this */
#define BOTS_DOWN_MAX    30000 /* ms a bot keeps reconnecting, or resyncing a refused match */
#define BOTS_DROP_SPAN   60    /* a dropping bot drops after 1..BOTS_DROP_SPAN answers */
#define BOTS_GW_MAX      DH_CLIENT_GWS_MAX /* gateways in --gateway's list */
#define BOTS_ADDR_MAX    DH_CLIENT_ADDR_MAX
/* --lobby's requests a bot may have waiting: make or join, ready, start */
#define BOTS_LOBBY_ENTER   0
#define BOTS_LOBBY_READY   1
#define BOTS_LOBBY_START   2
#define BOTS_LOBBY_SLOTS   3
#define BOTS_TOTAL_BURST_S 0.02    /* the run's bucket (total_rate) holds 20 ms of answers */
#define BOTS_FULL_MS       100     /* the loop looks at every bot at least this often */
#define BOTS_BOT_LOCAL     "local" /* --bot local: the generic bot, answering in the client */
#define BOTS_BOT_NAME_MAX  63      /* a strategy name, as the worker takes it (host_bot.h) */

typedef struct {
    dh_client *c; /* NULL while disconnected */
    char name[32];
    char token[512];                /* the session, to resume after a lost connection */
    unsigned long long next_cmd;    /* carried from a lost connection to the next one */
    unsigned long long left_before; /* commands below this id belong to a match left */

    /* the queue */
    bool want_match;             /* queued, or waiting to (re)send its QueueJoin */
    bool rejoin;                 /* the next QueueJoin repeats an earlier one */
    unsigned long long join_cmd; /* the QueueJoin waiting for its Reply, else 0 */

    /* --party (bots_party.c) */
    char party_code[16];          /* the party it is in, "" none yet */
    bool party_ready;             /* a leader whose party is complete: it queues it */
    unsigned long long party_cmd; /* the PartyCreate or PartyJoin waiting for its Reply */

    /* --lobby (bots_lobby.c) */
    char lobby_code[16];                            /* the lobby it is in, "" none */
    bool lobby_ready;                               /* marked ready in it */
    bool lobby_started;                             /* a host that sent LobbyStart */
    unsigned long long lobby_cmd[BOTS_LOBBY_SLOTS]; /* requests waiting for their Reply */
    long long join_at; /* when to send the QueueJoin again, 0: not scheduled */

    /* the match */
    char match_id[128]; /* the match it plays, "" between matches */
    dh_track track;
    bool has_answer;               /* an answer waits to be sent, or for its Reply */
    unsigned long long answer_cmd; /* its Choose's cmd_id once sent, else 0 */
    uint64_t answer_decision;      /* the decision it answers */
    long long retry_ms;            /* after RATE_LIMITED: not before this time */
    uint32_t answer_ids[BOTS_MAX_PICK];
    size_t answer_n;
    unsigned long long uncertain_cmd; /* the answer whose fate a resync must tell */
    uint64_t uncertain_decision;

    /* resync after a refusal or a gap */
    unsigned long long resync_cmd; /* the Resync waiting for its Reply, else 0 */
    long long resync_at;           /* when to send a Resync, 0: not scheduled */
    long long backoff;             /* the next pause */
    long long refused_since;       /* first refusal of the current streak, 0: none */
    bool reroute;                  /* --reroute-log: report the next View or decision */

    /* the connection */
    int gw;                 /* the gateway (index in bots_run.addrs) it is on, or tries next */
    int lost_gw;            /* the gateway of the connection it lost */
    long long reconnect_at; /* when to try to reconnect, 0: connected */
    long long start_at;     /* --ramp: when to log in for the first time, 0: done */
    long long down_since;   /* when the connection was lost */
    unsigned long conn_seq; /* bumped at each new connection, so the loop re-registers it */

    /* chaos */
    long drop_after; /* drop the connection after this many answers, 0: never */
    long answers;    /* answers sent */

    double tokens;       /* the pacing bucket */
    long long tokens_ms; /* when it was last refilled */

    uint64_t answer_ns;  /* dh_now_ns when the answer in flight was sent */
    long long answer_ms; /* cli_now_ms when it was sent */
    bool answer_late;    /* counted as unanswered already */
    bool attached;       /* --answer-log: a View or decision of its match came */
    bool paced;          /* in the run's line, waiting for the run's bucket (total_rate) */
} bot;

typedef struct {
    bot *bots;
    int n;
    char addrs[BOTS_GW_MAX][BOTS_ADDR_MAX]; /* the gateways */
    int naddrs;
    const char *game;
    cli_options options; /* --option NAME=VALUE, on every join */
    int party;           /* --party N: bots i*N..i*N+N-1 are a party its first one queues */
    bool lobby;          /* --lobby: every --size bots meet in a lobby its first one hosts */
    /* The game's bot strategy the server answers every decision with (Choose.bot), or
     * NULL: answer locally with the generic bot (dh_client_bot.h, Dominion's conventions). */
    const char *server_bot;
    uint32_t size;
    long target;
    char **done; /* distinct ids of finished matches */
    long ndone;
    long errors;
    long decisions;
    long retried;        /* refusals worked around */
    long lost;           /* accepted commands that disappeared (also errors) */
    long reconnects;     /* connections resumed */
    long moved;          /* of those, resumed on another gateway than the one lost */
    long told_reconnect; /* Reconnects received (a gateway draining, or cut off from a worker) */
    bool game_known;     /* a QueueJoin was accepted: a later UNKNOWN_GAME is an outage */
    bool reroute_log;
    bool burst;        /* --burst: every bot logs in first, then all queue at once */
    bool once;         /* --once: a bot plays one match and does not queue again */
    long long ramp_ms; /* --ramp: the logins spread over this long (0: all at the start) */
    /* --answer-log FILE: one line per event that a player feels (bots_note), or NULL */
    FILE *answer_log;
    long answers_ok;      /* answers that got Reply{ok} */
    long unanswered;      /* answers with no Reply after BOTS_REPLY_LATE ms */
    long answers_refused; /* answers refused for good (not an outage, not the pace) */
    const char *account;  /* --account: bots log in to accounts named after it */
    bool register_first;  /* --register: creating them first */
    bool broken;          /* out of memory, or a bot could not reconnect: stop */
    long long last_progress;
    double rate; /* messages per second per bot (may be below 1); 0 = unpaced */

    /* What `deckhand load` (load_players.c) adds; all zero for `deckhand bots`. */
    long long stop_at;   /* leave the loop at this cli_now_ms, 0: when target matches finished */
    double total_rate;   /* answers per second over all the bots, 0: no limit */
    double total_tokens; /* its bucket, holding at most BOTS_TOTAL_BURST_S of it */
    long long total_ms;
    /* the bots whose answer waits for that bucket, first come first served: a ring of
     * bot indexes (n long, each bot at most once: bot.paced), or NULL outside the loop */
    int *line;
    int line_head, line_len;
    int flush_from; /* the bot the timers look at first, rotating so none starves */
    bool quiet;     /* no stderr line per finished match */
    bool lean;      /* decode only what a bot reads of each message (dh_client_lean.h) */
    bool rx_stamps; /* time Replies from their arrival at the socket too (dh_client.h) */
    /* With lean: what every connection decodes into from its login on (dh_client_arena.h),
     * one for the run so that the memory reused is the same few hot kilobytes; reset after
     * each bot's drain, when no message is left in it (arena_kept: one was, for good). */
    dh_arena arena;
    bool arena_kept;
    void *ctx; /* for the callbacks */
    /* An answer got its Reply (ok or not), latency_us after it was sent (when it was
     * handled); rx_us: when it reached the socket (latency_us without rx_stamps). */
    void (*answered)(void *ctx, uint64_t latency_us, uint64_t rx_us, bool ok);
    /* Called once a second from the loop. */
    void (*tick)(void *ctx);
    long long tick_at;
} bots_run;

/* bots_send.c: pacing and sending. A bot's bucket holds one second of --rate, and at
 * least BOTS_BUCKET_MIN, so a slow bot back from an outage sends its Resync and its
 * answer at once, not its answer a whole period later. */
double bots_bucket(const bots_run *r);
/* An answer refused by an outage (UNAVAILABLE, UNKNOWN_MATCH, OVERLOADED) gives its token
 * back: the player answers once at its pace, however many times the cluster makes it send
 * that answer, so a slow bot's next answer after a move is not held back by its pace. */
void bots_refund(const bots_run *r, bot *b);
long long bots_backoff(bot *b);
void bots_flush(bots_run *r, bot *b, long long now);
/* Send the answers waiting in the run's line while its bucket holds tokens. */
void bots_line_serve(bots_run *r, long long now);
/* Milliseconds until the line's first answer may go (limit when the line is empty). */
long long bots_line_wait_ms(const bots_run *r, long long now, long long limit);
void bots_join(bots_run *r, bot *b);
/* bots_queue.c: b wants a match: through its party (--party) or lobby (--lobby), else a
 * QueueJoin of its own (bots_join). What the loop and the message handlers call. */
void bots_queue(bots_run *r, bot *b);
/* bots_send.c: send one message on b's connection (paced like any); 0, or -1 (lost). */
int bots_send(bots_run *r, bot *b, Deckhand__ClientMessage *m);
/* bots_play.c: says on stderr that b's command (rep) failed, and what follows (what). */
void bots_print_refusal(const bot *b, const Deckhand__Reply *rep, const char *what);
/* bots_send.c: the Reply to b's party or lobby request (what: "party", "lobby"): a
 * refusal is an error of the run, said on stderr, but for an outage (UNAVAILABLE,
 * OVERLOADED: "retry later") while b wants a match, which is retried like a QueueJoin,
 * after a backoff (the request is made again from b's queueing). */
void bots_request_reply(bots_run *r, bot *b, const char *what, const Deckhand__Reply *rep);

/* bots_lobby.c: --lobby, as bots_party.c for --party: the join taken over (true), a
 * LobbyState, the Reply of a lobby request (true when rep was one). */
bool bots_lobby_join(bots_run *r, bot *b);
void bots_lobby_state(bots_run *r, bot *b, const Deckhand__LobbyState *l);
bool bots_lobby_reply(bots_run *r, bot *b, const Deckhand__Reply *rep);

/* bots_party.c: --party. The party's share of bots_join: true when it took the join over
 * (a member waits for its leader, a leader makes its party first), false when b queues
 * as always (no party, or its party is complete). */
bool bots_party_join(bots_run *r, bot *b);
/* A PartyState for b: members are invited (they join by the code), a complete party is
 * queued by its leader. */
void bots_party_state(bots_run *r, bot *b, const Deckhand__PartyState *p);
/* The Reply of b's PartyCreate or PartyJoin: true when rep was one. */
bool bots_party_reply(bots_run *r, bot *b, const Deckhand__Reply *rep);
void bots_lost(bots_run *r, bot *b, const char *why, bool at_once);
void bots_uncertain(bot *b, unsigned long long cmd);
void bots_resync(bots_run *r, bot *b);
long long bots_wait_ms(const bots_run *r, const bot *b, long long now);

/* bots_send.c: the wall clock (CLOCK_REALTIME) in ms, the clock of the logs the benches
 * read */
long long bots_wall_ms(void);
/* bots_send.c: --answer-log's line "WALL_MS KIND MATCH BOT DECISION" for b (nothing
 * without it); decision 0 for the kinds about no decision. */
void bots_note(bots_run *r, const bot *b, const char *kind, const char *match_id,
               uint64_t decision);
/* bots_play.c: answers waiting longer than BOTS_REPLY_LATE for their Reply are counted */
void bots_check_late(bots_run *r, bot *b, long long now);
/* bots_play.c: the distinct matches a bot is still in that did not finish */
long bots_unfinished(const bots_run *r);

/* bots_play.c: matches and replies */
/* readable: the loop saw b's socket readable (one read first), else only what is buffered */
void bots_drain(bots_run *r, bot *b, bool readable);
bool bots_is_done(const bots_run *r, const char *match_id);
void bots_leave_match(bots_run *r, bot *b);

/* bots_loop.c: connections and the loop */
int bots_gateways(const dh_flags *f, const char *who, bots_run *r);
/* --bot: r->server_bot from a strategy name (default "default"), NULL for "local"; -1
 * with a message prefixed by who when the name cannot be one. */
int bots_bot_flag(const dh_flags *f, const char *who, bots_run *r);
void bots_leave(bots_run *r);
/* Close every bot's connection and free the run's bots and finished-match ids. */
void bots_run_free(bots_run *r);
void bots_loop(bots_run *r, long timeout_s);
int bots_start(bots_run *r);

#endif
