-- mlw/cards_spells.lua: the spells: a target (when `target` is set: types.lua's kinds),
-- an `effect(g, ctx)`, then the card is gone. ctx.player cast it, ctx.target is its aim.
-- `damage` tells bots what a damage spell deals (the effect does not read it).
local k = require("mlw.kernel")

local list, card = require("boardkit.cards").builder("spell")

local function enemy(ctx) return k.other(ctx.player) end

-- ---- the named cards of GAMES.md --------------------------------------------------------

card "Fireball" { cost = 4, target = "any", damage = 4, text = "Deal 4 damage.",
  effect = function(g, ctx) k:damage(g, ctx.target, 4, ctx.card) end }

card "Avalanche" { cost = 6, text = "Destroy all monsters.",
  effect = function(g)
    for p = 1, 2 do
      for _, id in ipairs(k:monsters(g, p)) do k:destroy(g, id) end
    end
  end }

-- ---- the seed's flexibility test --------------------------------------------------------

card "Pickpocket" { cost = 2,
  text = "Take a random card from the opposing wizard's hand into yours.",
  effect = function(g, ctx)
    local n = g:count("hand", enemy(ctx))
    if n == 0 then return end
    local id = g:at("hand", enemy(ctx), g:random(n))
    g:move(id, "hand", ctx.player)
    g:log(g:player_name(ctx.player), " steals a card")
    g:log_to(ctx.player, "You steal ", { id })
    g:log_to(enemy(ctx), "Your ", { id }, " is stolen")
  end }

card "Recruitment" { cost = 1, text = "You can have 6 monsters in play for the rest of the battle.",
  effect = function(g, ctx)
    g:set_counter("max_monsters", ctx.player, math.max(6, g:counter("max_monsters", ctx.player)))
  end }

card "Mind Flood" { cost = 5, text = "Remove the top 10 cards of the opposing wizard's deck.",
  effect = function(g, ctx)
    local milled = g:deal("deck", enemy(ctx), "grave", enemy(ctx), 10)
    g:log(g:player_name(enemy(ctx)), " loses ", milled, " from the deck")
  end }

card "Purge" { cost = 5,
  text = "Play only with fewer monsters than the opposing wizard: destroy all opposing monsters.",
  playable = function(g, p)
    return g:count("monsters", p) < g:count("monsters", k.other(p))
  end,
  effect = function(g, ctx)
    for _, id in ipairs(k:monsters(g, enemy(ctx))) do k:destroy(g, id) end
  end }

-- ---- damage, healing, cards ------------------------------------------------------------

card "Spark" { cost = 1, target = "any", damage = 1, text = "Deal 1 damage.",
  effect = function(g, ctx) k:damage(g, ctx.target, 1, ctx.card) end }

card "Lightning" { cost = 3, target = "enemy_wizard", damage = 3,
  text = "Deal 3 damage to the opposing wizard.",
  effect = function(g, ctx) k:damage(g, ctx.target, 3, ctx.card) end }

card "Heal" { cost = 1, text = "Restore 4 health to your wizard.",
  effect = function(g, ctx) k:heal(g, k:wizard(g, ctx.player), 4) end }

card "Insight" { cost = 2, text = "Draw 2 cards.",
  effect = function(g, ctx) k:draw(g, ctx.player, 2) end }

card "Mana Surge" { cost = 0, text = "Gain 2 mana this turn.",
  effect = function(g, ctx) g:add_counter("mana", ctx.player, 2) end }

card "Cull" { cost = 3, target = "monster", text = "Destroy a monster with 3 attack or less.",
  effect = function(g, ctx)
    if k:attack_of(g, ctx.target) <= 3 then k:destroy(g, ctx.target) end
  end }

-- ---- statuses -------------------------------------------------------------------------

card "Freeze" { cost = 2, target = "monster",
  text = "Freeze a monster until the end of its owner's next turn.",
  effect = function(g, ctx) k.st:set(g, ctx.target, "frozen", 1, k:turn_no(g) + 1) end }

card "Poison Dart" { cost = 1, target = "monster",
  text = "Poison a monster: 1 damage at the start of each of its owner's next three turns.",
  effect = function(g, ctx) k.st:set(g, ctx.target, "poison", 1, k:turn_no(g) + 5) end }

card "Rage" { cost = 1, target = "friendly_monster",
  text = "A friendly monster gets +2 attack this turn.",
  effect = function(g, ctx)
    k.st:add(g, ctx.target, "attack", 2)
    k.st:set(g, ctx.target, "boost", k.st:get(g, ctx.target, "boost") + 2, k:turn_no(g))
  end }

card "Dispel" { cost = 1, target = "monster", text = "Remove every status from a monster.",
  effect = function(g, ctx) k.st:dispel(g, ctx.target) end }

card "Rally" { cost = 3, text = "Your monsters get +1 attack and +1 health.",
  effect = function(g, ctx)
    for _, id in ipairs(k:monsters(g, ctx.player)) do
      k.st:add(g, id, "attack", 1)
      k.st:add(g, id, "max_health", 1)
      k.st:add(g, id, "health", 1)
    end
  end }

return list
