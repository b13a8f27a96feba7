-- ascension/words.lua: what a player reads of Ascension (docs/SCRIPTING.md,
-- "Presentation hints"): its title, a short rules summary and the words of its own
-- counters, for the game list and the Catalog.

return {
  title = "Ascension: Valley of the Ancients",
  summary = table.concat({
    "Build a deck of Heroes and Constructs. Everyone starts with 8 Apprentices (+1 Rune) "
      .. "and 2 Militia (+1 Power) and draws 5 cards.",
    "On your turn, in any order: play cards from your hand, spend Runes to acquire Heroes "
      .. "and Constructs from the centre row (or the Mystic and Heavy Infantry, always "
      .. "there), and spend Power to defeat Monsters for Honour. Constructs stay in play "
      .. "and work every turn. Unspent Runes and Power are lost when you end your turn.",
    "The Honour pool holds 30 Honour per player. When it runs out, the round is finished "
      .. "so that everyone has had as many turns. Your score is your Honour tokens plus the "
      .. "Honour printed on the cards you own; the highest score wins.",
  }, "\n\n"),
  counters = {
    vp = { label = "Honour total", order = 0,
           description = "Honour tokens plus the Honour on the cards this player owns" },
    honour = { label = "Honour tokens", order = 1,
               description = "Honour gained from the pool" },
    runes = { label = "Runes", order = 2,
              description = "To acquire Heroes and Constructs this turn" },
    power = { label = "Power", order = 3, description = "To defeat Monsters this turn" },
    score = { label = "Honour", order = 99, description = "Most Honour wins" },
    honour_pool = { label = "Honour pool", order = 4,
                    description = "Honour left to gain: the game ends when it runs out" },
  },
}
