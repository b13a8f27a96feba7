-- mlw/actions.lua: the turn of a Major League Wizardry match: its start (draw, mana,
-- upkeep), the one decision "what next?" whose options are every legal action, what
-- each action does, and the turn's end.
--
-- Every action follows the event model of seed 003: `CAN_<ACTION>` is asked while the
-- options are built (every listener must agree, or the action is not offered), then,
-- once chosen and paid for, `BEFORE_<ACTION>` (one veto cancels it: a trap's way), then
-- the action, then `ON_<ACTION>` is told. Events and their `ctx` fields are listed in
-- README.md. Decisions (`kind`): `turn` and `target`.

local K = require("mlw.kernel")
local choose = require("boardkit.choose")
local types = require("mlw.types")

-- ---- the turn's start and end -------------------------------------------------------------

-- The turn of p begins: draw (not the first player's first turn), max mana +1 (up to the
-- cap), mana = max mana - upkeep, every monster ready again, ON_TURN_START.
function K:start_turn(g, p)
  local t = g:add_counter("turn", 0, 1)
  g:set_counter("active", 0, p)
  g:add_counter("turns", p, 1)
  g:log("Turn ", t, ": ", g:player_name(p))
  if t > 1 then self:draw(g, p, K.DRAW_PER_TURN) end
  local max = math.min(g:counter("max_mana", p) + 1, K.MANA_CAP)
  g:set_counter("max_mana", p, max)
  local upkeep = self:upkeep(g, p)
  g:set_counter("upkeep", p, upkeep)
  g:set_counter("mana", p, math.max(0, max - upkeep))
  g:set_counter("drained", p, 0)
  for _, id in ipairs(self:monsters(g, p)) do
    g:set(id, "attacks", 0)
    g:set(id, "activated", 0)
  end
  self:emit(g, "ON_TURN_START", { player = p })
  self:resolve_deaths(g)
end

-- ON_TURN_END, then every status ending with this turn wears off.
function K:end_turn(g, p)
  self:emit(g, "ON_TURN_END", { player = p })
  self:resolve_deaths(g)
  local all = { self:wizard(g, 1), self:wizard(g, 2) }
  for q = 1, 2 do
    for _, id in ipairs(self:monsters(g, q)) do all[#all + 1] = id end
  end
  K.st:expire(g, all, self:turn_no(g))
  self:resolve_deaths(g)
end

-- ---- what may be done -----------------------------------------------------------------------

function K:can_play(g, p, id, L)
  local def = self:def(g, id)
  if def.cost > g:counter("mana", p) then return false end
  if not self:run(g, id, "playable", def.playable, g, p, def) then return false end
  return (self:ask(g, "CAN_PLAY", { player = p, card = id, type = def.type, listeners = L }))
end

function K:can_activate(g, p, id, L)
  local ab = self:def(g, id).activate
  if not ab or g:get(id, "activated") ~= 0 or (ab.cost or 0) > g:counter("mana", p) then
    return false
  end
  if ab.target and #types.targets(g, p, ab.target) == 0 then return false end
  return (self:ask(g, "CAN_ACTIVATE", { player = p, unit = id, listeners = L }))
end

-- Ready (in play since before this turn), attacks left, attack above 0, CAN_ATTACK.
function K:can_attack(g, id, L)
  local p = self:owner(g, id)
  if p ~= self:active(g) or g:get(id, "summoned") >= self:turn_no(g) then return false end
  if g:get(id, "attacks") >= self:def(g, id).attacks_per_turn or self:attack_of(g, id) <= 0 then
    return false
  end
  return (self:ask(g, "CAN_ATTACK", { player = p, unit = id, listeners = L }))
end

-- What monster a may attack: enemy monsters CAN_ATTACK_MONSTER allows, and the enemy
-- wizard's entity when the card's `can_attack_wizard` and CAN_ATTACK_WIZARD allow it.
function K:attack_targets(g, a, L)
  local p = self:owner(g, a)
  local out = {}
  for _, t in ipairs(self:monsters(g, K.other(p))) do
    if self:may_attack_monster(g, p, a, t, L) then out[#out + 1] = t end
  end
  if self:may_attack_wizard(g, p, a, L) then out[#out + 1] = self:wizard(g, K.other(p)) end
  return out
end

-- The two rules attack_targets applies, each on its own (a named bot's attack is checked
-- against the one its target needs).
function K:may_attack_monster(g, p, a, t, L)
  return (self:ask(g, "CAN_ATTACK_MONSTER", { player = p, unit = a, target = t, listeners = L }))
end

function K:may_attack_wizard(g, p, a, L)
  return self:run(g, a, "can_attack_wizard", self:def(g, a).can_attack_wizard, g, a, L)
    and self:ask(g, "CAN_ATTACK_WIZARD", { player = p, unit = a, listeners = L })
end

function K:can_drain(g, p, id, L)
  if g:counter("drained", p) ~= 0 then return false end
  return (self:ask(g, "CAN_DRAIN", { player = p, unit = id, listeners = L }))
end

function K:can_discard(g, p, id, L)
  return (self:ask(g, "CAN_DISCARD", { player = p, card = id, listeners = L }))
end

-- The actions on one's own card in play: the check that allows each, and its label's verb.
local ON_MINE = { activate = { K.can_activate, "Activate " }, drain = { K.can_drain, "Drain " },
                  discard = { K.can_discard, "Discard " } }

-- Adds to opts the action `act` on each of p's cards ids that its check allows ("Drain
-- Knight (P1 slot 1)"; labels only when lab).
local function offer(self, g, p, opts, act, ids, L, lab)
  local can, verb = ON_MINE[act][1], ON_MINE[act][2]
  for i = 1, #ids do
    local id = ids[i]
    if can(self, g, p, id, L) then
      opts[#opts + 1] = { label = lab and verb .. self:describe(g, id) or nil, card = id,
                          act = act, id = id }
    end
  end
end

-- The options of the `turn` decision, in a fixed order: play, activate, attack, drain,
-- discard, End turn, Surrender. Without labels when nothing reads them (g:labels: a bot
-- answers inline; this game's bots read `act` and the ids, never labels).
function K:actions(g, p)
  local opts = {}
  local lab = g:labels(p)
  local L = self:live_listeners(g) -- the same for every question below
  choose.plays(self, g, p, opts, lab, K.can_play, L)
  local mine = self:monsters(g, p)
  offer(self, g, p, opts, "activate", mine, L, lab)
  choose.attacks(self, g, opts, lab, mine, L)
  offer(self, g, p, opts, "drain", mine, L, lab)
  local in_play = self:monsters(g, p)
  if self:trap(g, p) then in_play[#in_play + 1] = self:trap(g, p) end
  offer(self, g, p, opts, "discard", in_play, L, lab)
  opts[#opts + 1] = { label = "End turn", act = "end" }
  opts[#opts + 1] = { label = "Surrender", act = "surrender" }
  return opts
end

-- Is entity id (an integer) in zone of player p?
local function in_zone(g, id, zone, p)
  if math.type(id) ~= "integer" or id < 1 then return false end
  local z, o = g:zone_of(id)
  return z == zone and o == p
end

-- Would attack_targets list t for a (owned by p)?
local function may_attack(self, g, p, a, t, L)
  local e = K.other(p)
  if in_zone(g, t, "monsters", e) then return self:may_attack_monster(g, p, a, t, L) end
  return t == self:wizard(g, e) and self:may_attack_wizard(g, p, a, L)
end

-- What every check of one `turn` decision shares (boardkit/choose.lua): the listeners.
function K:prepare(g)
  return self:live_listeners(g)
end

-- Would k:actions list the action o (a named bot's answer: boardkit/choose.lua)? The
-- same checks, asked for that one action; L: k:prepare's listeners.
function K:allows(g, p, o, L)
  local act, id = o.act, o.id
  if act == "end" or act == "surrender" then return true end
  if act == "play" then return in_zone(g, id, "hand", p) and self:can_play(g, p, id, L) end
  if act == "discard" and in_zone(g, id, "trap", p) then return self:can_discard(g, p, id, L) end
  if not in_zone(g, id, "monsters", p) then return false end
  if act == "activate" then return self:can_activate(g, p, id, L) end
  if act == "attack" then
    return self:can_attack(g, id, L) and math.type(o.target) == "integer"
      and may_attack(self, g, p, id, o.target, L)
  end
  if act == "drain" then return self:can_drain(g, p, id, L) end
  if act == "discard" then return self:can_discard(g, p, id, L) end
  return false
end

-- ---- doing it -------------------------------------------------------------------------------

-- Ask p for one of the entities ids.
K.choose_target = choose.target

-- BEFORE_<ACTION>: may `what` happen? A veto is logged with whoever cast it.
local function allowed(self, g, ev, ctx, what)
  local ok, by = self:ask(g, ev, ctx)
  if not ok then g:log(what, " is cancelled by ", self:describe(g, by)) end
  return ok
end

-- Play card id: pay, choose its target, BEFORE_PLAY (a veto spends the card), resolve by
-- its type's script (a monster enters play and runs `when_played`; a spell runs its
-- effect; a trap goes face down), ON_PLAY.
function K:play(g, p, id)
  local def = self:def(g, id)
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
    ctx.target = self:choose_target(g, p, types.targets(g, p, def.target),
                                    def.name .. ": choose a target", def.name)
  end
  if not allowed(self, g, "BEFORE_PLAY", ctx, def.name) then
    g:move(id, "grave", p)
  else
    self:run(g, id, "resolve", def.resolve, g, ctx)
    if def.when_played then self:run(g, id, "when_played", def.when_played, g, ctx) end
    if self:zone(g, id) == "casting" then g:move(id, "grave", p) end
    self:emit(g, "ON_PLAY", ctx)
  end
  self:resolve_deaths(g)
end

-- Activate monster id's ability (once a turn): pay its cost, choose its target,
-- BEFORE_ACTIVATE, run it, ON_ACTIVATE.
function K:activate(g, p, id)
  local ab = self:def(g, id).activate
  g:set(id, "activated", 1)
  g:add_counter("mana", p, -(ab.cost or 0))
  g:log(g:player_name(p), " activates ", self:describe(g, id))
  local ctx = { player = p, unit = id }
  if ab.target then
    ctx.target = self:choose_target(g, p, types.targets(g, p, ab.target),
                                    g:name(id) .. ": choose a target", g:name(id))
  end
  if allowed(self, g, "BEFORE_ACTIVATE", ctx, "The ability") then
    self:run(g, id, "activate", ab.run, g, ctx)
    self:emit(g, "ON_ACTIVATE", ctx)
  end
  self:resolve_deaths(g)
end

-- Monster a attacks target t (a monster or the enemy wizard). BEFORE_ATTACK may cancel
-- it. A monster target strikes back at the same time when it can defend (CAN_DEFEND)
-- and may counter this attacker (CAN_COUNTER). Deaths come after the whole attack.
function K:attack(g, a, t)
  local p = self:owner(g, a)
  g:set(a, "attacks", g:get(a, "attacks") + 1)
  local ctx = { player = p, unit = a, target = t }
  local on = g:logging() -- describe strings only for someone who reads them
  g:log(on and self:describe(g, a) or "", " attacks ", on and self:describe(g, t) or "")
  if allowed(self, g, "BEFORE_ATTACK", ctx, "The attack") then
    t = ctx.target
    local back = 0
    if self:in_play(g, t) and self:ask(g, "CAN_DEFEND", { unit = t, attacker = a })
        and self:ask(g, "CAN_COUNTER", { unit = t, attacker = a }) then
      back = self:run(g, t, "strike", self:def(g, t).strike, g, t)
    end
    local hit = self:run(g, a, "strike", self:def(g, a).strike, g, a)
    self:damage(g, t, hit, a)
    if back > 0 and self:in_play(g, a) then self:damage(g, a, back, t) end
    self:emit(g, "ON_ATTACK", ctx)
  end
  self:resolve_deaths(g)
end

-- Drain monster id (once a turn): it leaves play, its cost comes back as mana, and max
-- mana and mana rise by 1.
function K:drain(g, p, id)
  g:set_counter("drained", p, 1)
  local ctx = { player = p, unit = id }
  if not allowed(self, g, "BEFORE_DRAIN", ctx, "The drain") then return end
  local cost = self:def(g, id).cost
  g:log(g:player_name(p), " drains ", self:describe(g, id), " for ", cost + 1, " mana")
  self:remove(g, id)
  g:add_counter("max_mana", p, 1)
  g:add_counter("mana", p, cost + 1)
  self:emit(g, "ON_DRAIN", ctx)
end

-- Discard one's own card in play: a monster goes to the graveyard, the trap face down out
-- of the game (the hidden zone `unseen`).
function K:discard(g, p, id)
  local ctx = { player = p, card = id }
  if not allowed(self, g, "BEFORE_DISCARD", ctx, "The discard") then return end
  if self:zone(g, id) == "trap" then -- face down it goes: named to its owner only
    g:log(g:player_name(p), " discards a trap")
    g:log_to(p, "You discard ", { id })
    self:remove(g, id, "unseen")
  else
    g:log(g:player_name(p), " discards ", self:describe(g, id))
    self:remove(g, id)
  end
  self:emit(g, "ON_DISCARD", ctx)
end

-- Do the chosen `turn` option o; returns false when it ends the turn.
function K:perform(g, p, o)
  local act = o.act
  if act == "end" then return false end
  if act == "surrender" then -- seed 003, use case 8: the wizard's health drops to 0
    g:set_counter("surrendered", p, 1)
    g:set_counter("health", p, 0)
    g:log(g:player_name(p), " surrenders (0 health)")
    return false
  end
  if act == "play" then self:play(g, p, o.id)
  elseif act == "activate" then self:activate(g, p, o.id)
  elseif act == "attack" then self:attack(g, o.id, o.target)
  elseif act == "drain" then self:drain(g, p, o.id)
  elseif act == "discard" then self:discard(g, p, o.id)
  end
  return true
end

-- One whole turn of the active player.
function K:turn(g)
  choose.turn(self, g, "Your turn: play, activate, attack, drain or end the turn")
end

return K
