-- deckbuilder/botkit.lua: answers every deck-builder's bots give alike.
--
-- A bot is `function(g, p, d)` returning option indices (docs/SCRIPTING.md); these are
-- the pieces the games' bots.lua files and the generic bot share.

local botkit = {}

-- The fewest options the rules allow, first ones first (any question a bot has no
-- opinion on).
function botkit.least(d)
  local t = {}
  for i = 1, (d.min or 1) do t[i] = i end
  return t
end

-- Of a decision whose options each carry a card, the index of the first dearest one.
function botkit.dearest_card(k, g, d)
  local best, bestv = 1, -1
  for i = 1, #d.options do
    local c = k.cards[g:name(d.options[i].card)].cost
    if c > bestv then best, bestv = i, c end
  end
  return best
end

return botkit
