-- elemental/turn.lua: the turn of an Elemental Command match (methods of the kernel):
-- the mulligan, the turn's start (mana, draw), the one decision "what next?" and what
-- each answer does, Berserk, and the end of the turn.
--
-- Decisions (`kind`): `mulligan` (any subset of the opening hand), `turn` (resource,
-- play, hero power, attack, move, end turn), `place` (where a minion goes), `target`
-- (a card's or hero power's one target), `destination` (where a moved minion goes).

local K = require("elemental.kernel")
local choose = require("boardkit.choose")

-- ---- the mulligan ---------------------------------------------------------------------

-- p may set aside any subset of the opening hand, draws as many, then shuffles the set
-- aside cards into the deck (so the new cards are new).
function K.mulligan(_, g, p)
  local hand = g:list("hand", p)
  if #hand == 0 then return end
  local opts = {}
  local lab = g:labels(p)
  for i, id in ipairs(hand) do opts[i] = { label = lab and g:name(id) or nil, card = id } end
  local picked = g:choose { player = p, kind = "mulligan", options = opts, min = 0,
    max = #opts, prompt = "Mulligan: choose any cards to shuffle back and redraw" }
  if #picked > 0 then
    for _, i in ipairs(picked) do g:move(hand[i], "aside", p) end
    local drawn = g:deal("deck", p, "hand", p, #picked)
    g:log_to(p, "You draw ", drawn)
    g:move_all("aside", p, "deck", p)
    g:shuffle("deck", p)
  end
  g:log(g:player_name(p), " redraws ", #picked, #picked == 1 and " card" or " cards")
end

-- ---- the turn's start and end -------------------------------------------------------------

-- Mana (+1 a turn up to 10, refilled), the resource choice and the hero power again,
-- every minion of p refreshed, one card drawn; the first player's first turn draws
-- nothing and has no resource choice.
function K:start_turn(g, p)
  local t = g:add_counter("turn", 0, 1)
  g:set_counter("active", 0, p)
  g:add_counter("turns", p, 1)
  local max = math.min(g:counter("max_mana", p) + 1, K.MANA_CAP)
  g:set_counter("max_mana", p, max)
  g:set_counter("mana", p, max)
  g:set_counter("resource_used", p, t == 1 and 1 or 0)
  g:set_counter("power_used", p, 0)
  for _, id in ipairs(self:minions(g, p)) do
    g:set(id, "attacks", 0)
    g:set(id, "moved", 0)
  end
  g:log("Turn ", t, ": ", g:player_name(p))
  if t > 1 then self:draw(g, p, 1) end
end

-- End-of-turn triggers of p's minions (reading order), then every lasting effect that
-- ends with this turn wears off.
function K:end_turn(g, p)
  for _, id in ipairs(self:minions(g, p)) do
    if self:on_board(g, id) then self:trigger(g, id, "end_of_turn", {}) end
  end
  self:resolve_deaths(g)
  self.st:expire(g, self:all_minions(g), self:turn_no(g))
end

-- ---- what may be done ---------------------------------------------------------------------

-- Can p play the card in hand: mana, element levels, a free space for a minion, a
-- target for a spell that needs one. `free`: p's empty spaces when the caller has them.
function K:playable(g, p, id, free)
  local def = self:def(g, id)
  if def.mana > g:counter("mana", p) or not self:meets(g, p, def) then return false end
  if def.attack then return #(free or self.grid:free(g, p)) > 0 end
  if def.target then return #self:targets(g, p, def.target) > 0 end
  return true
end

-- The hero power's targets (Wind: only minions with an adjacent empty space).
function K:power_targets(g, p)
  local h = self:hero_def(g, p)
  local ts = self:targets(g, p, h.target)
  if not h.adjacent then return ts end
  local out = {}
  for _, id in ipairs(ts) do
    if #self:free_adjacent(g, id) > 0 then out[#out + 1] = id end
  end
  return out
end

local ELEMENT_LABEL = { earth = "Earth", wind = "Wind", fire = "Fire" }

-- May p use the hero power now (unused this turn, 2 mana, a target)?
function K:power_ready(g, p)
  return g:counter("power_used", p) == 0 and g:counter("mana", p) >= 2
    and #self:power_targets(g, p) > 0
end

-- The options of the `turn` decision, in a fixed order: resource choices, cards to
-- play, the hero power, attacks, moves, End turn. Without labels when nothing reads them
-- (g:labels: a bot answers inline; this game's bots read `act` and the ids, never labels).
-- Options are appended in place (no helper call per option: this runs per decision).
function K:actions(g, p)
  local opts = {}
  local lab = g:labels(p)
  if g:counter("resource_used", p) == 0 then
    opts[#opts + 1] = { label = "Gain 1 mana this turn", act = "resource", res = "mana" }
    for i = 1, #K.ELEMENTS do
      local e = K.ELEMENTS[i]
      opts[#opts + 1] = {
        label = lab and "Raise " .. ELEMENT_LABEL[e] .. " to " .. (g:counter(e, p) + 1) or nil,
        act = "resource", res = e }
    end
  end
  local free = self.grid:free(g, p)
  choose.plays(self, g, p, opts, lab, K.playable, free)
  if self:power_ready(g, p) then
    opts[#opts + 1] = { label = "Hero power", card = self:hero(g, p), act = "power" }
  end
  local mine = self:minions(g, p)
  choose.attacks(self, g, opts, lab, mine)
  for i = 1, #mine do
    local a = mine[i]
    if #free > 0 and self:can_move(g, a) then
      local who = lab and "Move " .. self:describe(g, a) .. " to "
      for j = 1, #free do
        local rc = free[j]
        opts[#opts + 1] = { label = lab and who .. self.grid:label(rc[1], rc[2]) or nil,
                            card = a, act = "move", id = a, r = rc[1], c = rc[2],
                            space = lab and self.grid:zone(rc[1], rc[2]) or nil }
      end
    end
  end
  opts[#opts + 1] = { label = "End turn", act = "end" }
  return opts
end

-- Is entity id (an integer) in zone of player p?
local function in_zone(g, id, zone, p)
  if math.type(id) ~= "integer" or id < 1 then return false end
  local z, o = g:zone_of(id)
  return z == zone and o == p
end

local has = choose.contains

-- Would k:actions list the action o (a named bot's answer: boardkit/choose.lua)? The
-- same rules, asked for that one action.
function K:allows(g, p, o)
  local act = o.act
  if act == "end" then return true end
  if act == "resource" then
    return g:counter("resource_used", p) == 0 and (o.res == "mana" or ELEMENT_LABEL[o.res] ~= nil)
  end
  if act == "play" then return in_zone(g, o.id, "hand", p) and self:playable(g, p, o.id) end
  if act == "power" then return self:power_ready(g, p) end
  if math.type(o.id) ~= "integer" or o.id < 1 or self:owner(g, o.id) ~= p
      or not self:on_board(g, o.id) then return false end
  if act == "attack" then
    return self:can_attack(g, o.id) and has(self:attack_targets(g, o.id), o.target)
  end
  if act == "move" then
    local r, c = o.r, o.c
    return self:can_move(g, o.id) and math.type(r) == "integer" and math.type(c) == "integer"
      and r >= 1 and r <= #K.ROWS and c >= 1 and c <= K.COLS and self.grid:empty(g, p, r, c)
  end
  return false
end

-- ---- doing it -------------------------------------------------------------------------------

-- Ask p for one of the spaces (array of {r, c}); a named bot names its index.
function K:choose_space(g, p, spaces, kind, prompt, about)
  local bot = choose.named(self, g, p)
  if bot and bot.space then
    local i = bot.space(self, g, p, spaces, kind, about)
    if not spaces[i] then choose.refuse(g, p, kind .. " " .. tostring(i)) end
    return spaces[i]
  end
  local opts, lab = {}, g:labels(p)
  for i = 1, #spaces do
    local rc = spaces[i]
    opts[i] = { label = lab and self.grid:label(rc[1], rc[2]) or nil, r = rc[1], c = rc[2],
                card = about, space = self.grid:zone(rc[1], rc[2]) }
  end
  local pick = g:choose { player = p, kind = kind, prompt = prompt, options = opts }
  return spaces[pick[1]]
end

-- Ask p for one of the entities ids.
K.choose_target = choose.target

-- The target (and, for a move, the destination) of a card or hero power def.
local function aim(self, g, p, def, ctx, ids)
  if #ids == 0 then return false end
  ctx.target = self:choose_target(g, p, ids, def.name .. ": choose a target", def.name)
  if def.move and self:on_board(g, ctx.target) then
    local spaces
    if def.adjacent then
      spaces = self:free_adjacent(g, ctx.target)
    else
      local _, o = g:zone_of(ctx.target)
      spaces = self.grid:free(g, o)
    end
    if #spaces > 0 then
      ctx.dest = self:choose_space(g, p, spaces, "destination",
                                   "Move " .. g:name(ctx.target) .. " where?", ctx.target)
    end
  end
  return true
end

-- Play card id from p's hand: pay, place a minion (or cast a spell), choose the one
-- target, run the card's `play` abilities, then resolve deaths.
function K:play_card(g, p, id)
  local def = self:def(g, id)
  g:add_counter("mana", p, -def.mana)
  local ctx = { player = p, source = id }
  if def.attack then
    local rc = self:choose_space(g, p, self.grid:free(g, p), "place",
                                 "Where does " .. def.name .. " go?", id)
    self:summon(g, id, p, rc[1], rc[2])
    g:log(g:player_name(p), " plays ", { id }, " at ", self.grid:label(rc[1], rc[2]))
    ctx.self = id
  else
    g:move(id, "casting", p)
    g:log(g:player_name(p), " casts ", { id })
  end
  local ok = true
  if def.target then ok = aim(self, g, p, def, ctx, self:targets(g, p, def.target)) end
  if def.play and ok then def.play.run(g, self, ctx) end
  if not def.attack then g:move(id, "grave", p) end
  self:resolve_deaths(g)
end

function K:hero_power(g, p)
  local h = self:hero_def(g, p)
  g:add_counter("mana", p, -h.power_cost)
  g:set_counter("power_used", p, 1)
  g:log(g:player_name(p), " uses the hero power")
  local ctx = { player = p, source = self:hero(g, p) }
  if aim(self, g, p, h, ctx, self:power_targets(g, p)) then h.play.run(g, self, ctx) end
  self:resolve_deaths(g)
end

local BERSERK, NO_CARDS = { "berserk" }, {}

-- Berserk: every minion of p with Berserk that can attack attacks straight ahead, again
-- and again while it can (Frenzy), in reading order. (Asked before every decision: one
-- g:pick, in C, keeps the minions with Berserk, usually none.)
function K:berserk(g, p)
  for _ = 1, 2 * K.COLS * #K.ROWS do
    local acted = false
    for _, id in ipairs(g:pick(self:minions(g, p), NO_CARDS, BERSERK)) do
      if self:can_attack(g, id) then
        self:attack(g, id, self:straight_ahead(g, id))
        acted = true
        break
      end
    end
    if not acted or self:over(g) then return end
  end
end

-- Do the chosen `turn` option o; returns false when it ends the turn.
function K:perform(g, p, o)
  local act = o.act
  if act == "end" then return false end
  if act == "resource" then
    g:set_counter("resource_used", p, 1)
    if o.res == "mana" then
      g:add_counter("mana", p, 1)
      g:log(g:player_name(p), " gains 1 mana this turn")
    else
      local v = g:add_counter(o.res, p, 1)
      g:log(g:player_name(p), " raises ", ELEMENT_LABEL[o.res], " to ", v)
    end
  elseif act == "play" then
    self:play_card(g, p, o.id)
  elseif act == "power" then
    self:hero_power(g, p)
  elseif act == "attack" then
    self:attack(g, o.id, o.target)
  elseif act == "move" then
    g:set(o.id, "moved", 1)
    self:move_to(g, o.id, o.r, o.c)
  end
  return true
end

-- One whole turn of the active player (the mulligan first, in the match's first turn).
function K:turn(g)
  if g:counter("_mulligan") == 0 then
    self:mulligan(g, 1)
    self:mulligan(g, 2)
    g:set_counter("_mulligan", 0, 1)
  end
  choose.turn(self, g, "Your turn: play, attack, move or end the turn", K.berserk)
end

return K
