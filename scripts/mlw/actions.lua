-- mlw/actions.lua: the turn of a Major League Wizardry match: its start (draw, mana,
-- upkeep), the one decision "what next?" whose options are every legal action, what
-- each action does, and the turn's end.
--
-- Every action follows the event model of seed 003: `CAN_<ACTION>` is asked while the
-- options are built (every listener must agree, or the action is not offered), then,
-- once chosen and paid for, `BEFORE_<ACTION>` (one veto cancels it: a trap's way), then
-- the action, then `ON_<ACTION>` is told. Events and their `ctx` fields are listed in
-- README.md. Decisions (`kind`): `turn` and `target`.

local k = require("mlw.kernel")
local types = require("mlw.types")

local A = {}

-- ---- the turn's start and end -------------------------------------------------------------

-- The turn of p begins: draw (not the first player's first turn), max mana +1 (up to the
-- cap), mana = max mana - upkeep, every monster ready again, ON_TURN_START.
function A.start_turn(g, p)
  local t = g:add_counter("turn", 0, 1)
  g:set_counter("active", 0, p)
  g:add_counter("turns", p, 1)
  g:log("Turn ", t, ": ", g:player_name(p))
  if t > 1 then k:draw(g, p, k.DRAW_PER_TURN) end
  local max = math.min(g:counter("max_mana", p) + 1, k.MANA_CAP)
  g:set_counter("max_mana", p, max)
  local upkeep = k:upkeep(g, p)
  g:set_counter("upkeep", p, upkeep)
  g:set_counter("mana", p, math.max(0, max - upkeep))
  g:set_counter("drained", p, 0)
  for _, id in ipairs(k:monsters(g, p)) do
    g:set(id, "attacks", 0)
    g:set(id, "activated", 0)
  end
  k:emit(g, "ON_TURN_START", { player = p })
  k:resolve_deaths(g)
end

-- ON_TURN_END, then every status ending with this turn wears off.
function A.end_turn(g, p)
  k:emit(g, "ON_TURN_END", { player = p })
  k:resolve_deaths(g)
  local all = { k:wizard(g, 1), k:wizard(g, 2) }
  for q = 1, 2 do
    for _, id in ipairs(k:monsters(g, q)) do all[#all + 1] = id end
  end
  k.st:expire(g, all, k:turn_no(g))
  k:resolve_deaths(g)
end

-- ---- what may be done -----------------------------------------------------------------------

function A.can_play(g, p, id, L)
  local def = k:def(g, id)
  if def.cost > g:counter("mana", p) or not k:run(g, id, "playable", def.playable, g, p, def) then
    return false
  end
  return (k:ask(g, "CAN_PLAY", { player = p, card = id, type = def.type, listeners = L }))
end

function A.can_activate(g, p, id, L)
  local ab = k:def(g, id).activate
  if not ab or g:get(id, "activated") ~= 0 or (ab.cost or 0) > g:counter("mana", p) then
    return false
  end
  if ab.target and #types.targets(g, p, ab.target) == 0 then return false end
  return (k:ask(g, "CAN_ACTIVATE", { player = p, unit = id, listeners = L }))
end

-- Ready (in play since before this turn), attacks left, attack above 0, CAN_ATTACK.
function A.can_attack(g, id, L)
  local p = k:owner(g, id)
  if p ~= k:active(g) or g:get(id, "summoned") >= k:turn_no(g) then return false end
  if g:get(id, "attacks") >= k:def(g, id).attacks_per_turn or k:attack(g, id) <= 0 then
    return false
  end
  return (k:ask(g, "CAN_ATTACK", { player = p, unit = id, listeners = L }))
end

-- What monster a may attack: enemy monsters CAN_ATTACK_MONSTER allows, and the enemy
-- wizard's entity when the card's `can_attack_wizard` and CAN_ATTACK_WIZARD allow it.
function A.attack_targets(g, a, L)
  local p = k:owner(g, a)
  local out = {}
  for _, t in ipairs(k:monsters(g, k.other(p))) do
    if k:ask(g, "CAN_ATTACK_MONSTER", { player = p, unit = a, target = t, listeners = L }) then
      out[#out + 1] = t
    end
  end
  if k:run(g, a, "can_attack_wizard", k:def(g, a).can_attack_wizard, g, a, L)
      and k:ask(g, "CAN_ATTACK_WIZARD", { player = p, unit = a, listeners = L }) then
    out[#out + 1] = k:wizard(g, k.other(p))
  end
  return out
end

function A.can_drain(g, p, id, L)
  if g:counter("drained", p) ~= 0 then return false end
  return (k:ask(g, "CAN_DRAIN", { player = p, unit = id, listeners = L }))
end

function A.can_discard(g, p, id, L)
  return (k:ask(g, "CAN_DISCARD", { player = p, card = id, listeners = L }))
end

-- The options of the `turn` decision, in a fixed order: play, activate, attack, drain,
-- discard, End turn, Surrender. Without labels when nothing reads them (g:labels: a bot
-- answers inline; this game's bots read `act` and the ids, never labels).
function A.actions(g, p)
  local opts = {}
  local lab = g:labels(p)
  local L = k:live_listeners(g) -- the same for every question below
  local ids, names = g:list("hand", p, nil, "distinct")
  for i = 1, #ids do
    local id = ids[i]
    if A.can_play(g, p, id, L) then
      opts[#opts + 1] = {
        label = lab and "Play " .. names[i] or nil, card = id, act = "play", id = id }
    end
  end
  local mine = k:monsters(g, p)
  for i = 1, #mine do
    local id = mine[i]
    if A.can_activate(g, p, id, L) then
      opts[#opts + 1] = {
        label = lab and "Activate " .. k:describe(g, id) or nil, card = id, act = "activate",
        id = id }
    end
  end
  for i = 1, #mine do
    local a = mine[i]
    if A.can_attack(g, a, L) then
      local who = lab and k:describe(g, a) .. " attacks "
      for _, t in ipairs(A.attack_targets(g, a, L)) do
        opts[#opts + 1] = {
          label = lab and who .. k:describe(g, t) or nil, card = a, act = "attack", id = a,
          target = t }
      end
    end
  end
  for i = 1, #mine do
    local id = mine[i]
    if A.can_drain(g, p, id, L) then
      opts[#opts + 1] = {
        label = lab and "Drain " .. k:describe(g, id) or nil, card = id, act = "drain",
        id = id }
    end
  end
  local in_play = k:monsters(g, p)
  if k:trap(g, p) then in_play[#in_play + 1] = k:trap(g, p) end
  for i = 1, #in_play do
    local id = in_play[i]
    if A.can_discard(g, p, id, L) then
      opts[#opts + 1] = {
        label = lab and "Discard " .. k:describe(g, id) or nil, card = id, act = "discard",
        id = id }
    end
  end
  opts[#opts + 1] = { label = "End turn", act = "end" }
  opts[#opts + 1] = { label = "Surrender", act = "surrender" }
  return opts
end

-- ---- doing it -------------------------------------------------------------------------------

-- Ask p for one of the elements ids.
function A.choose_target(g, p, ids, prompt, source)
  local opts, lab = {}, g:labels(p)
  for i, id in ipairs(ids) do opts[i] = { label = lab and k:describe(g, id) or nil, card = id } end
  local pick = g:choose { player = p, kind = "target", prompt = prompt, options = opts,
                          source = source }
  return ids[pick[1]]
end

local function cancelled(g, what, by)
  g:log(what, " is cancelled by ", k:describe(g, by))
end

-- Play card id: pay, choose its target, BEFORE_PLAY (a veto spends the card), resolve by
-- its type's script (a monster enters play and runs `when_played`; a spell runs its
-- effect; a trap goes face down), ON_PLAY.
function A.play(g, p, id)
  local def = k:def(g, id)
  g:add_counter("mana", p, -def.cost)
  local ctx = { player = p, card = id, type = def.type }
  if def.type == "trap" then -- face down: it stays hidden in hand until it is set
    g:log(g:player_name(p), " sets a trap")
    g:log_to(p, "You set ", { id })
  else
    g:move(id, "casting", p)
    g:log(g:player_name(p), " plays ", { id })
  end
  if def.target then
    ctx.target = A.choose_target(g, p, types.targets(g, p, def.target),
                                 def.name .. ": choose a target", def.name)
  end
  local ok, by = k:ask(g, "BEFORE_PLAY", ctx)
  if not ok then
    cancelled(g, def.name, by)
    g:move(id, "grave", p)
  else
    k:run(g, id, "resolve", def.resolve, g, ctx)
    if def.when_played then k:run(g, id, "when_played", def.when_played, g, ctx) end
    if k:zone(g, id) == "casting" then g:move(id, "grave", p) end
    k:emit(g, "ON_PLAY", ctx)
  end
  k:resolve_deaths(g)
end

-- Activate monster id's ability (once a turn): pay its cost, choose its target,
-- BEFORE_ACTIVATE, run it, ON_ACTIVATE.
function A.activate(g, p, id)
  local ab = k:def(g, id).activate
  g:set(id, "activated", 1)
  g:add_counter("mana", p, -(ab.cost or 0))
  g:log(g:player_name(p), " activates ", k:describe(g, id))
  local ctx = { player = p, unit = id }
  if ab.target then
    ctx.target = A.choose_target(g, p, types.targets(g, p, ab.target),
                                 g:name(id) .. ": choose a target", g:name(id))
  end
  local ok, by = k:ask(g, "BEFORE_ACTIVATE", ctx)
  if not ok then
    cancelled(g, "The ability", by)
  else
    k:run(g, id, "activate", ab.run, g, ctx)
    k:emit(g, "ON_ACTIVATE", ctx)
  end
  k:resolve_deaths(g)
end

-- Monster a attacks target t (a monster or the enemy wizard). BEFORE_ATTACK may cancel
-- it. A monster target strikes back at the same time when it can defend (CAN_DEFEND)
-- and may counter this attacker (CAN_COUNTER). Deaths come after the whole attack.
function A.attack(g, a, t)
  local p = k:owner(g, a)
  g:set(a, "attacks", g:get(a, "attacks") + 1)
  local ctx = { player = p, unit = a, target = t }
  g:log(k:describe(g, a), " attacks ", k:describe(g, t))
  local ok, by = k:ask(g, "BEFORE_ATTACK", ctx)
  if not ok then
    cancelled(g, "The attack", by)
  else
    t = ctx.target
    local back = 0
    if k:in_play(g, t) and k:ask(g, "CAN_DEFEND", { unit = t, attacker = a })
        and k:ask(g, "CAN_COUNTER", { unit = t, attacker = a }) then
      back = k:run(g, t, "strike", k:def(g, t).strike, g, t)
    end
    local hit = k:run(g, a, "strike", k:def(g, a).strike, g, a)
    k:damage(g, t, hit, a)
    if back > 0 and k:in_play(g, a) then k:damage(g, a, back, t) end
    k:emit(g, "ON_ATTACK", ctx)
  end
  k:resolve_deaths(g)
end

-- Drain monster id (once a turn): it leaves play, its cost comes back as mana, and max
-- mana and mana rise by 1.
function A.drain(g, p, id)
  g:set_counter("drained", p, 1)
  local ctx = { player = p, unit = id }
  local ok, by = k:ask(g, "BEFORE_DRAIN", ctx)
  if not ok then
    cancelled(g, "The drain", by)
    return
  end
  local cost = k:def(g, id).cost
  g:log(g:player_name(p), " drains ", k:describe(g, id), " for ", cost + 1, " mana")
  k:remove(g, id)
  g:add_counter("max_mana", p, 1)
  g:add_counter("mana", p, cost + 1)
  k:emit(g, "ON_DRAIN", ctx)
end

-- Discard one's own card in play: a monster goes to the graveyard, the trap face down out
-- of the game (the hidden zone `unseen`).
function A.discard(g, p, id)
  local ctx = { player = p, card = id }
  local ok, by = k:ask(g, "BEFORE_DISCARD", ctx)
  if not ok then
    cancelled(g, "The discard", by)
    return
  end
  if k:zone(g, id) == "trap" then -- face down it goes: named to its owner only
    g:log(g:player_name(p), " discards a trap")
    g:log_to(p, "You discard ", { id })
    k:remove(g, id, "unseen")
  else
    g:log(g:player_name(p), " discards ", k:describe(g, id))
    k:remove(g, id)
  end
  k:emit(g, "ON_DISCARD", ctx)
end

-- Do the chosen `turn` option o; returns false when it ends the turn.
function A.perform(g, p, o)
  local act = o.act
  if act == "end" then return false end
  if act == "surrender" then
    g:set_counter("surrendered", p, 1)
    g:log(g:player_name(p), " surrenders")
    return false
  end
  if act == "play" then A.play(g, p, o.id)
  elseif act == "activate" then A.activate(g, p, o.id)
  elseif act == "attack" then A.attack(g, o.id, o.target)
  elseif act == "drain" then A.drain(g, p, o.id)
  elseif act == "discard" then A.discard(g, p, o.id)
  end
  return true
end

-- One whole turn of the active player.
function A.turn(g)
  local p = k:active(g)
  A.start_turn(g, p)
  while not k:over(g) do
    local opts = A.actions(g, p)
    local pick = g:choose { player = p, kind = "turn", options = opts,
                            prompt = "Your turn: play, activate, attack, drain or end the turn" }
    if not A.perform(g, p, opts[pick[1]]) then break end
  end
  if not k:over(g) then A.end_turn(g, p) end
  g:set_counter("active", 0, k.other(p))
end

return A
