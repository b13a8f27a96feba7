-- Invariants held after every answer of long games played by a seeded random chooser
-- (all decks, both seats human): one minion per space at most, no minion left at 0
-- health, published counters equal to the attributes they mirror, hands within the
-- limit, every card of a player somewhere, and the game ends.
local E = require("elemental.testkit")

local tests = {}

local K = E.kernel()

local function check(T, m, where)
  local g = m.g
  for p = 1, 2 do
    local cards = g:count("deck", p) + g:count("hand", p) + g:count("grave", p)
      + g:count("burned", p) + g:count("casting", p) + g:count("aside", p)
    for _, rc in ipairs(K.grid:all_spaces()) do
      local n = g:count(K.grid:zone(rc[1], rc[2]), p)
      T.ok(n <= 1, where .. ": one minion a space")
      cards = cards + n
    end
    T.eq(cards, 40, where .. ": P" .. p .. "'s 40 cards are all somewhere")
    T.ok(g:count("hand", p) <= 10, where .. ": the hand limit")
    for _, id in ipairs(K:minions(g, p)) do
      T.ok(K:health_of(g, id) > 0, where .. ": no dead minion on the board")
      for _, name in ipairs { "attack", "health", "taunt", "stun" } do
        T.eq(g:counter(name .. ":" .. id), K.st:get(g, id, name), where .. ": " .. name)
      end
    end
  end
end

-- Play a match with a linear congruential chooser (seeded), checking after each answer.
local function play(T, options, seed)
  local m = E.match(T, { options = options, seed = seed,
                         p1 = { keep = true }, p2 = { keep = true } })
  local x = seed
  for step = 1, 3000 do
    local d = m:decision()
    if not d then break end
    x = (x * 1103515245 + 12345) % 2147483648
    local pick = d.options[x % #d.options + 1].id
    -- End turn sometimes, so turns stay short and the game moves on.
    if d.kind == "turn" and x % 3 == 0 then pick = d.options[#d.options].id end
    local ids = d.max == 0 and {} or { pick }
    if d.kind == "mulligan" then ids = {} end
    T.ok(m:answer(d.player, ids), "answer accepted")
    check(T, m, options .. " step " .. step)
  end
  T.ok(m:finished(), options .. ": the game ends")
end

function tests.test_random_play_keeps_the_board_counters_and_cards_consistent(T)
  play(T, "deck_1=earth;deck_2=fire", 7)
  play(T, "deck_1=wind;deck_2=earth", 8)
  play(T, "deck_1=fire;deck_2=wind", 9)
end

return tests
