-- mlw/testkit.lua: set-ups for Major League Wizardry rules tests, on top of
-- boardkit/testkit.lua (stacked sides, offers, view readers; answering by label and
-- reading events from deckbuilder/testkit.lua).
--
-- M.match(T, { p1 = SIDE, p2 = SIDE, seed =, options =, bots = }) starts a match and
-- stops at player 1's first decision of turn 1. SIDE: hand (names), deck (names, top
-- first; default 10 Goblins), monsters (names, or { name, STATUS = value, ... }), trap
-- (a name), mana (max mana at the turn's start; default 10, so mana = 10 - upkeep),
-- health (default 20); keep = true leaves the side as the game dealt it.
-- Monsters placed there were summoned before the first turn, so they may attack.

local bk = require("boardkit.testkit")
local k = require("mlw.kernel")

local M = bk.copy()

function M.kernel() return k end

local GOBLINS = {}
for i = 1, 10 do GOBLINS[i] = "Goblin" end

local function stack_side(g, p, side)
  if side.keep then return end
  M.stack_cards(g, p, side, GOBLINS)
  for _, spec in ipairs(side.monsters or {}) do
    local name = type(spec) == "table" and spec[1] or spec
    local id = g:new(name, "hand", p)
    k:summon(g, id, p)
    M.set_statuses(g, k.st, id, spec)
  end
  if side.trap then g:new(side.trap, "trap", p) end
  g:set_counter("max_mana", p, (side.mana or 10) - 1)
  g:set_counter("health", p, side.health or 20)
end

function M.match(T, spec) return bk.match(T, spec, stack_side) end

-- The i-th monster (from 1) of player p, or nil.
function M.monster(m, p, i) return m.g:at("monsters", p, i) end

-- Names of p's monsters, comma-joined ("-" for none).
function M.monsters(m, p)
  local out = {}
  for _, id in ipairs(k:monsters(m.g, p)) do out[#out + 1] = m.g:name(id) end
  return #out == 0 and "-" or table.concat(out, ",")
end

-- A status of p's i-th monster ("health", "attack", "frozen"...).
function M.stat(m, p, i, name) return k.st:get(m.g, M.monster(m, p, i), name) end

function M.health(m, p) return m.g:counter("health", p) end

function M.mana(m, p) return m.g:counter("mana", p) end

-- Play a card from hand, then answer its target by label.
function M.play(m, name, target)
  M.pick(m, "Play " .. name)
  if target then M.pick(m, target) end
end

-- "Ogre (P2 slot 1)".
function M.slot(name, p, i) return name .. " (P" .. p .. " slot " .. i .. ")" end

function M.wiz(p) return "P" .. p .. "'s wizard" end

-- "Wolf (P1 slot 1) attacks Ogre (P2 slot 1)": a's slot on player p's side.
function M.attack(m, p, i, target)
  local a = M.monster(m, p, i)
  M.pick(m, M.slot(m.g:name(a), p, i) .. " attacks " .. target)
end

return M
