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

local events = {}
events.__index = events

-- spec: listeners = function(g, event, ctx) -> ids; card = function(g, id) -> the card
-- definition (its `on` table is read); status = a boardkit status object (optional).
-- The statuses that listen to each event are found once here, so asking costs one
-- attribute read per listening status, not one per declared status.
function events.new(spec)
  local self = setmetatable({ listeners = spec.listeners, card = spec.card,
                              status = spec.status, by_event = {} }, events)
  for _, d in ipairs(spec.status and spec.status.defs or {}) do
    -- pairs: each event's list comes out in declaration order whatever order it walks
    for ev in pairs(d.on or {}) do
      local list = self.by_event[ev] or {}
      list[#list + 1] = d
      self.by_event[ev] = list
    end
  end
  return self
end

local NONE = {}

-- The handlers of entity id for event ev, card first, then statuses in their order.
function events:handlers(g, id, ev)
  local out = {}
  local def = self.card(g, id)
  local h = def and def.on and def.on[ev]
  if h then out[1] = h end
  for _, d in ipairs(self.by_event[ev] or NONE) do
    if g:get(id, d.name) ~= 0 then out[#out + 1] = d.on[ev] end
  end
  return out
end

-- May the event happen? false and the vetoing entity when a listener says no.
function events:ask(g, ev, ctx)
  for _, id in ipairs(self.listeners(g, ev, ctx)) do
    for _, h in ipairs(self:handlers(g, id, ev)) do
      if h(g, id, ctx) == false then return false, id end
    end
  end
  return true
end

-- Announce the event to every listener in order (listeners are taken once, before the
-- first handler runs, so one that leaves play meanwhile is still told).
function events:emit(g, ev, ctx)
  for _, id in ipairs(self.listeners(g, ev, ctx)) do
    for _, h in ipairs(self:handlers(g, id, ev)) do h(g, id, ctx) end
  end
end

return events
