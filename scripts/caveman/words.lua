-- caveman/words.lua: what a player reads of Caveman (docs/SCRIPTING.md, "Presentation
-- hints"): its title, a short rules summary and the words of its own counters, for the
-- game list and the Catalog.

return {
  title = "Caveman",
  summary = table.concat({
    "Two cave dwellers with 20 health each build decks of Treasures, Weapons and Actions. "
      .. "Everyone starts with 4 Wood and 2 Bone.",
    "On your turn: draw 3 cards; play up to 2 Actions or Weapons (each uses an action; "
      .. "a Weapon deals its damage to your opponent); then play your Treasures and buy one "
      .. "card. Your hand and played cards go to your discard pile.",
    "The game ends when a player has no health left: the other wins. After 100 turns "
      .. "each, the player with more health wins.",
  }, "\n\n"),
  counters = {
    health = { label = "Health", order = 0,
               description = "The score: a player with none left loses" },
    score = { label = "Health left", order = 99, description = "Most health wins" },
  },
}
