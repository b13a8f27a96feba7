-- Rules tests for Caveman: every card and rule, one behaviour per test.
local kit = require("deckbuilder.testkit")

local WOODS = { "Wood", "Wood", "Wood", "Wood", "Wood" }

-- Stack player p's next turn: `hand` is what the turn's draw of 3 brings (its first 3
-- cards go on top of the deck, any more straight into the hand), then `deck` (with
-- fewer than 3 hand cards, the draw goes on into `deck`).
local function stack(g, p, hand, deck, discard)
  local top, extra = {}, {}
  for i, name in ipairs(hand) do
    if i <= 3 then top[#top + 1] = name else extra[#extra + 1] = name end
  end
  for _, name in ipairs(deck or WOODS) do top[#top + 1] = name end
  kit.set_hand(g, p, extra)
  kit.set_deck(g, p, top)
  kit.set_discard(g, p, discard or {})
end

local function match(hand, deck, more)
  return { players = 2, seed = 3, setup = function(g)
    stack(g, 1, hand, deck)
    stack(g, 2, {}, WOODS)
    if more then more(g) end
  end }
end

local function health(m, p) return m.g:counter("health", p) end

local tests = {}

-- ---- setup and turn -----------------------------------------------------------------------

function tests.test_start_deck_is_4_wood_2_bone_and_20_health(T)
  local m = T.match { players = 2, seed = 5 }
  kit.check_start_deck(T, m, nil, { Wood = 4, Bone = 2 })
  for p = 1, 2 do
    T.eq(health(m, p), 20)
    T.eq(m.g:count("deck", p) + m.g:count("hand", p), 6)
  end
end

function tests.test_two_players_only(T)
  local game = require("caveman.game")
  T.eq(game.min_players, 2)
  T.eq(game.max_players, 2)
end

function tests.test_turn_draws_3_cards_and_gives_2_actions_1_buy(T)
  local m = T.match(match({ "Club", "Club", "Club" }, { "Stone" }))
  T.eq(m.g:count("hand", 1), 3)
  T.eq(m.g:counter("actions"), 2)
  T.eq(m.g:counter("buys"), 1)
  T.eq(m.g:count("hand", 2), 0, "the opponent draws at the start of their own turn")
  T.eq(kit.names(m.g, "deck", 1), "Stone")
end

function tests.test_cleanup_discards_everything_and_next_turn_draws_3(T)
  local m = T.match(match({ "Wood", "Wood", "Bone" }, { "Stone", "Bone", "Wood" }))
  kit.pick(m, "End turn")
  T.eq(m.g:count("hand", 1), 0)
  T.eq(m.g:count("discard", 1), 3)
  T.eq(m:decision().player, 2)
  T.eq(m.g:count("hand", 2), 3)
end

function tests.test_draw_reshuffles_the_discard_when_the_deck_runs_out(T)
  local m = T.match(match({ "Wood", "Bone", "Stone" }, {}, function(g)
    kit.set_deck(g, 1, { "Wood" })
    kit.set_hand(g, 1, {})
    kit.set_discard(g, 1, { "Bone", "Stone" })
  end))
  T.eq(kit.sorted(m.g, "hand", 1), "Bone,Stone,Wood")
  T.eq(m.g:count("discard", 1), 0)
end

function tests.test_supply_piles_and_their_sizes(T)
  local m = T.match { players = 2 }
  local sizes = { Wood = 40, Bone = 30, Stone = 15, Club = 15, Sling = 10, Spear = 5,
                  ["Actions 3"] = 30, ["Actions 4"] = 30, ["Actions 5"] = 20,
                  ["Actions 7"] = 20 }
  for zone, n in pairs(sizes) do T.eq(m.g:count("supply:" .. zone, 0), n, zone) end
  local names = { "Hunter", "Gatherer", "Farmer", "Toolmaker", "Artist", "Priest",
                  "Prophet", "Warrior", "Elder", "Sacrifice" }
  for _, name in ipairs(names) do T.eq(m.g:count("supply:" .. name, 0), 0, name) end
end

-- ---- shuffled piles ---------------------------------------------------------------------

function tests.test_shuffled_piles_mix_their_cards_in_random_order(T)
  local orders = {}
  for seed = 1, 2 do
    local m = T.match { players = 2, seed = seed }
    orders[seed] = kit.names(m.g, "supply:Actions 3", 0)
    local seen, runs = {}, 0
    local prev
    for i = 1, 30 do
      local name = m.g:name(m.g:at("supply:Actions 3", 0, i))
      seen[name] = (seen[name] or 0) + 1
      if name ~= prev then runs = runs + 1 end
      prev = name
    end
    T.eq(seen.Hunter, 10)
    T.eq(seen.Gatherer, 10)
    T.eq(seen.Farmer, 10)
    T.ok(runs > 3, "the pile is mixed, not three blocks")
  end
  T.ok(orders[1] ~= orders[2], "another seed, another order")
end

function tests.test_shuffled_pile_offers_only_its_top_card(T)
  local m = T.match(match({ "Stone", "Stone" }, WOODS, function(g)
    kit.empty_pile(g, "Actions 4")
    g:new("Artist", "supply:Actions 4", 0)
    g:new("Priest", "supply:Actions 4", 0)
  end))
  kit.pick(m, "Play all treasures")
  local labels = kit.labels(m)
  T.ok(labels:find("Buy Priest ($4)", 1, true), "the top card is offered")
  T.ok(not labels:find("Artist", 1, true), "the card under it is not")
  T.ok(not labels:find("Toolmaker", 1, true), "a card not in the pile is not")
  local view = m:view(2)
  for _, z in ipairs(view.zones) do
    if z.name == "supply:Actions 4" then
      T.eq(z.count, 2)
      T.eq(#z.cards, 1, "everyone sees only the top card")
    end
  end
end

function tests.test_buying_from_a_shuffled_pile_reveals_the_next_card(T)
  local m = T.match(match({ "Stone", "Stone" }, WOODS, function(g)
    kit.empty_pile(g, "Actions 4")
    g:new("Artist", "supply:Actions 4", 0)
    g:new("Priest", "supply:Actions 4", 0)
  end))
  m.g:add_counter("buys", 0, 1)
  kit.pick(m, "Play all treasures")
  kit.pick(m, "Buy Priest ($4)")
  T.ok(kit.labels(m):find("Buy Artist ($4)", 1, true))
  T.eq(kit.names(m.g, "discard", 1), "Priest")
  T.eq(kit.names(m.g, "supply:Actions 4", 0), "Artist")
end

-- ---- treasures ------------------------------------------------------------------------------

function tests.test_wood_bone_stone_give_1_2_4(T)
  local m = T.match(match({ "Wood", "Bone", "Stone" }))
  kit.pick(m, "Play Wood")
  T.eq(m.g:counter("coins"), 1)
  kit.pick(m, "Play Bone")
  T.eq(m.g:counter("coins"), 3)
  kit.pick(m, "Play Stone")
  T.eq(m.g:counter("coins"), 7)
end

-- ---- weapons --------------------------------------------------------------------------------

function tests.test_club_sling_spear_deal_1_2_4_damage(T)
  local m = T.match(match({ "Club", "Sling", "Spear" }, WOODS, function(g)
    g:set_counter("actions", 0, 0)
  end))
  T.eq(m:decision().kind, "action")
  T.eq(kit.labels(m), "Play Club,Play Sling,Play Spear,End actions")
  kit.pick(m, "Play Club")
  T.eq(health(m, 2), 19)
  kit.pick(m, "Play Spear")
  T.eq(health(m, 2), 15)
  T.eq(health(m, 1), 20, "weapons never hurt their owner")
  T.eq(m:decision().kind, "buy", "two actions spent: the Sling stays in hand")
  T.ok(kit.saw(m, 2, "Club deals 1 damage to " .. m.g:player_name(2) .. " (19 health left)"))
end

function tests.test_weapons_are_not_played_in_the_buy_phase(T)
  local m = T.match(match({ "Club", "Wood", "Bone" }))
  kit.pick(m, "End actions")
  T.eq(kit.labels(m):find("Club", 1, true), nil, "no Play Club in the buy phase")
  kit.pick(m, "Play all treasures")
  T.eq(kit.names(m.g, "hand", 1), "Club")
  T.eq(health(m, 2), 20)
end

function tests.test_health_is_public(T)
  local m = T.match(match({ "Club" }))
  kit.pick(m, "Play Club")
  local seen = {}
  for _, c in ipairs(m:view(2).counters) do
    if c.name == "health" then seen[#seen + 1] = c.value end
  end
  table.sort(seen)
  T.eq(table.concat(seen, ","), "19,20", "player 2 sees both players' health")
end

function tests.test_sling_deals_2_damage(T)
  local m = T.match(match({ "Sling" }))
  kit.pick(m, "Play Sling")
  T.eq(health(m, 2), 18)
end

function tests.test_weapons_use_an_action_each(T)
  local m = T.match(match({ "Club", "Club", "Club" }))
  kit.pick(m, "Play Club")
  T.eq(m.g:counter("actions"), 1)
  kit.pick(m, "Play Club")
  T.eq(m.g:counter("actions"), 0)
  T.eq(health(m, 2), 18)
  T.eq(m.g:count("hand", 1), 1)
end

function tests.test_health_does_not_go_below_zero(T)
  local m = T.match(match({ "Spear" }, WOODS, function(g) g:set_counter("health", 2, 3) end))
  kit.pick(m, "Play Spear")
  T.eq(health(m, 2), 0)
end

-- A Prophet turn: after the draw of 3 the hand is Prophet, Wood, Wood.
local PROPHET = { "Prophet", "Wood", "Wood" }

-- ---- actions ---------------------------------------------------------------------------------

function tests.test_hunter_gives_2(T)
  local m = T.match(match({ "Hunter", "Wood" }))
  kit.pick(m, "Play Hunter")
  T.eq(m.g:counter("coins"), 2)
  T.eq(m.g:counter("actions"), 1)
end

function tests.test_gatherer_gives_an_action(T)
  local m = T.match(match({ "Gatherer", "Club", "Club", "Club" }))
  kit.pick(m, "Play Gatherer")
  T.eq(m.g:counter("actions"), 2)
  kit.pick(m, "Play Club")
  kit.pick(m, "Play Club")
  T.eq(health(m, 2), 18)
end

function tests.test_farmer_gives_a_buy_and_1(T)
  local m = T.match(match({ "Farmer", "Bone", "Bone" }))
  kit.pick(m, "Play Farmer")
  T.eq(m.g:counter("buys"), 2)
  T.eq(m.g:counter("coins"), 1)
  kit.pick(m, "Play all treasures")
  kit.pick(m, "Buy Bone ($3)")
  kit.pick(m, "Buy Wood ($0)")
  T.eq(kit.sorted(m.g, "discard", 1), "Bone,Bone,Bone,Farmer,Wood")
end

function tests.test_toolmaker_trades_wood_for_bone_into_hand(T)
  local m = T.match(match({ "Toolmaker", "Wood", "Stone" }))
  kit.pick(m, "Play Toolmaker")
  local d = m:decision()
  T.eq(d.kind, "trash")
  T.eq(d.min, 0)
  T.eq(kit.labels(m), "Wood", "Stone has nothing above it")
  kit.pick(m, "Wood")
  T.eq(kit.sorted(m.g, "hand", 1), "Bone,Stone")
  T.eq(kit.names(m.g, "trash", 0), "Wood")
  T.eq(m.g:count("supply:Bone", 0), 29)
end

function tests.test_toolmaker_trades_bone_for_stone(T)
  local m = T.match(match({ "Toolmaker", "Bone", "Wood" }))
  kit.pick(m, "Play Toolmaker")
  T.eq(kit.labels(m), "Bone,Wood")
  kit.pick(m, "Bone")
  T.eq(kit.sorted(m.g, "hand", 1), "Stone,Wood")
  kit.pick(m, "Play all treasures")
  T.eq(m.g:counter("coins"), 5)
end

function tests.test_toolmaker_offers_no_treasure_whose_next_pile_is_empty(T)
  local m = T.match(match({ "Toolmaker", "Wood", "Bone" }, WOODS,
                          function(g) kit.empty_pile(g, "Stone") end))
  kit.pick(m, "Play Toolmaker")
  T.eq(kit.labels(m), "Wood")
end

function tests.test_toolmaker_trade_may_be_declined(T)
  local m = T.match(match({ "Toolmaker", "Wood" }))
  kit.pick(m, "Play Toolmaker")
  T.ok(m:answer(1, {}))
  T.eq(kit.names(m.g, "hand", 1), "Wood,Wood")
  T.eq(m.g:count("trash", 0), 0)
end

function tests.test_artist_draws_two_cards(T)
  local m = T.match(match({ "Artist", "Wood", "Wood" }, { "Stone", "Bone", "Wood" }))
  kit.pick(m, "Play Artist")
  T.eq(kit.sorted(m.g, "hand", 1), "Bone,Stone,Wood,Wood")
  T.eq(kit.names(m.g, "deck", 1), "Wood")
end

function tests.test_priest_trashes_up_to_two_and_heals_one_each(T)
  local m = T.match(match({ "Priest", "Wood", "Wood", "Bone" }, WOODS,
                          function(g) g:set_counter("health", 1, 15) end))
  kit.pick(m, "Play Priest")
  local d = m:decision()
  T.eq(d.kind, "trash")
  T.eq(d.min, 0)
  T.eq(d.max, 2)
  kit.pick(m, { "Wood", "Wood" })
  T.eq(health(m, 1), 17)
  T.eq(kit.names(m.g, "trash", 0), "Wood,Wood")
  T.eq(kit.names(m.g, "hand", 1), "Bone")
end

function tests.test_priest_heals_no_higher_than_20(T)
  local m = T.match(match({ "Priest", "Wood", "Wood" }, WOODS,
                          function(g) g:set_counter("health", 1, 19) end))
  kit.pick(m, "Play Priest")
  kit.pick(m, { "Wood", "Wood" })
  T.eq(health(m, 1), 20)
end

function tests.test_priest_trashing_nothing_heals_nothing(T)
  local m = T.match(match({ "Priest", "Wood" }, WOODS,
                          function(g) g:set_counter("health", 1, 10) end))
  kit.pick(m, "Play Priest")
  T.ok(m:answer(1, {}))
  T.eq(health(m, 1), 10)
end

function tests.test_prophet_draws_three_and_redistributes_top_cards(T)
  local m = T.match(match(PROPHET, { "Wood", "Wood", "Wood", "Spear", "Bone" },
    function(g)
      kit.set_deck(g, 2, { "Stone", "Club", "Club" })
      kit.set_discard(g, 1, { "Bone" })
      kit.set_discard(g, 2, {})
    end))
  kit.pick(m, "Play Prophet")
  T.eq(kit.sorted(m.g, "hand", 1), "Wood,Wood,Wood,Wood,Wood")
  T.eq(kit.names(m.g, "deck", 1), "Bone", "player 1 gave the Spear")
  T.eq(kit.names(m.g, "deck", 2), "Club,Club", "player 2 gave the Stone")
  T.eq(m.g:count("discard", 1), 2, "player 1 got one card")
  T.eq(m.g:count("discard", 2), 1, "player 2 got one card")
  T.eq(m.g:count("prophecy", 0), 0)
  local got = kit.sorted(m.g, "discard", 2) .. "+" .. kit.sorted(m.g, "discard", 1)
  T.ok(got == "Spear+Bone,Stone" or got == "Stone+Bone,Spear", got)
end

function tests.test_prophet_deals_each_way_across_seeds(T)
  local outcomes = {}
  for seed = 1, 12 do
    local m = T.match { players = 2, seed = seed, setup = function(g)
      stack(g, 1, PROPHET, { "Wood", "Wood", "Wood", "Spear" })
      kit.set_deck(g, 2, { "Stone" })
      kit.set_discard(g, 2, {})
    end }
    kit.pick(m, "Play Prophet")
    outcomes[kit.names(m.g, "discard", 2)] = true
  end
  T.ok(outcomes.Spear and outcomes.Stone, "either player may end up with either card")
end

function tests.test_prophet_hides_who_got_what(T)
  local m = T.match(match(PROPHET, { "Wood", "Wood", "Wood", "Spear" }, function(g)
    kit.set_deck(g, 2, { "Stone" })
  end))
  kit.pick(m, "Play Prophet")
  for p = 1, 2 do
    T.ok(not kit.saw_part(m, p, "Spear"), "no log names the Spear")
    T.ok(not kit.saw_part(m, p, "Stone"), "no log names the Stone")
    for _, z in ipairs(m:view(p).zones) do
      if z.name == "discard" or z.name == "deck" or z.name == "prophecy" then
        T.eq(#(z.cards or {}), 0, "seat " .. p .. " sees no card of " .. z.name)
      end
    end
  end
  T.ok(kit.saw(m, 2, "Prophet: 2 cards are shuffled and dealt face down into the discard piles"))
end

function tests.test_prophet_skips_a_player_with_an_empty_deck(T)
  local m = T.match(match(PROPHET, { "Wood", "Wood", "Wood", "Spear" }, function(g)
    kit.set_deck(g, 2, {})
    kit.set_discard(g, 2, { "Club" })
  end))
  kit.pick(m, "Play Prophet")
  T.eq(kit.names(m.g, "discard", 1), "Spear")
  T.eq(kit.names(m.g, "discard", 2), "Club")
end

function tests.test_warrior_gives_two_actions_a_card_and_may_trash(T)
  local m = T.match(match({ "Warrior", "Wood", "Club" }, { "Club" }))
  kit.pick(m, "Play Warrior")
  T.eq(m.g:counter("actions"), 3)
  T.eq(kit.sorted(m.g, "hand", 1), "Club,Club,Wood")
  local d = m:decision()
  T.eq(d.kind, "trash")
  T.eq(d.min, 0)
  T.eq(d.max, 1)
  kit.pick(m, "Wood")
  T.eq(kit.names(m.g, "trash", 0), "Wood")
  kit.pick(m, "Play Club")
  kit.pick(m, "Play Club")
  T.eq(health(m, 2), 18)
end

function tests.test_warrior_trash_is_optional(T)
  local m = T.match(match({ "Warrior", "Wood" }, { "Club" }))
  kit.pick(m, "Play Warrior")
  T.ok(m:answer(1, {}))
  T.eq(m.g:count("trash", 0), 0)
end

function tests.test_sacrifice_gains_the_top_card_of_a_shuffled_pile(T)
  local m = T.match(match({ "Sacrifice" }, { "Bone" }, function(g)
    kit.empty_pile(g, "Actions 3")
    g:new("Farmer", "supply:Actions 3", 0)
    g:new("Hunter", "supply:Actions 3", 0)
  end))
  kit.pick(m, "Play Sacrifice")
  T.ok(not kit.labels(m):find("Farmer", 1, true), "the card under the top is not offered")
  kit.pick(m, "Hunter ($3)")
  T.eq(kit.names(m.g, "discard", 1), "Hunter")
  T.eq(kit.names(m.g, "supply:Actions 3", 0), "Farmer")
end

function tests.test_elder_gives_card_buy_action_and_2(T)
  local m = T.match(match({ "Elder", "Club" }, { "Stone" }))
  kit.pick(m, "Play Elder")
  T.eq(m.g:counter("actions"), 2)
  T.eq(m.g:counter("buys"), 2)
  T.eq(m.g:counter("coins"), 2)
  T.eq(kit.sorted(m.g, "hand", 1), "Club,Stone")
end

function tests.test_sacrifice_gains_up_to_4_and_trashes_itself(T)
  local m = T.match(match({ "Sacrifice" }, { "Bone" }))
  kit.pick(m, "Play Sacrifice")
  T.eq(m.g:counter("actions"), 2)
  T.eq(kit.names(m.g, "hand", 1), "Bone")
  local d = m:decision()
  T.eq(d.kind, "gain")
  local labels = kit.labels(m)
  T.ok(labels:find("Club ($4)", 1, true))
  T.ok(not labels:find("Stone", 1, true), "nothing above 4")
  kit.pick(m, "Club ($4)")
  T.eq(kit.names(m.g, "discard", 1), "Club")
  T.eq(kit.names(m.g, "trash", 0), "Sacrifice")
  T.eq(m.g:count("play", 1), 0)
end

-- ---- the end of the game --------------------------------------------------------------------

function tests.test_game_ends_when_a_player_has_no_health(T)
  local m = T.match(match({ "Spear", "Bone" }, WOODS,
                          function(g) g:set_counter("health", 2, 4) end))
  kit.pick(m, "Play Spear")
  T.eq(health(m, 2), 0)
  T.ok(not m:finished(), "the turn is played out")
  kit.pick(m, "End turn")
  T.ok(m:finished())
  T.eq(kit.scores(m), "20,0")
  T.eq(kit.ranks(m), "1,2")
end

-- Both players have one turn left before the turn limit.
local function last_turns(g)
  local limit = require("caveman.game").turn_limit
  g:set_counter("turns", 1, limit - 1)
  g:set_counter("turns", 2, limit - 1)
end

function tests.test_turn_limit_ends_the_game_most_health_wins(T)
  local m = T.match(match({ "Club" }, WOODS, last_turns))
  kit.pick(m, "Play Club")
  kit.pick(m, "End turn")
  T.ok(not m:finished(), "player 2 still has a turn")
  kit.pick(m, "End turn")
  T.ok(m:finished())
  T.eq(kit.ranks(m), "1,2")
end

function tests.test_tie_at_the_turn_limit_is_shared(T)
  local m = T.match(match({ "Wood" }, WOODS, last_turns))
  kit.pick(m, "End turn")
  kit.pick(m, "End turn")
  T.ok(m:finished())
  T.eq(kit.ranks(m), "1,1")
end

-- ---- bots -------------------------------------------------------------------------------------

function tests.test_bots_end_games_by_health(T)
  kit.bot_games(T, { players = { 2 }, seeds = { 1, 2, 3, 4 }, bots = { "default", "aggro" },
    check = function(m)
      local r = m:results()
      T.ok(r[1].score == 0 or r[2].score == 0, "someone ran out of health")
      T.ok(r[1].rank ~= r[2].rank)
    end })
end

function tests.test_aggro_buys_weapons(T)
  local m = T.match { players = 2, seed = 8, bots = { "aggro", "aggro" } }
  T.ok(m:finished())
  local k = require("caveman.game").kernel
  T.ok(k:owned(m.g, 1, "Club") + k:owned(m.g, 1, "Sling") + k:owned(m.g, 1, "Spear") > 0)
end

function tests.test_same_seed_same_game(T)
  kit.check_replays(T, { players = 2, seed = 77, bots = { "default", "aggro" } })
end

return tests
