-- elemental/effects.lua: what card texts do, as abilities a card lists.
--
-- An ability is { cost = N, run = function(g, k, ctx) }: `cost` is its price in the
-- card's budget (the balance rule, cards.lua), `run` does it. ctx holds `player` (the
-- card's owner), `source` (the card), `self` (the minion whose trigger runs), `target`
-- (the one chosen target every ability of a card shares) and `dest` ({r, c}, where a
-- move goes). A group names whom an ability hits: nil = the chosen target, "self",
-- "adjacent" (the minions next to self), "enemy_minions", "friendly_minions",
-- "all_minions", "enemy_hero", "your_hero", "enemies" (enemy minions and hero).
-- Durations: nil = permanent, "turn" = until end of turn, N = for N turns (ends at the
-- end of the Nth turn from now, counting both players' turns).

local K = require("elemental.kernel")

local fx = {}

-- ---- targets ---------------------------------------------------------------------------

-- What a card's `target` spec lets player p choose, minions in reading order (p's side
-- first), then heroes: "any", "minion", "enemy_minion", "friendly_minion", "enemy"
-- (enemy minion or hero), "friendly" (friendly minion or your hero).
function K:targets(g, p, spec)
  local e = K.other(p)
  local out = {}
  local mine = spec == "any" or spec == "minion" or spec == "friendly_minion"
    or spec == "friendly"
  local theirs = spec == "any" or spec == "minion" or spec == "enemy_minion"
    or spec == "enemy"
  if mine then
    local ids = self:minions(g, p)
    for i = 1, #ids do out[#out + 1] = ids[i] end
  end
  if theirs then
    local ids = self:minions(g, e)
    for i = 1, #ids do out[#out + 1] = ids[i] end
  end
  if spec == "any" or spec == "friendly" then out[#out + 1] = self:hero(g, p) end
  if spec == "any" or spec == "enemy" then out[#out + 1] = self:hero(g, e) end
  return out
end

-- The entities a group names, for ctx.
local function group_of(k, g, ctx, group)
  local p = ctx.player
  if group == nil then
    if ctx.target and (k:on_board(g, ctx.target) or k:is_hero(g, ctx.target)) then
      return { ctx.target }
    end
    return {}
  end
  if group == "self" then return k:on_board(g, ctx.self) and { ctx.self } or {} end
  if group == "adjacent" then
    local r, c, o = k.grid:pos(g, ctx.self)
    if not r then return {} end
    return k.grid:neighbours(g, o, r, c)
  end
  if group == "enemy_minions" then return k:minions(g, K.other(p)) end
  if group == "friendly_minions" then return k:minions(g, p) end
  if group == "all_minions" then return k:all_minions(g) end
  if group == "enemy_hero" then return { k:hero(g, K.other(p)) } end
  if group == "your_hero" then return { k:hero(g, p) } end
  if group == "enemies" then
    local out = k:minions(g, K.other(p))
    out[#out + 1] = k:hero(g, K.other(p))
    return out
  end
  error("elemental: unknown group " .. tostring(group))
end

-- How much a group multiplies an ability's price.
local SPREAD = { self = 1, adjacent = 2, enemy_minions = 3, friendly_minions = 2,
                 all_minions = 2, enemy_hero = 1, your_hero = 1, enemies = 3 }
local function spread(group) return group and SPREAD[group] or 2 end

-- The end turn of a duration, now being this turn.
local function until_turn(g, duration)
  if duration == nil then return nil end
  local now = g:counter("turn")
  if duration == "turn" then return now end
  return now + duration - 1
end

local function minions_only(k, g, ids)
  local out = {}
  for _, id in ipairs(ids) do
    if not k:is_hero(g, id) then out[#out + 1] = id end
  end
  return out
end

-- An ability of the given cost that does each(g, k, t) to every minion of the group in
-- turn (heroes left out; the minions taken before the first is touched).
local function on_minions(cost, group, each)
  return { cost = cost, run = function(g, k, ctx)
    for _, t in ipairs(minions_only(k, g, group_of(k, g, ctx, group))) do each(g, k, t) end
  end }
end

-- ---- abilities -------------------------------------------------------------------------

-- Deal n damage (`damage`: n when it hits the chosen target, `face`: n when it hits the
-- enemy hero whatever the target, for bots). Deaths wait
-- until the whole card has resolved.
function fx.deal(n, group)
  return { cost = n * spread(group), damage = not group and n or nil,
           face = group == "enemy_hero" and n or nil, run = function(g, k, ctx)
    for _, t in ipairs(group_of(k, g, ctx, group)) do k:damage(g, t, n, ctx.source) end
  end }
end

-- Restore n health.
function fx.heal(n, group)
  return { cost = (n * spread(group) + 1) // 2, run = function(g, k, ctx)
    for _, t in ipairs(group_of(k, g, ctx, group)) do k:heal(g, t, n) end
  end }
end

-- +a/+h, permanently, or for a duration when a == h (a boost). (`gain`: a when it lasts,
-- and `group` its minions (nil: the chosen target), for bots.)
function fx.buff(a, h, group, duration)
  local price = (a + h) * spread(group) // 2
  if duration then price = price // 2 end
  local ability = on_minions(math.max(price, 1), group, function(g, k, t)
    if duration then
      k.st:set(g, t, "boost", k.st:get(g, t, "boost") + a, until_turn(g, duration))
    end
    k.st:add(g, t, "attack", a)
    k.st:add(g, t, "max_health", h)
    k.st:add(g, t, "health", h)
    g:log(k:describe(g, t), " gets +", a, "/+", h)
  end)
  if not duration and a > 0 then ability.gain, ability.group = a, group end
  return ability
end

-- -a attack (never below 0), permanently.
function fx.weaken(a, group)
  return on_minions(a * spread(group) // 2 + 1, group, function(g, k, t)
    k.st:set(g, t, "attack", math.max(0, k:attack_of(g, t) - a))
    g:log(k:describe(g, t), " gets -", a, " attack")
  end)
end

-- Give a keyword (value v, 1 for a flag) for a duration.
function fx.give(kw, v, group, duration)
  local price = 2
  for _, d in ipairs(K.KEYWORDS) do
    if d.name == kw then price = math.abs(d.cost) * (v or 1) end
  end
  return on_minions(math.max(1, price * spread(group) // 2), group, function(g, k, t)
    k.st:set(g, t, kw, v or 1, until_turn(g, duration))
    g:log(k:describe(g, t), " gains ", kw)
  end)
end

-- Stun: the minion loses its owner's next turn (it can neither attack nor move until
-- that turn ends; stunned on its owner's own turn, it also loses the rest of this one).
function fx.stun(group)
  return on_minions(2 * spread(group), group, function(g, k, t)
    local n = k:owner(g, t) == k:active(g) and 3 or 2
    k.st:set(g, t, "stun", 1, until_turn(g, n))
    g:log(k:describe(g, t), " is stunned")
  end)
end

-- Dispel: the minion loses every keyword and lasting effect, its attack and health go
-- back to the printed ones, and the damage it had taken stays (so a minion that only
-- its buffs kept alive dies).
function fx.dispel(group)
  return on_minions(2 * spread(group) // 2 + 1, group, function(g, k, t)
    local damage = k.st:get(g, t, "max_health") - k.st:get(g, t, "health")
    k.st:dispel(g, t)
    local def = k:def(g, t)
    k.st:set(g, t, "attack", def.attack)
    k.st:set(g, t, "max_health", def.health)
    k.st:set(g, t, "health", def.health - damage)
    g:log(k:describe(g, t), " is dispelled")
  end)
end

-- Destroy: the minion dies (with the action's other deaths).
function fx.destroy(group)
  return on_minions(8 * spread(group) // 2, group, function(g, k, t)
    g:set(t, "dying", 1)
    g:log(k:describe(g, t), " is destroyed")
  end)
end

-- Return to its owner's hand (lost when the hand is full).
function fx.bounce(group)
  return on_minions(3 * spread(group) // 2, group, function(g, k, t)
    local o = k:owner(g, t)
    g:log(k:describe(g, t), " returns to ", g:player_name(o), "'s hand")
    k:unsummon(g, t, k:hand_full(g, o) and "burned" or "hand")
  end)
end

-- Draw n cards (who: "you" or "opponent").
function fx.draw(n, who)
  return { cost = who == "opponent" and -n or 3 * n, run = function(g, k, ctx)
    k:draw(g, who == "opponent" and K.other(ctx.player) or ctx.player, n)
  end }
end

-- Move the target to the chosen empty space of its side (ctx.dest).
function fx.move()
  return { cost = 1, run = function(g, k, ctx)
    if ctx.dest and k:on_board(g, ctx.target) then
      k:move_to(g, ctx.target, ctx.dest[1], ctx.dest[2])
    end
  end }
end

-- +n mana this turn.
function fx.mana(n)
  return { cost = 2 * n, run = function(g, _, ctx)
    g:add_counter("mana", ctx.player, n)
    g:log(g:player_name(ctx.player), " gains ", n, " mana this turn")
  end }
end

-- +n to an element, permanently.
function fx.raise(element, n)
  return { cost = 3 * n, run = function(g, _, ctx)
    local v = g:add_counter(element, ctx.player, n)
    g:log(g:player_name(ctx.player), "'s ", K.ELEMENT_NAME[element], " rises to ", v)
  end }
end

-- Several abilities, in order, sharing the one target.
function fx.all(...)
  local list = { ... }
  local cost = 0
  for _, a in ipairs(list) do cost = cost + a.cost end
  local damage, buff, face
  for _, a in ipairs(list) do
    damage, buff = damage or a.damage, buff or (a.gain and a)
    if a.face then face = (face or 0) + a.face end
  end
  return { cost = cost, list = list, damage = damage, gain = buff and buff.gain,
           group = buff and buff.group, face = face, run = function(g, k, ctx)
    for _, a in ipairs(list) do a.run(g, k, ctx) end
  end }
end

return fx
