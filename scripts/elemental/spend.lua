-- elemental/spend.lua: how the default bot (bots.lua) spends a turn's mana when no enemy
-- minion blocks (a race). The most a hand's plays are worth (a 0/1 knapsack over the
-- cards' costs, each worth the damage it brings the enemy hero by the kill, then its
-- cost), for its resource choice and its order of plays: a bot that plays its dearest
-- card first, and raises an element when one more mana would let it play a second card,
-- leaves mana unspent, and a wall spends mana as well as a minion that hits. And the most
-- damage the hand and the hero power deal the enemy hero this turn (the same knapsack,
-- worth the damage), so that the bot finishes a game its board alone cannot. Both made
-- the bot win sooner against an opponent who never blocks; against one who does, the
-- seed's order measured better for the search that plays out with it (docs/BENCHMARKS.md,
-- issue 28).

local K = require("elemental.kernel")

local S = {}

-- The most the cards defs (each with its `mana` cost) are worth together out of `mana`:
-- each its cost, plus worth[j] when given (else its own `worth` field, if any); leaving
-- out the skip-th of them (nil: none).
function S.most(defs, mana, skip, worth)
  local best = {}
  for m = 0, mana do best[m] = 0 end
  for j = 1, #defs do
    local c = defs[j].mana
    if j ~= skip and c <= mana then
      local w = c + (worth and worth[j] or defs[j].worth or 0)
      for m = mana, c, -1 do
        local v = best[m - c] + w
        if v > best[m] then best[m] = v end
      end
    end
  end
  return best[mana]
end

-- Do the element levels have (by element name) meet card def's requirements?
function S.meets(def, have)
  return (def.earth or 0) <= have.earth and (def.wind or 0) <= have.wind
    and (def.fire or 0) <= have.fire
end

-- The cards of defs whose element requirements the levels have meet.
function S.meeting(defs, have)
  local out = {}
  for j = 1, #defs do
    if S.meets(defs[j], have) then out[#out + 1] = defs[j] end
  end
  return out
end

-- For each of defs: is it the first play of a plan worth the most out of `mana`?
function S.first_plays(defs, mana, worth)
  local all, out = S.most(defs, mana, nil, worth), {}
  for j = 1, #defs do
    local c = defs[j].mana
    out[j] = c <= mana
      and c + (worth and worth[j] or defs[j].worth or 0) + S.most(defs, mana - c, j, worth) == all
  end
  return out
end

-- The best plan over this turn and the next: items (each { mana, now, next, w1, w2 }:
-- playable this turn, playable next turn, worth played this turn, worth played next turn)
-- out of m1 mana this turn and m2 next (a 0/1 knapsack with two capacities, each card in
-- at most one turn). For each item: is it played this turn in a best plan?
function S.two_turns(items, m1, m2)
  local w, cur = m2 + 1, {}
  for i = 0, (m1 + 1) * w - 1 do cur[i] = 0 end
  local tabs = { [0] = cur }
  for j = 1, #items do
    local it, nxt = items[j], cur -- an item that fits neither turn: the same table
    local c = it.mana
    if (it.now and c <= m1) or (it.next and c <= m2) then
      nxt = {}
      for a = 0, m1 do
        for b = 0, m2 do
          local i = a * w + b
          local v = cur[i]
          if it.now and c <= a and cur[i - c * w] + it.w1 > v then v = cur[i - c * w] + it.w1 end
          if it.next and c <= b and cur[i - c] + it.w2 > v then v = cur[i - c] + it.w2 end
          nxt[i] = v
        end
      end
    end
    tabs[j], cur = nxt, nxt
  end
  local out, a, b = {}, m1, m2
  for j = #items, 1, -1 do
    local it, prev, i = items[j], tabs[j - 1], a * w + b
    out[j] = false
    if tabs[j][i] ~= prev[i] then
      local c = it.mana
      if it.now and c <= a and prev[i - c * w] + it.w1 == tabs[j][i] then
        out[j], a = true, a - c
      else
        b = b - c
      end
    end
  end
  return out
end

-- ---- the race: the damage a play brings by the kill ------------------------------------

-- p's board in a race: how many of its minions can still attack this turn and how many
-- cannot, and their attack.
function S.race_board(k, g, p)
  local b = { ready = 0, idle = 0, ready_attack = 0, attack = 0 }
  for _, id in ipairs(k:minions(g, p)) do
    local a = k:attack_of(g, id)
    b.attack = b.attack + a
    if k:can_attack(g, id) then
      b.ready, b.ready_attack = b.ready + 1, b.ready_attack + a
    else
      b.idle = b.idle + 1
    end
  end
  return b
end

-- How many of p's turns after this one the race should still last (1 to 4): what the
-- enemy hero has left after this turn's attacks, over what p's board hits a turn plus
-- the next turn's mana (about an attack a mana, what the decks' minions bring).
function S.race_turns(k, g, p, b)
  local left = k:health(g, K.other(p)) - b.ready_attack
  local rate = b.attack + g:counter("max_mana", p) + 1
  return math.max(1, math.min(4, -(-left // math.max(rate, 1))))
end

-- The attack a buff of all p's minions in defs (the hand's cards) gives each of them:
-- the most such a card gives, 0 without one.
function S.mass_gain(defs)
  local n = 0
  for j = 1, #defs do
    local play = defs[j].play
    if play and play.gain and play.group == "friendly_minions" and play.gain > n then
      n = play.gain
    end
  end
  return n
end

-- The damage card def brings the enemy hero by the kill, `turns` turns after this one,
-- on p's race board b (race_board): a minion's attack on each turn it can attack (twice
-- with Frenzy; this one too with Haste), a when-played hit at it (and its hits at the
-- enemy hero whatever the target, at the end of each turn, or on each of its own hits),
-- a lasting buff's attack
-- on the minions it reaches (all of them, or the one it is given to), for each turn they
-- can attack. mass (default 0): the attack a buff of all the minions in hand
-- (mass_gain) adds to a minion's, so that a body, even a wall's, is worth that buff's
-- gain on each of its attacks.
function S.race_value(def, turns, b, mass)
  local v, play = 0, def.play
  if play and play.damage and (def.target == "any" or def.target == "enemy") then
    v = play.damage
  end
  v = v + (play and play.face or 0)
  if def.end_of_turn and def.end_of_turn.face then v = v + def.end_of_turn.face * (turns + 1) end
  if def.on_damage and def.on_damage.face then
    v = v + def.on_damage.face * (turns + (def.haste and 1 or 0))
  end
  if def.attack then
    local a = def.attack + (mass or 0)
    v = v + a * (def.frenzy and 2 or 1) * (turns + (def.haste and 1 or 0))
  elseif play and play.gain then
    if play.group == "friendly_minions" then
      v = v + play.gain * (b.ready * (turns + 1) + b.idle * turns)
    elseif b.ready > 0 then
      v = v + play.gain * (turns + 1)
    elseif b.idle > 0 then
      v = v + play.gain * turns
    end
  end
  return v
end

-- ---- the race: lethal with the hand --------------------------------------------------------

-- What a card deals the enemy hero this turn when no enemy minion stands in the way: a
-- damage spell's (or a minion's when-played) damage at it and its hit at the enemy hero
-- whatever the target (Spark's second point), a Haste minion's attack (twice with
-- Frenzy).
local function face_damage(def)
  local d, play = 0, def.play
  if play and (def.target == "any" or def.target == "enemy") then
    d = (play.damage or 0) + (play.face or 0)
  end
  if def.attack and def.haste then d = d + def.attack * (def.frenzy and 2 or 1) end
  return d
end

-- What a lasting buff adds to the attacks p's race board b (race_board) makes this turn:
-- its gain on every minion that can still attack (a buff of all of them), or on one.
function S.boost_now(def, b)
  local play = def.play
  if not (play and play.gain) or b.ready == 0 then return 0 end
  if play.group == "friendly_minions" then return play.gain * b.ready end
  return play.gain
end

-- The attack p's minions that can still attack bring to the enemy hero this turn; with
-- `extra`, also their hits' own hits at it (Ash Wraith's) and the end of the turn's
-- (Pyromancer's).
function S.board_damage(k, g, p, extra)
  local n = 0
  for _, id in ipairs(k:minions(g, p)) do
    local def = extra and k:def(g, id)
    if k:can_attack(g, id) then
      local a = k:attack_of(g, id)
      n = n + a
      if def and def.on_damage and def.on_damage.face and a > 0 then n = n + def.on_damage.face end
    end
    if def and def.end_of_turn and def.end_of_turn.face then n = n + def.end_of_turn.face end
  end
  return n
end

-- The hero power as a race item { mana, damage } when it deals the enemy hero damage
-- this turn (Fire's 1, Earth's +1 on a minion that can still attack) and is unused, else
-- nil.
function S.power_item(k, g, p)
  local h = k:hero_def(g, p)
  if g:counter("power_used", p) == 0 and (h.element == "fire"
      or (h.element == "earth" and S.board_damage(k, g, p) > 0)) then
    return { mana = h.power_cost, damage = 1 }
  end
  return nil
end

-- The plays of the race (the enemy has no minion): the cards in hand (ids) that deal the
-- enemy hero damage this turn (a buff, through the minions that can still attack), and
-- the hero power when it does (Fire's 1, Earth's +1 on a minion that attacks), as items
-- { mana, damage, id } (id nil: the power).
function S.race_items(k, g, p, ids)
  local items, b = {}, nil
  for i = 1, #ids do
    local def = k:def(g, ids[i])
    local d = face_damage(def)
    if def.play and def.play.gain then
      b = b or S.race_board(k, g, p)
      d = d + S.boost_now(def, b)
    end
    if d > 0 then items[#items + 1] = { mana = def.mana, damage = d, id = ids[i], def = def } end
  end
  items[#items + 1] = S.power_item(k, g, p)
  return items
end

-- The most damage items bring out of mana with the element levels have: a knapsack
-- (spend.lua) whose worth is the damage.
function S.reach(items, mana, have)
  local ok, worth = {}, {}
  for j = 1, #items do
    local def = items[j].def
    if not def or S.meets(def, have) then
      ok[#ok + 1], worth[#ok + 1] = items[j], items[j].damage - items[j].mana
    end
  end
  return S.most(ok, mana, nil, worth), ok, worth
end

-- The damage the enemy hero still needs after p's board has hit it, when the enemy has no
-- minion (else nil).
function S.race_need(k, g, p)
  local e = K.other(p)
  if #k:minions(g, e) > 0 then return nil end
  return k:health(g, e) - S.board_damage(k, g, p, true)
end

-- ---- the race: this turn's plan --------------------------------------------------------

-- For each card of defs (the hand's cards worth playing), is it a play of this turn's
-- plan in a race (bots.lua's plan_bonus)? The plan that deals the most damage by the
-- kill, then spends the most mana, this turn (S.first_plays); when the race should last
-- beyond the next turn and no card would hit as hard next turn as now (a damage spell),
-- the best plan over this turn and the next (S.two_turns: what loses most by waiting is
-- played now, what fits next turn's mana as well may wait for it). With a damage spell in
-- hand, or the race's end in sight, the two-turn plan held back damage that would have
-- won sooner, and was slower (docs/BENCHMARKS.md, issue 28). A minion counts the gain of
-- a buff of all the minions in hand on each of its attacks (S.mass_gain). power (the hero
-- power as S.power_item, or nil): the last item, its hit this turn only (next turn has a
-- power of its own); the result's entry after defs' says whether it is in. have: p's
-- element levels.
function S.race_plan(k, g, p, defs, mana, have, power)
  local b = S.race_board(k, g, p)
  local turns = S.race_turns(k, g, p, b)
  local nxt = math.min(g:counter("max_mana", p) + 1, K.MANA_CAP)
  local items, one, steady, mass = {}, {}, false, S.mass_gain(defs)
  for j = 1, #defs do
    local def = defs[j]
    local ok = S.meets(def, have)
    local it = { mana = def.mana, now = ok and def.mana <= mana, next = ok and def.mana <= nxt,
                 w1 = 10 * S.race_value(def, turns, b, mass) + def.mana,
                 w2 = 10 * S.race_value(def, turns - 1, b, mass) }
    items[j] = it
    one[j] = { mana = it.now and def.mana or math.huge, worth = it.w1 - def.mana }
    steady = steady or (it.w2 > 0 and it.w2 + def.mana >= it.w1)
  end
  if power then
    local c = power.mana
    items[#items + 1] = { mana = c, now = c <= mana, next = false, w1 = 10 * power.damage + c,
                          w2 = 0 }
    one[#one + 1] = { mana = c <= mana and c or math.huge, worth = 10 * power.damage }
  end
  if turns > 1 and not steady then return S.two_turns(items, mana, nxt) end
  return S.first_plays(one, mana)
end

return S
