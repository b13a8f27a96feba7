-- elemental/combat.lua: who may attack or move, what an attack may target, damage and
-- deaths (methods of the kernel).
--
-- An attack is one action: the attacker and its target deal damage at once (a hero
-- strikes no damage back), Sweep also hits the target's row neighbours (who do not
-- strike back), Reflect makes the attacker suffer its own attack too; then the action's
-- deaths resolve together (resolve_deaths), in a set order.

local K = require("elemental.kernel")
local health = require("boardkit.health")

-- ---- acting ---------------------------------------------------------------------------

-- May the minion do ev ("can_attack", "can_move")? The bus's answer. While no minion on
-- the board has a card that listens (`_auras`, kernel.lua), only the minion's own statuses
-- can answer: when it holds none that listens to ev (one g:count_held), nobody could say
-- no, and the bus is not asked.
function K:may(g, ev, id)
  if g:counter("_auras") == 0 and g:count_held(id, self.bus.status_names[ev]) == 0 then
    return true
  end
  return (self.bus:ask(g, ev, { unit = id }))
end

-- Has the minion been on the board since before this turn (or has Haste)?
local function ready(self, g, id)
  return g:get(id, "summoned") < self:turn_no(g) or self:has(g, id, "haste")
end

function K:can_attack(g, id)
  if self:owner(g, id) ~= self:active(g) or self:attack_of(g, id) <= 0 then return false end
  if not ready(self, g, id) then return false end
  if g:get(id, "attacks") >= (self:has(g, id, "frenzy") and 2 or 1) then return false end
  if g:get(id, "moved") ~= 0 and not self:has(g, id, "swift") then return false end
  return self:may(g, "can_attack", id)
end

function K:can_move(g, id)
  if self:owner(g, id) ~= self:active(g) or not ready(self, g, id) then return false end
  if g:get(id, "moved") ~= 0 then return false end
  if g:get(id, "attacks") ~= 0 and not self:has(g, id, "swift") then return false end
  return self:may(g, "can_move", id)
end

-- ---- targets ---------------------------------------------------------------------------

-- Is this Taunt minion active: no friendly minion in front of it in its column?
function K:taunting(g, id)
  if not self:has(g, id, "taunt") then return false end
  local _, c, p = self.grid:pos(g, id)
  return self.grid:front(g, p, c) == id
end

-- The active Taunt minions of player p, reading order.
function K:taunts(g, p)
  local out = {}
  local ids = self:minions(g, p)
  for i = 1, #ids do
    local id = ids[i]
    if self:taunting(g, id) then out[#out + 1] = id end
  end
  return out
end

-- What the minion may attack: enemy minions (the frontmost in its column or a
-- neighbouring one; an active Taunt from any column; with Taunts up only those; Free
-- targeting: any enemy minion) and the enemy hero's entity when its column holds no
-- enemy minion and no Taunt is up. taunts: the enemy's active Taunts (self:taunts) when
-- the caller has them (a bot asking for every attacker of one decision).
function K:attack_targets(g, id, taunts)
  local _, c, p = self.grid:pos(g, id)
  local e = K.other(p)
  local out = {}
  taunts = taunts or self:taunts(g, e)
  if self:has(g, id, "free") then
    for _, t in ipairs(self:minions(g, e)) do out[#out + 1] = t end
  elseif #taunts > 0 then
    for _, t in ipairs(taunts) do out[#out + 1] = t end
  else
    for col = math.max(1, c - 1), math.min(K.COLS, c + 1) do
      local t = self.grid:front(g, e, col)
      if t then out[#out + 1] = t end
    end
  end
  if #taunts == 0 and not self.grid:column_taken(g, e, c) then out[#out + 1] = self:hero(g, e) end
  return out
end

-- Berserk's target: straight ahead (the frontmost enemy in its column, else the hero);
-- when a Taunt forbids that, the first active Taunt.
function K:straight_ahead(g, id)
  local _, c, p = self.grid:pos(g, id)
  local e = K.other(p)
  local taunts = self:taunts(g, e)
  local t = self.grid:front(g, e, c) or self:hero(g, e)
  if #taunts > 0 and not self:taunting(g, t) then return taunts[1] end
  return t
end

-- ---- damage ----------------------------------------------------------------------------

-- Deal n damage from source (an entity or nil) to target (minion or hero entity);
-- returns the damage taken. Invulnerable absorbs the hit; Deathtouch dooms a minion that
-- takes any damage from its source. Triggers: the target's `on_hurt`, then the
-- source's `on_damage`.
function K:damage(g, target, n, source)
  if n <= 0 then return 0 end
  if self:is_hero(g, target) then
    self:hurt_hero(g, self:owner(g, target), n)
  else
    if not self:on_board(g, target) then return 0 end
    if self:has(g, target, "invulnerable") then
      self.st:add(g, target, "invulnerable", -1)
      g:log(self:describe(g, target), " is invulnerable: the hit deals nothing")
      return 0
    end
    local h = self.st:add(g, target, "health", -n)
    g:log(g:logging() and self:describe(g, target) or "", " takes ", n, " damage (", h,
          " health left)")
    if source and self:on_board(g, source) and self:has(g, source, "deathtouch") then
      g:set(target, "dying", 1)
    end
    self:trigger(g, target, "on_hurt", { amount = n, source = source })
  end
  if source and self:on_board(g, source) then
    self:trigger(g, source, "on_damage", { amount = n, target = target })
  end
  return n
end

-- Restore up to n health (never above the maximum); returns the amount healed.
K.heal = health.heal

-- Run a minion card's trigger `name` (on_hurt, on_damage, end_of_turn, ...).
function K:trigger(g, id, name, ctx)
  local def = self:def(g, id)
  local fx = def and def[name]
  if fx then
    -- What an on_damage trigger deals comes from the ability, not the minion (else it
    -- would trigger itself again).
    if name == "on_damage" then ctx.source = nil else ctx.source = id end
    ctx.player = ctx.player or self:owner(g, id)
    ctx.self = id
    fx.run(g, self, ctx)
  end
end

-- ---- attacks ---------------------------------------------------------------------------

-- One hit of an attack, attacker a on target t: both strike at once (a hero, or a
-- swept neighbour, strikes nothing back).
local function exchange(self, g, a, t, back)
  local dealt = self:attack_of(g, a)
  local taken = back and not self:is_hero(g, t) and self:attack_of(g, t) or 0
  self:damage(g, t, dealt, a)
  if taken > 0 then self:damage(g, a, taken, t) end
end

-- The statuses that change a hit (g:clash leaves attacks where either side holds one
-- to the Lua rule below).
local HIT_STATUSES = { "invulnerable", "deathtouch", "sweep", "reflect" }

-- Minion a attacks t (legality checked by the caller). Deaths wait for the whole
-- action. A plain attack (no status of HIT_STATUSES, no card text reacting to a hit, no
-- one reading the log) is one g:clash, in C, doing what the rule below does for it.
function K:attack(g, a, t)
  if g:clash(a, t, "attack", "health", "attacks", K.BODY, HIT_STATUSES, self.hit_text) then
    return self:resolve_deaths(g)
  end
  local on = g:logging() -- describe strings only for someone who reads them
  g:log(on and self:describe(g, a) or "", " attacks ", on and self:describe(g, t) or "")
  g:set(a, "attacks", g:get(a, "attacks") + 1)
  local hero = self:is_hero(g, t)
  local r, c, e
  if not hero then r, c, e = self.grid:pos(g, t) end
  exchange(self, g, a, t, true)
  if not hero and self:has(g, a, "sweep") then
    for _, n in ipairs(self.grid:beside(g, e, r, c)) do exchange(self, g, a, n, false) end
  end
  if not hero and self:has(g, t, "reflect") and self:on_board(g, a) then
    g:log(g:name(t), " reflects the attack")
    self:damage(g, a, self:attack_of(g, a), a)
  end
  self:resolve_deaths(g)
end

-- ---- deaths ----------------------------------------------------------------------------

-- The minions at 0 health or doomed, in all_minions' order (one g:fallen call, in C).
local function doomed(self, g)
  local a = self:active(g)
  if a == 0 then a = 1 end
  return self.grid:fallen(g, "health", "dying", a, K.other(a))
end

-- Every minion at 0 health (or doomed) dies: all of them leave the board together,
-- then their `on_death` triggers run in the set order (the active player's side first,
-- front row before back, columns left to right), then each death's `friendly_death`
-- triggers on the surviving friendly minions. Deaths those cause resolve in turn.
function K:resolve_deaths(g)
  for _ = 1, 100 do
    local ids = doomed(self, g)
    if #ids == 0 then return end
    local dead = {}
    for i = 1, #ids do
      local id = ids[i]
      local r, c, p = self.grid:pos(g, id)
      dead[i] = { id = id, player = p, r = r, c = c }
    end
    for _, d in ipairs(dead) do
      g:log(g:logging() and self:describe(g, d.id) or "", " dies")
      self:unsummon(g, d.id, "grave")
    end
    for _, d in ipairs(dead) do
      local fx = self:def(g, d.id).on_death
      if fx then fx.run(g, self, { source = d.id, self = d.id, player = d.player,
                                   r = d.r, c = d.c }) end
    end
    for _, d in ipairs(dead) do
      for _, f in ipairs(self:minions(g, d.player)) do
        self:trigger(g, f, "friendly_death", { dead = d.id })
      end
    end
  end
end

return K
