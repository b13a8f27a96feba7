-- accession/words.lua: what a player reads of Accession (docs/SCRIPTING.md,
-- "Presentation hints"): its title and a short rules summary, for the game list and the
-- Catalog. The rules are Dominion's with a fixed kingdom (README.md).

return {
  title = "Accession",
  summary = table.concat({
    "Dominion's rules with one fixed set of ten kingdom cards (Cellar, Market, Militia, "
      .. "Mine, Moat, Remodel, Smithy, Village, Woodcutter, Workshop). Everyone starts with "
      .. "7 Coppers and 3 Estates and draws 5 cards.",
    "On your turn: play one Action card, then play your Treasures and buy one card from "
      .. "the Supply. Everything you bought, played or still hold goes to your discard pile, "
      .. "and you draw 5 new cards; your discard pile becomes your new deck when the deck "
      .. "runs out.",
    "Estates are worth 1 point, Duchies 3, Provinces 6. The game ends after the turn in "
      .. "which the Provinces or any three Supply piles run out. Most victory points wins; "
      .. "a tie goes to the player who had fewer turns.",
  }, "\n\n"),
}
