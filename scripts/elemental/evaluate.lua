-- elemental/evaluate.lua: the search bot's evaluation hint (docs/SCRIPTING.md).
--
-- A hero's position (FEATURES, in the order of the weights): its health, its minions'
-- attack and health summed, its minions and its cards in hand. (Whose move it is, and so
-- the mana one turn brings, is left out: a search's play-outs all stop the same number of
-- turns after the root, with the same hero to move.) The hint is the logistic of the
-- weighted difference of the two heroes' features (boardkit/evaluate.lua).

local kit = require("boardkit.evaluate")

local evaluate = {}

evaluate.FEATURES = { "health", "attack", "minion_health", "minions", "hand" }

function evaluate.features(k)
  return function(g)
    local f = {}
    for p = 1, 2 do
      local ids = k:minions(g, p)
      local atk, hp = kit.material(k, g, ids)
      f[p] = { k:health(g, p), atk, hp, #ids, g:count("hand", p) }
    end
    return f
  end
end

-- Each hero's chance, 0..1, with the weights fitted to self-play (game.lua).
function evaluate.new(k, weights) return kit.logistic(evaluate.features(k), weights) end

return evaluate
