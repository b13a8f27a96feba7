/*
 * test_rating.c: the OpenSkill Plackett-Luce update of common/dh_rating.c against values
 * computed by hand from the paper's formulas (Weng & Lin 2011, algorithm 4) with tau 0:
 *
 * Two new players, A beats B: sigma^2 = 625/9, beta^2 = 625/36, c^2 = 2 (sigma^2 + beta^2)
 * = 3125/18, c = 13.1762. Equal mu, so A's chance over {A,B} is 1/2: omega_A = sigma^2/c
 * * (1 - 1/2) = 2.63523, delta_A = (1/2)(1/2) sigma^2/c^2 = 0.1, damped by gamma = sigma/c
 * = 0.632456 to 0.0632456; sigma_A = (25/3) sqrt(1 - 0.0632456) = 8.06551. B mirrors A:
 * omega_B = sigma^2/c (0 - 1/2) on the first place and 0 on its own.
 */
#include "dh_rating.h"

#include <math.h>

#include "dh_test.h"

#define NEAR(a, b) CU_ASSERT_DOUBLE_EQUAL((a), (b), 1e-9)

static dh_rating_params bare(void)
{
    dh_rating_params p = dh_rating_defaults();
    p.tau = 0.0;
    return p;
}

static void test_rating_two_player_win_from_default(void)
{
    dh_rating_params p = bare();
    dh_rating r[2] = {dh_rating_new(), dh_rating_new()}, out[2];
    int ranks[2] = {1, 2};
    CU_ASSERT_EQUAL_FATAL(dh_rating_update(&p, r, ranks, 2, out), 0);
    NEAR(out[0].mu, 27.63523138347365);
    NEAR(out[0].sigma, 8.065506316323548);
    NEAR(out[1].mu, 22.36476861652635);
    NEAR(out[1].sigma, 8.065506316323548);
    NEAR(out[0].mu - 25.0, 25.0 - out[1].mu); /* zero-sum in mu between equals */
}

static void test_rating_four_player_ranking(void)
{
    dh_rating_params p = bare();
    dh_rating r[4] = {dh_rating_new(), dh_rating_new(), dh_rating_new(), dh_rating_new()};
    int ranks[4] = {1, 2, 3, 4};
    CU_ASSERT_EQUAL_FATAL(dh_rating_update(&p, r, ranks, 4, r), 0); /* in place */
    NEAR(r[0].mu, 27.795084971874736);
    NEAR(r[0].sigma, 8.263160757613477);
    NEAR(r[1].mu, 26.552824984374855);
    NEAR(r[1].sigma, 8.179213704945203);
    NEAR(r[2].mu, 24.68943500312503);
    NEAR(r[2].sigma, 8.083731307186588);
    NEAR(r[3].mu, 20.96265504062538);
    NEAR(r[3].sigma, 8.083731307186588);
}

static void test_rating_seat_order_does_not_matter(void)
{
    dh_rating_params p = bare();
    dh_rating r[4] = {dh_rating_new(), dh_rating_new(), dh_rating_new(), dh_rating_new()};
    int ranks[4] = {3, 1, 4, 2};
    CU_ASSERT_EQUAL_FATAL(dh_rating_update(&p, r, ranks, 4, r), 0);
    NEAR(r[1].mu, 27.795084971874736);
    NEAR(r[3].mu, 26.552824984374855);
    NEAR(r[0].mu, 24.68943500312503);
    NEAR(r[2].mu, 20.96265504062538);
}

static void test_rating_tie_for_first_of_three(void)
{
    dh_rating_params p = bare();
    dh_rating r[3] = {dh_rating_new(), dh_rating_new(), dh_rating_new()};
    int ranks[3] = {1, 1, 3};
    CU_ASSERT_EQUAL_FATAL(dh_rating_update(&p, r, ranks, 3, r), 0);
    NEAR(r[0].mu, 25.717219138186557);
    NEAR(r[1].mu, 25.717219138186557);
    NEAR(r[2].mu, 23.56556172362688);
    NEAR(r[0].sigma, 8.204837030780652);
    NEAR(r[2].sigma, 8.204837030780652);
}

static void test_rating_draw_between_equals_moves_no_mu(void)
{
    dh_rating_params p = bare();
    dh_rating r[2] = {dh_rating_new(), dh_rating_new()};
    int ranks[2] = {1, 1};
    CU_ASSERT_EQUAL_FATAL(dh_rating_update(&p, r, ranks, 2, r), 0);
    NEAR(r[0].mu, 25.0);
    NEAR(r[1].mu, 25.0);
    NEAR(r[0].sigma, 8.065506316323548);
}

static void test_rating_upset_moves_more_than_expected_win(void)
{
    dh_rating_params p = bare();
    dh_rating r[2] = {{30.0, 5.0}, {20.0, 7.0}};
    int ranks[2] = {2, 1}; /* the weaker player wins */
    CU_ASSERT_EQUAL_FATAL(dh_rating_update(&p, r, ranks, 2, r), 0);
    NEAR(r[0].mu, 28.266683291798692);
    NEAR(r[0].sigma, 4.944476731330846);
    NEAR(r[1].mu, 23.39730074807456);
    NEAR(r[1].sigma, 6.784571141408879);
}

static void test_rating_tau_widens_sigma_first(void)
{
    dh_rating_params p = dh_rating_defaults();
    dh_rating r[2] = {dh_rating_new(), dh_rating_new()};
    int ranks[2] = {1, 2};
    CU_ASSERT_EQUAL_FATAL(dh_rating_update(&p, r, ranks, 2, r), 0);
    NEAR(r[0].mu, 27.635389493140497);
    NEAR(r[0].sigma, 8.06590141354368);
}

static void test_rating_ordinal_of_a_new_player_is_zero(void)
{
    NEAR(dh_rating_ordinal(dh_rating_new()), 0.0);
    NEAR(dh_rating_ordinal((dh_rating){27.0, 8.0}), 3.0);
}

static void test_rating_refuses_bad_input(void)
{
    dh_rating_params p = bare();
    dh_rating r[2] = {dh_rating_new(), {25.0, 0.0}}, out[2];
    int ranks[2] = {1, 2};
    CU_ASSERT_EQUAL(dh_rating_update(&p, r, ranks, 1, out), -1);
    CU_ASSERT_EQUAL(dh_rating_update(&p, r, ranks, DH_RATING_SEATS + 1, out), -1);
    CU_ASSERT_EQUAL(dh_rating_update(&p, r, ranks, 2, out), -1); /* sigma 0 */
    r[1] = (dh_rating){NAN, 1.0};
    CU_ASSERT_EQUAL(dh_rating_update(&p, r, ranks, 2, out), -1);
}

static void test_rating_stored_text_round_trips(void)
{
    char text[DH_RATING_TEXT_MAX];
    dh_rating r;
    unsigned n;
    dh_rating_format((dh_rating){27.63523138347365, 8.065506316323548}, 3, text, sizeof text);
    CU_ASSERT_EQUAL(dh_rating_parse(text, &r, &n), 0);
    CU_ASSERT_EQUAL(r.mu, 27.63523138347365); /* %.17g: exact */
    CU_ASSERT_EQUAL(r.sigma, 8.065506316323548);
    CU_ASSERT_EQUAL(n, 3);
    CU_ASSERT_EQUAL(dh_rating_parse(NULL, &r, &n), 1); /* a new player */
    NEAR(r.mu, 25.0);
    CU_ASSERT_EQUAL(n, 0);
    CU_ASSERT_EQUAL(dh_rating_parse("nan 1 2", &r, &n), 1);
    CU_ASSERT_EQUAL(dh_rating_parse("25 -1 2", &r, &n), 1);
    NEAR(r.sigma, DH_RATING_SIGMA);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"rating_two_player_win_from_default", test_rating_two_player_win_from_default},
        {"rating_four_player_ranking", test_rating_four_player_ranking},
        {"rating_seat_order_does_not_matter", test_rating_seat_order_does_not_matter},
        {"rating_tie_for_first_of_three", test_rating_tie_for_first_of_three},
        {"rating_draw_between_equals_moves_no_mu", test_rating_draw_between_equals_moves_no_mu},
        {"rating_upset_moves_more_than_expected_win",
         test_rating_upset_moves_more_than_expected_win},
        {"rating_tau_widens_sigma_first", test_rating_tau_widens_sigma_first},
        {"rating_ordinal_of_a_new_player_is_zero", test_rating_ordinal_of_a_new_player_is_zero},
        {"rating_refuses_bad_input", test_rating_refuses_bad_input},
        {"rating_stored_text_round_trips", test_rating_stored_text_round_trips},
        {NULL, NULL},
    };
    return dh_test_main("rating", cases);
}
