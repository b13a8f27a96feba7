-- elemental/cards_fire.lua: the Fire cards (damage, Haste, Berserk, Frenzy, Sweep,
-- Deathtouch). Each entry reads like the printed card; tests/cards.lua checks the
-- balance rule.
local fx = require("elemental.effects")

local list, card = require("boardkit.cards").builder()

card "Ember Imp" { mana = 1, fire = 1, attack = 1, health = 1, haste = true,
  text = "Haste." }

card "Flame Imp" { mana = 1, fire = 1, attack = 2, health = 1, berserk = true,
  text = "Berserk." }

card "Spark" { mana = 1, fire = 1, target = "any",
  text = "Deal 1 damage. Deal 1 damage to the enemy hero.",
  play = fx.all(fx.deal(1), fx.deal(1, "enemy_hero")) }

card "Molten Rage" { mana = 1, fire = 1, target = "friendly_minion",
  text = "A friendly minion gains Frenzy and Haste this turn.",
  play = fx.all(fx.give("frenzy", 1, nil, "turn"), fx.give("haste", 1, nil, "turn")) }

card "Kindle" { mana = 1, fire = 1,
  text = "Gain 2 mana this turn.", play = fx.mana(2) }

card "Fire Bolt" { mana = 2, fire = 2, target = "any",
  text = "Deal 2 damage.", play = fx.deal(2) }

card "Flame Berserker" { mana = 2, fire = 2, attack = 3, health = 2, berserk = true,
  text = "Berserk." }

card "Cinder Hound" { mana = 2, fire = 2, attack = 2, health = 1, haste = true,
  text = "Haste." }

card "Blazing Duelist" { mana = 3, fire = 2, attack = 3, health = 2, haste = true,
  text = "Haste." }

card "Venom Salamander" { mana = 3, fire = 2, attack = 1, health = 3, deathtouch = true,
  text = "Deathtouch." }

card "Pyromancer" { mana = 3, fire = 2, attack = 3, health = 3,
  text = "At the end of your turn, deal 1 damage to the enemy hero.",
  end_of_turn = fx.deal(1, "enemy_hero") }

card "Searing Wound" { mana = 3, fire = 2, target = "minion",
  text = "Deal 2 damage to a minion and give it -2 attack.",
  play = fx.all(fx.deal(2), fx.weaken(2)) }

card "Fireball" { mana = 4, fire = 3, target = "any",
  text = "Deal 4 damage.", play = fx.deal(4) }

card "Firestorm" { mana = 4, fire = 3, aim = "enemy_minions",
  text = "Deal 3 damage to all enemy minions.", play = fx.deal(3, "enemy_minions") }

card "Magma Brute" { mana = 4, fire = 3, attack = 4, health = 3, sweep = true,
  text = "Sweep." }

card "Fire Ant Swarm" { mana = 4, fire = 3, attack = 3, health = 2, frenzy = true,
  haste = true, text = "Frenzy. Haste." }

card "Fire Elemental" { mana = 5, fire = 3, attack = 4, health = 4, target = "enemy",
  text = "When played: deal 2 damage.", play = fx.deal(2) }

card "Ash Wraith" { mana = 5, fire = 3, attack = 4, health = 6,
  text = "Whenever it deals damage, deal 1 damage to the enemy hero.",
  on_damage = fx.deal(1, "enemy_hero") }

card "Phoenix" { mana = 6, fire = 4, attack = 5, health = 5,
  text = "When it dies: deal 3 damage to the enemy hero.",
  on_death = fx.deal(3, "enemy_hero") }

card "Immolate" { mana = 6, fire = 4, target = "minion", aim = "destroy",
  text = "Destroy a minion. Deal 2 damage to the enemy hero. Draw a card.",
  play = fx.all(fx.destroy(), fx.deal(2, "enemy_hero"), fx.draw(1)) }

card "Lava Golem" { mana = 7, fire = 4, attack = 7, health = 7, berserk = true,
  reflect = true, text = "Berserk. Reflect." }

card "Inferno Dragon" { mana = 8, fire = 5, attack = 7, health = 6, haste = true,
  sweep = true, text = "Haste. Sweep." }

return list
