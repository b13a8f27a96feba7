-- Tests of the VP refresh (kernel:score_refresh, deckbuilder/kernel.lua): its kit path in
-- C (deck.score_refresh) sets what the same path in Lua sets, which is what runs on an
-- engine without deck.score_refresh (a bundle pushed live to a worker of the previous
-- release). Dominion's cards and matches, for Gardens' score function.
local kit = require("deckbuilder.testkit")
local deck = require("deckhand.deck")
local data = require("dominion.cards")

local tests = {}

-- Seat 1 holds two Gardens among 13 cards, seat 2 the start, seat 3 a Duchy and a Copper.
local function setup(g)
  kit.stack(g, 1, { "Estate", "Gardens" }, { "Province", "Curse", "Copper", "Copper",
            "Copper", "Copper", "Copper", "Copper", "Copper" }, { "Gardens" })
  kit.stack(g, 3, { "Duchy" }, { "Copper" }, {})
  g:new("Gold", "aside", 1)
  g:new("Estate", "play", 3)
end

-- Two equal matches, each refreshed by its own refresh; both must end in the same state,
-- each seat's vp its score.
local function same_refresh(T, k, fast, slow)
  local a = T.match { game = "dominion", players = 3, seed = 4, setup = setup }
  local b = T.match { game = "dominion", players = 3, seed = 4, setup = setup }
  slow(a.g)
  fast(b.g)
  T.eq(b:hash(), a:hash(), "the same state")
  for p = 1, 3 do
    T.eq(b.g:counter("vp", p), a.g:counter("vp", p), "seat " .. p)
    T.eq(b.g:counter("vp", p), k:score(b.g, p), "seat " .. p .. "'s score")
  end
  T.eq(b.g:counter("vp", 1), 1 + 6 - 1 + 2, "two Gardens of 13 cards count 1 each")
  T.eq(b.g:counter("vp", 3), 4, "a Duchy and an Estate")
end

function tests.test_the_vp_refresh_in_c_sets_what_the_refresh_in_lua_sets_gardens_too(T)
  local _, k = kit.kernels(T, data, 5)
  local made = 0
  local spy = { score_refresh = function(...)
    made = made + 1
    return deck.score_refresh(...)
  end }
  local fast = k:score_refresh("vp", spy)
  T.eq(made, 1, "the kit's refresh made in C")
  same_refresh(T, k, fast, k:score_refresh("vp", {}))
end

function tests.test_the_vp_refresh_runs_in_lua_on_an_engine_without_score_refresh(T)
  local lua_k, k = kit.kernels(T, data, 5)
  T.ok(deck.score_refresh, "this engine has deck.score_refresh")
  same_refresh(T, k, k:score_refresh("vp", {}), lua_k:score_refresh("vp"))
end

function tests.test_the_vp_refresh_of_a_game_scoring_its_own_way_calls_its_score(T)
  local _, k = kit.kernels(T, data, 5)
  local refresh = k:score_refresh("vp")
  k.score = function(_, _, p) return 100 + p end
  local m = T.match { game = "dominion", players = 3, seed = 4, setup = setup }
  refresh(m.g)
  for p = 1, 3 do T.eq(m.g:counter("vp", p), 100 + p, "seat " .. p) end
end

return tests
