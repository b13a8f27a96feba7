-- accession/tests/strong.lua: Accession's own bot `strong` (accession/bots.lua), the
-- search's play-out policy (game.lua: search_playout): what it buys where it differs
-- from `default`, that it ends games, and that its named form picks what its labelled
-- form picks; and the search's endgame candidates `greener` and `browner`.
local kit = require("deckbuilder.testkit")
local game = require("accession.game")

local tests = {}

local function buy(m, p, coins)
  return game.kernel.bots.strong.buy(game.kernel, m.g, p, coins, 1)
end

-- A match in which player 1 owns the given cards too (gained before the first turn).
local function owning(names)
  return { players = 2, setup = function(g)
    for _, name in ipairs(names) do game.kernel:gain(g, 1, name) end
  end }
end

function tests.test_strong_buys_a_militia_first_then_a_second_militia(T)
  local m = T.match(owning {})
  T.eq(buy(m, 1, 4), "Militia", "the first terminal is a Militia")
  T.eq(game.kernel.bots.default.buy(game.kernel, m.g, 1, 4, 1), "Smithy",
       "where `default` takes a Smithy")
  m = T.match(owning { "Militia" })
  T.eq(buy(m, 1, 4), "Silver", "11 cards: one terminal is enough")
  m = T.match(owning { "Militia", "Silver", "Silver", "Silver", "Silver", "Silver" })
  T.eq(buy(m, 1, 4), "Militia", "16 cards: a second terminal, a Militia")
end

function tests.test_strong_wants_its_second_terminal_a_militia_from_12_cards(T)
  local m = T.match(owning { "Militia" })
  T.eq(buy(m, 1, 4), "Silver", "11 cards: one terminal is enough")
  m = T.match(owning { "Militia", "Silver" })
  T.eq(buy(m, 1, 4), "Militia", "12 cards: a second Militia")
  T.eq(game.kernel.bots.default.buy(game.kernel, m.g, 1, 4, 1), "Silver",
       "where `default`, with one terminal, waits for 16 cards")
end

function tests.test_strong_buys_a_smithy_as_its_third_terminal_from_28_cards(T)
  local gains = { "Militia", "Militia" }
  for _ = 1, 15 do gains[#gains + 1] = "Silver" end
  T.eq(buy(T.match(owning(gains)), 1, 4), "Silver", "27 cards: two terminals are enough")
  gains[#gains + 1] = "Silver"
  T.eq(buy(T.match(owning(gains)), 1, 4), "Smithy", "28 cards: a third, a Smithy")
end

function tests.test_strong_buys_a_market_at_5_once_its_terminals_are_enough(T)
  local m = T.match(owning { "Militia" })
  T.eq(buy(m, 1, 5), "Market")
  T.eq(game.kernel.bots.default.buy(game.kernel, m.g, 1, 5, 1), "Silver",
       "where `default` takes a Silver")
  T.eq(buy(T.match(owning {}), 1, 5), "Militia", "a terminal wanted comes first")
end

function tests.test_strong_buys_a_market_not_a_second_terminal_at_5(T)
  local m = T.match(owning { "Militia", "Silver", "Silver", "Silver", "Silver", "Silver" })
  T.eq(buy(m, 1, 5), "Market", "16 cards, one terminal: $5 buys a Market")
  T.eq(buy(m, 1, 4), "Militia", "the second terminal comes from a $4 hand")
  T.eq(game.kernel.bots.default.buy(game.kernel, m.g, 1, 5, 1), "Smithy",
       "where `default` takes its second Smithy at $5")
end

function tests.test_strong_greens_and_checks_the_end_as_default(T)
  local m = T.match(kit.match { more = function(g) kit.empty_pile(g, "Province", 1) end })
  -- one Province left, both at 3 points: the last Province wins the game
  T.eq(buy(m, 1, 8), "Province")
  T.eq(buy(m, 1, 6), "Duchy", "Duchy over Gold at 4 Provinces or fewer")
  T.eq(buy(m, 1, 3), "Estate", "Estate over Silver at 2 or fewer")
end

local function kernel_of() return game.kernel end

-- A two-player match with `provinces` Provinces left, player 2 holding `gains` too, and
-- the Duchies gone when no_duchies (kit.near_the_end's, as `buy` takes it).
local function near_end(T, provinces, gains, no_duchies)
  local g = kit.near_the_end(T, kernel_of, provinces, { [2] = gains })
  if no_duchies then kit.empty_pile(g, "Duchy", 0) end
  return { g = g }
end

function tests.test_strong_takes_a_duchy_not_the_penultimate_province_when_just_behind(T)
  local m = near_end(T, 2, { "Duchy" })
  T.eq(buy(m, 1, 8), "Duchy", "behind by 3: a Province would leave player 2 a winning last one")
  T.eq(game.kernel.bots.default.buy(game.kernel, m.g, 1, 8, 1), "Province",
       "where `default` takes the Province")
  T.eq(buy(near_end(T, 2, { "Estate" }), 1, 8), "Duchy", "behind by 1")
  T.eq(buy(near_end(T, 2, { "Duchy", "Estate" }), 1, 8), "Province",
       "behind by 4: the Province is the way to catch up")
  T.eq(buy(near_end(T, 2, {}), 1, 8), "Province", "level")
  T.eq(buy(near_end(T, 3, { "Duchy" }), 1, 8), "Province", "3 Provinces left")
end

function tests.test_strong_takes_an_estate_for_a_duchy_when_none_is_left_at_the_end(T)
  local m = near_end(T, 1, { "Duchy" }, true)
  T.eq(buy(m, 1, 6), "Estate", "the last Province left, no Duchy: an Estate over Gold")
  T.eq(buy(m, 1, 5), "Estate", "and over Silver")
  T.eq(game.kernel.bots.default.buy(game.kernel, m.g, 1, 6, 1), "Gold",
       "where `default` takes the Gold after the Duchy it wanted")
  T.eq(buy(near_end(T, 1, { "Duchy" }), 1, 6), "Duchy", "Duchies left: a Duchy")
  m = near_end(T, 2, { "Duchy" }, true)
  T.eq(buy(m, 1, 6), "Estate", "2 Provinces left, behind by 3: an Estate")
  T.eq(buy(m, 2, 6), "Gold", "2 Provinces left, ahead by 3: the Gold")
  T.eq(buy(near_end(T, 2, { "Duchy", "Estate" }, true), 1, 6), "Gold",
       "2 Provinces left, behind by 4: the Gold")
end

-- A two-player match with `provinces` Provinces left, player 1 holding `gains` too (its
-- start alone is $7 in 10 cards, 0.7 a card), as near_end.
local function deck_of(T, provinces, gains)
  return { g = kit.near_the_end(T, kernel_of, provinces, { gains }) }
end

function tests.test_strong_takes_a_duchy_over_gold_at_5_provinces_with_a_rich_deck(T)
  local rich = deck_of(T, 5, { "Gold", "Gold", "Gold" })
  T.eq(buy(rich, 1, 6), "Duchy", "$16 in 13 cards, 1.23 a card: a Duchy at 5 left")
  T.eq(game.kernel.bots.default.buy(game.kernel, rich.g, 1, 6, 1), "Gold",
       "where `default` takes the Gold")
  T.eq(buy(deck_of(T, 5, { "Gold", "Gold" }), 1, 7), "Gold", "$13 in 12 cards, 1.08: the Gold")
  T.eq(buy(deck_of(T, 6, { "Gold", "Gold", "Gold" }), 1, 6), "Gold", "6 left: the Gold")
end

function tests.test_strong_takes_gold_over_a_duchy_at_3_or_4_provinces_with_a_thin_deck(T)
  local thin = deck_of(T, 4, {})
  T.eq(buy(thin, 1, 6), "Gold", "0.7 a card at 4 left: the Gold")
  T.eq(game.kernel.bots.default.buy(game.kernel, thin.g, 1, 6, 1), "Duchy",
       "where `default` takes the Duchy")
  T.eq(buy(deck_of(T, 3, {}), 1, 7), "Gold", "and at 3 left")
  T.eq(buy(deck_of(T, 4, { "Silver" }), 1, 6), "Duchy", "$9 in 11 cards, 0.82: the Duchy")
  T.eq(buy(deck_of(T, 2, {}), 1, 6), "Duchy", "2 left: the Duchy, however thin")
end

function tests.test_strong_finishes_games_with_2_to_4_players(T)
  for n = 2, 4 do
    kit.bot_games(T, { players = { n }, seeds = { 10 + n }, bots = { "strong", "default" } })
  end
end

function tests.test_strong_names_the_action_and_buy_it_picks_from_the_options(T)
  kit.check_named_is_labelled(T, {
    kernel = game.kernel, bot = game.bots.strong, named = game.kernel.bots.strong,
    name = "strong", seed = 8, max = 5000, min = 30,
    decision = kit.inline_decision,
    buy = function(named, k, g, p)
      return named.buy(k, g, p, g:counter("coins"), g:counter("turns", p))
    end,
  })
end

local function buy_of(bot, m, p, coins)
  local b = require("accession.bots")[bot]
  local w = b(game.kernel, m.g, p, coins)
  return w[1]
end

function tests.test_endgame_candidates_buy_as_strong_until_the_end_nears(T)
  local m = T.match(owning { "Militia", "Silver", "Silver", "Silver", "Silver", "Silver" })
  for _, coins in ipairs({ 3, 4, 5, 6, 8 }) do
    local want = buy_of("strong", m, 1, coins)
    T.eq(buy_of("greener", m, 1, coins), want, "greener, $" .. coins)
    T.eq(buy_of("browner", m, 1, coins), want, "browner, $" .. coins)
  end
end

function tests.test_endgame_candidates_go_one_step_greener_and_browner_near_the_end(T)
  local m = T.match(kit.match { more = function(g) kit.empty_pile(g, "Province", 6) end })
  T.eq(buy_of("greener", m, 1, 8), buy_of("strong", m, 1, 8), "6 Provinces left: not yet")
  m = T.match(kit.match { more = function(g) kit.empty_pile(g, "Province", 5) end })
  T.eq(buy_of("greener", m, 1, 8), "Duchy", "5 Provinces left: the end nears")
  m = T.match(kit.match { more = function(g) kit.empty_pile(g, "Province", 4) end })
  T.eq(buy_of("strong", m, 1, 8), "Province")
  T.eq(buy_of("greener", m, 1, 8), "Duchy")
  T.eq(buy_of("browner", m, 1, 8), "Gold")
  T.eq(buy_of("strong", m, 1, 6), "Duchy")
  T.eq(buy_of("greener", m, 1, 6), "Estate")
  T.eq(buy_of("browner", m, 1, 6), "Gold")
  T.eq(buy_of("greener", m, 1, 3), "Estate", "Silver, one step greener")
end

-- The action p's bot plays from the pending decision (a match whose first turn is player
-- 1's): its labelled answer's card, and its named form's pick from the same hand.
local function played(T, m, bot)
  local d = kit.inline_decision(m)
  local o = d.options[game.bots[bot](m.g, d.player, d)[1]]
  local name = o.card and m.g:name(o.card) or nil
  local forms = game.kernel.bots[bot] -- the search's candidates have no named form
  if forms then
    local names = m.g:deck_actions(game.kernel.kit, d.player)
    T.eq(forms.action(game.kernel, m.g, d.player, names), name, bot .. ": named as labelled")
  end
  return name
end

local function hand_of(hand, deck, discard)
  return kit.match { hand = hand, deck = deck, discard = discard }
end

-- With hand and deck, `strong` plays want where `default` plays the first in its hand.
local function check_plays(T, hand, deck, want, default_plays)
  local m = T.match(hand_of(hand, deck))
  T.eq(played(T, m, "strong"), want)
  T.eq(played(T, m, "default"), default_plays, "where `default` plays the first in its hand")
end

function tests.test_strong_plays_the_militia_when_its_2_coins_buy_more_than_a_smithy_draws(T)
  -- $7 in hand, a deck of Estates: the Militia's $2 buy a Province, the Smithy draws $0
  check_plays(T, { "Smithy", "Militia", "Gold", "Gold", "Copper" },
              { "Estate", "Estate", "Estate", "Estate", "Estate" }, "Militia", "Smithy")
end

function tests.test_strong_plays_the_smithy_when_its_draw_buys_more_than_the_militias_2_coins(T)
  -- $3 in hand, a deck of Golds: the Smithy draws $9, the Militia's $2 make $5
  check_plays(T, { "Militia", "Smithy", "Copper", "Copper", "Copper" },
              { "Gold", "Gold", "Gold", "Gold", "Gold" }, "Smithy", "Militia")
end

function tests.test_strong_counts_a_short_decks_draw_from_its_discard_pile(T)
  -- one Estate in the deck: the Smithy draws it and two of the discarded Golds
  local m = T.match(hand_of({ "Militia", "Smithy", "Copper", "Copper", "Copper" },
                            { "Estate" }, { "Gold", "Gold", "Gold" }))
  T.eq(played(T, m, "strong"), "Smithy")
  m = T.match(hand_of({ "Smithy", "Militia", "Gold", "Gold", "Copper" }, { "Gold" },
                      { "Estate", "Estate", "Estate" }))
  T.eq(played(T, m, "strong"), "Militia",
       "a Gold and two Estates: a Province either way, and the attack")
end

function tests.test_strong_plays_a_market_first_and_its_endgame_candidates_play_as_it(T)
  local m = T.match(hand_of({ "Militia", "Smithy", "Market", "Copper", "Copper" }))
  T.eq(played(T, m, "strong"), "Market")
  m = T.match(hand_of({ "Smithy", "Militia", "Gold", "Gold", "Copper" },
                      { "Estate", "Estate", "Estate", "Estate", "Estate" }))
  T.eq(played(T, m, "greener"), "Militia")
  T.eq(played(T, m, "browner"), "Militia")
end

return tests
