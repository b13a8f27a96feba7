-- elemental/testkit.lua: set-ups for Elemental Command rules tests, on top of
-- boardkit/testkit.lua (stacked sides, offers, view readers; answering by label and
-- reading events from deckbuilder/testkit.lua).
--
-- E.match{ p1 = SIDE, p2 = SIDE, seed =, options =, bots = } starts a match whose two
-- mulligans are answered "keep" and stops at player 1's first decision of turn 1.
-- SIDE: hand (names), deck (names, top first; default 10 Zephyr Imps), board
-- ({ ["front 3"] = "Stone Wall" } or a name and statuses: { "Stone Wall", health = 1 }),
-- mana (this turn's; default 10), earth/wind/fire (default 9), health (default 30);
-- keep = true leaves the side as the game dealt it.
-- Minions placed there were summoned before the match's first turn, so they may act.

local bk = require("boardkit.testkit")

local E = bk.copy()

local function game() return require("elemental.game") end
function E.kernel() return game().kernel end

local ZEPHYRS = { "Zephyr Imp", "Zephyr Imp", "Zephyr Imp", "Zephyr Imp", "Zephyr Imp",
                  "Zephyr Imp", "Zephyr Imp", "Zephyr Imp", "Zephyr Imp", "Zephyr Imp" }

-- "front 3" -> r, c.
function E.space(label)
  local row, c = label:match("^(%a+) (%d)$")
  return row == "front" and 1 or 2, tonumber(c)
end

local function stack_side(g, p, side)
  local k = E.kernel()
  if side.keep then return end
  E.stack_cards(g, p, side, ZEPHYRS)
  -- columns then rows, so the set-up is the same whatever the table's order
  for _, row in ipairs { "front", "back" } do
    for c = 1, 5 do
      local spec = (side.board or {})[row .. " " .. c]
      if spec then
        local name = type(spec) == "table" and spec[1] or spec
        local id = g:new(name, "hand", p)
        k:summon(g, id, p, row == "front" and 1 or 2, c)
        E.set_statuses(g, k.st, id, spec)
      end
    end
  end
  g:set_counter("max_mana", p, (side.mana or 10) - 1)
  for _, e in ipairs { "earth", "wind", "fire" } do g:set_counter(e, p, side[e] or 9) end
  g:set_counter("health", p, side.health or 30)
end

function E.match(T, spec)
  local m = bk.match(T, spec, stack_side)
  for _ = 1, 2 do
    local d = m:decision()
    if d and d.kind == "mulligan" then assert(m:answer(d.player, {})) end
  end
  return m
end

-- The entity on player p's space ("front 3"), or nil.
function E.at(m, p, label)
  local r, c = E.space(label)
  return E.kernel().grid:at(m.g, p, r, c)
end

-- The card name on player p's space, or "-".
function E.name_at(m, p, label)
  local id = E.at(m, p, label)
  return id and m.g:name(id) or "-"
end

-- A status of the minion on player p's space ("health", "attack", "taunt"...).
function E.stat(m, p, label, name)
  return E.kernel().st:get(m.g, E.at(m, p, label), name)
end

-- Play a card from hand: "Play NAME", then each further answer in order (a space
-- "front 3", a target label, a destination).
function E.play(m, name, ...)
  E.pick(m, "Play " .. name)
  for _, label in ipairs { ... } do E.pick(m, label) end
end

return E
