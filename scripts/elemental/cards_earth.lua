-- elemental/cards_earth.lua: the Earth cards (health, Taunt, healing, buffs, Reflect,
-- Invulnerable, Root). Each entry reads like the printed card: cost and requirements,
-- attack/health, keywords, then what its text does (effects.lua). The balance rule each
-- follows is checked by tests/cards.lua.
local fx = require("elemental.effects")

local list, card = require("boardkit.cards").builder()

card "Pebble Sentry" { mana = 1, earth = 1, attack = 1, health = 1, taunt = true,
  text = "Taunt." }

card "Moss Tender" { mana = 1, earth = 1, attack = 1, health = 1, target = "friendly",
  text = "When played: restore 1 health.", play = fx.heal(1) }

card "Bark Skin" { mana = 1, earth = 1, target = "minion", aim = "help",
  text = "Give a minion +1/+2.", play = fx.buff(1, 2) }

card "Purify" { mana = 1, earth = 1, target = "minion", aim = "dispel",
  text = "Dispel a minion.", play = fx.dispel() }

card "Stand Firm" { mana = 1, earth = 1, target = "friendly_minion",
  text = "A friendly minion gains Taunt for 3 turns and restores 3 health.",
  play = fx.all(fx.give("taunt", 1, nil, 3), fx.heal(3)) }

card "Stone Wall" { mana = 2, earth = 2, attack = 0, health = 4, taunt = true,
  text = "Taunt." }

card "Thornback Boar" { mana = 2, earth = 2, attack = 2, health = 1, reflect = true,
  text = "Reflect." }

card "Root Warden" { mana = 2, earth = 2, attack = 3, health = 3, root = true,
  text = "Root." }

card "Healing Spring" { mana = 2, earth = 2, target = "friendly",
  text = "Restore 5 health.", play = fx.heal(5) }

card "Iron Hide" { mana = 2, earth = 2, target = "friendly_minion",
  text = "Give a friendly minion Invulnerable 2 and +0/+1.",
  play = fx.all(fx.give("invulnerable", 2), fx.buff(0, 1)) }

card "Entangle" { mana = 2, earth = 2, target = "enemy_minion",
  text = "Stun an enemy minion and Root it.",
  play = fx.all(fx.stun(), fx.give("root", 1)) }

card "Grieving Treant" { mana = 2, earth = 2, attack = 2, health = 2,
  text = "Whenever another friendly minion dies, it gets +1/+1.",
  friendly_death = fx.buff(1, 1, "self") }

card "Granite Guard" { mana = 3, earth = 2, attack = 2, health = 4, taunt = true,
  text = "Taunt." }

card "Grove Keeper" { mana = 3, earth = 2, attack = 2, health = 3,
  text = "At the end of your turn, restore 3 health to your hero.",
  end_of_turn = fx.heal(3, "your_hero") }

card "Mole Digger" { mana = 3, earth = 2, wind = 1, attack = 2, health = 2,
  text = "When it dies: draw a card.", on_death = fx.draw(1) }

card "Stone Blessing" { mana = 3, earth = 2, aim = "friendly_minions",
  text = "Give your minions +2/+2. Restore 5 health to your hero.",
  play = fx.all(fx.buff(2, 2, "friendly_minions"), fx.heal(5, "your_hero")) }

card "Mountain Heart" { mana = 3, earth = 2,
  text = "Raise your Earth by 1. Restore 8 health to your hero.",
  play = fx.all(fx.raise("earth", 1), fx.heal(8, "your_hero")) }

card "Earthshaker Golem" { mana = 4, earth = 3, attack = 3, health = 5, taunt = true,
  text = "Taunt." }

card "Crystal Turtle" { mana = 4, earth = 3, attack = 2, health = 4, taunt = true,
  invulnerable = 1, text = "Taunt. Invulnerable 1." }

card "Obsidian Sentinel" { mana = 4, earth = 3, fire = 2, attack = 2, health = 4,
  taunt = true, deathtouch = true, text = "Taunt. Deathtouch." }

card "Boulder Hurler" { mana = 5, earth = 3, fire = 1, attack = 4, health = 5,
  target = "enemy", text = "When played: deal 1 damage.", play = fx.deal(1) }

card "Living Rampart" { mana = 5, earth = 3, attack = 2, health = 6, taunt = true,
  reflect = true, text = "Taunt. Reflect." }

card "Ancient Oak" { mana = 6, earth = 4, attack = 4, health = 6, taunt = true,
  text = "Taunt. At the end of your turn, restore 2 health to your minions.",
  end_of_turn = fx.heal(2, "friendly_minions") }

card "Earth Elemental" { mana = 7, earth = 4, attack = 6, health = 8, taunt = true,
  text = "Taunt." }

card "Mountain Giant" { mana = 8, earth = 5, attack = 7, health = 9, taunt = true,
  text = "Taunt." }

return list
