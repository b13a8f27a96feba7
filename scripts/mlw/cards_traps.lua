-- mlw/cards_traps.lua: the traps. Set face down (at most one: the counter `max_traps`),
-- a trap listens only during the opponent's turn (kernel.lua's listeners); its handler
-- fires it (types.trap.spring: removed, shown to both) and may veto the action.
local k = require("mlw.kernel")
local types = require("mlw.types")

local list, card = require("boardkit.cards").builder("trap")

local spring = types.trap.spring

card "Backfire" { cost = 2,
  text = "When the opponent casts a spell: cancel it and deal 2 damage to its caster.",
  on = { BEFORE_PLAY = function(g, id, ctx)
    if ctx.type ~= "spell" then return end
    spring(g, id)
    k:damage(g, k:wizard(g, ctx.player), 2, id)
    return false
  end } }

card "Pitfall" { cost = 2,
  text = "When an enemy monster attacks: cancel the attack and deal 3 damage to it.",
  on = { BEFORE_ATTACK = function(g, id, ctx)
    spring(g, id)
    k:damage(g, ctx.unit, 3, id)
    return false
  end } }

card "Mirror Ward" { cost = 1,
  text = "When an enemy monster attacks your wizard: cancel the attack.",
  on = { BEFORE_ATTACK = function(g, id, ctx)
    if ctx.target ~= k:wizard(g, k:owner(g, id)) then return end
    spring(g, id)
    return false
  end } }

card "Ambush" { cost = 1,
  text = "When the opponent plays a monster: deal 2 damage to it.",
  on = { ON_PLAY = function(g, id, ctx)
    if ctx.type ~= "monster" or not k:in_play(g, ctx.card) then return end
    spring(g, id)
    k:damage(g, ctx.card, 2, id)
  end } }

card "Mana Snare" { cost = 1,
  text = "When the opponent drains a monster: cancel the drain.",
  on = { BEFORE_DRAIN = function(g, id)
    spring(g, id)
    return false
  end } }

card "Feedback" { cost = 2,
  text = "When the opponent activates an ability: cancel it and deal 2 damage to the monster.",
  on = { BEFORE_ACTIVATE = function(g, id, ctx)
    spring(g, id)
    k:damage(g, ctx.unit, 2, id)
    return false
  end } }

card "Spite" { cost = 1,
  text = "When the opponent discards a card in play: deal 2 damage to their wizard.",
  on = { BEFORE_DISCARD = function(g, id, ctx)
    spring(g, id)
    k:damage(g, k:wizard(g, ctx.player), 2, id)
  end } }

return list
