-- elemental/decks.lua: the three preset decks, one per hero: 40 cards, at most 3 copies.
-- A match picks one per seat by its options `deck_1` and `deck_2` (game.lua).

return {
  earth = {
    { "Pebble Sentry", 3 }, { "Moss Tender", 2 }, { "Bark Skin", 2 }, { "Stone Wall", 3 },
    { "Thornback Boar", 2 }, { "Root Warden", 3 }, { "Healing Spring", 2 },
    { "Entangle", 2 }, { "Granite Guard", 3 }, { "Grove Keeper", 2 },
    { "Stone Blessing", 2 }, { "Earthshaker Golem", 3 }, { "Crystal Turtle", 2 },
    { "Boulder Hurler", 2 }, { "Living Rampart", 2 }, { "Ancient Oak", 2 },
    { "Earth Elemental", 2 }, { "Mountain Giant", 1 },
  },
  wind = {
    { "Breeze Sprite", 2 }, { "Zephyr Imp", 3 }, { "Dust Devil", 3 }, { "Gust", 2 },
    { "Swift Falcon", 2 }, { "Cloud Dancer", 3 }, { "Gale Force", 2 }, { "Storm Hawk", 3 },
    { "Gravity Well", 2 }, { "Whirlwind Dervish", 3 }, { "Wind Spirit", 2 },
    { "Windrider", 3 }, { "Thunderbird", 2 }, { "Storm Giant", 2 }, { "Tempest Djinn", 2 },
    { "Eye of the Storm", 1 }, { "Cloud Giant", 2 }, { "Cyclone", 1 },
  },
  fire = {
    { "Ember Imp", 3 }, { "Flame Imp", 3 }, { "Spark", 2 }, { "Fire Bolt", 3 },
    { "Flame Berserker", 3 }, { "Cinder Hound", 3 }, { "Blazing Duelist", 3 },
    { "Venom Salamander", 2 }, { "Pyromancer", 2 }, { "Fireball", 2 }, { "Firestorm", 1 },
    { "Magma Brute", 3 }, { "Fire Ant Swarm", 2 }, { "Fire Elemental", 2 },
    { "Ash Wraith", 2 }, { "Phoenix", 2 }, { "Lava Golem", 1 }, { "Inferno Dragon", 1 },
  },
}
