-- What is on offer in a turn (R.offer), read with one g:deck_tops(zones, owner): the pile
-- tops, then the centre row, with the names a g:name per card would give.
local A = require("ascension.testkit")
local R = require("ascension.rules")

local tests = {}

function tests.test_deck_tops_gives_what_tops_gives_and_each_cards_name(T)
  local m = T.match(A.match { row = { "Blind Seer", false, "Cavern Horror" } })
  local g = m.g
  local zones = { "row:1", "row:2", "nowhere", "row:3", "supply:Mystic" }
  local ids, names = g:deck_tops(zones, 0)
  T.eq(ids, g:tops(zones, 0), "the same ids as g:tops")
  T.eq(#names, 3)
  for i = 1, #ids do T.eq(names[i], g:name(ids[i])) end
  T.eq(names, { "Blind Seer", "Cavern Horror", "Mystic" })
  local none, no_names = g:deck_tops({ "row:2" }, 0)
  T.eq(#none, 0)
  T.eq(#no_names, 0, "an empty slot has no name either")
  T.eq(pcall(g.deck_tops, g, zones, 9), false, "the owner is checked")
  T.eq(pcall(g.deck_tops, g, { true }, 0), false, "so are the zone names")
end

function tests.test_offer_is_the_piles_then_the_row_one_per_name_when_distinct(T)
  local m = T.match(A.match { row = { "Blind Seer", "Cavern Horror", "Blind Seer", false,
                                      "Mystic" } })
  local g = m.g
  local _, names = R.offer(g)
  T.eq(table.concat(names, ","), "Mystic,Heavy Infantry,Cultist,Blind Seer,Cavern Horror,"
       .. "Blind Seer,Mystic")
  local ids, distinct = R.offer(g, true)
  T.eq(table.concat(distinct, ","), "Mystic,Heavy Infantry,Cultist,Blind Seer,Cavern Horror,"
       .. "Mystic", "a pile's card in the row is still offered there")
  T.eq(ids[4], g:top("row:1", 0), "the first Blind Seer of the row")
end

return tests
