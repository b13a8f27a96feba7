-- boardkit/evaluate.lua: the search bot's evaluation hint for a two-player board game
-- (docs/SCRIPTING.md, game.evaluate): each side's chance, 0..1, the logistic of the
-- weighted difference of the two sides' features. A game gives its features (a function
-- of the state returning one array per player, in the order of the weights) and the
-- weights `deckhand fit` fitted to self-play (`deckhand sim --positions`;
-- docs/BENCHMARKS.md, issue 28), not guessed. Elemental and MLW use it.

local evaluate = {}

-- The attack and the health of the creatures ids on the board, each summed: the
-- material both games' features count.
function evaluate.material(k, g, ids)
  local atk, hp = 0, 0
  for _, id in ipairs(ids) do
    atk = atk + k:attack_of(g, id)
    hp = hp + k:health_of(g, id)
  end
  return atk, hp
end

function evaluate.logistic(features, weights)
  return function(g)
    local f, z = features(g), 0
    for i = 1, #weights do z = z + weights[i] * (f[1][i] - f[2][i]) end
    local x = 1 / (1 + math.exp(-z))
    return { x, 1 - x }
  end
end

return evaluate
