/*
 * test_worker_resign.c: a player's Resign (worker/host/host_resign.c) and the end screen's
 * data in every GameOver (worker/out/out_end.c). Two seats: the match ends once Redis has
 * it, the resigner last and marked resigned, the reason "resigned", the summary in words,
 * a rating job (a loss) when both seats are accounts. More seats: a bot plays the
 * resigner's seat on, its player is told and refused from then on, and it ranks last.
 */
#include "rig_worker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_keys.h"
#include "host.h"
#include "host_persist.h"

static void resign(rig_worker *r, const char *id, const char *player, uint64_t cmd)
{
    Deckhand__Resign rs = DECKHAND__RESIGN__INIT;
    rs.match_id = (char *)id;
    Deckhand__Internal__PlayerCommand pc = DECKHAND__INTERNAL__PLAYER_COMMAND__INIT;
    pc.match_id = (char *)id;
    pc.player_id = (char *)player;
    pc.cmd_id = cmd;
    pc.body_case = DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_RESIGN;
    pc.resign = &rs;
    host_command(&r->h, "gw-t", &pc, r->now);
}

/* The Reply to player's cmd in o: its code, or -1 when none came. */
static int reply_code(const rig_outbox *o, const char *player, uint64_t cmd)
{
    for (size_t i = 0; i < o->n; i++) {
        const Deckhand__ServerMessage *m = o->msg[i];
        if (m->body_case == DECKHAND__SERVER_MESSAGE__BODY_REPLY && !strcmp(o->player[i], player) &&
            m->reply->cmd_id == cmd)
            return m->reply->ok ? 0 : (int)m->reply->error->code;
    }
    return -1;
}

static char *field(const char *id, const char *f)
{
    char key[DH_KEY_MAX];
    char *v = rig_worker_hget(dh_key_match(key, id), f);
    return v ? v : strdup("");
}

/* A StartMatch of game for the players ids (names their own), seed 42. */
static void start_game(rig_worker *r, const char *id, const char *game, const char *const *ids,
                       size_t n)
{
    Deckhand__Internal__Seat seat[4], *seatp[4];
    for (size_t i = 0; i < n; i++) {
        deckhand__internal__seat__init(&seat[i]);
        seat[i].player_id = (char *)ids[i];
        seat[i].name = (char *)ids[i] + 2;
        seatp[i] = &seat[i];
    }
    Deckhand__Internal__StartMatch sm = DECKHAND__INTERNAL__START_MATCH__INIT;
    sm.match_id = (char *)id;
    sm.game = (char *)game;
    sm.seed = 42;
    sm.n_seats = n;
    sm.seats = seatp;
    host_start_match(&r->h, &sm, r->now);
    host_flush(&r->h, r->now);
    for (size_t i = 0; i < n; i++)
        rig_worker_command(r, id, ids[i], 1, NULL); /* attach */
    rig_outbox o;
    rig_worker_gw_drain(r, &o);
    rig_outbox_free(&o);
    rig_worker_mm_drain(r);
}

static void start_seats(rig_worker *r, const char *id, const char *const *ids, size_t n)
{
    start_game(r, id, "dominion", ids, n);
}

static void test_two_seat_resign_ends_the_match_and_the_resigner_loses(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    static const char *const ids[] = {"a-ann", "a-bob"};
    start_seats(&r, "m-res", ids, 2);
    resign(&r, "m-res", "a-ann", 7);
    rig_outbox o;
    rig_worker_gw_drain(&r, &o); /* nothing before Redis has the end */
    CU_ASSERT_EQUAL(reply_code(&o, "a-ann", 7), -1);
    CU_ASSERT_PTR_NULL(rig_outbox_find(&o, "a-bob", DECKHAND__SERVER_MESSAGE__BODY_GAME_OVER));
    rig_outbox_free(&o);
    host_flush(&r.h, r.now);
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_EQUAL(reply_code(&o, "a-ann", 7), 0);
    for (int s = 0; s < 2; s++) {
        const Deckhand__ServerMessage *m =
            rig_outbox_find(&o, ids[s], DECKHAND__SERVER_MESSAGE__BODY_GAME_OVER);
        CU_ASSERT_PTR_NOT_NULL_FATAL(m);
        const Deckhand__GameOver *go = m->game_over;
        CU_ASSERT_STRING_EQUAL(go->reason, "resigned");
        CU_ASSERT_STRING_EQUAL(go->summary, "ann resigned. bob wins.");
        CU_ASSERT_FALSE(go->unrated);
        CU_ASSERT_EQUAL_FATAL(go->n_results, 2);
        for (size_t i = 0; i < 2; i++) {
            const Deckhand__PlayerResult *pr = go->results[i];
            CU_ASSERT_EQUAL(pr->rank, pr->seat == 0 ? 2u : 1u);
            CU_ASSERT_EQUAL(pr->resigned, pr->seat == 0);
            CU_ASSERT(pr->n_deck > 0); /* a deck-builder: the starting cards at least */
        }
    }
    rig_outbox_free(&o);
    char *why = field("m-res", DH_F_END_REASON), *result = field("m-res", DH_F_RESULT);
    CU_ASSERT_STRING_EQUAL(why, DH_END_RESIGNED);
    CU_ASSERT_PTR_NOT_NULL(
        strstr(result, "\"rank\":2,\"turns\":0,\"forfeit\":true,\"resigned\":true"));
    free(why);
    free(result);
    char *job = rig_worker_hget(DH_KEY_MATCHES_UNRATED, "m-res");
    CU_ASSERT_PTR_NOT_NULL(job); /* two accounts: rated, as a loss for the resigner */
    free(job);
    /* the match is gone: another Resign finds nothing */
    resign(&r, "m-res", "a-bob", 8);
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_EQUAL(reply_code(&o, "a-bob", 8), DECKHAND__ERROR_CODE__UNKNOWN_MATCH);
    rig_outbox_free(&o);
    rig_worker_close_drained(&r);
}

static void test_resign_against_bots_ends_at_once_unrated(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    Deckhand__Internal__Seat s0 = DECKHAND__INTERNAL__SEAT__INIT, s1 = s0, s2 = s0;
    s0.player_id = "a-ann";
    s0.name = "ann";
    s1.player_id = "m-ai:bot2";
    s1.name = "Bot 1";
    s1.bot = "normal";
    s2.player_id = "m-ai:bot3";
    s2.name = "Bot 2";
    s2.bot = "normal";
    Deckhand__Internal__Seat *seats[] = {&s0, &s1, &s2};
    Deckhand__Internal__StartMatch sm = DECKHAND__INTERNAL__START_MATCH__INIT;
    sm.match_id = "m-ai";
    sm.game = "dominion";
    sm.seed = 9;
    sm.n_seats = 3;
    sm.seats = seats;
    sm.unrated = true;
    host_start_match(&r.h, &sm, r.now);
    host_flush(&r.h, r.now);
    rig_worker_command(&r, "m-ai", "a-ann", 1, NULL);
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    rig_outbox_free(&o);
    /* three seats, but nobody but bots would play on: it ends */
    resign(&r, "m-ai", "a-ann", 2);
    host_flush(&r.h, r.now);
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_EQUAL(reply_code(&o, "a-ann", 2), 0);
    const Deckhand__ServerMessage *m =
        rig_outbox_find(&o, "a-ann", DECKHAND__SERVER_MESSAGE__BODY_GAME_OVER);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_STRING_EQUAL(m->game_over->reason, "resigned");
    CU_ASSERT_STRING_EQUAL(m->game_over->summary, "ann resigned. Bot 1 and Bot 2 share the win.");
    CU_ASSERT_TRUE(m->game_over->unrated);
    rig_outbox_free(&o);
    CU_ASSERT_PTR_NULL(host_find(&r.h, "m-ai"));
    rig_worker_close_drained(&r);
}

static void test_resign_with_more_seats_lets_a_bot_play_on_and_ranks_last(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    static const char *const ids[] = {"a-ann", "a-bob", "a-cat"};
    start_seats(&r, "m-three", ids, 3);
    host_match *hm = host_find(&r.h, "m-three");
    CU_ASSERT_PTR_NOT_NULL_FATAL(hm);
    resign(&r, "m-three", "a-bob", 5);
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_EQUAL(reply_code(&o, "a-bob", 5), 0);
    const Deckhand__ServerMessage *m =
        rig_outbox_find(&o, "a-bob", DECKHAND__SERVER_MESSAGE__BODY_GAME_OVER);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_STRING_EQUAL(m->game_over->reason, "resigned");
    CU_ASSERT_EQUAL(m->game_over->n_results, 0);
    CU_ASSERT_PTR_NULL(rig_outbox_find(&o, "a-ann", DECKHAND__SERVER_MESSAGE__BODY_GAME_OVER));
    rig_outbox_free(&o);
    CU_ASSERT_TRUE(hm->seats[1].robot);
    CU_ASSERT_FALSE(host_over(hm));
    host_flush(&r.h, r.now); /* the notes' write */
    char *removed = field("m-three", DH_F_REMOVED);
    CU_ASSERT_STRING_EQUAL(removed, "0,2,0"); /* an adopter keeps it a bot's */
    free(removed);
    /* the resigner is refused from now on */
    rig_worker_command(&r, "m-three", "a-bob", 6, NULL);
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_EQUAL(reply_code(&o, "a-bob", 6), DECKHAND__ERROR_CODE__UNKNOWN_MATCH);
    rig_outbox_free(&o);
    /* a second resignation leaves one seat playing: the match ends, both resigners last */
    resign(&r, "m-three", "a-ann", 9);
    host_flush(&r.h, r.now);
    rig_worker_gw_drain(&r, &o);
    m = rig_outbox_find(&o, "a-cat", DECKHAND__SERVER_MESSAGE__BODY_GAME_OVER);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_STRING_EQUAL(m->game_over->summary, "ann resigned. cat wins.");
    CU_ASSERT_EQUAL_FATAL(m->game_over->n_results, 3);
    for (size_t i = 0; i < 3; i++) {
        const Deckhand__PlayerResult *pr = m->game_over->results[i];
        CU_ASSERT_EQUAL(pr->rank, pr->seat == 2 ? 1u : 3u);
        CU_ASSERT_EQUAL(pr->resigned, pr->seat != 2);
    }
    rig_outbox_free(&o);
    rig_worker_close_drained(&r);
}

/* Bob resigns a three-seat match of the fixture game "mini" (six turns, scored by the cards
 * played), which the others play to its rules' end while a bot plays Bob's seat: Bob ranks
 * last whatever his score, the others by theirs. */
static void test_resign_then_the_rules_end_ranks_the_resigner_last(void)
{
    rig_worker r;
    rig_worker_open(&r, "tests/fixtures/bundle", NULL);
    static const char *const ids[] = {"a-ann", "a-bob", "a-cat"};
    start_game(&r, "m-mini", "mini", ids, 3);
    host_match *hm = host_find(&r.h, "m-mini");
    CU_ASSERT_PTR_NOT_NULL_FATAL(hm);
    resign(&r, "m-mini", "a-bob", 2);
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    rig_outbox_free(&o);
    const Deckhand__GameOver *go = NULL;
    Deckhand__ServerMessage *end = NULL;
    for (uint64_t cmd = 10; cmd < 200 && !end; cmd++) {
        hm = host_find(&r.h, "m-mini");
        const engine_decision *d = hm ? engine_match_decision(hm->m) : NULL;
        if (d && d->seat != 1) {
            Deckhand__Choose c;
            uint32_t opt[64];
            rig_worker_legal_choice(d, &c, opt);
            rig_worker_command(&r, "m-mini", ids[d->seat], cmd, &c);
        }
        host_tick(&r.h, r.now); /* the bot's answer for Bob's seat */
        host_flush(&r.h, r.now);
        rig_worker_gw_drain(&r, &o);
        const Deckhand__ServerMessage *m =
            rig_outbox_find(&o, "a-cat", DECKHAND__SERVER_MESSAGE__BODY_GAME_OVER);
        if (m) {
            size_t len = deckhand__server_message__get_packed_size(m);
            uint8_t buf[len + 1];
            deckhand__server_message__pack(m, buf);
            end = deckhand__server_message__unpack(NULL, len, buf);
        }
        rig_outbox_free(&o);
    }
    CU_ASSERT_PTR_NOT_NULL_FATAL(end);
    go = end->game_over;
    CU_ASSERT_STRING_EQUAL(go->reason, "");
    CU_ASSERT_EQUAL_FATAL(go->n_results, 3);
    const Deckhand__PlayerResult *ann = NULL, *cat = NULL;
    for (size_t i = 0; i < 3; i++) {
        const Deckhand__PlayerResult *pr = go->results[i];
        CU_ASSERT_EQUAL(pr->resigned, pr->seat == 1);
        if (pr->seat == 1)
            CU_ASSERT_EQUAL(pr->rank, 3u);
        ann = pr->seat == 0 ? pr : ann;
        cat = pr->seat == 2 ? pr : cat;
    }
    CU_ASSERT_PTR_NOT_NULL_FATAL(ann);
    CU_ASSERT_PTR_NOT_NULL_FATAL(cat);
    CU_ASSERT_EQUAL(ann->rank, ann->score >= cat->score ? 1u : 2u);
    CU_ASSERT_EQUAL(cat->rank, cat->score >= ann->score ? 1u : 2u);
    deckhand__server_message__free_unpacked(end, NULL);
    rig_worker_close_drained(&r);
}

static void test_resign_of_an_unknown_match_or_player_is_refused(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    static const char *const ids[] = {"a-ann", "a-bob"};
    start_seats(&r, "m-x", ids, 2);
    resign(&r, "m-nope", "a-ann", 3);
    resign(&r, "m-x", "a-eve", 4);
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_EQUAL(reply_code(&o, "a-ann", 3), DECKHAND__ERROR_CODE__UNKNOWN_MATCH);
    CU_ASSERT_EQUAL(reply_code(&o, "a-eve", 4), DECKHAND__ERROR_CODE__UNKNOWN_MATCH);
    rig_outbox_free(&o);
    CU_ASSERT_FALSE(host_over(host_find(&r.h, "m-x")));
    rig_worker_close_drained(&r);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"two_seat_resign_ends_the_match_and_the_resigner_loses",
         test_two_seat_resign_ends_the_match_and_the_resigner_loses},
        {"resign_against_bots_ends_at_once_unrated", test_resign_against_bots_ends_at_once_unrated},
        {"resign_with_more_seats_lets_a_bot_play_on_and_ranks_last",
         test_resign_with_more_seats_lets_a_bot_play_on_and_ranks_last},
        {"resign_then_the_rules_end_ranks_the_resigner_last",
         test_resign_then_the_rules_end_ranks_the_resigner_last},
        {"resign_of_an_unknown_match_or_player_is_refused",
         test_resign_of_an_unknown_match_or_player_is_refused},
        {NULL, NULL},
    };
    return rig_worker_main("worker_resign", cases);
}
