-- View tests: what each seat sees. Its own hand, both monster zones with every monster's
-- stats and statuses (counters `STAT:ID`), both trap zones (the card to its owner, only
-- the count to the opponent), health, mana, max mana and upkeep; never the opponent's
-- hand or any deck order. The tests every board game owes are boardkit/suites.lua's.
local M = require("mlw.testkit")

local function setup(T)
  return M.match(T, { p1 = { hand = { "Fireball", "Wolf" }, deck = { "Ogre", "Dragon" },
                             monsters = { "Knight" }, trap = "Backfire" },
                      p2 = { hand = { "Spark" }, monsters = { { "Ogre", frozen = 1 } },
                             trap = "Pitfall" } })
end

local tests = require("boardkit.suites").views {
  kit = M, game = "mlw.game", setup = setup,
  hand_first = "Fireball",
  pieces = { { "monsters", 0, "Knight" }, { "monsters", 1, "Ogre" } },
  piece = function(m) return M.monster(m, 2, 1) end,
  stats = { { "attack", 5 }, { "health", 4 }, { "frozen", 1 } },
  public = { { "health", 0, 20 }, { "max_mana", 0, 10 }, { "upkeep", 0, 3 }, { "mana", 0, 7 },
             { "upkeep", 1, 4 } },
  bodies = { { "wizard", 0, "Wizard" } },
  drawn = "Ogre", drawn_unseen = "You draw Ogre", -- seat 2 sees its own Ogre
  faces = { { "Fire Elemental", "text", "Monster 2/3. Activate: deal 1 damage to a monster." },
            { "Fireball", "text", "Deal 4 damage." }, { "Backfire", "types", "Trap" } },
}

function tests.test_a_trap_is_face_down_to_the_opponent_who_sees_only_the_count(T)
  local m = setup(T)
  local v = m:view(1)
  T.eq(M.zone(v, "trap", 0).cards[1].name, "Backfire", "its owner sees it")
  T.eq(M.zone(v, "trap", 1).count, 1)
  T.eq(#(M.zone(v, "trap", 1).cards or {}), 0, "the opponent's is face down")
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
  T.eq(#(M.zone(m:view(2), "unseen", 0).cards or {}), 0, "but face down out of the game")
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
