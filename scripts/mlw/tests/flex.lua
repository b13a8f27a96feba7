-- The seed's flexibility test (seed 003 §8.2): abilities invented after the engine was
-- done, each a few lines of card script with no rule changed. Each test plays the card,
-- then checks its definition: one script (one listener or one effect) beside the
-- printed fields, nothing the kernel had to learn.
local M = require("mlw.testkit")

local tests = {}

local PRINTED = { name = true, type = true, cost = true, text = true, attack = true,
                  health = true, types = true, printed = true }

-- The card's fields beyond the printed ones, as a sorted list.
local function scripts(name)
  local out = {}
  for k, v in pairs(require("mlw.game").cards[name]) do
    if not PRINTED[k] then
      if k == "on" then
        for ev in pairs(v) do out[#out + 1] = "on." .. ev end
      else
        out[#out + 1] = k
      end
    end
  end
  table.sort(out)
  return table.concat(out, ",")
end

function tests.test_pickpocket_steals_a_random_card_from_the_opponents_hand(T)
  local m = M.match(T, { p1 = { hand = { "Pickpocket" } }, p2 = { hand = { "Dragon" } } })
  M.play(m, "Pickpocket")
  T.eq(M.sorted(m.g, "hand", 1), "Dragon")
  T.eq(m.g:count("hand", 2), 0)
  T.ok(M.saw(m, 1, "You steal Dragon"))
  T.ok(M.saw(m, 2, "Your Dragon is stolen"))
  T.eq(scripts("Pickpocket"), "effect", "one effect")
end

function tests.test_pickpocket_picks_with_the_match_rng(T)
  local seen = {}
  for seed = 1, 12 do
    local m = M.match(T, { seed = seed, p1 = { hand = { "Pickpocket" } },
                           p2 = { hand = { "Wolf", "Ogre", "Dragon" } } })
    M.play(m, "Pickpocket")
    seen[M.sorted(m.g, "hand", 1)] = true
  end
  local n = 0
  for _ in pairs(seen) do n = n + 1 end
  T.ok(n >= 2, "different seeds steal different cards")
end

function tests.test_recruitment_allows_6_monsters_for_the_rest_of_the_battle(T)
  local m = M.match(T, { p1 = { hand = { "Recruitment", "Goblin" },
    monsters = { "Goblin", "Goblin", "Goblin", "Goblin", "Goblin" }, mana = 20 } })
  m.g:set_counter("mana", 1, 5)
  T.ok(not M.offers(m, "Play Goblin"))
  M.play(m, "Recruitment")
  M.play(m, "Goblin")
  T.eq(m.g:count("monsters", 1), 6)
  T.eq(m.g:counter("max_monsters", 1), 6)
  T.eq(m.g:counter("max_monsters", 2), 5, "only its caster's")
  T.eq(scripts("Recruitment"), "effect", "one effect: a counter set to 6")
end

function tests.test_drain_warden_stops_the_opponent_draining_while_in_play(T)
  local m = M.match(T, { p1 = { monsters = { "Wolf" } }, p2 = { monsters = { "Drain Warden" } } })
  T.ok(not M.offers_any(m, "Drain"))
  local m2 = M.match(T, { p1 = { monsters = { "Wolf", "Drain Warden" } } })
  T.ok(M.offers(m2, "Drain Wolf (P1 slot 1)"), "its owner still drains")
  T.eq(scripts("Drain Warden"), "on.CAN_DRAIN", "one CAN_DRAIN listener")
end

function tests.test_drain_warden_stops_vetoing_once_it_leaves_play(T)
  local m = M.match(T, { p1 = { hand = { "Fireball" }, monsters = { "Wolf" } },
                         p2 = { monsters = { "Drain Warden" } } })
  M.play(m, "Fireball", M.slot("Drain Warden", 2, 1))
  T.ok(M.offers(m, "Drain Wolf (P1 slot 1)"))
end

function tests.test_mind_flood_mills_the_top_10_cards_of_the_opponents_deck(T)
  local deck = {}
  for i = 1, 12 do deck[i] = i <= 10 and "Goblin" or "Dragon" end
  local m = M.match(T, { p1 = { hand = { "Mind Flood" } }, p2 = { deck = deck } })
  M.play(m, "Mind Flood")
  T.eq(m.g:count("deck", 2), 2)
  T.eq(m.g:count("grave", 2), 10)
  T.eq(m.g:name(m.g:top("deck", 2)), "Dragon")
  T.eq(scripts("Mind Flood"), "effect", "one effect")
end

return tests
