-- boardkit/health.lua: healing, capped, the same for every board game: a player's health
-- is its counter `health` (a hero, a wizard), a piece's the statuses `health` and
-- `max_health` (boardkit/status.lua). Each heal is logged and returns what it restored.
-- A kernel adopts the whole rule as its method `heal` (K.heal = health.heal).

local health = {}

-- Player p heals up to n, never above `most`; `who` names its body ("hero", "wizard").
function health.player(g, p, n, most, who)
  local h = math.min(g:counter("health", p) + n, most)
  local d = h - g:counter("health", p)
  g:set_counter("health", p, h)
  g:log(g:player_name(p), "'s " .. who .. " heals ", d, " (", h, " health)")
  return d
end

-- The piece id heals up to n, never above its `max_health`; `name` describes it in the log.
function health.piece(g, st, id, n, name)
  local h = math.min(st:get(g, id, "health") + n, st:get(g, id, "max_health"))
  local d = h - st:get(g, id, "health")
  st:set(g, id, "health", h)
  g:log(name, " heals ", d)
  return d
end

-- The kernel method: restore up to n health to target. A player's body (an entity in the
-- kernel's zone BODY: "hero", "wizard") heals its player up to START_HEALTH, any other
-- piece up to its max_health (the kernel's statuses `st`).
function health.heal(self, g, target, n)
  local zone, p = g:zone_of(target)
  if zone == self.BODY then return health.player(g, p, n, self.START_HEALTH, self.BODY) end
  return health.piece(g, self.st, target, n, self:describe(g, target))
end

return health
