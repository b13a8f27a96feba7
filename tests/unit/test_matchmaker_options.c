/*
 * test_matchmaker_options.c: game options in the matchmaker (matchmaker/data/options.c): what
 * options_check accepts and refuses against the OptionSpecs a worker announced, the
 * canonical text, and a join's options through the real matchmaker (lines keyed by
 * options, StartMatch.options, BAD_REQUEST leaving nothing queued). Bot fill and the
 * game list are test_matchmaker_botfill.c.
 */
#include "options.h"
#include "rig_mm.h"
#include "rig_mm_options.h"

static void open_rig(rig_mm *r, const char *id)
{
    rig_mm_open(r, id, NULL, 1, 0);
    rig_mm_hello_options(r, 0);
    rig_mm_pump(r, 10);
}

/* A GameOption array of up to 12 name/value pairs. */
typedef struct {
    Deckhand__GameOption v[12];
    Deckhand__GameOption *p[12];
    size_t n;
} opts;

static void opt(opts *o, const char *name, const char *value)
{
    deckhand__game_option__init(&o->v[o->n]);
    o->v[o->n].name = (char *)name;
    o->v[o->n].value = (char *)value;
    o->p[o->n] = &o->v[o->n];
    o->n++;
}

static bool check(rig_mm *r, const opts *o, char *why)
{
    return options_check(&r->mm.reg, "dominion", o->p, o->n, why, 160);
}

static void test_options_check_accepts_declared_values(void)
{
    rig_mm r;
    open_rig(&r, "mm-opt-1");
    char why[160] = "";
    opts o = {0};
    CU_ASSERT_TRUE(check(&r, &o, why));
    opt(&o, "kingdom", "random");
    CU_ASSERT_TRUE(check(&r, &o, why));
    rig_mm_close(&r);
}

static void test_options_check_refuses_unknown_options_and_values(void)
{
    rig_mm r;
    open_rig(&r, "mm-opt-2");
    char why[160];
    opts o = {0};
    opt(&o, "colour", "red");
    CU_ASSERT_FALSE(check(&r, &o, why));
    CU_ASSERT_STRING_EQUAL(why, "dominion has no option 'colour'");
    opts v = {0};
    opt(&v, "kingdom", "chaos");
    CU_ASSERT_FALSE(check(&r, &v, why));
    CU_ASSERT_STRING_EQUAL(why, "option 'kingdom' takes no value 'chaos'");
    opts twice = {0};
    opt(&twice, "kingdom", "random");
    opt(&twice, "kingdom", "big_money");
    CU_ASSERT_FALSE(check(&r, &twice, why));
    CU_ASSERT_STRING_EQUAL(why, "option 'kingdom' given twice");
    CU_ASSERT_FALSE(options_check(&r.mm.reg, "chess", NULL, 0, why, sizeof why));
    rig_mm_close(&r);
}

static void test_options_check_refuses_bad_strings_without_echoing_them(void)
{
    rig_mm r;
    open_rig(&r, "mm-opt-3");
    char why[160];
    opts many = {0};
    for (int i = 0; i < OPTIONS_MAX + 1; i++)
        opt(&many, "kingdom", "random");
    CU_ASSERT_FALSE(check(&r, &many, why));
    CU_ASSERT_STRING_EQUAL(why, "too many options: at most 8");
    opts ctl = {0};
    opt(&ctl, "king\ndom", "random");
    CU_ASSERT_FALSE(check(&r, &ctl, why));
    CU_ASSERT_PTR_NULL(strchr(why, '\n'));
    opts vctl = {0};
    opt(&vctl, "kingdom", "ran\x1b[2Jdom");
    CU_ASSERT_FALSE(check(&r, &vctl, why));
    CU_ASSERT_PTR_NULL(strchr(why, '\x1b'));
    char longv[OPTIONS_VALUE_MAX + 2];
    memset(longv, 'a', sizeof longv - 1);
    longv[sizeof longv - 1] = '\0';
    opts lv = {0};
    opt(&lv, "kingdom", longv);
    CU_ASSERT_FALSE(check(&r, &lv, why));
    opts empty = {0};
    opt(&empty, "", "random");
    CU_ASSERT_FALSE(check(&r, &empty, why));
    rig_mm_close(&r);
}

/* A list option (OptionSpec.items): a comma-separated list of distinct items, as many as
 * list_size, card names with spaces included; what is wrong is named. */
static void test_options_check_takes_a_list_of_declared_items(void)
{
    rig_mm r;
    open_rig(&r, "mm-opt-5");
    char why[160];
    static const struct {
        const char *value, *why; /* why NULL: accepted */
    } cases[] = {
        {"Cellar,Throne Room,Witch", NULL},
        {"Witch,Chapel,Cellar", NULL},
        {"Cellar,Wizard,Witch", "option 'kingdom': 'Wizard' is not one of its items"},
        {"Cellar,Cellar,Witch", "option 'kingdom': 'Cellar' is listed twice"},
        {"Cellar,Witch", "option 'kingdom': a list of 3 items, not 2"},
        {"Cellar,Witch,", "option 'kingdom': item 3 of the list must be 1-32 characters of "
                          "A-Z a-z 0-9 _ - and space"},
        {"Cellar,Wi\x1b[2Jtch,Chapel", "option 'kingdom': item 2 of the list must be 1-32 "
                                       "characters of A-Z a-z 0-9 _ - and space"},
        {"Witch", "option 'kingdom' takes no value 'Witch'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        opts o = {0};
        opt(&o, "kingdom", cases[i].value);
        why[0] = '\0';
        CU_ASSERT_EQUAL(check(&r, &o, why), cases[i].why == NULL);
        if (cases[i].why)
            CU_ASSERT_STRING_EQUAL(why, cases[i].why);
    }
    opts o = {0};
    opt(&o, "kingdom", "Cellar,Throne Room,Witch");
    char out[QUEUE_OPTIONS_MAX];
    options_canon_for(&r.mm.reg, "dominion", o.p, o.n, out, sizeof out);
    CU_ASSERT_STRING_EQUAL(out, "kingdom=Cellar,Throne Room,Witch");
    CU_ASSERT_EQUAL(options_from_records(o.p, o.n, out, sizeof out), 0);
    rig_mm_close(&r);
}

static void test_options_canon_sorts_by_name_and_drops_empty_values(void)
{
    opts o = {0};
    opt(&o, "zeta", "1");
    opt(&o, "alpha", "x");
    opt(&o, "mid", "");
    char out[QUEUE_OPTIONS_MAX];
    CU_ASSERT_EQUAL(options_canon(o.p, o.n, out, sizeof out), strlen("alpha=x;zeta=1"));
    CU_ASSERT_STRING_EQUAL(out, "alpha=x;zeta=1");
    CU_ASSERT_EQUAL(options_canon(NULL, 0, out, sizeof out), 0);
    CU_ASSERT_STRING_EQUAL(out, "");
    char tiny[4];
    CU_ASSERT_TRUE(options_canon(o.p, o.n, tiny, sizeof tiny) >= sizeof tiny);
    CU_ASSERT_STRING_EQUAL(tiny, "");
}

static void test_options_canon_for_leaves_out_the_default(void)
{
    rig_mm r;
    open_rig(&r, "mm-opt-4");
    opts o = {0};
    opt(&o, "kingdom", "first_game");
    char out[QUEUE_OPTIONS_MAX];
    options_canon_for(&r.mm.reg, "dominion", o.p, o.n, out, sizeof out);
    CU_ASSERT_STRING_EQUAL(out, "");
    opts rnd = {0};
    opt(&rnd, "kingdom", "random");
    options_canon_for(&r.mm.reg, "dominion", rnd.p, rnd.n, out, sizeof out);
    CU_ASSERT_STRING_EQUAL(out, "kingdom=random");
    options_list l;
    options_list_of(&l, "a=1;kingdom=random");
    CU_ASSERT_EQUAL(l.n, 2);
    CU_ASSERT_STRING_EQUAL(l.p[1]->name, "kingdom");
    CU_ASSERT_STRING_EQUAL(l.p[1]->value, "random");
    rig_mm_close(&r);
}

static void test_tickets_with_different_options_never_meet(void)
{
    rig_mm r;
    open_rig(&r, "mm-opt-5");
    rig_mm_join_kingdom(r.gw, "p1", 1, "random");
    rig_mm_join_kingdom(r.gw, "p2", 2, NULL);
    rig_mm_join_kingdom(r.gw, "p3", 3, "first_game"); /* the default: the same line as none */
    rig_mm_pump(&r, 20);
    CU_ASSERT_EQUAL(rig_mm_reply(r.gw, 1), 0);
    CU_ASSERT_EQUAL(rig_mm_reply(r.gw, 2), 0);
    CU_ASSERT_EQUAL(rig_mm_reply(r.gw, 3), 0);
    int w;
    Deckhand__Internal__Internal *m = rig_mm_expect_start(&r, &w);
    rig_mm_check_seats(m->start_match, "p2,p3");
    CU_ASSERT_EQUAL(m->start_match->n_options, 0);
    deckhand__internal__internal__free_unpacked(m, NULL);
    CU_ASSERT_TRUE(queue_has(r.mm.queues, "p1"));
    rig_mm_join_kingdom(r.gw, "p4", 4, "random");
    rig_mm_pump(&r, 30);
    CU_ASSERT_EQUAL(rig_mm_reply(r.gw, 4), 0);
    m = rig_mm_expect_start(&r, &w);
    rig_mm_check_seats(m->start_match, "p1,p4");
    CU_ASSERT_EQUAL_FATAL(m->start_match->n_options, 1);
    CU_ASSERT_STRING_EQUAL(m->start_match->options[0]->name, "kingdom");
    CU_ASSERT_STRING_EQUAL(m->start_match->options[0]->value, "random");
    deckhand__internal__internal__free_unpacked(m, NULL);
    rig_mm_close(&r);
}

static void test_join_with_an_unknown_option_is_a_bad_request_and_queues_nothing(void)
{
    rig_mm r;
    open_rig(&r, "mm-opt-6");
    rig_mm_join_kingdom(r.gw, "p1", 1, "no_such_kingdom");
    rig_mm_pump(&r, 20);
    char why[160] = "";
    CU_ASSERT_EQUAL(rig_mm_reply_why(r.gw, 1, why, sizeof why), DECKHAND__ERROR_CODE__BAD_REQUEST);
    CU_ASSERT_STRING_EQUAL(why, "option 'kingdom' takes no value 'no_such_kingdom'");
    CU_ASSERT_FALSE(queue_has(r.mm.queues, "p1"));
    CU_ASSERT_EQUAL(queue_lines(r.mm.queues), 0);
    rig_mm_close(&r);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"options_check_accepts_declared_values", test_options_check_accepts_declared_values},
        {"options_check_refuses_unknown_options_and_values",
         test_options_check_refuses_unknown_options_and_values},
        {"options_check_refuses_bad_strings_without_echoing_them",
         test_options_check_refuses_bad_strings_without_echoing_them},
        {"options_check_takes_a_list_of_declared_items",
         test_options_check_takes_a_list_of_declared_items},
        {"options_canon_sorts_by_name_and_drops_empty_values",
         test_options_canon_sorts_by_name_and_drops_empty_values},
        {"options_canon_for_leaves_out_the_default", test_options_canon_for_leaves_out_the_default},
        {"tickets_with_different_options_never_meet",
         test_tickets_with_different_options_never_meet},
        {"join_with_an_unknown_option_is_a_bad_request_and_queues_nothing",
         test_join_with_an_unknown_option_is_a_bad_request_and_queues_nothing},
        {NULL, NULL},
    };
    return dh_test_main("matchmaker_options", cases);
}
