-- deckbuilder/testkit.lua: helpers for deck-builder rules tests (GAME/tests/*.lua).
--
-- Stacking (call from T.match{setup=...} or between answers): replace a zone's cards
-- with freshly created named cards; the replaced cards go to the "box" zone (out of the
-- game), so counts stay exact. Answering: by option label, as the pending decision's
-- player, so a test reads like the table talk ("Play Smithy", "Buy Gold ($6)").
-- Inspecting: zone contents as comma-joined names, easy to compare with T.eq.

local kit = {}

local function box_zone(g, zone, p)
  local n = g:count(zone, p)
  for _ = 1, n do g:move(g:top(zone, p), "box", 0) end
end

-- Check that a match ran to its end with a sane result for each of its n players.
function kit.check_finished(T, m, n)
  T.ok(m:finished(), "the bots end the game")
  local r = m:results()
  T.eq(#r, n)
  local winners = 0
  for p = 1, n do
    T.ok(r[p].rank >= 1 and r[p].rank <= n, "rank in 1..n")
    if r[p].rank == 1 then winners = winners + 1 end
  end
  T.ok(winners >= 1, "someone wins")
end

-- Play whole games with the generic bot in every seat, for 2..max players, a few seeds.
function kit.check_generic_bot_finishes(T, max_players)
  for n = 2, max_players do
    local bots = {}
    for p = 1, n do bots[p] = "generic" end
    for seed = 1, 3 do
      kit.check_finished(T, T.match { players = n, seed = seed, bots = bots }, n)
    end
  end
end

-- Replace p's hand with the named cards.
function kit.set_hand(g, p, names)
  box_zone(g, "hand", p)
  for _, name in ipairs(names) do g:new(name, "hand", p) end
end

-- Replace p's deck; names[1] is the top card (the next one drawn).
function kit.set_deck(g, p, names)
  box_zone(g, "deck", p)
  for i = #names, 1, -1 do g:new(names[i], "deck", p) end
end

-- Replace p's discard pile; names bottom first.
function kit.set_discard(g, p, names)
  box_zone(g, "discard", p)
  for _, name in ipairs(names) do g:new(name, "discard", p) end
end

-- Remove every card of a supply pile (to the box), or leave only `keep` of them.
function kit.empty_pile(g, name, keep)
  local zone = "supply:" .. name
  local n = g:count(zone, 0) - (keep or 0)
  for _ = 1, n do g:move(g:top(zone, 0), "box", 0) end
end

-- A zone's card names, bottom first, comma-joined ("" when empty).
function kit.names(g, zone, p)
  local t = {}
  local n = g:count(zone, p or 0)
  for i = 1, n do t[i] = g:name(g:at(zone, p or 0, i)) end
  return table.concat(t, ",")
end

-- The same, sorted by name (for zones whose order is not the point).
function kit.sorted(g, zone, p)
  local t = {}
  local n = g:count(zone, p or 0)
  for i = 1, n do t[i] = g:name(g:at(zone, p or 0, i)) end
  table.sort(t)
  return table.concat(t, ",")
end

-- The pending decision's option labels, comma-joined.
function kit.labels(m)
  local d = m:decision()
  if not d then return nil end
  local t = {}
  for i, o in ipairs(d.options) do t[i] = o.label end
  return table.concat(t, ",")
end

-- Option ids of the pending decision for the given labels (a repeated label picks the
-- next option carrying it). Errors when a label is missing.
function kit.ids(m, labels)
  local d = assert(m:decision(), "testkit: no pending decision")
  if type(labels) == "string" then labels = { labels } end
  local used, ids = {}, {}
  for _, label in ipairs(labels) do
    local found
    for _, o in ipairs(d.options) do
      if o.label == label and not used[o.id] then found = o.id; break end
    end
    if not found then
      error("testkit: no option '" .. label .. "' in [" .. kit.labels(m) .. "] ("
            .. d.prompt .. ")", 2)
    end
    used[found] = true
    ids[#ids + 1] = found
  end
  return ids
end

-- Answer the pending decision by labels as its own player; returns m:answer's results.
function kit.answer(m, labels)
  local d = assert(m:decision(), "testkit: no pending decision")
  return m:answer(d.player, kit.ids(m, labels))
end

-- Answer and insist it was accepted.
function kit.pick(m, labels)
  local ok, code, msg = kit.answer(m, labels)
  if not ok then error("testkit: answer refused: " .. tostring(code) .. " " .. tostring(msg), 2) end
end

-- Whether any event p received so far has exactly this text.
function kit.saw(m, p, text)
  for _, e in ipairs(m:events(p)) do
    if e.text == text then return true end
  end
  return false
end

-- Whether any event p received so far contains this plain substring.
function kit.saw_part(m, p, part)
  for _, e in ipairs(m:events(p)) do
    if string.find(e.text, part, 1, true) then return true end
  end
  return false
end

return kit
