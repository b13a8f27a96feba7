-- boardkit/status.lua: per-entity statuses with durations, for any game.
--
-- A status is a named integer on an entity (a flag is 1, "Invulnerable 2" is 2) with an
-- optional end: the number of the turn at whose end it wears off (0: permanent). Both
-- live in entity attributes (`NAME` and `NAME~`), so they are snapshot and replayed with
-- the match. A status declared `public` is mirrored into the counter `NAME:ID` (ID the
-- entity), which every seat's view lists: that is how a generic client shows a piece's
-- attack, health and keywords without knowing the game. Statuses are declared once, in
-- order (the order every walk over them takes), each with optional hooks:
--   on = { EVENT = function(g, id, ctx) ... end }  listeners for boardkit/events.lua
--   on_end = function(g, id, value)                 when it wears off or is dispelled
--   keep = true                                     not removed by a dispel (base stats)

local status = {}
status.__index = status

-- defs: array of { name =, public =, keep =, on =, on_end = }.
-- names and untils: the attribute names in declaration order, read with one g:gets.
function status.new(defs)
  local self = setmetatable({ defs = defs, by_name = {}, until_attr = {}, counter = {},
                              names = {}, untils = {}, publics = {} }, status)
  for i, d in ipairs(defs) do
    self.by_name[d.name] = d
    self.until_attr[d.name] = d.name .. "~"
    self.names[i] = d.name
    self.untils[i] = d.name .. "~"
    self.publics[i] = d.public == true
  end
  return self
end

local function publish(self, g, id, name, v)
  if self.by_name[name].public then g:set_counter(name .. ":" .. id, 0, v) end
end

-- Its value (0 when absent).
function status.get(_, g, id, name)
  return g:get(id, name)
end

-- The turn it ends at (0: permanent or absent).
function status:ends(g, id, name)
  return g:get(id, self.until_attr[name])
end

-- Set a status: value (0 removes it) until the end of turn `until_turn` (nil or 0:
-- permanent). A longer existing duration is not cut short by a shorter one.
function status:set(g, id, name, value, until_turn)
  if not self.by_name[name] then error("boardkit: unknown status " .. name, 2) end
  local ua = self.until_attr[name]
  local old = g:get(id, ua)
  local u = until_turn or 0
  if value == 0 then
    u = 0
  elseif g:get(id, name) ~= 0 and (old == 0 or (u ~= 0 and old > u)) then
    u = old
  end
  g:set(id, name, value)
  g:set(id, ua, u)
  publish(self, g, id, name, value)
end

-- Add delta to a status, keeping its duration; returns the new value.
function status:add(g, id, name, delta)
  local v = g:get(id, name) + delta
  g:set(id, name, v)
  publish(self, g, id, name, v)
  return v
end

-- The names of the statuses the entity holds, in declaration order.
function status:held(g, id)
  local out, v, names = {}, g:gets(id, self.names), self.names
  for i = 1, #names do
    if v[i] ~= 0 then out[#out + 1] = names[i] end
  end
  return out
end

-- How many statuses the entity holds (#held without the list: one g:count_held).
function status:nheld(g, id)
  return g:count_held(id, self.names)
end

local function remove(self, g, id, d, hook)
  local v = g:get(id, d.name)
  if v == 0 then return false end
  g:set(id, d.name, 0)
  g:set(id, self.until_attr[d.name], 0)
  publish(self, g, id, d.name, 0)
  if hook and d.on_end then
    d.on_end(g, id, v)
    return true
  end
  return false
end

-- The walks below read an entity's values (or ends) with one g:gets and skip the zeros
-- without a call each; once an on_end hook has run (it may change any status), they read
-- each remaining one afresh, so they do exactly what a g:get per status would.

-- Statuses of the entities ids that end at or before turn `now` wear off (on_end runs).
-- Only the entities with such a status (g:due, in C) are read, until a hook has run:
-- from then on every remaining one is, since a hook may give any of them one.
function status:expire(g, ids, now)
  local defs, untils = self.defs, self.untils
  local due, j, changed = g:due(ids, untils, now), 1, false
  for k = 1, #ids do
    local id = ids[k]
    if id == due[j] then j = j + 1 elseif not changed then id = nil end
    if id then
      local ends, hooked = g:gets(id, untils), false
      for i = 1, #defs do
        local u = hooked and g:get(id, untils[i]) or ends[i]
        if u ~= 0 and u <= now then hooked = remove(self, g, id, defs[i], true) or hooked end
      end
      changed = changed or hooked
    end
  end
end

-- A dispel: every status not marked `keep` is removed (on_end runs).
function status:dispel(g, id)
  local defs, v, hooked = self.defs, g:gets(id, self.names), false
  for i = 1, #defs do
    local d = defs[i]
    if not d.keep and (hooked or v[i] ~= 0) then
      hooked = remove(self, g, id, d, true) or hooked
    end
  end
end

-- Every status is removed without hooks (the entity leaves play): one g:status_clear, in
-- C, doing what a remove per status held does.
function status:clear(g, id)
  g:status_clear(id, self.names, self.untils, self.publics)
end

return status
