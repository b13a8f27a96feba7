-- Ascension's results by the deck kit (g:deck_results with the game's results_spec: the
-- honour counter and the vp printed on the cards of the scored zones) rank and score as
-- its own Lua score (k.score) does.
local A = require("ascension.testkit")

local tests = {}

function tests.test_kit_results_score_as_the_games_lua_score(T)
  local m = T.match(A.match { hand = { "Mystic", "Apprentice" },
    discard = { "Isla, Serene Prodigy", "Burial Guardian" },
    more = function(g)
      g:set_counter("honour", 1, 5)
      g:set_counter("honour", 2, 23)
      A.add_construct(g, 1, "Templar Outpost")
      A.give_temple(g, 1, "Temple of Life")
      A.give_temple(g, 1, "Temple of Immortality")
    end })
  local k = require("ascension.game").kernel
  T.ok(k.kit and k.results_spec, "results by the kit")
  local r = k:results(m.g)
  for p = 1, 2 do T.eq(r[p].score, k:score(m.g, p), "player " .. p .. "'s score") end
  T.eq(r[1].score, 23)
  -- as many points: player 1 is in its turn (one more turn), so player 2 ranks first
  T.eq(r[1].rank, 2)
  T.eq(r[2].rank, 1)
end

return tests
