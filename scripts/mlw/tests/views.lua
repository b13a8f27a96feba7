-- View tests: what each seat sees. Its own hand, both monster zones with every monster's
-- stats and statuses (counters `STAT:ID`), both trap zones (the card to its owner, only
-- the count to the opponent), health, mana, max mana and upkeep; never the opponent's
-- hand or any deck order.
local M = require("mlw.testkit")

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
  return M.match(T, { p1 = { hand = { "Fireball", "Wolf" }, deck = { "Ogre", "Dragon" },
                             monsters = { "Knight" }, trap = "Backfire" },
                      p2 = { hand = { "Spark" }, monsters = { { "Ogre", frozen = 1 } },
                             trap = "Pitfall" } })
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

function tests.test_both_monster_zones_and_their_stats_are_public(T)
  local m = setup(T)
  local ogre = M.monster(m, 2, 1)
  for seat = 1, 2 do
    local v = m:view(seat)
    T.eq(zone(v, "monsters", 0).cards[1].name, "Knight")
    T.eq(zone(v, "monsters", 1).cards[1].name, "Ogre")
    T.eq(counter(v, "attack:" .. ogre, -1), 5)
    T.eq(counter(v, "health:" .. ogre, -1), 4)
    T.eq(counter(v, "frozen:" .. ogre, -1), 1)
  end
end

function tests.test_a_trap_is_face_down_to_the_opponent_who_sees_only_the_count(T)
  local m = setup(T)
  local v = m:view(1)
  T.eq(zone(v, "trap", 0).cards[1].name, "Backfire", "its owner sees it")
  T.eq(zone(v, "trap", 1).count, 1)
  T.eq(#(zone(v, "trap", 1).cards or {}), 0, "the opponent's is face down")
  T.ok(not M.saw_part(m, 2, "Backfire"))
end

function tests.test_setting_or_discarding_a_trap_never_names_it_to_the_opponent(T)
  local m = M.match(T, { p1 = { hand = { "Pitfall" } } })
  M.play(m, "Pitfall")
  M.pick(m, "Discard Pitfall")
  T.ok(M.saw(m, 2, "P1 sets a trap"))
  T.ok(M.saw(m, 2, "P1 discards a trap"))
  T.ok(not M.saw_part(m, 2, "Pitfall"))
  T.ok(M.saw(m, 1, "You set Pitfall"))
  T.eq(m.g:count("grave", 1), 0, "not in the public graveyard")
  T.eq(#(zone(m:view(2), "unseen", 0).cards or {}), 0, "but face down out of the game")
end

function tests.test_health_mana_max_mana_and_upkeep_are_public(T)
  local m = setup(T)
  local v = m:view(2)
  T.eq(counter(v, "health", 0), 20)
  T.eq(counter(v, "max_mana", 0), 10)
  T.eq(counter(v, "upkeep", 0), 3)
  T.eq(counter(v, "mana", 0), 7)
  T.eq(counter(v, "upkeep", 1), 4)
  T.eq(zone(v, "wizard", 0).cards[1].name, "Wizard")
end

function tests.test_a_card_drawn_is_named_to_its_owner_only(T)
  local m = setup(T)
  M.end_turn(m)
  M.end_turn(m)
  T.ok(M.saw(m, 1, "You draw Ogre"))
  T.ok(not M.saw_part(m, 2, "You draw Ogre"))
end

function tests.test_the_catalog_shows_each_cards_printed_face(T)
  local cards = require("mlw.game").cards
  T.eq(cards["Fire Elemental"].text, "Monster 2/3. Activate: deal 1 damage to a monster.")
  T.eq(cards["Fireball"].text, "Deal 4 damage.")
  T.eq(cards["Backfire"].types[1], "Trap")
end

function tests.test_the_set_has_at_least_40_cards_of_all_three_types(T)
  local data = require("mlw.cards")
  local by_type = {}
  for _, name in ipairs(data.order) do
    local t = data.cards[name].type
    by_type[t] = (by_type[t] or 0) + 1
  end
  T.ok(#data.order >= 40, #data.order .. " cards")
  T.ok(by_type.monster >= 20 and by_type.spell >= 10 and by_type.trap >= 4)
end

-- Every card has a rules test named after it (the plain monsters share one: their stats).
function tests.test_every_card_has_a_rules_test_named_after_it(T)
  local names = {}
  for _, file in ipairs { "monsters", "spells", "listeners", "flex" } do
    for name in pairs(require("mlw.tests." .. file)) do names[#names + 1] = name end
  end
  local plain = { Goblin = true, Squire = true, Wolf = true, Knight = true, Ogre = true,
                  ["Stone Golem"] = true, Dragon = true }
  for _, card in ipairs(require("mlw.cards").order) do
    local key = "test_" .. card:lower():gsub(" ", "_") .. "_"
    local found = plain[card] or false
    for _, n in ipairs(names) do found = found or n:sub(1, #key) == key end
    T.ok(found, card .. " has a test named test_" .. key:sub(6) .. "...")
  end
end

return tests
