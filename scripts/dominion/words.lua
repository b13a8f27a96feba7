-- dominion/words.lua: what a player reads of Dominion (docs/SCRIPTING.md, "Presentation
-- hints"): its title and a short rules summary, for the game list and the Catalog.
-- Accession, which plays by the same rules, has its own (accession/words.lua).

return {
  title = "Dominion",
  summary = table.concat({
    "Build a deck as you play. Everyone starts with 7 Coppers and 3 Estates, shuffled, "
      .. "and draws 5 cards.",
    "On your turn: play one Action card from your hand (cards like Village give you more "
      .. "actions), then play your Treasures and buy one card from the Supply with the coins "
      .. "they give (+Buy cards let you buy more). Everything you bought, played or still "
      .. "hold goes to your discard pile, and you draw 5 new cards. When your deck runs out, "
      .. "your discard pile is shuffled into a new deck.",
    "Victory cards (Estate 1, Duchy 3, Province 6 points) win the game but do nothing in "
      .. "your hand; Curses are worth -1. The game ends after the turn in which the "
      .. "Provinces or any three Supply piles run out. Most victory points wins; a tie goes "
      .. "to the player who had fewer turns.",
  }, "\n\n"),
}
