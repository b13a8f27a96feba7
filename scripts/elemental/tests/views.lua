-- View tests: what each seat sees. Its own hand, both boards with every minion's
-- position (zones `board:ROW:COL` of their owner) and stats (counters `STAT:ID`), both
-- heroes' health, mana and elements, the counts of hidden zones; never the opponent's
-- hand or any deck order. The tests every board game owes are boardkit/suites.lua's.
local E = require("elemental.testkit")

local function setup(T)
  return E.match(T, { p1 = { hand = { "Fireball", "Gust" }, deck = { "Stone Wall", "Gust" },
                             board = { ["front 3"] = "Root Warden" } },
                      p2 = { hand = { "Spark" }, board = { ["back 2"] = "Pebble Sentry" } } })
end

local tests = require("boardkit.suites").views {
  kit = E, game = "elemental.game", setup = setup,
  hand_first = "Fireball",
  pieces = { { "board:front:3", 0, "Root Warden" }, { "board:back:2", 1, "Pebble Sentry" } },
  piece = function(m) return E.at(m, 2, "back 2") end,
  stats = { { "attack", 1 }, { "health", 1 }, { "taunt", 1 } },
  public = { { "health", 0, 30 }, { "mana", 0, 10 }, { "fire", 0, 9 }, { "health", 1, 30 } },
  bodies = { { "hero", 0, "Earth Hero" }, { "hero", 1, "Fire Hero" } },
  drawn = "Stone Wall", drawn_unseen = "Stone Wall",
  faces = { { "Root Warden", "text", "Requires Earth 2. Minion 3/3. Root." },
            { "Fire Hero", "text", "Hero power (2 mana, once per turn): deal 1 damage." } },
}

function tests.test_a_played_card_goes_to_a_public_graveyard(T)
  local m = setup(T)
  E.play(m, "Gust", "Pebble Sentry (back 2)")
  T.eq(E.zone(m:view(2), "grave", 0).cards[1].name, "Gust")
  T.eq(E.zone(m:view(2), "hand", 1).count, 2, "the Sentry went back to its owner's hand")
end

return tests
