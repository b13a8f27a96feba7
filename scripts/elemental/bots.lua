-- elemental/bots.lua: bot strategies, `function(g, p, d)` returning option indices.
--
-- `default` is a greedy player in the spirit of seed 001's AI without its look-ahead:
-- when the attacks that may hit the enemy hero now cover its health, it attacks the hero
-- (lethal on board); when the enemy has no minion and its hand's damage (spells, Haste,
-- the hero power) makes up what the board lacks, it plays that damage and nothing else
-- (lethal with the hand, spend.lua); otherwise it takes the resource choice first (the
-- increase its dearest play this turn needs, else the seed's §6.3.3.7: the element its
-- hand lacks most in total), plays its dearest playable card, then attacks. When no
-- enemy minion blocks (a race) it plays by plan instead: another resource when that lets
-- the hand deal more damage by the kill (then spend more mana) this turn, the dearest card
-- of a plan that deals the most (its minions before a buff of all of them; a minion's
-- body worth the gain of a buff of all the minions in hand; the hero power's hit in the
-- plan too), no heal at full health, no buff of an empty board; the resource choice
-- counts the hero power's hit with the mana the cards leave, and Earth's power (+1/+1)
-- comes before the attacks, on a minion that can still attack. Attacks:
-- trades that kill without dying first, then the enemy hero, then even trades;
-- Swift minions (and Wind's hero power) move into a lane open to the hero. `passive`
-- never attacks, plays or moves: it keeps its hand and ends every turn (for tests).
-- `random` picks uniformly among the options.
-- Bots read only what their seat sees: the board, counters, their own hand and what is
-- left in their own deck (its cards, never their order).

local K = require("elemental.kernel")
local lethal = require("boardkit.lethal")
local spend = require("elemental.spend")

local bots = {}

local function value(k, g, id)
  if k:is_hero(g, id) then return 0 end
  return k:attack_of(g, id) + k:health_of(g, id) + k.st:nheld(g, id) - 3
end

-- One decision's view of the board for scoring attacks: each minion's attack, health,
-- Invulnerable, Deathtouch and Reflect, read on its first use, and its value on first
-- need. Nothing changes them while a bot scores its attacks, so a minion met in several
-- candidates is read once instead of a dozen g calls per candidate. The enemy hero (the
-- one hero an attack may target) has no entry.
local ATK, HP, INVULNERABLE, DEATHTOUCH, REFLECT = 1, 2, 3, 4, 5

local function board_view(k, g, p)
  return { k = k, g = g, hero = k:hero(g, K.other(p)), stats = {}, worth = {} }
end

-- The statuses of minion id, or nil for the enemy hero.
local function stats_of(view, id)
  local v = view.stats[id]
  if v or id == view.hero then return v end
  local g = view.g
  v = { g:get(id, "attack"), g:get(id, "health"), g:get(id, "invulnerable"),
        g:get(id, "deathtouch"), g:get(id, "reflect") }
  view.stats[id] = v
  return v
end

-- value(k, g, id) of a minion, from the view.
local function worth_of(view, id)
  local w = view.worth[id]
  if w then return w end
  local v = stats_of(view, id)
  w = v[ATK] + v[HP] + view.k.st:nheld(view.g, id) - 3
  view.worth[id] = w
  return w
end

-- ---- resources ------------------------------------------------------------------------

-- Seed 001's resource choice (§6.3.3.7): each element's lack, summed over the cards in
-- hand, and the element lacking most is raised; when the hand lacks none, the cards left
-- in the deck decide the same way (a sum that does not depend on their order: what the
-- seat knows of its own deck). A tie goes to the element card effects lower most: no
-- card here lowers one, so to the seed's default, fire, then earth, then wind.
local TIE_ORDER = { "fire", "earth", "wind" }

-- TIE_ORDER's elements as indices into K.ELEMENTS (the order of k.needs).
local TIE_INDEX = {}
for i, e in ipairs(TIE_ORDER) do
  for j, f in ipairs(K.ELEMENTS) do
    if e == f then TIE_INDEX[i] = j end
  end
end

-- (The lack of each element, summed over the zone's cards, is one g:shortfalls call over
-- the kernel's table of each card's requirements.)
local function most_lacking(k, g, p, zone)
  local have = {}
  for j = 1, #K.ELEMENTS do have[j] = g:counter(K.ELEMENTS[j], p) end
  local lack = g:shortfalls(zone, p, k.needs, have)
  local best, most
  for i = 1, 3 do
    local l = lack[TIE_INDEX[i]]
    if l > 0 and (not best or l > most) then best, most = i, l end
  end
  return best and TIE_ORDER[best]
end

-- What card def lacks to be played now (p has mana and the element levels have, in
-- TIE_ORDER): "" nothing, a resource ("mana", an element) when it lacks one point of it
-- alone, nil when more.
local function shortfall(mana, have, def)
  local short, n = "", math.max(0, def.mana - mana)
  if n > 0 then short = "mana" end
  for i = 1, 3 do
    local e = TIE_ORDER[i]
    local d = (def[e] or 0) - have[i]
    if d > 0 then short, n = e, n + d end
  end
  if n > 1 then return nil end
  return short
end

-- The increase a play this turn needs (the seed's CostPrep, §6.3.2): that of the dearest
-- card in hand one increase makes playable; nil when that card needs none. (Mana and the
-- levels are read once: nothing changes them while the hand is looked over.)
local function play_needs(k, g, p)
  local best, need = -1, nil
  local mana, have = g:counter("mana", p), {}
  for i = 1, 3 do have[i] = g:counter(TIE_ORDER[i], p) end
  local _, names = g:list("hand", p, nil, "names")
  local cards = k.cards
  for j = 1, #names do
    local def = cards[names[j]]
    local short = shortfall(mana, have, def)
    if short and (def.mana > best or (def.mana == best and short == "")) then
      best, need = def.mana, short
    end
  end
  if need == "" then return nil end
  return need
end

-- An increase a play this turn needs first, else the seed's choice of an element.
local function seed_want(k, g, p)
  return play_needs(k, g, p) or most_lacking(k, g, p, "hand")
    or most_lacking(k, g, p, "deck") or TIE_ORDER[1]
end

local play_score -- (the turn's, below)

-- The cards in p's hand worth playing (play_score), as defs.
local function wanted(k, g, p)
  local ids, defs = g:list("hand", p), {}
  for i = 1, #ids do
    if play_score(k, g, p, ids[i]) > 0 then defs[#defs + 1] = k:def(g, ids[i]) end
  end
  return defs
end

-- Cards defs as the race's knapsack items (spend.lua): each its cost and requirements,
-- worth ten times the damage it brings the enemy hero by the kill (so that damage comes
-- first and mana spent breaks ties).
local function race_items(k, g, p, defs)
  local b = spend.race_board(k, g, p)
  local turns, out, mass = spend.race_turns(k, g, p, b), {}, spend.mass_gain(defs)
  for j = 1, #defs do
    local def = defs[j]
    out[j] = { mana = def.mana, earth = def.earth, wind = def.wind, fire = def.fire,
               worth = 10 * spend.race_value(def, turns, b, mass) }
  end
  return out
end

-- The resource that lets the hand deal the most damage by the kill, then spend the most
-- mana, this turn (spend.lua): the seed's choice unless another does more; then an
-- element before one mana this turn.
local function resource_want(k, g, p)
  local want = seed_want(k, g, p)
  if #k:minions(g, K.other(p)) > 0 then return want end
  local defs, mana, have = wanted(k, g, p), g:counter("mana", p), {}
  defs = race_items(k, g, p, defs)
  local power = spend.power_item(k, g, p) -- mana left for the power: its hit this turn
  if power then defs[#defs + 1] = { mana = power.mana, worth = 10 * power.damage } end
  for _, e in ipairs(K.ELEMENTS) do have[e] = g:counter(e, p) end
  local function spent(res)
    if res == "mana" then return spend.most(spend.meeting(defs, have), mana + 1) end
    have[res] = have[res] + 1
    local n = spend.most(spend.meeting(defs, have), mana)
    have[res] = have[res] - 1
    return n
  end
  local need = spend.race_need(k, g, p)
  if need and need > 0 then
    local items = spend.race_items(k, g, p, g:list("hand", p))
    for _, res in ipairs { want, "earth", "wind", "fire", "mana" } do
      local m = mana + (res == "mana" and 1 or 0)
      if res ~= "mana" then have[res] = have[res] + 1 end
      local n = spend.reach(items, m, have)
      if res ~= "mana" then have[res] = have[res] - 1 end
      if n >= need then return res end
    end
  end
  if #defs < 2 then return want end -- one card: the seed's choice is the one it needs
  local best = spent(want)
  for _, res in ipairs { "earth", "wind", "fire", "mana" } do
    local n = spent(res)
    if n > best then want, best = res, n end
  end
  return want
end

local function choose_resource(k, g, p, d)
  local want = resource_want(k, g, p)
  for i, o in ipairs(d.options) do
    if o.act == "resource" and o.res == want then return i end
  end
  return 1
end

-- ---- attacks ----------------------------------------------------------------------------

-- Does a hit of n damage from a minion (statuses va) kill a minion (statuses vt)?
-- (Invulnerable absorbs; Deathtouch kills.)
local function kills(va, vt, n)
  if vt[INVULNERABLE] ~= 0 or n <= 0 then return false end
  return va[DEATHTOUCH] ~= 0 or vt[HP] <= n
end

-- Minion a attacking t (a minion or the enemy hero), scored from the decision's view.
local function attack_score(view, a, t)
  local va, vt = stats_of(view, a), stats_of(view, t)
  if not vt then return 300 + va[ATK] end
  local dies = kills(vt, va, vt[ATK]) or (vt[REFLECT] ~= 0 and kills(va, va, va[ATK]))
  local kill = kills(va, vt, va[ATK])
  if not kill then return -1 end
  local wt = worth_of(view, t)
  if not dies then return 400 + wt end
  if wt >= worth_of(view, a) then return 200 + wt end
  return -1
end

-- choose_turn's last resort: an attack on a minion that will not kill the attacker back.
local function harmless(view, a, t)
  local vt = stats_of(view, t)
  return vt ~= nil and vt[ATK] < stats_of(view, a)[HP]
end

-- ---- lethal ----------------------------------------------------------------------------

-- Lethal on board (boardkit/lethal.lua): the index of the attack on the hero to make when
-- the attacks that may hit it now cover its health, else nil.
local function lethal_option(k, g, p, d)
  local e = K.other(p)
  return lethal.option(d, k:hero(g, e), k:health(g, e), function(id) return k:attack_of(g, id) end)
end

-- lethal.pick over p's minions (named_turn): the attack on the hero to make, or nil.
local function lethal_action(k, g, p)
  local e = K.other(p)
  if #k:taunts(g, e) > 0 then return nil end
  local hero, pairs = k:hero(g, e), {}
  for _, a in ipairs(k:minions(g, p)) do
    local _, c = k.grid:pos(g, a)
    if k:can_attack(g, a) and not k.grid:column_taken(g, e, c) then
      pairs[#pairs + 1], pairs[#pairs + 2] = a, k:attack_of(g, a)
    end
  end
  local a = lethal.pick(k:health(g, e), pairs)
  return a and { act = "attack", id = a, target = hero }
end

-- ---- the turn ---------------------------------------------------------------------------

local function harmful(def)
  local aim = def.aim
  if aim then return aim ~= "help" and aim ~= "boost" and aim ~= "friendly_minions" end
  return not (def.target or ""):find("friendly", 1, true)
end

-- Does p race (the enemy has no minion to block)? Only then does the bot spend by plan.
local function racing(k, g, p) return #k:minions(g, K.other(p)) == 0 end

function play_score(k, g, p, id)
  local def = k:def(g, id)
  if def.aim == "enemy_minions" and #k:minions(g, K.other(p)) < 2 then return -1 end
  if def.aim == "friendly_minions" and #k:minions(g, p) == 0
      and k:health(g, p) > K.START_HEALTH - 5 and racing(k, g, p) then return -1 end
  if def.target == "friendly" and not def.attack and k:health(g, p) > K.START_HEALTH - 3
      and racing(k, g, p) then
    return -1
  end
  if def.target and not def.attack then
    local enemy, friend = false, false
    for _, t in ipairs(k:targets(g, p, def.target)) do
      if k:owner(g, t) == p then friend = true else enemy = true end
    end
    if harmful(def) and not enemy then return -1 end
    if not harmful(def) and not friend then return -1 end
  end
  return 500 + def.mana * 10
end

-- Is column c open for an attack on p's enemy hero (no enemy minion in it, no Taunt)?
-- taunts: the enemy's active Taunts when the caller has them.
local function open_lane(k, g, p, c, taunts)
  local e = K.other(p)
  return not k.grid:column_taken(g, e, c) and #(taunts or k:taunts(g, e)) == 0
end

-- A minion of p that can still attack but not the hero from where it stands, with an
-- empty space (adjacent ones only when `adjacent`) in an open lane: r, c of that space.
local function lane_for(k, g, p, id, adjacent, taunts)
  local _, c0 = k.grid:pos(g, id)
  if open_lane(k, g, p, c0, taunts) then return nil end
  local spaces = adjacent and k:free_adjacent(g, id) or k.grid:free(g, p)
  for _, rc in ipairs(spaces) do
    if open_lane(k, g, p, rc[2], taunts) then return rc[1], rc[2] end
  end
  return nil
end

-- Wind's hero power: a friendly minion that can attack, into an open lane next to it.
local function wind_mover(k, g, p)
  for _, id in ipairs(k:minions(g, p)) do
    if k:can_attack(g, id) and lane_for(k, g, p, id, true) then return id end
  end
  return nil
end

-- Earth's power (+1/+1 until the end of the turn) in a race: before the attacks (a hit
-- at the hero scores 300 plus the attacker's attack), so that a minion that attacks
-- this turn hits 1 harder; after the plays (500 and more), which may spend the mana.
local EARTH_RACE_POWER = 450

local function power_score(k, g, p)
  local h = k:hero_def(g, p)
  if h.element == "wind" then return wind_mover(k, g, p) and 150 or -1 end
  if h.element == "earth" then
    for _, id in ipairs(k:minions(g, p)) do
      if k:can_attack(g, id) then return racing(k, g, p) and EARTH_RACE_POWER or 150 end
    end
    return -1
  end
  return 150
end

local NO_BONUS = {}

-- In a race (no enemy minion on the board; else NO_BONUS), what each card's play scores
-- over play_score, by name. When the hand's damage makes up what the board lacks of
-- lethal (spend.lua), `finish`: 100 for the cards of that damage, `power` when the hero
-- power is part of it, and every other play waits. Else 150 plus its attack (100 for a
-- buff of all its minions, so that it comes after them) for each card of this turn's
-- plan (spend.race_plan), and `plan_power` when the hero power is in that plan.
local function plan_bonus(k, g, p)
  local mana, ids = g:counter("mana", p), g:list("hand", p)
  if mana < 1 or (#ids == 0 and mana < 2) then return NO_BONUS end
  local defs, names, have = {}, {}, {}
  for _, e in ipairs(K.ELEMENTS) do have[e] = g:counter(e, p) end
  local need = spend.race_need(k, g, p)
  if not need then return NO_BONUS end
  if need > 0 then
    local n, items, worth = spend.reach(spend.race_items(k, g, p, ids), mana, have)
    if n >= need then
      local first, out = spend.first_plays(items, mana, worth), { finish = true }
      for j = 1, #items do
        if first[j] and items[j].id then out[g:name(items[j].id)] = 100 end
        if first[j] and not items[j].id then out.power = true end
      end
      return out
    end
  end
  local power = k:power_ready(g, p) and spend.power_item(k, g, p) or nil
  local fit = power and power.mana <= mana and 1 or 0
  for i = 1, #ids do
    local def = k:def(g, ids[i])
    if def.mana <= mana and spend.meets(def, have) then fit = fit + 1 end
  end
  if fit < 2 then return NO_BONUS end -- one play or none: no order to choose
  for i = 1, #ids do
    if play_score(k, g, p, ids[i]) > 0 then
      defs[#defs + 1], names[#names + 1] = k:def(g, ids[i]), g:name(ids[i])
    end
  end
  local first, out = spend.race_plan(k, g, p, defs, mana, have, power), {}
  for j = 1, #defs do
    local def = defs[j]
    if first[j] then
      out[names[j]] = (def.aim == "friendly_minions" and 100 or 150) + (def.attack or 0)
    end
  end
  out.plan_power = power and first[#defs + 1] or nil
  return out
end

-- A play's score s with the plan's bonus (plan_bonus): a play outside a lethal plan waits.
local function bonus_score(bonus, s, name)
  if bonus.finish and not bonus[name] then return -1 end
  if s > 0 then return s + (bonus[name] or 0) end
  return s
end

-- The hero power in a race plan: after the plan's cards (650 and more, a buff of all the
-- minions 630 and more), before any card outside it (600 at most).
local PLAN_POWER = 605

-- The hero power's score with the plan's bonus: 700 in a lethal plan, -1 outside one;
-- PLAN_POWER in this turn's race plan; else power_score.
local function power_bonus_score(k, g, p, bonus)
  if bonus.finish then return bonus.power and 700 or -1 end
  if bonus.plan_power then return PLAN_POWER end
  return power_score(k, g, p)
end

local function choose_turn(k, g, p, d)
  local face = lethal_option(k, g, p, d)
  if face then return { face } end
  local best, score = #d.options, 0
  local view, bonus
  for i = 1, #d.options do
    local o = d.options[i]
    local s = 0
    if o.act == "resource" then return { choose_resource(k, g, p, d) } end
    if o.act == "play" then
      bonus = bonus or plan_bonus(k, g, p)
      s = bonus_score(bonus, play_score(k, g, p, o.id), g:name(o.id))
    elseif o.act == "attack" then
      view = view or board_view(k, g, p)
      s = attack_score(view, o.id, o.target)
    elseif o.act == "power" then
      bonus = bonus or plan_bonus(k, g, p)
      s = power_bonus_score(k, g, p, bonus)
    elseif o.act == "move" and k:has(g, o.id, "swift") and lane_for(k, g, p, o.id)
        and open_lane(k, g, p, o.c) then s = 250
    end
    if s > score then best, score = i, s end
  end
  -- Taunts in the way and nothing worth doing: hit the weakest one anyway.
  if score <= 0 then
    for i = 1, #d.options do
      local o = d.options[i]
      if o.act == "attack" and harmless(view, o.id, o.target) then return { i } end
    end
  end
  return { best }
end

-- ---- the turn by name (boardkit/choose.lua: bots name their choice) ----------------------

local END = { act = "end" }

-- Attacks a, t (a flat array of pairs, in the options' order): the first on a minion
-- that will not kill the attacker back, choose_turn's last resort.
local function last_resort(view, pairs)
  for i = 1, #pairs, 2 do
    local a, t = pairs[i], pairs[i + 1]
    if harmless(view, a, t) then return { act = "attack", id = a, target = t } end
  end
  return END
end

-- The most any attack of p can score (attack_score): 300 + its attacker's attack on the
-- hero, else at most 400 + its target's value. When that cannot beat a play's score, no
-- attack (nor move, nor the hero power: they score less) needs scoring.
local function attack_bound(k, g, p, mine)
  local most = -1
  for i = 1, #mine do most = math.max(most, 300 + k:attack_of(g, mine[i])) end
  local theirs = k:minions(g, K.other(p))
  for i = 1, #theirs do most = math.max(most, 400 + value(k, g, theirs[i])) end
  return most
end

-- The action choose_turn picks from k:actions' options, found over the same candidates in
-- the same order (the first of the best score wins) without building them. Candidates
-- that cannot beat the best so far are not scored: a move scores 250 or 0, the hero
-- power 150 or less, so neither is looked at once something scores that much.
local function named_turn(k, g, p)
  local face = lethal_action(k, g, p)
  if face then return face end
  if g:counter("resource_used", p) == 0 then
    return { act = "resource", res = resource_want(k, g, p) }
  end
  local best, score = END, 0
  local free = k.grid:free(g, p)
  local hand = g:list("hand", p, nil, "distinct")
  local bonus = plan_bonus(k, g, p)
  for i = 1, #hand do
    local id = hand[i]
    local s = bonus_score(bonus, play_score(k, g, p, id), g:name(id))
    if s > score and k:playable(g, p, id, free) then best, score = { act = "play", id = id }, s end
  end
  if (score < 150 or bonus.power or bonus.plan_power) and k:power_ready(g, p) then
    local s = power_bonus_score(k, g, p, bonus)
    if s > score then best, score = { act = "power" }, s end
  end
  local mine, tried = k:minions(g, p), {}
  if score > 0 and attack_bound(k, g, p, mine) < score then return best end
  local view = board_view(k, g, p)
  local taunts = k:taunts(g, K.other(p)) -- the same for every attacker and lane here
  for i = 1, #mine do
    local a = mine[i]
    if k:can_attack(g, a) then
      local ts = k:attack_targets(g, a, taunts)
      for j = 1, #ts do
        local t = ts[j]
        tried[#tried + 1], tried[#tried + 2] = a, t
        local s = attack_score(view, a, t)
        if s > score then best, score = { act = "attack", id = a, target = t }, s end
      end
    end
  end
  if score < 250 and #free > 0 then
    for i = 1, #mine do
      local a = mine[i]
      if k:has(g, a, "swift") and k:can_move(g, a) and lane_for(k, g, p, a, nil, taunts) then
        for j = 1, #free do
          local rc = free[j]
          if open_lane(k, g, p, rc[2], taunts) then
            return { act = "move", id = a, r = rc[1], c = rc[2] }
          end
        end
      end
    end
  end
  if score <= 0 then return last_resort(view, tried) end
  return best
end

-- ---- sub-decisions ----------------------------------------------------------------------

local MIDDLE_FIRST = { 3, 2, 4, 1, 5 }

-- Taunts and sturdy minions (health 4+) go to the front row, middle columns first;
-- others behind a friendly front-row minion when they can, else to the front. spaces:
-- the free ones as {r, c}; returns the index of the one chosen.
local function place_index(k, g, p, spaces, card)
  local def = k:def(g, card)
  local front = def.taunt or def.health >= 4
  local function find(r, c)
    for i = 1, #spaces do
      local rc = spaces[i]
      if rc[1] == r and rc[2] == c then return i end
    end
  end
  if not front then
    for _, c in ipairs(MIDDLE_FIRST) do
      local i = find(2, c)
      if i and not k.grid:empty(g, p, 1, c) then return i end
    end
  end
  for _, c in ipairs(MIDDLE_FIRST) do
    local i = find(1, c)
    if i then return i end
  end
  return 1
end

-- The spaces of a `place` or `destination` decision's options, as {r, c}.
local function spaces_of(d)
  local out = {}
  for i, o in ipairs(d.options) do out[i] = { o.r, o.c } end
  return out
end

local function choose_place(k, g, p, d)
  return { place_index(k, g, p, spaces_of(d), d.options[1].card) }
end

-- Harmful cards: a minion the card's damage kills (the most valuable), else the enemy
-- hero, else the most valuable enemy minion. Helpful ones: the strongest friendly minion
-- (a damaged friend or the hero for healing).
-- ids: the entities allowed; source: the card's name. Returns the index chosen.
local function target_index(k, g, p, ids, source)
  local def = k.cards[source]
  if def.aim == "move" then
    local id = wind_mover(k, g, p)
    for i = 1, #ids do
      if ids[i] == id then return i end
    end
  end
  local best, score = 1, -1000
  for i = 1, #ids do
    local t = ids[i]
    local s
    local mine = k:owner(g, t) == p
    if harmful(def) then
      if mine then
        s = -100
      elseif k:is_hero(g, t) then
        s = 50
      else
        local dmg = def.play and def.play.damage
        local dies = dmg and not k:has(g, t, "invulnerable") and k:health_of(g, t) <= dmg
        s = value(k, g, t) + (dies and 60 or 0)
      end
    else
      if not mine then
        s = -100
      elseif k:is_hero(g, t) then
        s = 30 - k:health(g, p)
      else
        s = k:attack_of(g, t) + (k:can_attack(g, t) and 10 or 0)
      end
    end
    if s > score then best, score = i, s end
  end
  return best
end

local function choose_target(k, g, p, d)
  local ids = {}
  for i, o in ipairs(d.options) do ids[i] = o.card end
  return { target_index(k, g, p, ids, d.source) }
end

-- A friendly minion goes to an open lane when there is one; an enemy minion behind one
-- of its friends (where a Taunt does nothing), else to the back row. Returns the index.
local function destination_index(k, g, p, spaces, card)
  local mine = k:owner(g, card) == p
  for i, rc in ipairs(spaces) do
    if mine and open_lane(k, g, p, rc[2]) then return i end
    if not mine and rc[1] == 2 and not k.grid:empty(g, K.other(p), 1, rc[2]) then return i end
  end
  for i, rc in ipairs(spaces) do
    if not mine and rc[1] == 2 then return i end
  end
  return 1
end

local function choose_destination(k, g, p, d)
  return { destination_index(k, g, p, spaces_of(d), d.options[1].card) }
end

-- Does card def hit hard enough for an opening hand: a minion with at least as much
-- attack as it costs, a spell that hits or lends attack?
local function hits(def)
  if def.attack then return def.attack >= def.mana end
  local play = def.play
  return play ~= nil and (play.damage or play.face or play.gain) ~= nil
end

-- Opening hand: shuffle back cards dearer than 3 mana, minions of less attack than their
-- cost and spells that deal no damage (a wall, a heal, a stun): a fast start, against a
-- player who blocks or not (it won 52.8% of 2,000 games against the bot that shuffled
-- back only cards dearer than 4; docs/BENCHMARKS.md, issue 28).
local function choose_mulligan(k, g, d)
  local out = {}
  for i, o in ipairs(d.options) do
    local def = k:def(g, o.card)
    if def.mana > 3 or not hits(def) then out[#out + 1] = i end
  end
  return out
end

function bots.make(k)
  local function default(g, p, d)
    local kind = d.kind
    if kind == "turn" then return choose_turn(k, g, p, d) end
    if kind == "place" then return choose_place(k, g, p, d) end
    if kind == "target" then return choose_target(k, g, p, d) end
    if kind == "mulligan" then return choose_mulligan(k, g, d) end
    if kind == "destination" then return choose_destination(k, g, p, d) end
    return { 1 }
  end
  local function passive(_, _, d)
    if d.kind == "mulligan" then return {} end
    if d.kind == "turn" then return { #d.options } end
    return { 1 }
  end
  local function random(g, _, d)
    if d.kind == "mulligan" then return {} end
    return { g:random(#d.options) }
  end
  return { default = default, passive = passive, random = random }
end

-- The bots that name their choice (boardkit/choose.lua), by name: the kernel's `named`.
function bots.named()
  return {
    default = {
      turn = named_turn,
      target = function(k, g, p, ids, source) return ids[target_index(k, g, p, ids, source)] end,
      space = function(k, g, p, spaces, kind, card)
        if kind == "place" then return place_index(k, g, p, spaces, card) end
        return destination_index(k, g, p, spaces, card)
      end,
    },
  }
end

return bots
