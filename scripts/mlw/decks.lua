-- mlw/decks.lua: the two preset decks, 40 cards each, at most 3 copies of a card. The
-- match options deck_1 and deck_2 (game.lua) pick one per wizard.
--   fire: attackers and burn (Sparky, Flux, Alex, Fire Elemental, Fireball, Backfire).
--   frost: control and the flexibility cards (Drain Warden, Mind Flood, Pickpocket,
--          Recruitment, Frost Mage, Avalanche).
-- Default bots against each other, 400 games per seating: fire wins about 58%.
return {
  fire = {
    { "Nunu", 1 }, { "Flux", 3 }, { "Sparky", 3 }, { "Archer", 1 }, { "Knight", 3 },
    { "Dragon", 1 }, { "Bomb Imp", 1 }, { "Fire Elemental", 3 }, { "Alex", 2 }, { "Pyromancer", 3 },
    { "Ogre", 3 }, { "Spark", 3 }, { "Fireball", 3 }, { "Troll", 2 }, { "Lightning", 2 },
    { "Mana Surge", 1 }, { "Backfire", 2 }, { "Ambush", 2 }, { "Trap Breaker", 1 },
  },
  frost = {
    { "Goblin", 3 }, { "Wolf", 3 }, { "Viper", 2 }, { "Healer", 2 }, { "Ghost", 1 },
    { "Knight", 2 }, { "Frost Mage", 2 }, { "Drain Warden", 2 }, { "Nunu", 2 },
    { "Shield Bearer", 1 }, { "Stone Golem", 2 }, { "Troll", 1 },
    { "Gravedigger", 1 }, { "Dragon", 1 }, { "Squire", 1 }, { "Freeze", 2 },
    { "Poison Dart", 1 },
    { "Pickpocket", 1 }, { "Insight", 1 }, { "Heal", 1 }, { "Cull", 1 },
    { "Mind Flood", 1 }, { "Avalanche", 1 }, { "Recruitment", 1 }, { "Rally", 1 },
    { "Pitfall", 1 }, { "Mirror Ward", 1 }, { "Purge", 1 },
  },
}
