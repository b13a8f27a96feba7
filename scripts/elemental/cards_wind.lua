-- elemental/cards_wind.lua: the Wind cards (movement, card draw, Swift, Free
-- targeting, Frenzy, Sweep, returning and stunning). Each entry reads like the printed
-- card; tests/cards.lua checks the balance rule.
local fx = require("elemental.effects")

local list, card = require("boardkit.cards").builder()

card "Breeze Sprite" { mana = 1, wind = 1, attack = 1, health = 1, swift = true,
  text = "Swift." }

card "Zephyr Imp" { mana = 1, wind = 1, attack = 1, health = 2, text = "" }

card "Dust Devil" { mana = 1, wind = 1, attack = 2, health = 1, berserk = true,
  swift = true, text = "Berserk. Swift." }

card "Gust" { mana = 1, wind = 1, target = "minion", aim = "bounce",
  text = "Return a minion to its owner's hand.", play = fx.bounce() }

card "Tailwind" { mana = 1, wind = 1, target = "friendly_minion", move = true,
  text = "Move a friendly minion to an empty space on its side. It gains Haste and "
    .. "Swift this turn.",
  play = fx.all(fx.move(), fx.give("haste", 1, nil, "turn"), fx.give("swift", 1, nil, "turn")) }

card "Swift Falcon" { mana = 2, wind = 2, attack = 2, health = 1, free = true,
  text = "Free targeting." }

card "Cloud Dancer" { mana = 2, wind = 2, attack = 2, health = 2, swift = true,
  text = "Swift." }

card "Sky Courier" { mana = 2, wind = 2, attack = 1, health = 1,
  text = "When played: draw a card.", play = fx.draw(1) }

card "Gale Force" { mana = 2, wind = 2, target = "enemy_minion", move = true,
  text = "Stun an enemy minion and move it to an empty space on its side.",
  play = fx.all(fx.stun(), fx.move()) }

card "Storm Hawk" { mana = 3, wind = 2, attack = 3, health = 2, frenzy = true,
  text = "Frenzy." }

card "Zephyr Monk" { mana = 3, wind = 2, attack = 2, health = 3, swift = true,
  target = "minion", move = true,
  text = "Swift. When played: move a minion to an empty space on its side.",
  play = fx.move() }

-- An aura: while it is on the board, the event bus asks it before any minion moves.
card "Gravity Well" { mana = 3, wind = 2, attack = 2, health = 3, aura_cost = 2,
  text = "Enemy minions cannot move on their own.",
  on = { can_move = function(g, id, ctx)
    local _, mine = g:zone_of(id)
    local _, theirs = g:zone_of(ctx.unit)
    if mine ~= theirs then return false end
  end } }

card "Whispering Winds" { mana = 3, wind = 3,
  text = "Draw 3 cards.", play = fx.draw(3) }

card "Whirlwind Dervish" { mana = 4, wind = 3, attack = 3, health = 3, sweep = true,
  swift = true, text = "Sweep. Swift." }

card "Wind Spirit" { mana = 4, wind = 3, attack = 2, health = 4,
  text = "Whenever it takes damage, draw a card.", on_hurt = fx.draw(1) }

card "Cyclone" { mana = 4, wind = 3, target = "minion", aim = "bounce",
  text = "Deal 1 damage to all minions. Return a minion to its owner's hand. Draw a card.",
  play = fx.all(fx.deal(1, "all_minions"), fx.bounce(), fx.draw(1)) }

card "Windrider" { mana = 5, wind = 3, attack = 4, health = 4, swift = true, free = true,
  text = "Swift. Free targeting." }

card "Volcanic Roc" { mana = 5, wind = 3, fire = 2, attack = 4, health = 4, free = true,
  frenzy = true, text = "Free targeting. Frenzy." }

card "Thunderbird" { mana = 6, wind = 4, attack = 5, health = 5, frenzy = true,
  swift = true, text = "Frenzy. Swift." }

card "Eye of the Storm" { mana = 6, wind = 4, aim = "enemy_minions",
  text = "Stun all enemy minions. Draw 2 cards.",
  play = fx.all(fx.stun("enemy_minions"), fx.draw(2)) }

card "Storm Giant" { mana = 6, wind = 4, earth = 2, attack = 5, health = 7, taunt = true,
  swift = true, text = "Taunt. Swift." }

card "Tempest Djinn" { mana = 7, wind = 4, attack = 5, health = 6, target = "enemy_minion",
  text = "When played: stun an enemy minion.", play = fx.stun() }

card "Cloud Giant" { mana = 8, wind = 5, attack = 6, health = 8, swift = true, free = true,
  text = "Swift. Free targeting." }

return list
