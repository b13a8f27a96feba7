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

-- The index of the first dearest option; name_of(option, arg) names its card.
local function dearest(k, d, name_of, arg)
  local best, bestv = 1, -1
  for i = 1, #d.options do
    local c = k.cards[name_of(d.options[i], arg)].cost
    if c > bestv then best, bestv = i, c end
  end
  return best
end

local function card_name(o, g) return g:name(o.card) end
local function field(o, key) return o[key] end

-- Of a decision whose options each carry a card id, the index of the first dearest one.
function botkit.dearest_card(k, g, d) return dearest(k, d, card_name, g) end

-- The same where each option names its card in the field `key` ("label", "name").
function botkit.dearest_named(k, d, key) return dearest(k, d, field, key) end

return botkit
