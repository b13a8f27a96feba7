-- mlw/bots.lua: bot strategies, `function(g, p, d)` returning option indices.
--
-- `default` is greedy: when the attacks that may hit the opposing wizard now cover its
-- health it makes them first (lethal on board); else it attacks the wizard whenever it
-- may, trades when its monster kills without dying (or kills something worth as much),
-- wears a monster down when the strike back does not kill, uses abilities aimed at the
-- enemy, then plays its dearest useful card (a spell only when it has a fitting
-- target or a reason: Heal when hurt, Avalanche when behind on the board), and never
-- drains, discards or surrenders. `passive` ends every turn without acting (for tests:
-- the seed measured its AI against one). `random` picks uniformly among the options
-- other than Surrender. Bots read only what their seat sees: both monster zones, the
-- counters and their own hand (never the opponent's hand, trap or deck).

local k = require("mlw.kernel")
local lethal = require("boardkit.lethal")
local hint = require("boardkit.evaluate")

local bots = {}

local function value(g, id)
  return k:attack_of(g, id) + k:health_of(g, id)
end

local function enemy_monsters(g, p) return k:monsters(g, k.other(p)) end

-- ---- scores of `turn` options -------------------------------------------------------------

-- One decision's view for scoring attacks: each monster's attack and health, read on
-- first use (nothing changes them while a bot scores), and the enemy wizard, the one
-- wizard an attack may target.
local function board_view(g, p)
  return { g = g, wizard = k:wizard(g, k.other(p)), atk = {}, hp = {} }
end

-- Monster id's attack and health, from the view.
local function stats(view, id)
  local a = view.atk[id]
  if a then return a, view.hp[id] end
  local g = view.g
  a = k:attack_of(g, id)
  local h = k:health_of(g, id)
  view.atk[id], view.hp[id] = a, h
  return a, h
end

-- Monster a attacking t (a monster or the enemy wizard), scored from the view.
local function attack_score(view, a, t)
  local aa, ha = stats(view, a)
  if t == view.wizard then return 300 + aa end
  local at, ht = stats(view, t)
  local kill = ht <= aa
  local dies = ha <= at
  local vt = at + ht -- value(g, t)
  if kill and not dies then return 400 + vt end
  if kill and vt >= aa + ha then return 200 + vt end
  if not dies then return 100 + aa end -- wear it down: damage stays
  return -1
end

local HARMFUL = { any = true, monster = true, enemy_monster = true, enemy_wizard = true }

-- Why a spell without a target is worth casting now.
local REASON = {
  ["Heal"] = function(g, p) return g:counter("health", p) <= k.START_HEALTH - 4 end,
  ["Avalanche"] = function(g, p) return #enemy_monsters(g, p) > #k:monsters(g, p) + 1 end,
  ["Recruitment"] = function(g, p) return g:count("monsters", p) >= 4 end,
  ["Rally"] = function(g, p) return g:count("monsters", p) >= 2 end,
  ["Pickpocket"] = function(g, p) return g:count("hand", k.other(p)) > 0 end,
  ["Mana Surge"] = function() return false end,
}

local function play_score(g, p, id)
  local def = k:def(g, id)
  if def.type == "trap" then return 450 end
  if def.type == "monster" then return 500 + def.cost * 10 end
  if def.target == "friendly_monster" then
    for _, m in ipairs(k:monsters(g, p)) do
      if k:can_attack(g, m) then return 480 end
    end
    return -1
  end
  if def.target and def.target ~= "any" and def.target ~= "enemy_wizard"
      and #enemy_monsters(g, p) == 0 then return -1 end
  if def.name == "Cull" then
    local ok = false
    for _, t in ipairs(enemy_monsters(g, p)) do ok = ok or k:attack_of(g, t) <= 3 end
    if not ok then return -1 end
  end
  local why = REASON[def.name]
  if why and not why(g, p) then return -1 end
  return 490 + def.cost
end

local function activate_score(g, p, id)
  local ab = k:def(g, id).activate
  if ab.target and #enemy_monsters(g, p) == 0 then return -1 end
  if g:name(id) == "Healer" and g:counter("health", p) >= k.START_HEALTH then return -1 end
  return 350
end

-- ---- lethal --------------------------------------------------------------------------------

-- Lethal on board (boardkit/lethal.lua): the index of the attack on the wizard to make
-- when the attacks that may hit it now cover its health (unless a trap cancels one), else nil.
local function lethal_option(g, p, d)
  local e = k.other(p)
  return lethal.option(d, k:wizard(g, e), g:counter("health", e),
    function(id) return k:attack_of(g, id) end)
end

-- lethal.pick over p's monsters (named_turn): the attack on the wizard to make, or nil.
local function lethal_action(g, p, L)
  local e, pairs = k.other(p), {}
  for _, a in ipairs(k:monsters(g, p)) do
    if k:can_attack(g, a, L) and k:may_attack_wizard(g, p, a, L) then
      pairs[#pairs + 1], pairs[#pairs + 2] = a, k:attack_of(g, a)
    end
  end
  local a = lethal.pick(g:counter("health", e), pairs)
  return a and { act = "attack", id = a, target = k:wizard(g, e) }
end

local function choose_turn(g, p, d)
  local face = lethal_option(g, p, d)
  if face then return { face } end
  local best, score, opts = nil, 0, d.options
  local view
  for i = 1, #opts do
    local o = opts[i]
    local s = -1
    if o.act == "play" then s = play_score(g, p, o.id)
    elseif o.act == "attack" then
      view = view or board_view(g, p)
      s = attack_score(view, o.id, o.target)
    elseif o.act == "activate" then s = activate_score(g, p, o.id)
    end
    if s > score then best, score = i, s end
  end
  if best then return { best } end
  for i, o in ipairs(d.options) do
    if o.act == "end" then return { i } end
  end
  return { 1 }
end

-- ---- the turn by name (boardkit/choose.lua: bots name their choice) ----------------------

local END = { act = "end" }

-- The most any attack of p can score (attack_score): 300 + its attacker's attack (the
-- wizard; wearing down scores less), else at most 400 + its target's value. When that
-- cannot beat a play's score, no attack (nor ability: 350) needs scoring.
local function attack_bound(g, p, mine)
  local most = -1
  for i = 1, #mine do most = math.max(most, 300 + k:attack_of(g, mine[i])) end
  local theirs = enemy_monsters(g, p)
  for i = 1, #theirs do most = math.max(most, 400 + value(g, theirs[i])) end
  return most
end

-- The action choose_turn picks from k:actions' options, found over the same candidates in
-- the same order (the first of the best score wins) without building them: drains and
-- discards never score, and a candidate's check (its CAN_* question) is asked only when
-- its score would beat the best so far (scores and checks only read the match). L: the
-- listeners (k:prepare).
local function named_turn(_, g, p, L)
  local face = lethal_action(g, p, L)
  if face then return face end
  local best, score = END, 0
  local hand = g:list("hand", p, nil, "distinct")
  for i = 1, #hand do
    local id = hand[i]
    local s = play_score(g, p, id)
    if s > score and k:can_play(g, p, id, L) then best, score = { act = "play", id = id }, s end
  end
  local mine = k:monsters(g, p)
  if score > 0 and attack_bound(g, p, mine) < score then return best end
  for i = 1, #mine do
    local id = mine[i]
    if score < 350 and k:can_activate(g, p, id, L) then
      local s = activate_score(g, p, id)
      if s > score then best, score = { act = "activate", id = id }, s end
    end
  end
  local view = board_view(g, p)
  for i = 1, #mine do
    local a = mine[i]
    if k:can_attack(g, a, L) then
      local ts = k:attack_targets(g, a, L)
      for j = 1, #ts do
        local s = attack_score(view, a, ts[j])
        if s > score then best, score = { act = "attack", id = a, target = ts[j] }, s end
      end
    end
  end
  return best
end

-- ---- targets ------------------------------------------------------------------------------

-- Harmful aims: the most valuable enemy monster the damage kills, else the enemy wizard
-- (damage spells), else the enemy monster with the most attack. Helpful ones: the
-- friendly monster with the most attack.
-- ids: the elements allowed; source: the card's name. Returns the index chosen.
local function target_index(g, p, ids, source)
  local def = k.cards[source]
  local harmful = HARMFUL[def.target or (def.activate and def.activate.target)]
  local dmg = def.damage or (def.activate and 1)
  local best, score = 1, -1000
  for i = 1, #ids do
    local t = ids[i]
    local mine = k:owner(g, t) == p
    local s
    if not harmful then
      s = mine and (k:attack_of(g, t) + 10) or -100
    elseif mine then
      s = -100
    elseif k:is_wizard(g, t) then
      s = dmg and 50 or -50
    else
      s = k:attack_of(g, t) + ((dmg and k:health_of(g, t) <= dmg) and (60 + value(g, t)) or 0)
    end
    if s > score then best, score = i, s end
  end
  return best
end

local function choose_target(g, p, d)
  local ids = {}
  for i, o in ipairs(d.options) do ids[i] = o.card end
  return { target_index(g, p, ids, d.source) }
end

-- ---- the search bot's evaluation hint (docs/SCRIPTING.md) --------------------------------

-- A wizard's position (bots.FEATURES, in the order of the weights): its health, its
-- monsters' attack and health summed, its monsters, its cards in hand and whether a trap
-- is set. (Whose move it is is left out, as in Elemental: a search's play-outs all stop
-- the same number of turns after its root, with the same wizard to move.)
bots.FEATURES = { "health", "attack", "monster_health", "monsters", "hand", "trap" }
function bots.features(g)
  local f = {}
  for p = 1, 2 do
    local ids = k:monsters(g, p)
    local atk, hp = hint.material(k, g, ids)
    f[p] = { g:counter("health", p), atk, hp, #ids, g:count("hand", p), g:count("trap", p) }
  end
  return f
end

-- Each wizard's chance, 0..1: the logistic of the weighted difference of the two
-- wizards' features (boardkit/evaluate.lua), the weights fitted to self-play (game.lua).
function bots.evaluate(weights) return hint.logistic(bots.features, weights) end

function bots.make()
  local function default(g, p, d)
    if d.kind == "turn" then return choose_turn(g, p, d) end
    if d.kind == "target" then return choose_target(g, p, d) end
    return { 1 }
  end
  local function passive(_, _, d)
    if d.kind == "turn" then
      for i, o in ipairs(d.options) do
        if o.act == "end" then return { i } end
      end
    end
    return { 1 }
  end
  local function random(g, _, d)
    local n = #d.options
    if d.kind == "turn" then n = n - 1 end -- Surrender is last
    return { g:random(n) }
  end
  return { default = default, passive = passive, random = random }
end

-- The bots that name their choice (boardkit/choose.lua), by name: the kernel's `named`.
function bots.named()
  return {
    default = {
      turn = named_turn,
      target = function(_, g, p, ids, source) return ids[target_index(g, p, ids, source)] end,
    },
  }
end

return bots
