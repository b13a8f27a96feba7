-- boardkit/testkit.lua: what the board games' test kits share, on top of
-- deckbuilder/testkit.lua (answering by label, reading events): a match whose sides a
-- test stacks, the offers of the pending decision, and readers of a seat's view.
--
-- A game's kit (elemental/testkit.lua, mlw/testkit.lua) starts from a copy of this one
-- and adds what is its own: how a side is stacked (minions on spaces, monsters and a
-- trap) and how a test names a piece.

local kit = require("deckbuilder.testkit")

local B = {}
for name, fn in pairs(kit) do B[name] = fn end

-- A new game kit: a copy of this one, to add to.
function B.copy()
  local out = {}
  for name, fn in pairs(B) do out[name] = fn end
  return out
end

-- Replace p's hand with side.hand (names) and p's deck with side.deck (names, top
-- first; `deck` when the side has none).
function B.stack_cards(g, p, side, deck)
  kit.set_hand(g, p, side.hand or {})
  kit.set_deck(g, p, side.deck or deck)
end

-- Give the piece id each status of st (a boardkit status object) that spec names:
-- { "Ogre", health = 1, frozen = 1 } (a name alone gives none).
function B.set_statuses(g, st, id, spec)
  if type(spec) ~= "table" then return end
  for _, d in ipairs(st.defs) do
    if spec[d.name] then st:set(g, id, d.name, spec[d.name]) end
  end
end

-- B.match(T, spec, stack_side): a two-player match (spec.seed, default 1; spec.options;
-- spec.bots) whose set-up runs stack_side(g, p, spec.p1 or spec.p2 or {}) for each seat,
-- then spec.setup(g) when given.
function B.match(T, spec, stack_side)
  return T.match { players = 2, seed = spec.seed or 1, options = spec.options,
                   bots = spec.bots, setup = function(g)
    stack_side(g, 1, spec.p1 or {})
    stack_side(g, 2, spec.p2 or {})
    if spec.setup then spec.setup(g) end
  end }
end

-- A two-player match of bots played to its end (checked finished, results sane).
function B.finish(T, bots, options, seed)
  local m = T.match { players = 2, seed = seed, bots = bots, options = options }
  kit.check_finished(T, m, 2)
  return m
end

-- Does the pending decision offer this label?
function B.offers(m, label)
  local d = m:decision()
  if not d then return false end
  for _, o in ipairs(d.options) do
    if o.label == label then return true end
  end
  return false
end

-- Does any option label of the pending decision start with prefix?
function B.offers_any(m, prefix)
  local d = m:decision()
  for _, o in ipairs(d and d.options or {}) do
    if o.label:sub(1, #prefix) == prefix then return true end
  end
  return false
end

-- End the current turn (the pending decision must be a `turn` one).
function B.end_turn(m) kit.pick(m, "End turn") end

-- The zone `name` of owner `seat` (0-based, as views number seats) in a view, or nil.
function B.zone(view, name, seat)
  for _, z in ipairs(view.zones) do
    if z.name == name and z.owner == seat then return z end
  end
  return nil
end

-- The value of counter `name` of owner `seat` (-1: shared) in a view, or nil.
function B.counter(view, name, seat)
  for _, c in ipairs(view.counters) do
    if c.name == name and c.owner == seat then return c.value end
  end
  return nil
end

return B
