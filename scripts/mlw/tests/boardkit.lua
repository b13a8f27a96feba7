-- Tests of the board kit's game-table helpers (boardkit/cards.lua, hand.lua, health.lua,
-- gametable.lua), which both board games build on. They run on Wizardry matches but pin
-- the kit's own rules; its grid, statuses and bus are pinned by elemental/tests/boardkit.lua.
local M = require("mlw.testkit")
local cards = require("boardkit.cards")
local hand = require("boardkit.hand")
local health = require("boardkit.health")
local gametable = require("boardkit.gametable")

local tests = {}

function tests.test_card_builder_names_types_and_lists_cards_in_order(T)
  local list, card = cards.builder("monster")
  local goblin = card "Goblin" { cost = 1 }
  card "Wolf" { cost = 2 }
  T.eq(#list, 2)
  T.eq({ list[1].name, list[1].type, list[2].name }, { "Goblin", "monster", "Wolf" })
  T.ok(goblin == list[1], "the builder returns the definition")
  local plain, c2 = cards.builder()
  c2 "Spark" {}
  T.eq(plain[1].type, nil, "no type unless one is given")
end

function tests.test_card_set_finishes_every_card_in_file_order_and_refuses_a_name_twice(T)
  local seen = {}
  local set, order = cards.set({ "mlw.cards_traps" }, function(def) seen[#seen + 1] = def.name end)
  T.eq(order, seen)
  T.eq(order[1], "Backfire")
  T.ok(set.Backfire == require("mlw.cards_traps")[1])
  local ok, err = pcall(cards.set, { "mlw.cards_traps", "mlw.cards_traps" }, function() end)
  T.ok(not ok and err:find("card Backfire twice", 1, true), tostring(err))
end

function tests.test_card_face_keeps_the_printed_words_after_the_prefix(T)
  local def = { text = "Taunt." }
  cards.face(def, "Minion 1/1. ")
  T.eq({ def.printed, def.text }, { "Taunt.", "Minion 1/1. Taunt." })
end

function tests.test_drawing_past_a_full_hand_loses_the_card_and_an_empty_deck_costs(T)
  local m = M.match(T, { p1 = { hand = { "Goblin" }, deck = { "Wolf", "Ogre" } } })
  local g, empties = m.g, 0
  local rules = { limit = 2, lost = "unseen", empty = function() empties = empties + 1 end }
  hand.draw(g, 1, 3, rules)
  T.eq(M.names(g, "hand", 1), "Goblin,Wolf")
  T.eq(M.names(g, "unseen", 1), "Ogre", "drawn into a full hand: lost")
  T.eq(empties, 1, "the third draw found the deck empty")
  T.ok(M.saw(m, 2, "P1's hand is full: Ogre is lost"))
  T.ok(hand.full(g, 1, rules))
  T.ok(not hand.full(g, 1, { limit = "hand_limit" }), "a limit read from the counter")
end

function tests.test_heals_stop_at_the_most_health_and_say_what_they_restored(T)
  local m = M.match(T, { p1 = { health = 15, monsters = { { "Ogre", health = 1 } } } })
  local g, k = m.g, M.kernel()
  T.eq(health.player(g, 1, 3, 20, "wizard"), 3)
  T.eq(health.player(g, 1, 9, 20, "wizard"), 2, "never above the most")
  T.eq(g:counter("health", 1), 20)
  T.eq(health.piece(g, k.st, M.monster(m, 1, 1), 10, "the Ogre"), 3)
  T.eq(M.stat(m, 1, 1, "health"), 4, "never above its max_health")
  T.ok(M.saw(m, 2, "P1's wizard heals 2 (20 health)"))
end

function tests.test_deck_options_name_each_seats_preset_and_refuse_an_unknown_one(T)
  local opts = gametable.deck_options({ "a", "b", "c" }, { "a", "c" },
                                      function(nth) return nth .. " seat" end)
  T.eq({ opts[1].name, opts[1].default, opts[1].help }, { "deck_1", "a", "first seat" })
  T.eq({ opts[2].name, opts[2].default, opts[2].help }, { "deck_2", "c", "second seat" })
  T.eq(opts[2].values, { "a", "b", "c" })
  local ok, err = pcall(T.match, { players = 2, options = "deck_1=ice" })
  T.ok(not ok and err:find("mlw: deck_1 must be fire or frost", 1, true), tostring(err))
end

function tests.test_results_rank_by_health_and_a_loser_below_a_standing_player(T)
  local m = M.match(T, {})
  local g = m.g
  local function ranks() local r = gametable.results(g) return { r[1].rank, r[2].rank } end
  g:set_counter("health", 1, 5)
  T.eq(ranks(), { 2, 1 }, "the most health wins")
  g:set_counter("surrendered", 2, 1)
  T.eq(ranks(), { 1, 2 }, "a surrender loses whatever the health")
  g:set_counter("surrendered", 2, 0)
  g:set_counter("health", 1, 0)
  g:set_counter("health", 2, -3)
  T.eq(ranks(), { 1, 1 }, "both down: a draw")
end

function tests.test_presentation_orders_zones_as_listed(T)
  local p = gametable.presentation(
    { { "hero", "play", "Hero" }, { "board", "board", "Board", columns = 5 } }, { Hero = "#fff" })
  T.eq(p.zones.hero, { kind = "play", order = 0, label = "Hero" })
  T.eq(p.zones.board, { kind = "board", order = 1, label = "Board", columns = 5 })
  T.eq(p.type_colors.Hero, "#fff")
end

return tests
