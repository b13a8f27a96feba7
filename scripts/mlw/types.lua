-- mlw/types.lua: the default script of each card type (monster, spell, trap). A card's
-- definition inherits its type's (cards.lua sets the metatable), so a card overrides a
-- rule by defining a function of the same name: Alex's `can_attack_wizard`, Sparky's
-- `attacks_per_turn`. Each function takes (g, ...) and reads the kernel.

local k = require("mlw.kernel")

local types = {}

-- ---- targets ------------------------------------------------------------------------------

-- The elements a card aimed by `kind` may target, for player p: "monster" (any in play),
-- "enemy_monster", "friendly_monster", "any" (any monster or wizard), "enemy_wizard".
function types.targets(g, p, kind)
  local out = {}
  local function add_monsters(q)
    local ids = k:monsters(g, q)
    for i = 1, #ids do out[#out + 1] = ids[i] end
  end
  local e = k.other(p)
  if kind == "monster" or kind == "any" then
    add_monsters(p)
    add_monsters(e)
  elseif kind == "enemy_monster" then
    add_monsters(e)
  elseif kind == "friendly_monster" then
    add_monsters(p)
  end
  if kind == "any" then
    out[#out + 1] = k:wizard(g, e)
    out[#out + 1] = k:wizard(g, p)
  elseif kind == "enemy_wizard" then
    out[#out + 1] = k:wizard(g, e)
  end
  return out
end

-- ---- monster ------------------------------------------------------------------------------

local monster = { type = "monster", attacks_per_turn = 1 }

-- Room in the monster zone (the wizard's counter `max_monsters`).
function monster.playable(g, p, _)
  return g:count("monsters", p) < g:counter("max_monsters", p)
end

function monster.resolve(g, ctx)
  k:summon(g, ctx.card, ctx.player)
end

-- May it attack the opposing wizard directly? Only when no opposing monster can defend
-- against it. L: the listeners, when the caller has them (k:live_listeners).
function monster.can_attack_wizard(g, id, L)
  local e = k.other(k:owner(g, id))
  for _, d in ipairs(k:monsters(g, e)) do
    if k:ask(g, "CAN_DEFEND", { unit = d, attacker = id, listeners = L }) then return false end
  end
  return true
end

-- The damage it deals when it attacks (before BEFORE_DAMAGE's changes).
function monster.strike(g, id) return k:attack_of(g, id) end

types.monster = monster

-- ---- spell --------------------------------------------------------------------------------

local spell = { type = "spell" }

-- A spell aimed at something needs a target.
function spell.playable(g, p, def)
  return not def.target or #types.targets(g, p, def.target) > 0
end

-- Its effect (the card's `effect(g, ctx)`), then it is gone (actions.lua runs `resolve`
-- under k:run, so an error in the effect names the card).
function spell.resolve(g, ctx)
  local def = k:def(g, ctx.card)
  if def.effect then def.effect(g, ctx) end
end

types.spell = spell

-- ---- trap ---------------------------------------------------------------------------------

local trap = { type = "trap" }

-- Room in the trap zone (the counter `max_traps`).
function trap.playable(g, p, _)
  return g:count("trap", p) < g:counter("max_traps", p)
end

-- Face down into the trap zone: its `on` handlers listen from the opponent's next turn.
function trap.resolve(g, ctx)
  g:move(ctx.card, "trap", ctx.player)
end

-- A trap fires: it is removed (to the graveyard, shown to both).
function trap.spring(g, id)
  g:log(g:player_name(k:owner(g, id)), "'s trap ", { id }, " fires")
  k:remove(g, id)
end

types.trap = trap

return types
