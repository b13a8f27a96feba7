-- mlw/cards_monsters.lua: the monsters. Each entry reads like the printed card: cost,
-- attack/health, text, and the few lines of script that make the text true (listeners
-- in `on`, an `activate` ability, `when_played`, or an override of the monster type's
-- default script: types.lua).
local k = require("mlw.kernel")

local list, card = require("boardkit.cards").builder("monster")

local function mine(g, id, p) return k:owner(g, id) == p end

-- "While this is in play, the opposing wizard cannot ...": a veto of the event for the
-- opponent (only where `when(ctx)` holds, when given).
local function opponent_cannot(when)
  return function(g, id, ctx)
    if (not when or when(ctx)) and not mine(g, id, ctx.player) then return false end
  end
end

-- ---- plain monsters -------------------------------------------------------------------

card "Goblin" { cost = 1, attack = 1, health = 2, text = "" }
card "Squire" { cost = 1, attack = 2, health = 1, text = "" }
card "Wolf" { cost = 2, attack = 2, health = 3, text = "" }
card "Knight" { cost = 3, attack = 3, health = 4, text = "" }
card "Ogre" { cost = 4, attack = 5, health = 4, text = "" }
card "Stone Golem" { cost = 4, attack = 2, health = 7, text = "" }
card "Dragon" { cost = 7, attack = 7, health = 7, text = "" }

-- ---- the named cards of GAMES.md --------------------------------------------------------

card "Fire Elemental" { cost = 3, attack = 2, health = 3,
  text = "Activate: deal 1 damage to a monster.",
  activate = { target = "monster",
               run = function(g, ctx) k:damage(g, ctx.target, 1, ctx.unit) end } }

card "Sparky" { cost = 3, attack = 2, health = 2,
  text = "Attacks twice a turn. Cannot be counter-attacked.",
  attacks_per_turn = 2,
  on = { CAN_COUNTER = function(_, id, ctx) if ctx.attacker == id then return false end end } }

card "Alex" { cost = 4, attack = 3, health = 3,
  text = "May attack the opposing wizard directly, even past defenders.",
  can_attack_wizard = function() return true end }

-- 50% chance to deal half its damage (rounded down).
local function fumble(g, id, ctx)
  if ctx.source == id and g:random(2) == 1 then
    ctx.amount = ctx.amount // 2
    g:log(g:name(id), " fumbles: only ", ctx.amount, " damage")
  end
end

card "Flux" { cost = 2, attack = 3, health = 2,
  text = "50% chance to deal only half its damage.", on = { BEFORE_DAMAGE = fumble } }

card "Nunu" { cost = 3, attack = 4, health = 4,
  text = "50% chance to deal only half its damage.", on = { BEFORE_DAMAGE = fumble } }

-- ---- the seed's flexibility test --------------------------------------------------------

card "Drain Warden" { cost = 3, attack = 2, health = 4,
  text = "While this is in play, the opposing wizard cannot drain monsters.",
  on = { CAN_DRAIN = opponent_cannot() } }

-- ---- listeners ------------------------------------------------------------------------

card "Trap Breaker" { cost = 2, attack = 2, health = 2,
  text = "While this is in play, the opposing wizard cannot set traps.",
  on = { CAN_PLAY = opponent_cannot(function(ctx) return ctx.type == "trap" end) } }

card "Guardian" { cost = 4, attack = 2, health = 6,
  text = "While this is in play, enemy monsters cannot attack your wizard.",
  on = { CAN_ATTACK_WIZARD = opponent_cannot() } }

card "Ghost" { cost = 2, attack = 3, health = 1,
  text = "Cannot defend: it never strikes back nor guards your wizard.",
  on = { CAN_DEFEND = function(_, id, ctx) if ctx.unit == id then return false end end } }

card "Troll" { cost = 5, attack = 5, health = 6,
  text = "At the start of your turn, heals 2.",
  on = { ON_TURN_START = function(g, id, ctx)
    if mine(g, id, ctx.player) then k:heal(g, id, 2) end
  end } }

card "Bomb Imp" { cost = 2, attack = 1, health = 1,
  text = "When destroyed, deals 2 damage to the opposing wizard.",
  on = { ON_DESTROY = function(g, id, ctx)
    if ctx.unit == id then k:damage(g, k:wizard(g, k.other(k:owner(g, id))), 2, id) end
  end } }

card "Gravedigger" { cost = 3, attack = 2, health = 3,
  text = "Whenever another monster is destroyed, gains +1 attack.",
  on = { ON_DESTROY = function(g, id, ctx)
    if ctx.unit ~= id then k.st:add(g, id, "attack", 1) end
  end } }

card "Viper" { cost = 2, attack = 1, health = 2,
  text = "A monster it damages is poisoned (1 damage a turn) for two of its turns.",
  on = { ON_DAMAGE = function(g, id, ctx)
    if ctx.source == id and k:in_play(g, ctx.target) then
      k.st:set(g, ctx.target, "poison", 1, k:turn_no(g) + 3)
    end
  end } }

-- ---- abilities and entrances ----------------------------------------------------------

card "Frost Mage" { cost = 3, attack = 1, health = 3,
  text = "Activate: freeze an enemy monster until the end of its owner's next turn.",
  activate = { target = "enemy_monster", run = function(g, ctx)
    k.st:set(g, ctx.target, "frozen", 1, k:turn_no(g) + 1)
    g:log(k:describe(g, ctx.target), " is frozen")
  end } }

card "Healer" { cost = 2, attack = 1, health = 3,
  text = "Activate: restore 2 health to your wizard.",
  activate = { run = function(g, ctx) k:heal(g, k:wizard(g, ctx.player), 2) end } }

card "Archer" { cost = 2, attack = 2, health = 1,
  text = "Activate, 1 mana: deal 1 damage to the opposing wizard.",
  activate = { cost = 1, run = function(g, ctx)
    k:damage(g, k:wizard(g, k.other(ctx.player)), 1, ctx.unit)
  end } }

card "Pyromancer" { cost = 4, attack = 3, health = 3,
  text = "When played, deals 2 damage to the opposing wizard.",
  when_played = function(g, ctx) k:damage(g, k:wizard(g, k.other(ctx.player)), 2, ctx.card) end }

card "Shield Bearer" { cost = 3, attack = 1, health = 5,
  text = "When played, each other friendly monster gains a shield.",
  when_played = function(g, ctx)
    for _, id in ipairs(k:monsters(g, ctx.player)) do
      if id ~= ctx.card then k.st:set(g, id, "shield", 1) end
    end
  end }

-- ---- listeners to the rarer events --------------------------------------------------------

card "Sentinel" { cost = 3, attack = 1, health = 5,
  text = "Enemy monsters must attack this before your other monsters.",
  on = { CAN_ATTACK_MONSTER = function(g, id, ctx)
    if k:owner(g, ctx.target) == k:owner(g, id) and ctx.target ~= id then return false end
  end } }

card "Loyal Hound" { cost = 2, attack = 2, health = 2,
  text = "Cannot be drained or discarded.",
  on = { CAN_DRAIN = function(_, id, ctx) if ctx.unit == id then return false end end,
         CAN_DISCARD = function(_, id, ctx) if ctx.card == id then return false end end } }

card "Soul Collector" { cost = 3, attack = 2, health = 3,
  text = "Whenever a wizard drains a monster, gains +1 attack.",
  on = { ON_DRAIN = function(g, id) k.st:add(g, id, "attack", 1) end } }

card "Hourglass" { cost = 2, attack = 0, health = 3,
  text = "At the end of your turn, draw a card.",
  on = { ON_TURN_END = function(g, id, ctx)
    if mine(g, id, ctx.player) then k:draw(g, ctx.player, 1) end
  end } }

card "Mage Hunter" { cost = 3, attack = 2, health = 3,
  text = "Whenever an enemy monster's ability is activated, deal 1 damage to that monster.",
  on = { ON_ACTIVATE = function(g, id, ctx)
    if not mine(g, id, ctx.player) then k:damage(g, ctx.unit, 1, id) end
  end } }

card "Berserker" { cost = 3, attack = 2, health = 4,
  text = "After it attacks, gains +1 attack.",
  on = { ON_ATTACK = function(g, id, ctx)
    if ctx.unit == id and k:in_play(g, id) then k.st:add(g, id, "attack", 1) end
  end } }

card "Recycler" { cost = 2, attack = 1, health = 3,
  text = "Whenever you discard a card in play, draw a card.",
  on = { ON_DISCARD = function(g, id, ctx)
    if mine(g, id, ctx.player) and ctx.card ~= id then k:draw(g, ctx.player, 1) end
  end } }

return list
