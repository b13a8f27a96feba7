-- deckbuilder/testkit.lua: helpers for deck-builder rules tests (GAME/tests/*.lua).
--
-- Stacking (call from T.match{setup=...} or between answers): replace a zone's cards
-- with freshly created named cards; the replaced cards go to the "box" zone (out of the
-- game), so counts stay exact. Answering: by option label, as the pending decision's
-- player, so a test reads like the table talk ("Play Smithy", "Buy Gold ($6)").
-- Inspecting: zone contents as comma-joined names, easy to compare with T.eq.

local kernel = require("deckbuilder.kernel")

local kit = {}

-- Move a zone's cards (all but `keep` of them) to the box, top first.
local function box_zone(g, zone, p, keep)
  local n = g:count(zone, p) - (keep or 0)
  for _ = 1, n do g:move(g:top(zone, p), "box", 0) end
end

-- Replace a zone's cards with new ones named names, bottom first.
local function restock(g, zone, p, names)
  box_zone(g, zone, p)
  for _, name in ipairs(names) do g:new(name, zone, p) end
end

-- A zone's card names, bottom first.
local function zone_names(g, zone, p)
  local t = {}
  local n = g:count(zone, p or 0)
  for i = 1, n do t[i] = g:name(g:at(zone, p or 0, i)) end
  return t
end

kit.FIVE = { "Copper", "Copper", "Copper", "Copper", "Copper" }

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

-- Play whole bot games and check each ended sanely (check_finished): for each player
-- count in spec.players (a list), seats taking spec.bots in turn (a list, repeated),
-- each seed of spec.seeds (a list, or function(n) -> list), on spec.options; then
-- spec.check(m, n), if given.
function kit.bot_games(T, spec)
  for _, n in ipairs(spec.players) do
    local bots = {}
    for p = 1, n do bots[p] = spec.bots[(p - 1) % #spec.bots + 1] end
    local seeds = spec.seeds
    if type(seeds) == "function" then seeds = seeds(n) end
    for _, seed in ipairs(seeds) do
      local m = T.match { players = n, seed = seed, bots = bots, options = spec.options }
      kit.check_finished(T, m, n)
      if spec.check then spec.check(m, n) end
    end
  end
end

-- Play whole games with the generic bot in every seat, for 2..max players, a few seeds.
function kit.check_generic_bot_finishes(T, max_players)
  local players = {}
  for n = 2, max_players do players[#players + 1] = n end
  kit.bot_games(T, { players = players, bots = { "generic" }, seeds = { 1, 2, 3 } })
end

-- The game table declares its own turn cap (max_turns, docs/SCRIPTING.md), below the
-- engine's default of 2000, and its bots' games stay far from it: every seat's turns
-- together at most half the cap, for 2..max players, with the default and the generic bot.
function kit.check_turn_cap(T, game, max_players)
  local cap = game.max_turns
  T.ok(math.type(cap) == "integer" and cap >= 1 and cap < 2000,
       "the game declares a turn cap of its own")
  local players = {}
  for n = 2, max_players do players[#players + 1] = n end
  for _, bot in ipairs({ "default", "generic" }) do
    kit.bot_games(T, { players = players, bots = { bot }, seeds = { 1, 2, 3 },
      check = function(m, n)
        -- once per game: the results are scored in this test's own time budget
        local results, turns = m:results(), 0
        for p = 1, n do turns = turns + results[p].turns end
        T.ok(turns * 2 <= cap, bot .. " bots, " .. n .. " players: " .. turns
             .. " turns, more than half the cap of " .. cap)
      end })
  end
end

-- Two bot games from one spec (T.match's) play alike: the same final state hash.
-- Returns both matches.
function kit.check_replays(T, spec)
  local a, b = T.match(spec), T.match(spec)
  T.eq(a:hash(), b:hash(), "same seed, same game")
  return a, b
end

-- Replace p's hand with the named cards.
function kit.set_hand(g, p, names) restock(g, "hand", p, names) end

-- Replace p's deck; names[1] is the top card (the next one drawn).
function kit.set_deck(g, p, names)
  local bottom_first = {}
  for i = #names, 1, -1 do bottom_first[#bottom_first + 1] = names[i] end
  restock(g, "deck", p, bottom_first)
end

-- Replace p's discard pile; names bottom first.
function kit.set_discard(g, p, names) restock(g, "discard", p, names) end

-- Every card of player p is fixed: hand, deck (top first; default kit.FIVE) and discard
-- (default none).
function kit.stack(g, p, hand, deck, discard)
  kit.set_hand(g, p, hand)
  kit.set_deck(g, p, deck or kit.FIVE)
  kit.set_discard(g, p, discard or {})
end

-- A T.match spec whose first turn is player 1's with spec.hand (default none), spec.deck
-- (top first; default kit.FIVE) and spec.discard (default none); spec.more(g) stacks
-- anything else. players (default 2), seed (default 7), options and bots as T.match's.
function kit.match(spec)
  return {
    players = spec.players or 2, seed = spec.seed or 7, options = spec.options,
    bots = spec.bots,
    setup = function(g)
      kit.stack(g, 1, spec.hand or {}, spec.deck, spec.discard)
      if spec.more then spec.more(g) end
    end,
  }
end

-- A match (players, default 2; seed, default 7) set up as spec says, then answered:
-- spec.empty lists supply piles to empty (a name, or { name, keep }), spec.stacks[p] =
-- { hand, deck, discard } stacks player p (kit.stack), spec.more(g) stacks anything
-- else; spec.moves are picked in order (kit.pick). Returns the match.
function kit.play_out(T, spec)
  local m = T.match { players = spec.players or 2, seed = spec.seed or 7, setup = function(g)
    for _, pile in ipairs(spec.empty or {}) do
      if type(pile) == "string" then pile = { pile } end
      kit.empty_pile(g, pile[1], pile[2])
    end
    local stacks = spec.stacks or {}
    for p = 1, g:nplayers() do
      if stacks[p] then kit.stack(g, p, stacks[p][1], stacks[p][2], stacks[p][3]) end
    end
    if spec.more then spec.more(g) end
  end }
  for _, label in ipairs(spec.moves or {}) do kit.pick(m, label) end
  return m
end

-- Remove every card of a supply pile (to the box), or leave only `keep` of them.
function kit.empty_pile(g, name, keep) box_zone(g, "supply:" .. name, 0, keep) end

-- A two-player match with `provinces` Provinces left, in which player p gained the cards
-- gains[p] names at set-up (a score to count near the end); kernel_of(g): the match's
-- kernel (a game's game.kernel_of). Returns the match's g and its kernel.
function kit.near_the_end(T, kernel_of, provinces, gains)
  local m = T.match { players = 2, setup = function(g)
    local k = kernel_of(g)
    for p = 1, 2 do
      for _, name in ipairs(gains[p] or {}) do k:gain(g, p, name) end
    end
    kit.empty_pile(g, "Province", provinces)
  end }
  return m.g, kernel_of(m.g)
end

-- A zone's card names, bottom first, comma-joined ("" when empty).
function kit.names(g, zone, p) return table.concat(zone_names(g, zone, p), ",") end

-- The same, sorted by name (for zones whose order is not the point).
function kit.sorted(g, zone, p)
  local t = zone_names(g, zone, p)
  table.sort(t)
  return table.concat(t, ",")
end

-- How many cards named name are in p's zone (or zones, a list).
function kit.count_named(g, zones, p, name)
  if type(zones) == "string" then zones = { zones } end
  local n = 0
  for _, zone in ipairs(zones) do
    for _, card in ipairs(zone_names(g, zone, p)) do
      if card == name then n = n + 1 end
    end
  end
  return n
end

-- Every player of m holds a hand of hand_size (nil: not checked) and, in hand and deck
-- together, counts[name] cards of each name.
function kit.check_start_deck(T, m, hand_size, counts)
  for p = 1, m.g:nplayers() do
    if hand_size then T.eq(m.g:count("hand", p), hand_size, "player " .. p .. "'s hand") end
    local names = {}
    for name in pairs(counts) do names[#names + 1] = name end
    table.sort(names)
    for _, name in ipairs(names) do
      T.eq(kit.count_named(m.g, { "hand", "deck" }, p, name), counts[name],
           "player " .. p .. ": " .. name)
    end
  end
end

-- The zones of a view with this name (any owner).
function kit.zones_named(view, name)
  local t = {}
  for _, z in ipairs(view.zones) do
    if z.name == name then t[#t + 1] = z end
  end
  return t
end

-- The finished match's ranks and scores by player, comma-joined ("1,2", "6,3").
function kit.ranks(m) return kit.results_field(m, "rank") end
function kit.scores(m) return kit.results_field(m, "score") end
function kit.results_field(m, field)
  local t = {}
  for p, r in ipairs(m:results()) do t[p] = tostring(r[field]) end
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

-- The texts of events (m:events(p)), in order.
function kit.texts(events)
  local t = {}
  for i, e in ipairs(events) do t[i] = e.text end
  return t
end

-- Checks that players 1..n of matches b and a received the same event texts.
function kit.check_same_events(T, b, a, n)
  for p = 1, n do
    T.eq(kit.texts(b:events(p)), kit.texts(a:events(p)), "player " .. p .. "'s events")
  end
end

-- The reference kernel over a game's cards (data: its cards and order) that runs the
-- turn in Lua only, and the same kernel with its kit, checked to be so.
function kit.kernels(T, data, hand_size)
  local lua_k = kernel.new { cards = data.cards, order = data.order, hand_size = hand_size,
                             kit = false }
  local kit_k = kernel.new { cards = data.cards, order = data.order, hand_size = hand_size }
  T.ok(lua_k.kit == false and kit_k.kit, "one kernel without a kit, one with")
  return lua_k, kit_k
end

-- Answers the pending decision as its player with the options at the indexes in pick
-- (a bot's answer) and insists it was accepted.
function kit.answer_picked(T, m, pick)
  local d = m:decision()
  local ids = {}
  for i = 1, #pick do ids[i] = d.options[pick[i]].id end
  T.ok(m:answer(d.player, ids))
end

-- What a bot's named form answers where it picked the labelled option o: a card name,
-- or nil for End actions / End turn.
local function named_of(o)
  if o.label:sub(1, 4) == "Buy " or o.label:sub(1, 5) == "Play " then return o.name end
  return nil
end

-- The pending decision of m as a bot is given it inline: the wire form lacks the kernel's
-- own option fields, which the Dominion bots read (PLAY_ALL by identity, a buy's act and
-- cost).
function kit.inline_decision(m)
  local d = m:decision()
  for i, o in ipairs(d.options) do
    if o.label == "Play all treasures" then d.options[i] = kernel.PLAY_ALL end
    local cost = o.label:match("^Buy .* %(%$(%d+)%)$")
    if cost then o.act, o.cost = "buy", tonumber(cost) end
  end
  return d
end

-- Plays a match of two people to its end, every answer the bot's from the labelled
-- options; at every action decision, and every buy decision once the treasures are
-- played (a named bot's kernel plays them first), the named form must choose the same.
-- spec: kernel, bot (the labelled form), named ({action, buy}), name, seed, max (answers),
-- min (decisions compared), decision(m) (the pending decision as the bot is given it
-- inline), buy(named, k, g, p) (the named buy as the kernel asks it).
function kit.check_named_is_labelled(T, spec)
  local k, named = spec.kernel, spec.named
  local m = T.match { players = 2, seed = spec.seed }
  local compared = 0
  for _ = 1, spec.max do
    if not m:decision() then break end
    local d = spec.decision(m)
    local pick = spec.bot(m.g, d.player, d)
    local o = m:decision().options[pick[1]]
    if d.kind == "action" then
      local names = m.g:deck_actions(k.kit, d.player)
      T.eq(named.action(k, m.g, d.player, names), named_of(o), spec.name .. ": " .. o.label)
      compared = compared + 1
    elseif d.kind == "buy" and o.label ~= "Play all treasures" then
      T.eq(spec.buy(named, k, m.g, d.player), named_of(o), spec.name .. ": " .. o.label)
      compared = compared + 1
    end
    kit.answer_picked(T, m, pick)
  end
  T.ok(m:finished(), "the whole game compared")
  T.ok(compared > spec.min, "many decisions compared")
end

return kit
