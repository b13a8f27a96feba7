-- Rules tests: set-up, the centre row, the turn and its decisions, temples and
-- keystones, the end of the game, scoring, views and logs, and the bots.
local kit = require("deckbuilder.testkit")
local A = require("ascension.testkit")

local HI = "Heavy Infantry"

local MONSTERS = { "Cultist", "Hellfrost Imps", "Kan'zir, the Ravager", "Starved Abomination",
                   "Hurras, Sea's Fury", "Crypt Lurker", "Mutated Scavenger",
                   "Iku, Valley Tyrant", "Cavern Horror" }

local tests = {}

-- ---- set-up ---------------------------------------------------------------------------

function tests.test_start_deck_is_8_apprentice_2_militia_with_a_hand_of_5(T)
  for n = 2, 4 do
    local m = T.match { players = n, seed = n }
    kit.check_start_deck(T, m, 5, { Apprentice = 8 })
    for p = 1, n do
      T.eq(m.g:count("deck", p), 5)
      T.eq(m.g:counter("_own:Militia", p), 2)
    end
    T.eq(m.g:counter("honour_pool"), 30 * n, "30 Honour per player")
  end
end

function tests.test_centre_row_is_six_dealt_cards_over_a_hidden_deck(T)
  local m = T.match { players = 2, seed = 3 }
  for i = 1, 6 do T.eq(m.g:count("row:" .. i, 0), 1) end
  T.eq(m.g:count("centre_deck", 0), 49 - 6)
  T.eq(m.g:count("supply:Mystic", 0), 20)
  T.eq(m.g:count("supply:Heavy Infantry", 0), 20)
  T.eq(m.g:count("supply:Cultist", 0), 1)
  T.eq(m.g:count("temples", 0), 3, "nobody holds a Temple at the start")
end

function tests.test_views_hide_the_centre_deck_and_show_row_and_constructs(T)
  local m = T.match(A.match { hand = { "Sacred Pot" } })
  kit.pick(m, "Play Sacred Pot")
  local v = m:view(2)
  for _, z in ipairs(kit.zones_named(v, "centre_deck")) do
    T.ok(z.count > 0)
    T.eq(#(z.cards or {}), 0, "the centre deck is hidden")
  end
  local rows = kit.zones_named(v, "row:1")
  T.eq(#rows, 1)
  T.eq(#rows[1].cards, 1, "the centre row is face up")
  local seen = 0
  for _, z in ipairs(kit.zones_named(v, "constructs")) do seen = seen + #(z.cards or {}) end
  T.eq(seen, 1, "player 2 sees player 1's construct")
end

-- ---- the centre row -------------------------------------------------------------------

function tests.test_centre_row_refills_from_the_hidden_deck(T)
  local m = T.match(A.match { hand = { "Apprentice", "Apprentice" },
                              centre = { "Templar Outpost", "Sacred Pot" } })
  kit.pick(m, "Play all treasures")
  kit.pick(m, "Buy Blind Seer (2 runes)")
  T.eq(A.row(m.g), "Ancient Stag,Templar Outpost,Shadowridge Scout,Alosyan Guide,"
       .. "Spiteful Gladiator,Burial Guardian")
  T.eq(kit.names(m.g, "centre_deck", 0), "Sacred Pot")
  T.ok(kit.saw(m, 2, "Templar Outpost enters the centre row"))
end

function tests.test_defeated_centre_monster_is_replaced_at_once(T)
  local m = T.match(A.match { hand = { HI }, centre = { "Sacred Pot" },
    row = { "Cavern Horror", "Blind Seer", "Blind Seer", "Blind Seer", "Blind Seer",
            "Blind Seer" } })
  kit.pick(m, "Play Heavy Infantry")
  kit.pick(m, "Defeat Cavern Horror (2 power)")
  T.eq(A.row(m.g), "Sacred Pot,Blind Seer,Blind Seer,Blind Seer,Blind Seer,Blind Seer")
end

function tests.test_cultist_is_permanent_and_never_runs_out(T)
  local m = T.match(A.match { hand = { HI, HI, HI } })
  kit.pick(m, "Play all treasures")
  for i = 1, 3 do
    kit.pick(m, "Defeat Cultist (2 power)")
    T.eq(m.g:count("supply:Cultist", 0), 1, "still there after defeat " .. i)
  end
  T.eq(m.g:counter("honour", 1), 3)
  T.eq(m.g:count("void", 0), 0)
  T.eq(m.g:counter("_own:Cultist", 1), 0)
end

function tests.test_monster_never_enters_the_deck(T)
  local m = T.match(A.match { hand = { HI, HI, HI },
    row = { "Crypt Lurker", "Cavern Horror", "Blind Seer" }, centre = { "Sacred Pot",
      "Sacred Pot", "Sacred Pot", "Sacred Pot", "Sacred Pot" } })
  kit.pick(m, "Play all treasures")
  kit.pick(m, "Defeat Crypt Lurker (4 power)")
  kit.pick(m, "Defeat Cavern Horror (2 power)")
  T.eq(kit.sorted(m.g, "void", 0), "Cavern Horror,Crypt Lurker")
  kit.pick(m, "End turn")
  for _, zone in ipairs({ "deck", "hand", "discard", "play", "constructs" }) do
    for _, name in ipairs(MONSTERS) do
      T.eq(kit.count_named(m.g, zone, 1, name), 0, name .. " in " .. zone)
    end
  end
end

function tests.test_empty_centre_deck_ends_the_game_after_the_round(T)
  local m = T.match(A.match { hand = { "Apprentice", "Apprentice" }, centre = {} })
  kit.pick(m, "Play all treasures")
  kit.pick(m, "Buy Blind Seer (2 runes)")
  T.eq(m.g:count("row:2", 0), 0, "the slot stays empty")
  kit.pick(m, "End turn")
  T.ok(not m:finished(), "player 2 still plays")
  kit.pick(m, "End turn")
  T.ok(m:finished())
end

-- ---- the turn and its decisions ------------------------------------------------------------

function tests.test_turn_decision_offers_play_buy_defeat_and_end(T)
  local m = T.match(A.match { hand = { "Apprentice", "Apprentice", "Apprentice", HI } })
  local d = m:decision()
  T.eq(d.kind, "buy")
  T.eq(d.player, 1)
  T.eq(kit.labels(m), "Play all treasures,Play Apprentice,Play Heavy Infantry,End turn")
  kit.pick(m, "Play all treasures")
  T.eq(kit.labels(m), "Buy Mystic (3 runes),Buy Heavy Infantry (2 runes),Defeat Cultist "
       .. "(2 power),Buy Ancient Stag (2 runes),Buy Blind Seer (2 runes),Buy Shadowridge "
       .. "Scout (2 runes),Buy Alosyan Guide (3 runes),Buy Spiteful Gladiator (3 runes),End turn")
  for _, o in ipairs(m:decision().options) do
    if o.label ~= "End turn" then T.ok(o.card, o.label .. " names its card") end
  end
end

function tests.test_runes_buy_only_heroes_and_power_only_defeats_monsters(T)
  local m = T.match(A.match { hand = { HI, HI }, row = { "Crypt Lurker", "Blind Seer" } })
  kit.pick(m, "Play all treasures")
  T.eq(kit.labels(m), "Defeat Cultist (2 power),Defeat Crypt Lurker (4 power),End turn")
end

function tests.test_play_all_plays_the_whole_hand_including_drawn_cards(T)
  local m = T.match(A.match { hand = { "Blind Seer", "Apprentice" }, deck = { "Militia" },
                              discard = { "Apprentice" } })
  kit.pick(m, "Play all treasures")
  T.eq(m.g:count("hand", 1), 0)
  T.eq(kit.names(m.g, "play", 1), "Blind Seer,Apprentice,Militia")
  T.eq(m.g:counter("runes"), 1)
  T.eq(m.g:counter("power"), 1)
end

function tests.test_cards_play_and_acquire_in_any_order(T)
  local m = T.match(A.match { hand = { "Apprentice", "Apprentice", HI, "Apprentice" } })
  kit.pick(m, "Play Apprentice")
  kit.pick(m, "Play Apprentice")
  kit.pick(m, "Buy Blind Seer (2 runes)")
  kit.pick(m, "Play Heavy Infantry")
  kit.pick(m, "Defeat Cultist (2 power)")
  kit.pick(m, "Play Apprentice")
  T.eq(m.g:counter("runes"), 1)
  T.eq(m.g:counter("honour", 1), 1)
end

function tests.test_end_of_turn_loses_runes_and_power_and_draws_five(T)
  local m = T.match(A.match { hand = { "Apprentice", "Militia" } })
  kit.pick(m, "Play all treasures")
  kit.pick(m, "End turn")
  T.eq(m.g:counter("runes"), 0)
  T.eq(m.g:counter("power"), 0)
  T.eq(m.g:count("hand", 1), 5)
  T.eq(kit.names(m.g, "discard", 1), "Apprentice,Militia")
  T.eq(m:decision().player, 2)
end

function tests.test_construct_stays_in_play_and_its_once_per_turn_effect(T)
  local m = T.match(A.match { hand = { "Beacon of the Lost", "Apprentice" },
                              discard = { "Soulsnare Hunter" } })
  kit.pick(m, "Play Beacon of the Lost")
  T.eq(m.g:counter("power"), 1)
  kit.pick(m, "End turn")
  T.eq(kit.names(m.g, "constructs", 1), "Beacon of the Lost", "stays after clean-up")
  T.eq(kit.count_named(m.g, "discard", 1, "Beacon of the Lost"), 0)
  kit.pick(m, "End turn")
  T.eq(m:decision().player, 1)
  T.eq(m.g:counter("runes"), 1, "its Rune again on the next turn")
  T.eq(m.g:counter("power"), 1, "its Echo again, once")
  kit.pick(m, "Play Apprentice")
  T.eq(m.g:counter("power"), 1)
  kit.pick(m, "End turn")
  T.eq(kit.names(m.g, "constructs", 1), "Beacon of the Lost")
end

-- ---- temples and keystones -------------------------------------------------------------------

function tests.test_keystone_takes_temple_from_other_player(T)
  local m = T.match(A.match { hand = { HI, HI, HI, HI },
    row = { "Starved Abomination", "Crypt Lurker" }, centre = { "Sacred Pot", "Sacred Pot",
      "Sacred Pot", "Sacred Pot", "Sacred Pot", "Sacred Pot" },
    more = function(g)
      A.give_temple(g, 2, "Temple of Life")
      A.give_temple(g, 2, "Temple of Death")
    end })
  kit.pick(m, "Play all treasures")
  kit.pick(m, "Defeat Starved Abomination (4 power)")
  T.eq(A.holder(m.g, "Temple of Life"), 1)
  T.eq(A.holder(m.g, "Temple of Death"), 2)
  T.ok(kit.saw_part(m, 2, "takes the Temple of Life from"))
  kit.pick(m, "Defeat Crypt Lurker (4 power)")
  T.eq(A.holder(m.g, "Temple of Death"), 1)
  T.eq(m.g:count("temples", 2), 0)
  T.eq(A.holder(m.g, "Temple of Immortality"), 0, "a taken Temple is a first Keystone")
end

function tests.test_keystone_takes_immortality_from_other_player(T)
  local m = T.match(A.match { hand = { HI, HI }, row = { "Starved Abomination" },
    more = function(g)
      A.give_temple(g, 1, "Temple of Life")
      A.give_temple(g, 2, "Temple of Immortality")
    end })
  kit.pick(m, "Play all treasures")
  kit.pick(m, "Defeat Starved Abomination (4 power)")
  T.eq(A.holder(m.g, "Temple of Immortality"), 1)
end

-- ---- the end and the score ------------------------------------------------------------------

function tests.test_honour_pool_end_finishes_the_round(T)
  local m = T.match(A.match { players = 3, hand = { HI },
    more = function(g) g:set_counter("honour_pool", 0, 1) end })
  kit.pick(m, "Play Heavy Infantry")
  kit.pick(m, "Defeat Cultist (2 power)")
  T.eq(m.g:counter("honour_pool"), 0)
  kit.pick(m, "End turn")
  T.ok(not m:finished(), "player 2 still plays")
  kit.pick(m, "End turn")
  T.ok(not m:finished(), "player 3 still plays")
  kit.pick(m, "End turn")
  T.ok(m:finished(), "every player had as many turns")
  for p = 1, 3 do T.eq(m:results()[p].turns, 1) end
end

function tests.test_honour_pool_emptied_by_the_last_player_ends_at_once(T)
  local m = T.match(A.match { hand = {},
    more = function(g)
      g:set_counter("honour_pool", 0, 1)
      kit.set_hand(g, 2, { HI })
    end })
  kit.pick(m, "End turn")
  kit.pick(m, "Play Heavy Infantry")
  kit.pick(m, "Defeat Cultist (2 power)")
  kit.pick(m, "End turn")
  T.ok(m:finished())
  T.eq(m:results()[2].rank, 1)
end

function tests.test_honour_beyond_the_empty_pool_still_counts(T)
  local m = T.match(A.match { hand = { HI, HI }, row = { "Crypt Lurker" },
    more = function(g) g:set_counter("honour_pool", 0, 1) end })
  kit.pick(m, "Play all treasures")
  kit.pick(m, "Defeat Crypt Lurker (4 power)")
  T.eq(m.g:counter("honour", 1), 3)
  T.eq(m.g:counter("honour_pool"), 0)
end

function tests.test_score_is_honour_tokens_plus_card_honour_plus_temples(T)
  local m = T.match(A.match { hand = { "Mystic", "Apprentice" },
    discard = { "Isla, Serene Prodigy", "Burial Guardian" },
    more = function(g)
      g:set_counter("honour", 1, 5)
      A.add_construct(g, 1, "Templar Outpost")
      A.give_temple(g, 1, "Temple of Life")
      A.give_temple(g, 1, "Temple of Immortality")
    end })
  local k = require("ascension.game").kernel
  -- 5 tokens + Mystic 1 + Isla 4 + Burial Guardian 2 + Outpost 3 + Life 3 + Immortality 5
  T.eq(k:score(m.g, 1), 23)
end

function tests.test_results_rank_by_score_and_share_ties(T)
  local m = T.match(A.match { hand = {},
    more = function(g)
      g:set_counter("honour_pool", 0, 0)
      g:set_counter("honour", 2, 4)
    end })
  kit.pick(m, "End turn")
  kit.pick(m, "End turn")
  T.ok(m:finished())
  T.eq(kit.ranks(m), "2,1")
end

-- ---- logs --------------------------------------------------------------------------------

function tests.test_log_shows_plays_defeats_and_honour_to_everyone(T)
  local m = T.match(A.match { hand = { HI } })
  kit.pick(m, "Play Heavy Infantry")
  kit.pick(m, "Defeat Cultist (2 power)")
  T.ok(kit.saw_part(m, 2, "plays Heavy Infantry"))
  T.ok(kit.saw_part(m, 2, "defeats Cultist"))
  T.ok(kit.saw_part(m, 2, "gains 1 Honour"))
end

-- ---- bots ----------------------------------------------------------------------------------

function tests.test_default_bots_finish_games_with_2_3_and_4_players(T)
  kit.bot_games(T, { players = { 2, 3, 4 }, seeds = { 1, 2, 3 }, bots = { "default" },
    check = function(m, n)
      local r = m:results()
      for p = 1, n do T.eq(r[p].turns, r[1].turns, "every player had as many turns") end
    end })
end

function tests.test_same_seed_plays_the_same_game(T)
  local bots = { "default", "default", "default" }
  local a = kit.check_replays(T, { players = 3, seed = 77, bots = bots })
  local c = T.match { players = 3, seed = 78, bots = bots }
  T.ok(a:hash() ~= c:hash(), "another seed, another game")
end

function tests.test_default_bot_defeats_the_best_monster_and_buys_the_dearest_card(T)
  local bot = require("ascension.game").bots.default
  local m = T.match(A.match { hand = { HI, HI, "Apprentice", "Apprentice", "Apprentice" },
    row = { "Crypt Lurker", "Cavern Horror", "Spiteful Gladiator", "Blind Seer" },
    centre = { "Sacred Pot", "Sacred Pot", "Sacred Pot" } })
  kit.pick(m, "Play all treasures")
  local d = m:decision()
  T.eq(d.options[bot(m.g, 1, d)[1]].label, "Defeat Crypt Lurker (4 power)")
  kit.pick(m, "Defeat Crypt Lurker (4 power)")
  d = m:decision()
  T.eq(d.options[bot(m.g, 1, d)[1]].label, "Buy Mystic (3 runes)")
end

return tests
