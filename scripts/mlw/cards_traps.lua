-- mlw/cards_traps.lua: the traps. Set face down (at most one: the counter `max_traps`),
-- a trap listens only during the opponent's turn (kernel.lua's listeners); its handler
-- fires it (types.trap.spring: removed, shown to both) and may veto the action.
local k = require("mlw.kernel")
local types = require("mlw.types")

local list, card = require("boardkit.cards").builder("trap")

local spring = types.trap.spring

-- The trap's handler: when `when(g, id, ctx)` holds (always without it) the trap fires,
-- deals `hit` damage to `at(g, ctx)` when it has a hit, and cancels the action when
-- `cancel` (a veto).
local function fires(spec)
  return function(g, id, ctx)
    if spec.when and not spec.when(g, id, ctx) then return end
    spring(g, id)
    if spec.hit then k:damage(g, spec.at(g, ctx), spec.hit, id) end
    if spec.cancel then return false end
  end
end

local function caster(g, ctx) return k:wizard(g, ctx.player) end
local function unit(_, ctx) return ctx.unit end

card "Backfire" { cost = 2,
  text = "When the opponent casts a spell: cancel it and deal 2 damage to its caster.",
  on = { BEFORE_PLAY = fires { when = function(_, _, ctx) return ctx.type == "spell" end,
                               cancel = true, hit = 2, at = caster } } }

card "Pitfall" { cost = 2,
  text = "When an enemy monster attacks: cancel the attack and deal 3 damage to it.",
  on = { BEFORE_ATTACK = fires { cancel = true, hit = 3, at = unit } } }

card "Mirror Ward" { cost = 1,
  text = "When an enemy monster attacks your wizard: cancel the attack.",
  on = { BEFORE_ATTACK = fires { cancel = true, when = function(g, id, ctx)
    return ctx.target == k:wizard(g, k:owner(g, id))
  end } } }

card "Ambush" { cost = 1,
  text = "When the opponent plays a monster: deal 2 damage to it.",
  on = { ON_PLAY = fires { hit = 2, at = function(_, ctx) return ctx.card end,
    when = function(g, _, ctx) return ctx.type == "monster" and k:in_play(g, ctx.card) end } } }

card "Mana Snare" { cost = 1,
  text = "When the opponent drains a monster: cancel the drain.",
  on = { BEFORE_DRAIN = fires { cancel = true } } }

card "Feedback" { cost = 2,
  text = "When the opponent activates an ability: cancel it and deal 2 damage to the monster.",
  on = { BEFORE_ACTIVATE = fires { cancel = true, hit = 2, at = unit } } }

card "Spite" { cost = 1,
  text = "When the opponent discards a card in play: deal 2 damage to their wizard.",
  on = { BEFORE_DISCARD = fires { hit = 2, at = caster } } }

return list
