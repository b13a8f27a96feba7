-- View tests: what each seat sees. Its own hand, both boards with every minion's
-- position (zones `board:ROW:COL` of their owner) and stats (counters `STAT:ID`), both
-- heroes' health, mana and elements, the counts of hidden zones; never the opponent's
-- hand or any deck order.
local E = require("elemental.testkit")

local tests = {}

local function zone(view, name, seat)
  for _, z in ipairs(view.zones) do
    if z.name == name and z.owner == seat then return z end
  end
  return nil
end

local function counter(view, name, seat)
  for _, c in ipairs(view.counters) do
    if c.name == name and c.owner == seat then return c.value end
  end
  return nil
end

local function setup(T)
  return E.match(T, { p1 = { hand = { "Fireball", "Gust" }, deck = { "Stone Wall", "Gust" },
                             board = { ["front 3"] = "Root Warden" } },
                      p2 = { hand = { "Spark" }, board = { ["back 2"] = "Pebble Sentry" } } })
end

function tests.test_each_seat_sees_its_own_hand_and_only_the_count_of_the_other(T)
  local m = setup(T)
  local mine, theirs = zone(m:view(1), "hand", 0), zone(m:view(1), "hand", 1)
  T.eq(#mine.cards, 2)
  T.eq(mine.cards[1].name, "Fireball")
  T.eq(theirs.count, 1)
  T.eq(#(theirs.cards or {}), 0, "never the opponent's hand")
end

function tests.test_no_seat_sees_any_deck_order(T)
  local m = setup(T)
  for seat = 1, 2 do
    for owner = 0, 1 do
      local d = zone(m:view(seat), "deck", owner)
      T.eq(d.count, m.g:count("deck", owner + 1))
      T.eq(#(d.cards or {}), 0)
    end
  end
end

function tests.test_both_boards_show_positions_as_zones_of_their_owner(T)
  local m = setup(T)
  for seat = 1, 2 do
    local v = m:view(seat)
    T.eq(zone(v, "board:front:3", 0).cards[1].name, "Root Warden")
    T.eq(zone(v, "board:back:2", 1).cards[1].name, "Pebble Sentry")
  end
end

function tests.test_minion_stats_and_keywords_are_public_counters_by_entity(T)
  local m = setup(T)
  local id = E.at(m, 2, "back 2")
  for seat = 1, 2 do
    local v = m:view(seat)
    T.eq(counter(v, "attack:" .. id, -1), 1)
    T.eq(counter(v, "health:" .. id, -1), 1)
    T.eq(counter(v, "taunt:" .. id, -1), 1)
  end
end

function tests.test_heroes_health_mana_and_elements_are_public(T)
  local m = setup(T)
  local v = m:view(2)
  T.eq(counter(v, "health", 0), 30)
  T.eq(counter(v, "mana", 0), 10)
  T.eq(counter(v, "fire", 0), 9)
  T.eq(counter(v, "health", 1), 30)
  T.eq(zone(v, "hero", 0).cards[1].name, "Earth Hero")
  T.eq(zone(v, "hero", 1).cards[1].name, "Fire Hero")
end

function tests.test_the_catalog_shows_each_cards_printed_face(T)
  local game = require("elemental.game")
  T.eq(game.cards["Root Warden"].text, "Requires Earth 2. Minion 3/3. Root.")
  T.eq(game.cards["Fire Hero"].text, "Hero power (2 mana, once per turn): deal 1 damage.")
end

function tests.test_a_card_drawn_is_named_to_its_owner_only(T)
  local m = setup(T)
  E.end_turn(m)
  E.end_turn(m)
  T.ok(E.saw(m, 1, "You draw Stone Wall"))
  T.ok(not E.saw_part(m, 2, "Stone Wall"))
end

function tests.test_a_played_card_goes_to_a_public_graveyard(T)
  local m = setup(T)
  E.play(m, "Gust", "Pebble Sentry (back 2)")
  T.eq(zone(m:view(2), "grave", 0).cards[1].name, "Gust")
  T.eq(zone(m:view(2), "hand", 1).count, 2, "the Sentry went back to its owner's hand")
end

return tests
