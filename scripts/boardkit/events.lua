-- boardkit/events.lua: an event bus with vetoes, for any game.
--
-- An action asks first whether it may happen (`bus:ask`, for CAN_* and BEFORE_* events:
-- every listener must agree; one `false` vetoes it), then announces what happened
-- (`bus:emit`, for ON_* events and triggers). Listeners hold no state of their own: the
-- game says which entities listen (`listeners(g, event, ctx)`, an ordered array: the
-- order triggers resolve in), and each entity's handlers are its card's `on[event]`
-- and then those of every status it holds (boardkit/status.lua), so a status such as
-- Stun carries its own script. A handler is `function(g, id, ctx)`; `ctx` is the event's
-- table (the handlers may read and change it, e.g. to lower damage).
--
-- With `describe(g, id)` given, a handler that raises is reported with the element it
-- belongs to: "Backfire (entity 12): BEFORE_PLAY: <the error>", so a broken card script
-- names its card (events.blame runs any other card script the same way).

local events = {}
events.__index = events

-- spec: listeners = function(g, event, ctx) -> ids [, defs] (defs: the card definitions
-- of ids when the caller has them, saving a card lookup per listener per event); card =
-- function(g, id) -> the card definition (its `on` table is read); status = a boardkit
-- status object (optional); describe = function(g, id) -> a label for errors (optional).
-- The statuses that listen to each event are found once here, so asking costs one
-- attribute read per listening status, not one per declared status.
function events.new(spec)
  local self = setmetatable({ listeners = spec.listeners, card = spec.card,
                              status = spec.status, describe = spec.describe,
                              by_event = {}, status_names = {} }, events)
  for _, d in ipairs(spec.status and spec.status.defs or {}) do
    -- pairs: each event's list comes out in declaration order whatever order it walks
    for ev in pairs(d.on or {}) do
      local list = self.by_event[ev] or {}
      list[#list + 1] = d
      self.by_event[ev] = list
      local names = self.status_names[ev] or {}
      names[#names + 1] = d.name
      self.status_names[ev] = names
    end
  end
  return self
end

local NONE = {}

-- The handlers of entity id for event ev, card first, then statuses in their order.
-- def: the entity's card definition when the caller has it.
function events:handlers(g, id, ev, def)
  local out = {}
  def = def or self.card(g, id)
  local h = def and def.on and def.on[ev]
  if h then out[1] = h end
  local sts = self.by_event[ev] or NONE
  for i = 1, #sts do
    local d = sts[i]
    if g:get(id, d.name) ~= 0 then out[#out + 1] = d.on[ev] end
  end
  return out
end

-- What pcall gave, passed on as varargs (no table per call: handlers run per option).
local function blamed(describe, g, id, what, ok, ...)
  if ok then return ... end
  local err = ...
  if type(err) ~= "string" then error(err, 0) end
  error(describe(g, id) .. ": " .. what .. ": " .. err, 0)
end

-- Run fn(...) on behalf of entity id; an error it raises is raised again prefixed with
-- describe(g, id) and what (an event or an ability's name). Errors that are not strings
-- (the engine's own) pass unchanged.
function events.blame(describe, g, id, what, fn, ...)
  return blamed(describe, g, id, what, pcall(fn, ...))
end

local function call(describe, h, g, id, ev, ctx)
  if not describe then return h(g, id, ctx) end
  return events.blame(describe, g, id, ev, h, g, id, ctx)
end

-- Run the handlers of entity id for ev in order, the list taken before the first runs
-- (events:handlers); with `ask`, stop at a veto and return false.
local function run(self, g, id, ev, ctx, ask, def)
  local hs = self:handlers(g, id, ev, def)
  for i = 1, #hs do
    if call(self.describe, hs[i], g, id, ev, ctx) == false and ask then return false end
  end
  return true
end

-- Index the cards (name -> definition) whose handlers the bus runs, at load: for an
-- event no status listens to, only listeners whose card has a handler for it can answer,
-- so the bus then walks just those (g:pick, in C) or, when no card has one, nobody.
function events:index(cards)
  local index = {}
  for name, def in pairs(cards) do
    for ev in pairs(def.on or {}) do
      index[ev] = index[ev] or {}
      index[ev][name] = true
    end
  end
  self.by_card = index
end

-- The listeners of ev: ids [, defs], as the spec's listeners gives them, or only those
-- whose card handles ev (events:index); nil when nobody can answer.
local function listening(self, g, ev, ctx)
  local by_card = self.by_card
  if not by_card or self.by_event[ev] then return self.listeners(g, ev, ctx) end
  local names = by_card[ev]
  if not names then return nil end
  return g:pick((self.listeners(g, ev, ctx)), names)
end

-- Where the walk over the listeners ids of ev (a status listens to it) may start: at the
-- first one with a handler for ev (its card's, events:index, or a listening status it
-- holds), found by one g:pick in C; nil when none has one. Exact: the listeners before it
-- have nothing to run, and nothing changes before a handler runs. From there the walk
-- takes every listener as before, since a handler may give another a status. Only for
-- three listeners or more (one or two are cheaper walked).
local function first_handling(self, g, ev, ids)
  if not ids[3] then return 1 end
  local first = g:pick(ids, self.by_card[ev] or NONE, self.status_names[ev])[1]
  if not first then return nil end
  for i = 1, #ids do
    if ids[i] == first then return i end
  end
end

-- Put ev to its listeners in order (listeners are taken once, before the first handler
-- runs, so one that leaves play meanwhile is still told); with `ask`, stop at a veto:
-- false and the vetoing entity. Each listener's handlers are taken just before they run
-- (its card's, then its statuses'). When no more than two statuses listen to ev (every
-- game's events here), what does not change from one listener to the next (the
-- statuses' names and handlers) is read once, and no list of handlers is built.
local function dispatch(self, g, ev, ctx, ask)
  local ids, defs = listening(self, g, ev, ctx)
  if not ids then return true end
  local sts, from = self.by_event[ev], 1
  if sts and self.by_card then
    from = first_handling(self, g, ev, ids)
    if not from then return true end
  end
  if sts and sts[3] then
    for i = from, #ids do
      if not run(self, g, ids[i], ev, ctx, ask, defs and defs[i]) then return false, ids[i] end
    end
    return true
  end
  local d1, d2 = sts and sts[1], sts and sts[2]
  local n1, n2 = d1 and d1.name, d2 and d2.name
  local h1, h2 = d1 and d1.on[ev], d2 and d2.on[ev]
  local describe, card = self.describe, self.card
  for i = from, #ids do
    local id = ids[i]
    local def = defs and defs[i] or card(g, id)
    local on = def and def.on
    local h = on and on[ev]
    local held1 = n1 and g:get(id, n1) ~= 0
    local held2 = n2 and g:get(id, n2) ~= 0
    if h and call(describe, h, g, id, ev, ctx) == false and ask then return false, id end
    if held1 and call(describe, h1, g, id, ev, ctx) == false and ask then return false, id end
    if held2 and call(describe, h2, g, id, ev, ctx) == false and ask then return false, id end
  end
  return true
end

-- May the event happen? false and the vetoing entity when a listener says no.
function events:ask(g, ev, ctx)
  return dispatch(self, g, ev, ctx, true)
end

-- Announce the event to every listener in order.
function events:emit(g, ev, ctx)
  dispatch(self, g, ev, ctx, false)
end

return events
