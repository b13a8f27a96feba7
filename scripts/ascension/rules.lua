-- ascension/rules.lua: the rules every Ascension card leans on, kept apart from the card
-- texts (cards.lua) and the turn (game.lua) so a card handler reads like its text.
--
-- What lives here: the centre row and its hidden deck, the Honour pool, the two
-- currencies, Temples and Keystones, the faction conditions (Echo, Serenity, Unite),
-- playing, acquiring, defeating and banishing, and constructs' once-per-turn abilities.
-- Generic deck-builder mechanics (drawing, reshuffling, owning) come from the kernel.
--
-- State (all in g, see README.md): zones centre_deck (hidden), row:1..row:6 (public),
-- void (public), temples (owner 0 = nobody holds it), constructs per player; counters
-- runes, power, honour_pool (owner 0), honour per player; hidden per-turn counters
-- _turnno, _played:<Faction>, _lbhero, _soulsnare, _burial; _temple:<Temple> = entity id;
-- _centre_out once a slot could not be refilled. Entity attributes: played = the
-- _turnno it was played on, unite = _turnno of a Unite still waiting, used = _turnno a
-- construct's once-per-turn ability fired.

local kernel = require("deckbuilder.kernel")
local memo = require("deckbuilder.memo")
local deck_games = require("deckhand.deck_games")

local R = {}

R.SLOTS = 6
R.HONOUR_PER_PLAYER = 30
R.TEMPLES = { "Temple of Life", "Temple of Death", "Temple of Immortality" }
R.FACTIONS = { "Void", "Lifebound", "Enlightened", "Mechana" }

-- Counter names built once (they are read on every play): "_played:<Faction>", a
-- faction's plays this turn, and "_temple:<Temple>", a Temple's entity id.
local PLAYED, TEMPLE_KEY = {}, {}
for _, f in ipairs(R.FACTIONS) do PLAYED[f] = "_played:" .. f end
for _, name in ipairs(R.TEMPLES) do TEMPLE_KEY[name] = "_temple:" .. name end
R.PLAYED, R.TEMPLE_KEY = PLAYED, TEMPLE_KEY

R.slot = {}
for i = 1, R.SLOTS do R.slot[i] = "row:" .. i end

-- An array read on every turn, as a copy in a cache: a module's own tables are frozen
-- once loaded (each read a metatable step, and each g call given one looks through it),
-- a cache's are plain. Copied again whenever the engine empties its caches.
local arrays = memo.cache()

function R.array(key, src)
  local t = arrays[key]
  if not t then
    t = {}
    for i = 1, #src do t[i] = src[i] end
    arrays[key] = t
  end
  return t
end

local function pname(g, p) return g:player_name(p) end

local function turnno(g) return g:counter("_turnno") end

-- ---- currencies and honour ----------------------------------------------------------

-- Log lines are written as g:log's pieces, never joined with `..` here: the engine joins
-- them only when someone reads the log (not in a sim or a search's play-out); a line that
-- starts with a player's name is g:log_player's, which looks the name up only then.
function R.add_runes(g, p, n)
  g:add_counter("runes", 0, n)
  g:log_player(p, " gains ", n, n == 1 and " Rune" or " Runes")
end

function R.add_power(g, p, n)
  g:add_counter("power", 0, n)
  g:log_player(p, " gains ", n, " Power")
end

-- Honour comes from the pool; once it is empty, honour still counts (the official
-- rules take extra tokens from the box) and the round is finished (game.finished).
-- quiet: the caller has logged the gain already.
function R.gain_honour(g, p, n, quiet)
  local pool = g:counter("honour_pool")
  g:set_counter("honour_pool", 0, pool > n and pool - n or 0)
  g:add_counter("honour", p, n)
  if not quiet then g:log_player(p, " gains ", n, " Honour") end
end

-- ---- costs ------------------------------------------------------------------------------

-- What decisions, conditions and the score ask of a card, by name: { monster = is it a
-- Monster, cost = its printed cost, or false when it depends on the game (cost_for),
-- faction = its faction or false, vp = the Honour printed on it (0 without) }. Kept in a
-- cache: card data is frozen once loaded, and each read of it costs a metatable step.
local card_facts = memo.cache()

local function facts(k, name)
  local f = card_facts[name]
  if not f then
    local def = k.cards[name]
    f = { monster = def.is.Monster == true, cost = not def.cost_for and def.cost,
          faction = def.faction or false, vp = def.vp or 0 }
    card_facts[name] = f
  end
  return f
end
R.facts = facts

-- The cost of a card for player p (Iku's depends on p's Temples).
function R.cost(g, k, p, name)
  local c = facts(k, name).cost
  if c then return c end
  return k.cards[name].cost_for(g, p)
end

-- ---- temples and keystones -------------------------------------------------------------

function R.temple_id(g, name) return g:counter(TEMPLE_KEY[name]) end

function R.holds(g, p, name)
  local _, owner = g:zone_of(R.temple_id(g, name))
  return owner == p
end

function R.temples_held(g, p) return g:count("temples", p) end

-- p gains control of a Temple, taking it from whoever holds it.
function R.take_temple(g, p, name)
  local id = R.temple_id(g, name)
  local _, holder = g:zone_of(id)
  g:move(id, "temples", p)
  if holder ~= 0 then
    g:log_player(p, " takes the ", name, " from ", pname(g, holder))
  else
    g:log_player(p, " gains control of the ", name)
  end
end

-- p loses control of every Temple (Kan'zir): they go back to nobody.
function R.lose_temples(g, p)
  local n = g:count("temples", p)
  for _ = 1, n do
    local id = g:top("temples", p)
    g:move(id, "temples", 0)
    g:log_player(p, " loses control of the ", g:name(id))
  end
end

-- Ids of the cards p may banish: hand first, then discard pile, one per name and zone.
local function banishable(g, p)
  local t = kernel:distinct(g, g:list("hand", p))
  for _, id in ipairs(kernel:distinct(g, g:list("discard", p))) do t[#t + 1] = id end
  return t
end

-- Move a card p owns to the void (out of p's deck for good).
function R.banish(g, p, id)
  g:add_counter("_own:" .. g:name(id), p, -1)
  g:move(id, "void", 0)
  g:log_player(p, " banishes ", g:name(id))
end

-- "You may banish a card in your hand or discard pile."
function R.may_banish(g, p, source)
  local ids = banishable(g, p)
  local picked = kernel:choose_cards(g, p, ids, { kind = "banish", min = 0, max = 1,
    source = source,
    prompt = source .. ": you may banish a card from your hand (listed first) or discard pile" })
  if picked[1] then R.banish(g, p, picked[1]) end
end

local TEMPLE_OF = { Life = "Temple of Life", Death = "Temple of Death" }

-- Keystones are spent as soon as they are gained (README: always spent): the Temple of
-- its kind if p lacks it, else Immortality if p lacks that too, and then its bonus
-- (bonus(g, p)) as well.
local function keystone(g, p, kind, bonus)
  g:log_player(p, " gains a ", kind, " Keystone")
  local temple = TEMPLE_OF[kind]
  if not R.holds(g, p, temple) then
    R.take_temple(g, p, temple)
    return
  end
  if not R.holds(g, p, "Temple of Immortality") then
    R.take_temple(g, p, "Temple of Immortality")
  end
  bonus(g, p)
end

local function two_runes(g, p) R.add_runes(g, p, 2) end
local function may_banish(g, p) R.may_banish(g, p, "Death Keystone") end

function R.life_keystone(g, p) keystone(g, p, "Life", two_runes) end
function R.death_keystone(g, p) keystone(g, p, "Death", may_banish) end

-- ---- faction conditions -----------------------------------------------------------------

-- Echo (the source's definition): p's discard pile holds a card of this faction.
function R.echo(g, k, p, faction)
  if g:count("discard", p) == 0 then return false end
  local _, names = g:list("discard", p, nil, "names")
  for i = 1, #names do
    if facts(k, names[i]).faction == faction then return true end
  end
  return false
end

-- Serenity: p's discard pile is empty.
function R.serenity(g, p) return g:count("discard", p) == 0 end

-- Unite, for a card already in play: another card of its faction was played this turn.
function R.united(g, k, id)
  local f = k.cards[g:name(id)].faction
  local n = g:counter(PLAYED[f])
  if g:get(id, "played") == turnno(g) then n = n - 1 end
  return n > 0
end

-- ---- the centre row -----------------------------------------------------------------------

-- Fill every empty slot from the top of the centre deck. When the deck is out, the slot
-- stays empty and the game ends at the end of the round (README).
-- The empty slots are found in one g call (filling one leaves the others as they were);
-- the card's name is an id piece of the line, looked up only when someone reads it.
function R.refill(g)
  local slots = R.array("slots", R.slot)
  local empty = g:tops(slots, 0, "empty")
  for j = 1, #empty do
    local id = g:top("centre_deck", 0)
    if id then
      g:move(id, slots[empty[j]], 0)
      g:log({ id }, " enters the centre row")
    elseif g:counter("_centre_out") == 0 then
      g:set_counter("_centre_out", 0, 1)
      g:log("The centre deck is empty: the game ends after this round")
    end
  end
end

-- Ids in the centre row, slot order.
function R.row(g)
  local t = {}
  for i = 1, R.SLOTS do
    local id = g:top(R.slot[i], 0)
    if id then t[#t + 1] = id end
  end
  return t
end

local function in_row(g, id)
  local zone = g:zone_of(id)
  return string.sub(zone, 1, 4) == "row:"
end

-- ---- what is on offer ----------------------------------------------------------------------

-- The piles always on offer (beside the centre row), in the turn decision's order, and
-- every zone whose top card is on offer: those piles, then the row's slots.
R.OFFER_PILES = { "Mystic", "Heavy Infantry", "Cultist" }
local PILE_ZONES, OFFER_ZONES = {}, {}
for i, name in ipairs(R.OFFER_PILES) do PILE_ZONES[i] = "supply:" .. name end
for i, zone in ipairs(PILE_ZONES) do OFFER_ZONES[i] = zone end
for _, zone in ipairs(R.slot) do OFFER_ZONES[#OFFER_ZONES + 1] = zone end

-- The cards on offer, in the turn decision's order, and their names: the piles' top
-- cards, then the centre row's; with distinct, one per name in the row (as the options
-- list them).
function R.offer(g, distinct)
  if not distinct then return g:deck_tops(R.array("offer", OFFER_ZONES), 0) end
  local ids, names = g:deck_tops(PILE_ZONES, 0)
  local row, row_names = g:deck_tops(R.slot, 0)
  local n, seen = #ids, {}
  for i = 1, #row do
    local name = row_names[i]
    if not seen[name] then
      seen[name] = true
      n = n + 1
      ids[n], names[n] = row[i], name
    end
  end
  return ids, names
end

-- An unused Templar Outpost of p's and the most a monster it defeats may cost, or nil
-- (built: the count of p's constructs, when the caller has it).
function R.outpost(g, k, p, built)
  if (built or g:count("constructs", p)) == 0 then return nil end -- most turns: no list
  local now = turnno(g)
  local ids, names = g:list("constructs", p, nil, "names")
  for i = 1, #ids do
    local limit = k.cards[names[i]].free_defeat
    if limit and g:get(ids[i], "used") ~= now then return ids[i], limit end
  end
  return nil
end

-- What p may do with a card on offer costing c: "defeat" (a monster, with the Power),
-- "buy" (a hero or construct, with the Runes) or nil; and whether an unused Templar
-- Outpost (limit: the most it may cost, nil without one) may defeat it for free.
function R.acts(k, name, c, runes, power, limit)
  if facts(k, name).monster then
    return c <= power and "defeat" or nil, limit ~= nil and c <= limit
  end
  return c <= runes and "buy" or nil, false
end

-- What p may acquire or defeat now, read once per decision for a bot's named choice and
-- its check: the cards on offer and their names (R.offer), p's Runes and Power, and the
-- most an unused Templar Outpost may defeat (nil without one). built: the count of p's
-- constructs, when the caller has it.
function R.turn_offer(g, k, p, built)
  local ids, names = R.offer(g)
  local _, limit = R.outpost(g, k, p, built)
  return ids, names, g:counter("runes"), g:counter("power"), limit
end

-- Whether the turn decision would have offered act on choice: "end"; "all" with a card in
-- hand (hand: their count); "play" of the card id choice in p's hand; "buy", "defeat" or
-- "free" of the card at index choice of the offer (R.turn_offer's names, runes, power,
-- limit) by R.acts' rule.
local function legal(g, k, p, act, choice, hand, names, runes, power, limit)
  if act == "end" then return true end
  if act == "all" then return hand > 0 end
  if math.type(choice) ~= "integer" then return false end
  if act == "play" then
    local ok, zone, owner = pcall(g.zone_of, g, choice) -- raises for no such card
    return ok and zone == "hand" and owner == p
  end
  local name = names[choice]
  if not name then return false end
  local can, free = R.acts(k, name, R.cost(g, k, p, name), runes, power, limit)
  if act == "free" then return free end
  return can == act
end

-- The check of a named turn choice of p's inline bot `bot` (legal's arguments): returns
-- the card it names (the id; nil for "all" and "end"), or raises an error naming the bot
-- and the choice when the turn decision would not have offered it.
function R.check(g, k, p, bot, act, choice, hand, ids, names, runes, power, limit)
  if not legal(g, k, p, act, choice, hand, names, runes, power, limit) then
    local what = names and names[choice] or tostring(choice)
    error(string.format("ascension: bot %s may not %s %s now (not among player %d's options)",
                        tostring(bot), tostring(act), what, p), 0)
  end
  if act == "play" then return choice end
  return ids and ids[choice]
end

-- ---- playing ------------------------------------------------------------------------------

-- The +keywords of a card, in the order cards print them ("+1 Card, +2 Runes"), or nil.
local function stats_text(def)
  local t = {}
  if def.cards then t[#t + 1] = "+" .. def.cards .. (def.cards == 1 and " Card" or " Cards") end
  if def.runes then t[#t + 1] = "+" .. def.runes .. (def.runes == 1 and " Rune" or " Runes") end
  if def.power then t[#t + 1] = "+" .. def.power .. " Power" end
  if def.honour then t[#t + 1] = "+" .. def.honour .. " Honour" end
  if #t == 0 then return nil end
  return table.concat(t, ", ")
end

-- What playing a card does, by name, built once from its data into a cache (card data is
-- frozen, each read of it a metatable step, and a hand is played card by card): zone
-- (where it goes), the stats it gives (cards, runes, power, honour: a number or false),
-- stats (their text, or false) and suffix (" (<stats>)" for the play line, or ""),
-- faction and played (its "_played:" counter; both false without one), lb_hero (a
-- Lifebound Hero), on_play and unite (the handlers, or false).
local play_facts = memo.cache()

local function facts_of(k, name)
  local f = play_facts[name]
  if f then return f end
  local def = k.cards[name]
  local st = stats_text(def) or false
  f = { zone = def.is.Construct and "constructs" or "play", stats = st,
        suffix = st and " (" .. st .. ")" or "", cards = def.cards or false,
        runes = def.runes or false, power = def.power or false, honour = def.honour or false,
        faction = def.faction or false, played = def.faction and PLAYED[def.faction] or false,
        lb_hero = def.faction == "Lifebound" and def.is.Hero == true,
        on_play = def.on_play or false, unite = def.unite or false }
  -- plain: a hero whose play only gives Runes or Power (the starting cards, the piles'):
  -- a run of them is played at once (R.play_run)
  f.plain = f.zone == "play" and not (f.faction or f.on_play or f.unite or f.cards
                                      or f.honour)
  play_facts[name] = f
  return f
end

-- Apply a card's stats (f: its facts_of); the caller has logged them with the card.
local function apply_stats(g, k, p, f)
  if f.cards then k:draw(g, p, f.cards) end
  if f.runes then g:add_counter("runes", 0, f.runes) end
  if f.power then g:add_counter("power", 0, f.power) end
  if f.honour then R.gain_honour(g, p, f.honour, true) end
end

-- Unites waiting in p's play area for a second card of faction f (id: the card just
-- played, which never unites with itself; now: this turn's number). A card's data is read
-- before its attributes: only a card of that faction with a Unite can be waiting.
local function fire_waiting_unites(g, k, p, id, f, now)
  local ids, names = g:list("play", p, nil, "names")
  for i = 1, #ids do
    local other, of = ids[i], facts_of(k, names[i])
    if other ~= id and of.faction == f and of.unite and g:get(other, "unite") == now then
      g:set(other, "unite", 0)
      g:log(names[i], ": Unite")
      of.unite(g, k, p, other)
    end
  end
end

-- Play a card from p's hand: heroes go to play, constructs to p's constructs (they stay).
function R.play(g, k, p, id)
  local name = g:name(id)
  local f = facts_of(k, name)
  local now = turnno(g)
  g:move(id, f.zone, p)
  g:set(id, "played", now)
  g:log_player(p, " plays ", name, f.suffix)
  local before = 0
  if f.faction then
    before = g:add_counter(f.played, 0, 1) - 1
    if f.lb_hero then g:add_counter("_lbhero", 0, 1) end
  end
  apply_stats(g, k, p, f)
  if f.on_play then f.on_play(g, k, p, id) end
  if f.unite then
    if before > 0 then
      g:log(name, ": Unite")
      f.unite(g, k, p, id)
    else
      g:set(id, "unite", now)
    end
  end
  -- A Unite waits only when its card was the first of its faction this turn, and the
  -- second one fires it: so only the second card of a faction looks for one.
  if before == 1 then fire_waiting_unites(g, k, p, id, f.faction, now) end
end

-- The play run (engine_deck_games.c) of the plain cards: g:deck_run(run, p) plays the
-- plain cards at the bottom of p's hand as R.play would, card by card (into play, marked
-- played this turn, "<player> plays <Card> (+1 Rune)", their Runes and Power added up
-- and added once, since no script runs in between), in one g call. Built when the game
-- loads, from its own card data.
function R.play_run(k)
  local cards = {}
  for name in pairs(k.cards) do
    local f = facts_of(k, name)
    if f.plain then cards[name] = { adds = { f.runes or 0, f.power or 0 }, text = f.suffix } end
  end
  return deck_games.run { from = "hand", to = "play", mark = "played", mark_by = "_turnno",
                          verb = " plays ", counters = { "runes", "power" }, cards = cards }
end

-- Apply constructs' per-turn statistics at the start of p's turn.
function R.construct_stats(g, k, p)
  if g:count("constructs", p) == 0 then return end
  local ids, names = g:list("constructs", p, nil, "names")
  for i = 1, #ids do
    local f = facts_of(k, names[i])
    if f.stats then
      g:log_player(p, "'s ", names[i], " (in play): ", f.stats)
      apply_stats(g, k, p, f)
    end
  end
end

-- Fire each construct ability whose condition holds and that has not fired this turn;
-- asked before every decision of the turn, i.e. whenever p's cards may have changed.
function R.settle(g, k, p, built)
  if (built or g:count("constructs", p)) == 0 then return end -- asked often: no list
  local fired = true
  while fired do
    fired = false
    local ids, names = g:list("constructs", p, nil, "names")
    for i = 1, #ids do
      local id, ab = ids[i], k.cards[names[i]].ability
      if ab and g:get(id, "used") ~= turnno(g) and ab.cond(g, k, p, id) then
        g:set(id, "used", turnno(g))
        g:log(names[i], ": ", ab.text)
        ab.effect(g, k, p, id)
        fired = true
      end
    end
  end
end

-- ---- acquiring, defeating ---------------------------------------------------------------

-- Keystones promised for "the next time" this turn (Burial Guardian, Soulsnare Hunter):
-- counter holds how many; each is logged (why: %s is p's name) and gained (gain) now.
local function spend_pending(g, p, counter, why, gain)
  local n = g:counter(counter)
  g:set_counter(counter, 0, 0)
  for _ = 1, n do
    g:log(string.format(why, pname(g, p)))
    gain(g, p)
  end
end

-- p acquires a hero or construct (from the centre row or a pile) into the discard pile.
function R.acquire(g, k, p, id, verb)
  local from_row = in_row(g, id)
  local name = g:name(id)
  k:take(g, p, id, "discard")
  g:log_player(p, " ", verb or "acquires", " ", name)
  if from_row then R.refill(g) end
  local def = k.cards[name]
  if def.on_acquire then def.on_acquire(g, k, p, id) end
  if def.faction == "Lifebound" then
    spend_pending(g, p, "_burial", "Burial Guardian: %s acquired a Lifebound card",
                  R.death_keystone)
  end
end

function R.buy(g, k, p, id)
  g:add_counter("runes", 0, -R.cost(g, k, p, g:name(id)))
  R.acquire(g, k, p, id)
end

-- p defeats a monster (free: without paying its Power). It goes to the void, unless it
-- is the permanent Cultist; monsters never enter a deck.
function R.defeat(g, k, p, id, free)
  local name = g:name(id)
  local def = k.cards[name]
  if not free then g:add_counter("power", 0, -R.cost(g, k, p, name)) end
  g:log_player(p, " defeats ", name, free and " for free" or "")
  if not def.permanent then
    local from_row = in_row(g, id)
    g:move(id, "void", 0)
    if from_row then R.refill(g) end
  end
  local rw = def.reward
  if rw.honour then R.gain_honour(g, p, rw.honour) end
  if rw.runes then R.add_runes(g, p, rw.runes) end
  for _ = 1, rw.life or 0 do R.life_keystone(g, p) end
  for _ = 1, rw.death or 0 do R.death_keystone(g, p) end
  spend_pending(g, p, "_soulsnare", "Soulsnare Hunter: %s defeated a monster",
                R.life_keystone)
  if def.on_defeat then def.on_defeat(g, k, p, id) end
end

-- "You may ..." about p's own zone: p is asked only when the zone holds a card.
function R.may(g, k, p, zone, source, question, yes, no)
  if g:count(zone, p) == 0 then return false end
  return k:yesno(g, p, source .. ": " .. question, yes, no, "yesno", source)
end

-- The ids of p's zone, top card first: one g:move of them moves the cards one at a time
-- from the top, as the rules below say.
local function top_first(g, zone, p)
  local ids = g:list(zone, p)
  local n = #ids
  for i = 1, n // 2 do ids[i], ids[n + 1 - i] = ids[n + 1 - i], ids[i] end
  return ids
end

-- p's deck, card by card from the top, onto the discard pile.
function R.deck_into_discard(g, p)
  g:move(top_first(g, "deck", p), "discard", p)
  g:log_player(p, " puts their deck into their discard pile")
end

-- p's discard pile, card by card from the top, onto the deck; then the whole deck is
-- shuffled.
function R.shuffle_discard_into_deck(g, p)
  g:move(top_first(g, "discard", p), "deck", p)
  g:shuffle("deck", p)
  g:log_player(p, " shuffles their discard pile into their deck")
end

return R
