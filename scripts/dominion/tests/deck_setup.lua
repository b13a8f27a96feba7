-- Tests of the deck kit's set-up and results (docs/SCRIPTING.md, "The deck kit"):
-- g:deck_setup_supply and g:deck_deal_all leave the match as the kernel's Lua set-up
-- leaves it (the same state hash, generator and events), and g:deck_results ranks as
-- the kernel's Lua results do, ties and score functions (Gardens) included.
local kit = require("deckbuilder.testkit")
local kernel = require("deckbuilder.kernel")
local data = require("dominion.cards")

local tests = {}

-- Two matches of n players, each given a second set-up by f(g, k) after the game's own:
-- one by the Lua kernel, one by the kit's. Both must end in the same state (a draw from
-- each generator checks they are where they were) with the same events.
local function same_setup(T, n, f)
  local lua_k, kit_k = kit.kernels(T, data, 5)
  local draws = {}
  local function run(k)
    return T.match { players = n, seed = 5, setup = function(g)
      f(g, k)
      draws[#draws + 1] = g:random(1000000)
    end }
  end
  local a, b = run(lua_k), run(kit_k)
  T.eq(b:hash(), a:hash(), "the same state")
  T.eq(draws[2], draws[1], "the generator where the Lua left it")
  kit.check_same_events(T, b, a, n)
  return b
end

local PILES = { { name = "Copper", count = 46 }, { name = "Curse", count = 0 },
                { name = "Gardens", count = 8 }, { name = "Smithy", count = 10 } }
local START = { { name = "Copper", count = 7 }, { name = "Estate", count = 3 },
                { name = "Gold", count = 0 } }

function tests.test_kit_setup_leaves_the_state_of_the_lua_setup(T)
  for n = 2, 4 do
    local m = same_setup(T, n, function(g, k)
      k:setup_supply(g, PILES)
      k:deal_all(g, START, function(_, p)
        g:set_counter("marks", p, 10 * p + g:count("hand", p))
      end)
    end)
    T.eq(m.g:counter("active"), 1)
    T.eq(m.g:counter("marks", n), 10 * n + 10, "each(g, p) ran after p's deal")
  end
end

function tests.test_kit_setup_deals_a_short_deck_as_the_lua_does(T)
  same_setup(T, 2, function(g, k)
    kit.stack(g, 1, {}, {}, { "Silver", "Gold" })
    k:deal_all(g, { { name = "Copper", count = 2 } })
  end)
end

function tests.test_kit_setup_refuses_a_card_without_a_pile(T)
  local _, kit_k = kit.kernels(T, data, 5)
  local small = kernel.new { cards = data.cards, order = { "Copper", "Estate" }, hand_size = 5 }
  T.ok(kit_k.kit and small.kit)
  T.match { players = 2, setup = function(g)
    local ok, err = pcall(small.setup_supply, small, g, { { name = "Gold", count = 1 } })
    T.eq(ok, false)
    T.ok(tostring(err):find("Gold is not in the kernel's order", 1, true), tostring(err))
    ok, err = pcall(small.setup_supply, small, g, { { name = "Nothing", count = 1 } })
    T.eq(ok, false)
    T.ok(tostring(err):find("unknown supply card Nothing", 1, true), tostring(err))
  end }
end

function tests.test_g_new_of_a_list_makes_what_one_call_per_name_makes(T)
  local names, counts = { "Gold", "Curse", "Silver", "Gold" }, { 2, 0, 3, 1 }
  local firsts = {}
  local function run(f)
    return T.match { players = 2, seed = 5, setup = function(g) firsts[#firsts + 1] = f(g) end }
  end
  local a = run(function(g)
    local first
    for i = 1, #names do
      local id = g:new(names[i], "pool", 0, counts[i])
      first = first or id
    end
    return first
  end)
  local b = run(function(g) return g:new(names, "pool", 0, counts) end)
  T.eq(b:hash(), a:hash(), "the same state")
  T.eq(firsts[2], firsts[1], "the first id")
  T.eq(kit.names(b.g, "pool", 0), "Gold,Gold,Silver,Silver,Silver,Gold")
  local c = run(function(g) return g:new({ "Gold" }, "none", 0, { 0 }) or "nil" end)
  T.eq(firsts[3], "nil", "nothing made: nil")
  T.eq(c.g:count("none", 0), 0)
end

-- results as one comparable string: score/turns/rank per player.
local function shown(res)
  local t = {}
  for p, r in ipairs(res) do t[p] = r.score .. "/" .. r.turns .. "/" .. r.rank end
  return table.concat(t, " ")
end

-- A 3-player match whose players own the given cards (their decks) and have played the
-- given turns (player 1's first turn, started, adds one); the kit's results and the
-- Lua's, as strings.
local function both_results(T, decks, turns)
  local lua_k, kit_k = kit.kernels(T, data, 5)
  local m = T.match { players = 3, setup = function(g)
    for p = 1, 3 do
      kit.stack(g, p, {}, decks[p], {})
      g:set_counter("turns", p, turns[p])
    end
  end }
  return shown(kit_k:results(m.g)), shown(lua_k:results(m.g))
end

function tests.test_kit_results_equal_the_lua_results_with_ties(T)
  -- 1 and 3 tie on points and turns (a shared rank); 2 has as many in more turns
  local got, want = both_results(T, { { "Province", "Copper" }, { "Duchy", "Duchy" },
                                      { "Duchy", "Duchy", "Estate", "Curse" } },
                                 { 4, 6, 5 })
  T.eq(got, want)
  T.eq(got, "6/5/1 6/6/3 6/5/1")
end

function tests.test_kit_results_equal_the_lua_results_with_gardens(T)
  local many = {}
  for i = 1, 19 do many[i] = "Copper" end
  many[20], many[21] = "Gardens", "Gardens"
  local got, want = both_results(T, { many, { "Province", "Curse" }, { "Estate" } }, { 3, 4, 3 })
  T.eq(got, want)
  T.eq(got, "4/4/2 5/4/1 1/3/3", "two Gardens over 21 cards: 2 points each")
end

function tests.test_kit_results_by_a_counter_without_tiebreak_share_equal_points(T)
  local _, kit_k = kit.kernels(T, data, 5)
  local m = T.match { players = 3, setup = function(g)
    for p = 1, 3 do g:set_counter("marks", p, p == 2 and 9 or 4) end
    g:set_counter("turns", 3, 7)
  end }
  local spec = { zones = {}, counter = "marks", tiebreak = false }
  T.eq(shown(m.g:deck_results(kit_k.kit, spec)), "4/1/2 9/0/1 4/7/2",
       "the counter only (no card counts), equal points share a rank whatever the turns")
end

return tests
