-- Tests of the engine's bulk `g` calls the kernel's hot paths use (g:deal, g:move_all,
-- g:list with a filter, names or distinct, g:log with pieces, g:count_empty, g:tops, g:gets,
-- g:new with a count, g:move of an id array): each gives what the one-card-at-a-time calls it
-- replaces give.
local kit = require("deckbuilder.testkit")
local kernel = require("deckbuilder.kernel")

local tests = {}

-- A match whose player 1 holds Copper, Estate, Silver and whose deck is Gold, Duchy,
-- Curse (top first) over an empty discard.
local function stacked(T)
  return T.match {
    players = 2, seed = 1,
    setup = function(g)
      kit.set_hand(g, 1, { "Copper", "Estate", "Silver" })
      kit.set_deck(g, 1, { "Gold", "Duchy", "Curse" })
      kit.set_discard(g, 1, {})
    end,
  }
end

function tests.test_deal_moves_top_cards_one_at_a_time(T)
  local m = stacked(T)
  local g = m.g
  local dealt = g:deal("deck", 1, "discard", 1, 2)
  T.eq(#dealt, 2)
  T.eq(g:name(dealt[1]), "Gold")
  T.eq(g:name(dealt[2]), "Duchy")
  T.eq(kit.names(g, "discard", 1), "Gold,Duchy") -- the last dealt is on top
  T.eq(#g:deal("deck", 1, "discard", 1, 5), 1, "only what the zone holds")
  T.eq(#g:deal("deck", 1, "discard", 1, 1), 0)
  T.eq(#g:deal("nowhere", 1, "discard", 1, 1), 0, "a zone never used is empty")
end

function tests.test_move_all_keeps_the_order_on_top_and_under(T)
  local m = stacked(T)
  local g = m.g
  T.eq(g:move_all("hand", 1, "discard", 1), 3)
  T.eq(kit.names(g, "discard", 1), "Copper,Estate,Silver")
  T.eq(g:count("hand", 1), 0)
  T.eq(g:move_all("discard", 1, "deck", 1, "bottom"), 3)
  T.eq(kit.names(g, "deck", 1), "Copper,Estate,Silver,Curse,Duchy,Gold")
  T.eq(g:move_all("discard", 1, "deck", 1), 0)
  T.eq(g:move_all("deck", 1, "deck", 1), 6, "a zone onto itself stays as it was")
  T.eq(kit.names(g, "deck", 1), "Copper,Estate,Silver,Curse,Duchy,Gold")
  local _, owner = g:zone_of(g:top("deck", 1))
  T.eq(owner, 1)
end

function tests.test_list_filter_keeps_named_cards_in_order(T)
  local m = stacked(T)
  local g = m.g
  local ids = g:list("hand", 1, { Silver = true, Copper = true, Estate = false })
  T.eq(#ids, 2)
  T.eq(g:name(ids[1]), "Copper")
  T.eq(g:name(ids[2]), "Silver")
  T.eq(#g:list("hand", 1, {}), 0)
  T.eq(#g:list("hand", 1), 3)
end

function tests.test_list_names_and_distinct_match_g_name_and_kernel_distinct(T)
  local m = T.match {
    players = 2, seed = 1,
    setup = function(g)
      kit.set_hand(g, 1, { "Copper", "Silver", "Copper", "Estate", "Silver", "Gold" })
    end,
  }
  local g = m.g
  local money = { Copper = true, Silver = true, Gold = true }
  local ids, names = g:list("hand", 1, money, "names")
  T.eq(ids, g:list("hand", 1, money))
  T.eq(#names, 5)
  for i = 1, #ids do T.eq(names[i], g:name(ids[i])) end
  local kinds, knames = g:list("hand", 1, money, "distinct")
  local want, wnames = kernel:distinct(g, g:list("hand", 1, money))
  T.eq(kinds, want)
  T.eq(knames, wnames)
  T.eq(knames, { "Copper", "Silver", "Gold" })
  local all = g:list("hand", 1, nil, "distinct")
  T.eq(#all, 4, "without a filter: every name once")
  local none, nnames = g:list("nowhere", 1, nil, "names")
  T.eq(#none + #nnames, 0)
  T.eq(pcall(g.list, g, "hand", 1, nil, "sorted"), false, "how is names or distinct")
end

function tests.test_log_joins_pieces(T)
  local m = stacked(T)
  local g = m.g
  g:log("P1", " plays ", g:list("hand", 1), " for $", 3)
  T.ok(kit.saw(m, 2, "P1 plays Copper, Estate, Silver for $3"))
  g:log_to(1, "You see ", {}, "nothing")
  T.ok(kit.saw(m, 1, "You see nothing"))
  T.ok(not kit.saw(m, 2, "You see nothing"), "log_to is private")
  T.eq(pcall(g.log, g, "x", 1.5), false, "a float piece is an error")
  T.eq(pcall(g.log, g, { 999999 }), false, "an id array holds entities")
  T.eq(pcall(g.log, g), false, "text expected")
end

function tests.test_new_with_a_count_makes_consecutive_cards_on_top(T)
  local m = stacked(T)
  local g = m.g
  local first = g:new("Silver", "discard", 1, 3)
  T.eq(g:count("discard", 1), 3)
  T.eq(g:at("discard", 1, 1), first)
  T.eq(g:top("discard", 1), first + 2, "the last made is on top")
  T.eq(kit.names(g, "discard", 1), "Silver,Silver,Silver")
  local one = g:new("Gold", "discard", 1)
  T.eq(one, first + 3, "without a count: one card")
  T.eq(g:new("Gold", "discard", 1, 1), one + 1)
  T.eq(g:new("Gold", "nowhere", 1, 0), nil, "a count of 0 makes nothing")
  T.eq(g:count_empty({ "nowhere" }, 1), 1)
  T.eq(pcall(g.new, g, "Gold", "discard", 1, -1), false, "a negative count is an error")
end

function tests.test_move_of_ids_moves_them_one_by_one_in_order(T)
  local m = stacked(T)
  local g = m.g
  local hand = g:list("hand", 1) -- Copper, Estate, Silver
  g:move({ hand[3], hand[1] }, "discard", 1)
  T.eq(kit.names(g, "discard", 1), "Silver,Copper", "the last moved is on top")
  g:move({ hand[2] }, "discard", 1, "bottom")
  T.eq(kit.names(g, "discard", 1), "Estate,Silver,Copper")
  g:move({}, "nowhere", 1)
  T.eq(g:count_empty({ "nowhere" }, 1), 1, "an empty array moves nothing")
  T.eq(pcall(g.move, g, { hand[1], 999999 }, "hand", 1), false, "ids are entities")
  T.eq(kit.names(g, "hand", 1), "Copper", "the ones before a bad id moved")
end

function tests.test_tops_gives_what_top_and_count_give_zone_by_zone(T)
  local m = stacked(T)
  local g = m.g
  local zones = { "deck", "nowhere", "hand", "discard", "deck" }
  local tops, empty = {}, {}
  for i, z in ipairs(zones) do
    if g:count(z, 1) == 0 then empty[#empty + 1] = i else tops[#tops + 1] = g:top(z, 1) end
  end
  T.eq(g:tops(zones, 1), tops)
  T.eq(g:tops(zones, 1, "empty"), empty)
  T.eq(g:tops(zones, 1, "empty"), { 2, 4 }, "an unused zone and an empty one")
  T.eq(#g:tops(zones, 0), 0, "the same names, shared: none used")
  T.eq(#g:tops({}, 1), 0)
  T.eq(pcall(g.tops, g, zones, 1, "full"), false, "the third argument is checked")
  T.eq(pcall(g.tops, g, zones, 9), false, "so is the owner")
end

function tests.test_gets_gives_what_get_gives_attribute_by_attribute(T)
  local m = stacked(T)
  local g = m.g
  local id = g:top("deck", 1)
  g:set(id, "a", 3)
  g:set(id, "b", -2)
  T.eq(g:gets(id, { "b", "never", "a", "b" }), { -2, 0, 3, -2 })
  T.eq(g:gets(id, {}), {})
  T.eq(pcall(g.gets, g, 999999, { "a" }), false, "ids are entities")
  T.eq(pcall(g.gets, g, id, { {} }), false, "names are strings")
end

function tests.test_count_empty_counts_empty_and_unused_zones(T)
  local m = stacked(T)
  local g = m.g
  local piles = { "supply:Copper", "supply:Silver", "supply:Gold", "supply:Nothing" }
  local function by_count()
    local n = 0
    for _, z in ipairs(piles) do
      if g:count(z, 0) == 0 then n = n + 1 end
    end
    return n
  end
  T.eq(g:count_empty(piles, 0), 1, "a zone never used is empty")
  kit.empty_pile(g, "Silver")
  kit.empty_pile(g, "Gold", 1)
  T.eq(g:count_empty(piles, 0), 2)
  T.eq(g:count_empty(piles, 0), by_count())
  T.eq(g:count_empty({ "hand", "deck", "discard" }, 1), 1, "owner 1's discard")
  T.eq(g:count_empty({}, 0), 0)
  T.eq(pcall(g.count_empty, g, { "hand" }, 9), false, "a bad owner is an error")
  T.eq(pcall(g.count_empty, g, { {} }, 0), false, "zone names are strings")
end

return tests
