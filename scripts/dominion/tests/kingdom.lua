-- Rules tests: kingdom selection (presets, random, draft, explicit lists) and the bots on
-- the whole card set.
local kit = require("deckbuilder.testkit")

local function kernel() return require("dominion.game").kernel end

-- The kingdom (non-base) supply names of a match, comma-joined in display order.
local function kingdom_of(m)
  local t = {}
  for _, name in ipairs(kernel():supply_names(m.g)) do
    if not require("dominion.game").cards[name].supply then t[#t + 1] = name end
  end
  return table.concat(t, ",")
end

local tests = {}

function tests.test_recommended_presets(T)
  local m = T.match { players = 2, options = { kingdom = "size_distortion" } }
  T.eq(kingdom_of(m), "Cellar,Chapel,Village,Woodcutter,Workshop,Feast,Gardens,Thief,"
       .. "Laboratory,Witch")
  m = T.match { players = 2, options = { kingdom = "big_money" } }
  T.eq(kingdom_of(m), "Chapel,Chancellor,Bureaucrat,Feast,Moneylender,Throne Room,"
       .. "Laboratory,Market,Mine,Adventurer")
end

function tests.test_explicit_kingdom_list(T)
  local m = T.match { players = 3, options = { kingdom = "Witch, Chapel,Gardens" } }
  T.eq(kingdom_of(m), "Chapel,Gardens,Witch")
  T.eq(m.g:count("supply:Gardens", 0), 12)
  T.eq(m.g:count("supply:Witch", 0), 10)
  T.eq(m.g:count("supply:Smithy", 0), 0)
end

function tests.test_bad_kingdom_options_fail_the_match_creation(T)
  for _, bad in ipairs({ "Witch,Copper", "Witch,Witch", "Witchcraft", "no_such_preset" }) do
    local ok, err = pcall(T.match, { players = 2, options = { kingdom = bad } })
    T.ok(not ok, bad .. " is refused")
    T.ok(tostring(err):find("dominion:", 1, true), tostring(err))
  end
end

function tests.test_random_kingdom_has_ten_distinct_cards(T)
  local m = T.match { players = 2, seed = 5, options = { kingdom = "random" } }
  local names = kernel():supply_names(m.g)
  T.eq(#names, 17, "7 base piles and 10 kingdom piles")
  for _, name in ipairs(names) do
    T.ok(m.g:count("supply:" .. name, 0) > 0, name .. " has cards")
  end
end

function tests.test_random_kingdom_is_deterministic_by_seed(T)
  local a = T.match { players = 2, seed = 123, options = { kingdom = "random" } }
  local b = T.match { players = 2, seed = 123, options = { kingdom = "random" } }
  T.eq(kingdom_of(a), kingdom_of(b))
  T.eq(a:hash(), b:hash())
  local differs = false
  for seed = 124, 130 do
    local c = T.match { players = 2, seed = seed, options = { kingdom = "random" } }
    if kingdom_of(c) ~= kingdom_of(a) then differs = true end
  end
  T.ok(differs, "other seeds give other kingdoms")
end

function tests.test_draft_order(T)
  local m = T.match { players = 3, seed = 4, options = { kingdom = "draft" } }
  T.eq(kingdom_of(m), "", "no kingdom pile before the draft")
  local picks = { "Witch", "Chapel", "Gardens", "Library", "Moat", "Spy", "Market", "Smithy",
                  "Village", "Artisan" }
  for i, name in ipairs(picks) do
    local d = m:decision()
    T.eq(d.kind, "draft")
    T.eq(d.player, (i - 1) % 3 + 1, "pick " .. i .. " goes to the next player in turn order")
    T.eq(#d.options, 32 - (i - 1), "each pick leaves the list")
    T.ok(not kit.labels(m):find("Copper", 1, true), "only kingdom cards")
    if i > 1 then
      T.ok(not ("," .. kit.labels(m) .. ","):find("," .. picks[i - 1] .. ",", 1, true),
           picks[i - 1] .. " is gone")
    end
    kit.pick(m, name)
  end
  T.eq(kingdom_of(m), "Chapel,Moat,Village,Gardens,Smithy,Spy,Library,Market,Witch,Artisan")
  T.eq(m.g:count("supply:Gardens", 0), 12)
  T.eq(m.g:count("supply:Witch", 0), 10)
  local d = m:decision()
  T.eq(d.player, 1, "then player 1 takes the first turn")
  T.ok(d.kind == "buy" or d.kind == "action")
  T.eq(m.g:counter("turns", 1), 1)
  T.ok(kit.saw(m, 2, m.g:player_name(1) .. " drafts Witch"))
end

function tests.test_a_match_without_a_recorded_kingdom_still_offers_its_piles(T)
  local m = T.match { players = 2, options = { kingdom = "Witch" }, setup = function(g)
    g:set_counter("_kingdom", 0, 0)
    kit.set_hand(g, 1, { "Gold", "Silver" })
  end }
  kit.pick(m, "Play all treasures")
  T.ok(kit.labels(m):find("Buy Witch ($5)", 1, true), kit.labels(m))
end

-- ---- the kingdom counter's bits ----------------------------------------------------

function tests.test_kingdom_bits_are_fixed_by_the_append_only_list(T)
  local kingdom = require("dominion.kingdom")
  T.eq(kingdom.bit("Cellar"), 1, "the first card of kingdom.BITS is bit 0")
  T.eq(kingdom.bit("Merchant"), 1 << 5)
  T.eq(kingdom.bit("Witch"), 1 << 29)
  T.eq(kingdom.bit("Artisan"), 1 << 31, "the last card of kingdom.BITS is bit 31")
  T.eq(kingdom.mask { "Artisan", "Cellar" }, (1 << 31) | 1)
end

function tests.test_every_kingdom_card_has_a_bit_of_its_own(T)
  local kingdom, data = require("dominion.kingdom"), require("dominion.cards")
  local used = 0
  for _, name in ipairs(data.kingdom) do
    local ok, b = pcall(kingdom.bit, name)
    T.ok(ok, name .. " has a bit: append it to kingdom.BITS")
    T.eq(used & b, 0, name .. "'s bit is its own")
    used = used | b
  end
  T.ok(not pcall(kingdom.bit, "Copper"), "base cards have no bit")
end

function tests.test_a_match_records_its_kingdom_by_the_fixed_bits(T)
  local m = T.match { players = 2, options = { kingdom = "first_game" } }
  -- Cellar 0, Moat 2, Village 7, Woodcutter 8, Workshop 9, Militia 13, Remodel 16,
  -- Smithy 17, Market 26, Mine 27: the value matches started before BITS existed hold.
  T.eq(m.g:counter("_kingdom"), 201532293)
end

function tests.test_a_kingdom_bit_that_names_no_card_is_refused(T)
  local kingdom, data = require("dominion.kingdom"), require("dominion.cards")
  local ok, err = pcall(kingdom.order_of, data, kingdom.bit("Witch") | (1 << 40))
  T.ok(not ok, "an unknown bit is refused")
  T.ok(tostring(err):find("kingdom bits 0x10000000000 name no card", 1, true), tostring(err))
  ok, err = pcall(T.match, { players = 2, options = { kingdom = "Witch" }, setup = function(g)
    g:set_counter("_kingdom", 0, 1 << 40)
  end })
  T.ok(not ok, "a match whose kingdom has an unknown bit does not play on")
  T.ok(tostring(err):find("name no card", 1, true), tostring(err))
end

function tests.test_bots_draft_and_finish_a_game(T)
  local m = T.match { players = 2, seed = 8, options = { kingdom = "draft" },
                      bots = { "witch", "default" } }
  T.ok(m:finished())
  T.eq(#kernel():supply_names(m.g), 17)
  T.eq(m.g:counter("_pile:Witch"), 1, "the witch bot drafts Witch first")
end

-- ---- bots on the whole card set -------------------------------------------------

function tests.test_witch_bot_buys_up_to_two_witches_and_curses_its_opponent(T)
  local m = T.match { players = 2, seed = 3, options = { kingdom = "size_distortion" },
                      bots = { "witch", "big_money" } }
  T.ok(m:finished())
  local k = kernel()
  local w = k:owned(m.g, 1, "Witch")
  T.ok(w >= 1 and w <= 2, "owns " .. w .. " Witches")
  T.ok(k:owned(m.g, 2, "Curse") > 0, "the opponent got Curses")
  T.eq(k:owned(m.g, 2, "Witch"), 0)
end

function tests.test_witch_bot_without_witch_plays_big_money(T)
  local m = T.match { players = 2, seed = 3, bots = { "witch", "big_money" } }
  T.ok(m:finished())
  T.eq(kernel():owned(m.g, 1, "Witch"), 0)
end

function tests.test_default_bots_finish_games_on_every_preset_and_random_kingdoms(T)
  local kingdoms = { "big_money", "interaction", "size_distortion", "village_square",
                     "Harbinger,Merchant,Vassal,Poacher,Bandit,Sentry,Artisan,Library,"
                       .. "Throne Room,Chapel" }
  for _ = 1, 6 do kingdoms[#kingdoms + 1] = "random" end
  for i, kingdom in ipairs(kingdoms) do
    local n = i % 3 + 2
    local bots = {}
    for p = 1, n do bots[p] = p == 1 and "witch" or "default" end
    local m = T.match { players = n, seed = i, options = { kingdom = kingdom }, bots = bots }
    T.ok(m:finished(), kingdom .. " with " .. n .. " players ends")
    local r = m:results()
    T.eq(#r, n)
  end
end

-- How many cards named name player p has in deck, hand, discard and play.
local function owns(g, p, name)
  return kit.count_named(g, { "deck", "hand", "discard", "play" }, p, name)
end

-- A match on this kingdom whose first turn, stacked by setup(g), the default bot plays
-- for player 1 (player 2 is left to the test).
local function bot_turn(kingdom, setup)
  return { players = 2, options = { kingdom = kingdom }, bots = { "default", nil }, setup = setup }
end

function tests.test_bot_sentry_trashes_a_curse_but_never_a_province(T)
  local m = T.match(bot_turn("Sentry", function(g)
    kit.stack(g, 1, { "Sentry" }, { "Copper", "Province", "Curse", "Copper", "Copper",
                                    "Copper", "Copper", "Copper" })
  end))
  T.eq(m:decision().player, 2, "the bot played its turn")
  T.eq(kit.names(m.g, "trash", 0), "Curse")
  T.eq(owns(m.g, 1, "Province"), 1)
end

function tests.test_bot_chapel_trashes_junk_and_spare_coppers_but_not_a_province(T)
  local m = T.match(bot_turn("Chapel", function(g)
    kit.set_hand(g, 1, { "Chapel", "Province", "Curse", "Estate", "Copper" })
    kit.set_discard(g, 1, {})
  end))
  T.eq(m:decision().player, 2)
  T.eq(kit.sorted(m.g, "trash", 0), "Copper,Curse,Estate", "7 Coppers owned: one is spare")
  T.eq(owns(m.g, 1, "Province"), 1)
end

function tests.test_bot_thief_trashes_and_takes_the_gold(T)
  local m = T.match(bot_turn("Thief", function(g)
    kit.set_hand(g, 1, { "Thief" })
    kit.set_deck(g, 2, { "Silver", "Gold", "Estate" })
    kit.set_discard(g, 2, {})
  end))
  T.eq(m:decision().player, 2)
  T.eq(m.g:count("trash", 0), 0, "the trashed Gold was gained")
  T.eq(owns(m.g, 1, "Gold"), 1)
  T.eq(owns(m.g, 2, "Gold"), 0)
  T.eq(owns(m.g, 2, "Silver"), 1)
end

function tests.test_bot_spy_discards_its_own_junk_and_the_victims_gold(T)
  local m = T.match(bot_turn("Spy", function(g)
    kit.stack(g, 1, { "Spy" }, { "Copper", "Estate", "Copper", "Copper", "Copper", "Copper",
                                 "Copper" })
    kit.set_deck(g, 2, { "Gold", "Copper" })
    kit.set_discard(g, 2, {})
  end))
  T.eq(m:decision().player, 2)
  T.eq(kit.names(m.g, "discard", 2), "Gold")
  T.eq(kit.names(m.g, "deck", 2), "Copper")
  T.ok(not kit.names(m.g, "hand", 1):find("Estate", 1, true), "the Estate was discarded")
end

return tests
