/*
 * test_matchmaker_watch.c: the running matches one may watch (matchmaker/data/watch.c) on a
 * matchmaker under test (rig_mm.h): a match is listed once its worker started it, with
 * its game, mode, players' names and start time, newest first, filtered by game, at most
 * 100; it leaves the list at its MatchEnded. A matchmaker that takes the lease over lists
 * the running matches Redis holds (watch_load.h), a step at a time.
 */
#include <stdio.h>
#include <string.h>

#include "rig_mm.h"
#include "rig_redis.h"
#include "rig_social.h"
#include "watch.h"

/* Ask for the watch list of game as pid through gw at now: the WatchList (owned by *sm,
 * which the caller frees), or NULL when none came before the QueueReply ok. */
static const Deckhand__WatchList *ask_watch_list(rig_mm *r, const char *pid, const char *game,
                                                 uint64_t cmd, uint64_t now,
                                                 Deckhand__ServerMessage **sm)
{
    Deckhand__WatchListRequest wr = DECKHAND__WATCH_LIST_REQUEST__INIT;
    wr.game = (char *)game;
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_WATCH_LIST_REQUEST;
    m.watch_list_request = &wr;
    rs_send(r->gw, pid, cmd, &m);
    rig_mm_pump(r, now);
    *sm = NULL;
    Deckhand__Internal__Internal *in = rig_mm_next(r->gw, RIG_MM_WAIT_MS);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    CU_ASSERT_EQUAL_FATAL(in->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_MM_OUTPUT);
    CU_ASSERT_STRING_EQUAL(in->mm_output->player_id, pid);
    *sm = deckhand__server_message__unpack(NULL, in->mm_output->message.len,
                                           in->mm_output->message.data);
    deckhand__internal__internal__free_unpacked(in, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(*sm);
    CU_ASSERT_EQUAL_FATAL((*sm)->body_case, DECKHAND__SERVER_MESSAGE__BODY_WATCH_LIST);
    CU_ASSERT_EQUAL(rig_mm_reply(r->gw, cmd), 0);
    return (*sm)->watch_list;
}

/* a and b join a two-player dominion line and their match starts on its worker: its id. */
static void start_match(rig_mm *r, const char *a, const char *b, uint64_t cmd, uint64_t now,
                        char *id, size_t cap)
{
    rig_mm_join(r->gw, a, cmd, 2);
    rig_mm_join(r->gw, b, cmd + 1, 2);
    rig_mm_pump(r, now);
    CU_ASSERT_EQUAL(rig_mm_reply(r->gw, cmd), 0);
    CU_ASSERT_EQUAL(rig_mm_reply(r->gw, cmd + 1), 0);
    int worker = 0;
    Deckhand__Internal__Internal *sm = rig_mm_expect_start(r, &worker);
    snprintf(id, cap, "%s", sm->start_match->match_id);
    deckhand__internal__internal__free_unpacked(sm, NULL);
    rig_mm_started(r->w[worker], id, true);
    rig_mm_pump(r, now + 1);
    for (Deckhand__Internal__Internal *in; (in = rig_mm_next(r->gw, 20));) /* MatchAssigned */
        deckhand__internal__internal__free_unpacked(in, NULL);
}

static void end_match(rig_mm *r, const char *id, uint64_t now)
{
    Deckhand__Internal__MatchEnded me = DECKHAND__INTERNAL__MATCH_ENDED__INIT;
    me.match_id = (char *)id;
    me.worker_id = (char *)rig_mm_worker_ids[0];
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ENDED;
    m.match_ended = &me;
    rig_mm_send(r->w[0], &m);
    rig_mm_pump(r, now);
}

static void test_watch_list_has_running_matches_newest_first_until_they_end(void)
{
    rig_mm r;
    rig_mm_open_fresh(&r, "mm-a", 1);
    Deckhand__ServerMessage *sm;
    const Deckhand__WatchList *wl = ask_watch_list(&r, "p-w", "", 1, 10, &sm);
    CU_ASSERT_EQUAL(wl->n_matches, 0);
    deckhand__server_message__free_unpacked(sm, NULL);

    char first[64], second[64];
    start_match(&r, "p1", "p2", 10, 100, first, sizeof first);
    start_match(&r, "p3", "p4", 20, 200, second, sizeof second);
    wl = ask_watch_list(&r, "p-w", "", 2, 300, &sm);
    CU_ASSERT_EQUAL_FATAL(wl->n_matches, 2);
    CU_ASSERT_STRING_EQUAL(wl->matches[0]->match_id, second);
    CU_ASSERT_STRING_EQUAL(wl->matches[1]->match_id, first);
    const Deckhand__WatchEntry *e = wl->matches[1];
    CU_ASSERT_STRING_EQUAL(e->game, "dominion");
    CU_ASSERT_STRING_EQUAL(e->mode, "casual");
    CU_ASSERT_EQUAL_FATAL(e->n_players, 2);
    CU_ASSERT_STRING_EQUAL(e->players[0], "p1");
    CU_ASSERT_STRING_EQUAL(e->players[1], "p2");
    CU_ASSERT_EQUAL(e->started_ms, RIG_MM_WALL0 + 101);
    CU_ASSERT_TRUE(wl->matches[0]->started_ms > e->started_ms);
    deckhand__server_message__free_unpacked(sm, NULL);

    wl = ask_watch_list(&r, "p-w", "accession", 3, 310, &sm); /* another game: none */
    CU_ASSERT_EQUAL(wl->n_matches, 0);
    deckhand__server_message__free_unpacked(sm, NULL);
    wl = ask_watch_list(&r, "p-w", "dominion", 4, 320, &sm);
    CU_ASSERT_EQUAL(wl->n_matches, 2);
    deckhand__server_message__free_unpacked(sm, NULL);

    end_match(&r, first, 400);
    wl = ask_watch_list(&r, "p-w", "", 5, 410, &sm);
    CU_ASSERT_EQUAL_FATAL(wl->n_matches, 1);
    CU_ASSERT_STRING_EQUAL(wl->matches[0]->match_id, second);
    deckhand__server_message__free_unpacked(sm, NULL);
    rig_mm_close(&r);
}

static void test_watch_list_answers_at_most_100(void)
{
    rig_mm r;
    rig_mm_open_fresh(&r, "mm-a", 1);
    const char *names[] = {"ann", "bob"};
    char id[32];
    for (int i = 0; i < 150; i++) {
        snprintf(id, sizeof id, "m-%03d", i);
        CU_ASSERT_EQUAL(watch_add(&r.mm.watching, id, "dominion", "", names, 2, 1000 + i), 0);
    }
    /* the same id again replaces its entry (a placement completed by an adoption) */
    CU_ASSERT_EQUAL(watch_add(&r.mm.watching, "m-000", "dominion", "", names, 2, 5000), 0);
    CU_ASSERT_EQUAL(r.mm.watching.n, 150);
    Deckhand__ServerMessage *sm;
    const Deckhand__WatchList *wl = ask_watch_list(&r, "p-w", "", 1, 10, &sm);
    CU_ASSERT_EQUAL_FATAL(wl->n_matches, WATCH_LIST_MAX);
    CU_ASSERT_STRING_EQUAL(wl->matches[0]->match_id, "m-000");
    CU_ASSERT_STRING_EQUAL(wl->matches[1]->match_id, "m-149");
    CU_ASSERT_STRING_EQUAL(wl->matches[99]->match_id, "m-051");
    deckhand__server_message__free_unpacked(sm, NULL);
    rig_mm_close(&r);
}

/* Redis as workers leave it: match id running since RIG_MM_WALL0 + created, game dominion,
 * mode, players names (comma-separated), and its entry in matches:running. */
static void seed_running(const char *id, const char *mode, const char *players, uint64_t created,
                         const char *status)
{
    rig_redis_ok("HSET match:{%s} game dominion mode %s players %s created_ms %llu status %s "
                 "worker wk-a epoch 1",
                 id, mode, players, (unsigned long long)(RIG_MM_WALL0 + created), status);
    rig_redis_ok("HSET matches:running %s wk-a", id);
}

static void test_standby_taking_over_lists_the_running_matches_redis_holds(void)
{
    rig_redis_flushall();
    /* as a big matches:running is stored (a hash table, not one listpack that HSCAN returns
     * whole), so that HSCAN's COUNT makes steps */
    rig_redis_ok("CONFIG SET hash-max-listpack-entries 16");
    char id[32];
    for (int i = 0; i < 250; i++) { /* past one step (WATCH_LOAD_STEP) */
        snprintf(id, sizeof id, "m-%03d", i);
        seed_running(id, i % 2 ? "ranked" : "casual", "ann,bob", 1000 + (uint64_t)i, "running");
    }
    seed_running("m-done", "casual", "cy,dee", 5000, "finished"); /* its HDEL not landed */
    rig_redis_ok("HSET matches:running m-nohash wk-a");           /* its hash expired */
    rig_mm a, b;
    rig_mm_open(&a, "mm-a", rig_redis_url(), 1, 0);
    rig_mm_open(&b, "mm-b", rig_redis_url(), 1, 0);
    CU_ASSERT_TRUE_FATAL(mm_acting(&a.mm, 0));
    CU_ASSERT_FALSE_FATAL(mm_acting(&b.mm, 0));
    CU_ASSERT_EQUAL(b.mm.watching.n, 0); /* a standby lists nothing */
    b.mm.watch_budget_us = 1;            /* a tick takes one step only */
    rig_mm_close(&a);                    /* the acting one dies */
    rig_mm_lease_lapses();

    rig_mm_pump(&b, 1000);
    CU_ASSERT_TRUE_FATAL(mm_acting(&b.mm, 1000));
    /* a step at a time: the first tick restored some, not all */
    CU_ASSERT_TRUE(b.mm.watching.rebuilding);
    CU_ASSERT_TRUE(b.mm.watching.npend > 0 && b.mm.watching.npend < 250);
    int ticks = 1;
    for (; b.mm.watching.rebuilding && ticks < 50; ticks++)
        rig_mm_pump(&b, 1000 + 10 * (uint64_t)ticks);
    CU_ASSERT_FALSE(b.mm.watching.rebuilding);
    CU_ASSERT_TRUE(ticks >= 3);
    CU_ASSERT_EQUAL(b.mm.watching.n, 250); /* neither the finished one nor the hashless one */
    CU_ASSERT_EQUAL(b.mm.watching.ngone, 0);

    Deckhand__ServerMessage *sm;
    const Deckhand__WatchList *wl = ask_watch_list(&b, "p-w", "", 1, 2000, &sm);
    CU_ASSERT_EQUAL_FATAL(wl->n_matches, WATCH_LIST_MAX);
    CU_ASSERT_STRING_EQUAL(wl->matches[0]->match_id, "m-249"); /* newest first */
    CU_ASSERT_STRING_EQUAL(wl->matches[99]->match_id, "m-150");
    const Deckhand__WatchEntry *e = wl->matches[0];
    CU_ASSERT_STRING_EQUAL(e->game, "dominion");
    CU_ASSERT_STRING_EQUAL(e->mode, "ranked");
    CU_ASSERT_EQUAL(e->started_ms, RIG_MM_WALL0 + 1249);
    CU_ASSERT_EQUAL_FATAL(e->n_players, 2);
    CU_ASSERT_STRING_EQUAL(e->players[0], "ann");
    CU_ASSERT_STRING_EQUAL(e->players[1], "bob");
    deckhand__server_message__free_unpacked(sm, NULL);

    end_match(&b, "m-249", 2100); /* a restored match leaves at its MatchEnded */
    wl = ask_watch_list(&b, "p-w", "", 2, 2200, &sm);
    CU_ASSERT_STRING_EQUAL(wl->matches[0]->match_id, "m-248");
    deckhand__server_message__free_unpacked(sm, NULL);
    rig_mm_close(&b);
    rig_redis_ok("CONFIG SET hash-max-listpack-entries 512");
}

static void test_rebuild_skips_listed_and_ended_matches_and_keeps_start_order(void)
{
    watch_list l = {0};
    const char *names[] = {"ann", "bob"}, *others[] = {"cy"};
    CU_ASSERT_EQUAL(watch_add(&l, "m-new", "dominion", "", names, 2, 300), 0);
    watch_rebuild_begin(&l);
    CU_ASSERT_EQUAL(watch_restore(&l, "m-late", "dominion", "", names, 2, 400), 0);
    CU_ASSERT_EQUAL(watch_restore(&l, "m-ended", "dominion", "", names, 2, 100), 0);
    watch_end(&l, "m-ended"); /* its MatchEnded came while the rebuild ran */
    /* placed here meanwhile: what this matchmaker knows stands */
    CU_ASSERT_EQUAL(watch_restore(&l, "m-new", "dominion", "", others, 1, 50), 0);
    CU_ASSERT_EQUAL(watch_restore(&l, "m-mid", "dominion", "ranked", names, 2, 200), 0);
    CU_ASSERT_EQUAL(watch_restore(&l, "m-old", "dominion", "", names, 2, 100), 0);
    CU_ASSERT_EQUAL(watch_restore(&l, "m-mid", "dominion", "ranked", names, 2, 200), 0);
    CU_ASSERT_EQUAL(l.n, 1);                   /* what the rebuild found waits for its end */
    CU_ASSERT_EQUAL(watch_rebuild_end(&l), 3); /* m-old, m-mid (once) and m-late */
    CU_ASSERT_EQUAL_FATAL(l.n, 4);
    CU_ASSERT_STRING_EQUAL(l.v[0].match_id, "m-old");
    CU_ASSERT_STRING_EQUAL(l.v[1].match_id, "m-mid");
    CU_ASSERT_STRING_EQUAL(l.v[1].mode, "ranked");
    CU_ASSERT_STRING_EQUAL(l.v[2].match_id, "m-new");
    CU_ASSERT_EQUAL(l.v[2].nplayers, 2);
    CU_ASSERT_STRING_EQUAL(l.v[3].match_id, "m-late");
    CU_ASSERT_FALSE(l.rebuilding);
    CU_ASSERT_EQUAL(l.ngone, 0);
    CU_ASSERT_EQUAL(l.npend, 0);
    watch_end(&l, "m-late"); /* no rebuild: nothing remembered of it */
    CU_ASSERT_EQUAL(l.ngone, 0);
    CU_ASSERT_EQUAL(l.n, 3);
    watch_list_free(&l);
}

/* l's ids in order, comma-separated, into buf. */
static const char *watch_ids(const watch_list *l, char *buf, size_t cap)
{
    size_t at = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < l->n && at < cap; i++)
        at += (size_t)snprintf(buf + at, cap - at, "%s%s", i ? "," : "", l->v[i].match_id);
    return buf;
}

/* Ends close the gap from the shorter side (the front slots freed by ends near the oldest
 * are taken again by later adds): whichever side moves, the others keep start order. */
static void test_watch_end_keeps_start_order_whichever_side_moves(void)
{
    watch_list l = {0};
    const char *names[] = {"ann"};
    char id[16], buf[256];
    for (int i = 0; i < 8; i++) {
        snprintf(id, sizeof id, "m%d", i);
        CU_ASSERT_EQUAL(watch_add(&l, id, "dominion", "", names, 1, (uint64_t)i), 0);
    }
    watch_end(&l, "m1"); /* near the oldest: the front moves */
    watch_end(&l, "m0");
    watch_end(&l, "m6"); /* near the newest: the back moves */
    watch_end(&l, "m9"); /* not listed: nothing changes */
    CU_ASSERT_STRING_EQUAL(watch_ids(&l, buf, sizeof buf), "m2,m3,m4,m5,m7");
    for (int i = 8; i < 80; i++) { /* past the allocation: the freed front is reused */
        snprintf(id, sizeof id, "m%d", i);
        CU_ASSERT_EQUAL(watch_add(&l, id, "dominion", "", names, 1, (uint64_t)i), 0);
        snprintf(id, sizeof id, "m%d", i - 6);
        watch_end(&l, id);
    }
    CU_ASSERT_STRING_EQUAL(watch_ids(&l, buf, sizeof buf), "m74,m75,m76,m77,m78,m79");
    CU_ASSERT_EQUAL(watch_add(&l, "m77", "dominion", "", names, 1, 99), 0); /* replaced */
    CU_ASSERT_STRING_EQUAL(watch_ids(&l, buf, sizeof buf), "m74,m75,m76,m78,m79,m77");
    watch_list_free(&l);
}

/* The entries move down to the allocation's start only once the free slots at its front
 * are at least half as many as they are (each move then follows many ends); with fewer
 * the allocation grows and the entries stay where they are, in their order. */
static void test_watch_list_moves_its_entries_only_when_half_of_them_are_free_at_the_front(void)
{
    watch_list l = {0};
    const char *names[] = {"ann"};
    char id[16], buf[1024];
    for (int i = 0; i < 64; i++) {
        snprintf(id, sizeof id, "m%d", i);
        CU_ASSERT_EQUAL(watch_add(&l, id, "dominion", "", names, 1, (uint64_t)i), 0);
    }
    CU_ASSERT_EQUAL_FATAL(l.cap, 64);
    watch_end(&l, "m0"); /* two free slots at the front, 62 entries */
    watch_end(&l, "m1");
    CU_ASSERT_EQUAL(watch_add(&l, "m64", "dominion", "", names, 1, 64), 0);
    CU_ASSERT_EQUAL(l.cap, 128); /* grown, not moved */
    CU_ASSERT_EQUAL(l.v - l.base, 2);
    CU_ASSERT_EQUAL(l.n, 63);
    for (int i = 2; i < 50; i++) { /* 50 free slots at the front, 15 entries */
        snprintf(id, sizeof id, "m%d", i);
        watch_end(&l, id);
    }
    for (int i = 65; i < 65 + 128 - 65; i++) { /* up to the allocation's end */
        snprintf(id, sizeof id, "m%d", i);
        CU_ASSERT_EQUAL(watch_add(&l, id, "dominion", "", names, 1, (uint64_t)i), 0);
    }
    CU_ASSERT_EQUAL(l.v - l.base + (ptrdiff_t)l.n, 128);
    CU_ASSERT_EQUAL(watch_add(&l, "m999", "dominion", "", names, 1, 999), 0);
    CU_ASSERT_EQUAL(l.cap, 128); /* moved down, not grown */
    CU_ASSERT_PTR_EQUAL(l.v, l.base);
    CU_ASSERT_EQUAL(l.n, 79);
    watch_ids(&l, buf, sizeof buf);
    CU_ASSERT_EQUAL(strncmp(buf, "m50,m51,", 8), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, ",m127,m999"));
    watch_list_free(&l);
}

/* The ids a rebuild restored are looked up like the ones placed here (the list keeps an
 * index of its ids so that a new match is not looked for among all): one restored is
 * replaced by a later add of its id, not listed twice, and its end forgets it. */
static void test_a_restored_match_is_replaced_and_ended_like_one_placed_here(void)
{
    watch_list l = {0};
    const char *names[] = {"ann"};
    char buf[256];
    CU_ASSERT_EQUAL(watch_add(&l, "m-here", "dominion", "", names, 1, 300), 0);
    watch_rebuild_begin(&l);
    CU_ASSERT_EQUAL(watch_restore(&l, "m-a", "dominion", "", names, 1, 100), 0);
    CU_ASSERT_EQUAL(watch_restore(&l, "m-b", "dominion", "", names, 1, 200), 0);
    CU_ASSERT_EQUAL(watch_rebuild_end(&l), 2);
    CU_ASSERT_STRING_EQUAL(watch_ids(&l, buf, sizeof buf), "m-a,m-b,m-here");
    CU_ASSERT_EQUAL(watch_add(&l, "m-a", "dominion", "", names, 1, 400), 0); /* moved in */
    CU_ASSERT_STRING_EQUAL(watch_ids(&l, buf, sizeof buf), "m-b,m-here,m-a");
    watch_end(&l, "m-b");
    watch_end(&l, "m-here");
    CU_ASSERT_STRING_EQUAL(watch_ids(&l, buf, sizeof buf), "m-a");
    watch_end(&l, "m-a");
    CU_ASSERT_EQUAL(l.n, 0);
    CU_ASSERT_EQUAL(watch_add(&l, "m-a", "dominion", "", names, 1, 500), 0); /* anew */
    CU_ASSERT_STRING_EQUAL(watch_ids(&l, buf, sizeof buf), "m-a");
    watch_list_free(&l);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"watch_list_has_running_matches_newest_first_until_they_end",
         test_watch_list_has_running_matches_newest_first_until_they_end},
        {"watch_list_answers_at_most_100", test_watch_list_answers_at_most_100},
        {"standby_taking_over_lists_the_running_matches_redis_holds",
         test_standby_taking_over_lists_the_running_matches_redis_holds},
        {"rebuild_skips_listed_and_ended_matches_and_keeps_start_order",
         test_rebuild_skips_listed_and_ended_matches_and_keeps_start_order},
        {"watch_end_keeps_start_order_whichever_side_moves",
         test_watch_end_keeps_start_order_whichever_side_moves},
        {"watch_list_moves_its_entries_only_when_half_of_them_are_free_at_the_front",
         test_watch_list_moves_its_entries_only_when_half_of_them_are_free_at_the_front},
        {"a_restored_match_is_replaced_and_ended_like_one_placed_here",
         test_a_restored_match_is_replaced_and_ended_like_one_placed_here},
        {NULL, NULL},
    };
    return rig_redis_main("matchmaker_watch", cases);
}
