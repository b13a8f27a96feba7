-- mlw/words.lua: what a player reads of Major League Wizardry (docs/SCRIPTING.md,
-- "Presentation hints"): its title, a short rules summary and the words of its counters
-- (the wizard's, and the monsters' statuses, shown on the card as `NAME:ID`).

return {
  title = "Major League Wizardry",
  summary = table.concat({
    "Two wizards of 20 health duel with 40-card decks of Monsters, Spells and Traps. "
      .. "Each starts with 5 cards.",
    "On your turn: draw a card; your mana limit rises by 1 (up to 10) and your mana "
      .. "refills to it, less the upkeep of your monsters in play. Then, in any order: play "
      .. "cards (at most 5 monsters and 1 face-down trap), attack with your monsters, "
      .. "activate their abilities, drain a monster for mana (once a turn), and end your "
      .. "turn. A monster cannot attack on the turn it is played.",
    "A monster attacks an enemy monster (both strike at once when it can defend) or the "
      .. "enemy wizard when no monster can defend against it. Traps fire on your opponent's "
      .. "actions. Reduce the enemy wizard to 0 health to win; surrendering loses at once.",
  }, "\n\n"),
  counters = {
    mana = { label = "Mana", order = 3, description = "Spent to play cards this turn" },
    max_mana = { label = "Mana limit", order = 4,
                 description = "Mana each turn before upkeep: +1 a turn, up to 10" },
    upkeep = { label = "Upkeep", order = 5,
               description = "Mana your monsters in play cost each turn" },
    hand_limit = { label = "Hand limit", order = 6,
                   description = "A card drawn into a full hand goes to the graveyard" },
    max_monsters = { label = "Monster slots", order = 7,
                     description = "How many monsters may be in play" },
    max_traps = { label = "Trap slots", order = 8, description = "How many traps may be set" },
    drained = { hidden = true }, -- the options say whether a drain is left
    frozen = { label = "Frozen", order = 10, description = "Cannot attack, activate or defend" },
    shield = { label = "Shield", order = 10, description = "The next damage is prevented" },
    poison = { label = "Poison", order = 10,
               description = "Damage it takes at the start of its owner's turns" },
    boost = { label = "Boost", order = 10, description = "Extra attack until it wears off" },
  },
}
