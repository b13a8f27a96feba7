-- engine_deck_games.c's primitives. The play run (R.play_run): g:deck_run plays the plain
-- cards at the bottom of a hand in one call, leaving the match exactly as R.play card by
-- card would, and stops at the first card that is not plain. A turn's start
-- (g:deck_start) does what its g calls did.
local kit = require("deckbuilder.testkit")
local A = require("ascension.testkit")
local R = require("ascension.rules")
local game = require("ascension.game")
local deck_games = require("deckhand.deck_games")

local HI = "Heavy Infantry"

local tests = {}

-- Two equal matches: player 1's hand played by R.play card by card from the bottom in one,
-- by g:deck_run in the other, until n cards are played; both must end alike.
local function same_as_play(T, hand, n)
  local k, run = game.kernel, R.play_run(game.kernel)
  local a = T.match(A.match { hand = hand })
  local b = T.match(A.match { hand = hand })
  for _ = 1, n do R.play(a.g, k, 1, a.g:at("hand", 1, 1)) end
  local played, next_id = b.g:deck_run(run, 1)
  T.eq(played, n)
  T.eq(next_id, b.g:at("hand", 1, 1), "the bottom card left, or nil")
  T.eq(b:hash(), a:hash(), "the same state")
  kit.check_same_events(T, b, a, 2)
  return b
end

function tests.test_deck_run_plays_plain_cards_as_play_does_card_by_card(T)
  local m = same_as_play(T, { "Apprentice", "Militia", "Mystic", HI, "Apprentice" }, 5)
  T.eq(m.g:counter("runes"), 4)
  T.eq(m.g:counter("power"), 3)
  T.eq(kit.names(m.g, "play", 1), "Apprentice,Militia,Mystic,Heavy Infantry,Apprentice")
  T.eq(m.g:get(m.g:top("play", 1), "played"), m.g:counter("_turnno"))
  T.ok(kit.saw(m, 2, m.g:player_name(1) .. " plays Mystic (+2 Runes)"))
end

function tests.test_deck_run_stops_at_a_card_with_more_to_do(T)
  local m = same_as_play(T, { "Apprentice", "Blind Seer", "Militia" }, 1)
  T.eq(m.g:name(select(2, m.g:deck_run(R.play_run(game.kernel), 1))), "Blind Seer",
       "a second call plays nothing and names it again")
  local none = same_as_play(T, { "Ancient Stag", "Apprentice" }, 0)
  T.eq(none.g:counter("runes"), 0, "no counter moves")
  local empty = T.match(A.match { hand = {} })
  local played, id = empty.g:deck_run(R.play_run(game.kernel), 1)
  T.eq(played, 0)
  T.eq(id, nil)
end

-- What a pushed bundle with a changed card gives: the run is built from the data given.
function tests.test_deck_run_reads_the_card_data_it_is_given(T)
  local run = deck_games.run { from = "hand", to = "aside", mark = "seen", mark_by = "turns",
    verb = " lays ", counters = { "power", "runes" },
    cards = { Apprentice = { adds = { 5, 1 }, text = "!" } } }
  local m = T.match(A.match { hand = { "Apprentice", "Apprentice", "Militia" } })
  local g = m.g
  T.eq(g:deck_run(run, 1), 2)
  T.eq(g:counter("power"), 10)
  T.eq(g:counter("runes"), 2)
  T.eq(kit.names(g, "aside", 1), "Apprentice,Apprentice")
  T.ok(kit.saw(m, 2, g:player_name(1) .. " lays Apprentice!"))
end

function tests.test_deck_run_refuses_what_is_not_a_run(T)
  local m = T.match(A.match { hand = { "Apprentice" } })
  local ok, err = pcall(m.g.deck_run, m.g, {}, 1)
  T.ok(not ok and tostring(err):find("deck run expected", 1, true), tostring(err))
  ok, err = pcall(m.g.deck_run, m.g, game.kernel.kit, 1)
  T.ok(not ok and tostring(err):find("deck run expected", 1, true), "a deck kit is no run")
  ok, err = pcall(deck_games.run, { from = "hand", to = "play", mark = "m", mark_by = "c",
    counters = { "a" }, cards = { Apprentice = { adds = { "x" } } } })
  T.ok(not ok and tostring(err):find("adds must be integers", 1, true), tostring(err))
  ok, err = pcall(deck_games.run, { from = "hand", to = "play", mark = "m", mark_by = "c",
    counters = { "a", "b", "c", "d", "e" }, cards = {} })
  T.ok(not ok and tostring(err):find("at most 4 counters", 1, true), tostring(err))
  ok, err = pcall(deck_games.run, { to = "play", mark = "m", mark_by = "c", counters = {},
    cards = {} })
  T.ok(not ok and tostring(err):find("from must be a string", 1, true), tostring(err))
end

local START = { turns = "turns", step = { "_turnno", "_steps" }, zero = { "runes", "power" },
                line = "'s turn " }

function tests.test_deck_start_does_what_the_turns_g_calls_do(T)
  local start = deck_games.start(START)
  local a = T.match(A.match { hand = { "Apprentice" } })
  local b = T.match(A.match { hand = { "Apprentice" } })
  kit.pick(a, "Play all treasures")
  kit.pick(b, "Play all treasures")
  local g = a.g
  local turns = g:add_counter("turns", 2, 1)
  g:add_counter("_turnno", 0, 1)
  g:add_counter("_steps", 0, 1)
  g:set_counter("runes", 0, 0)
  g:set_counter("power", 0, 0)
  g:log(g:player_name(2), "'s turn ", turns)
  T.eq(b.g:deck_start(start, 2), turns)
  T.eq(b:hash(), a:hash(), "the same state")
  kit.check_same_events(T, b, a, 2)
  T.eq(b.g:counter("runes"), 0)
  T.ok(kit.saw(b, 1, b.g:player_name(2) .. "'s turn " .. turns))
end

function tests.test_deck_start_refuses_what_is_not_a_start(T)
  local m = T.match(A.match { hand = { "Apprentice" } })
  local ok, err = pcall(m.g.deck_start, m.g, R.play_run(game.kernel), 1)
  T.ok(not ok and tostring(err):find("deck start expected", 1, true), tostring(err))
  local many = {}
  for i = 1, 17 do many[i] = "c" .. i end
  ok, err = pcall(deck_games.start, { turns = "turns", step = {}, zero = many, line = "" })
  T.ok(not ok and tostring(err):find("at most 16 counters in zero", 1, true), tostring(err))
  ok, err = pcall(deck_games.start, { turns = "turns", step = {}, line = "" })
  T.ok(not ok and tostring(err):find("zero must be an array", 1, true), tostring(err))
end

return tests
