-- boardkit/suites.lua: the rules tests every board game on the kit owes, written once and
-- run by each game with its own parameters: what each seat may see (hidden information),
-- its bots finishing games, its evaluation hint, its preset decks and full hand.
--
-- A game's test file returns a suite, with its own tests added:
--   local tests = suites.views { kit = E, setup = ..., ... }   -- elemental/tests/views.lua
--   function tests.test_a_played_card_goes_to_a_public_graveyard(T) ... end
--   return tests
-- `kit` is the game's test kit (boardkit/testkit.lua and what the game adds: match).

local bk = require("boardkit.testkit")
local choose = require("boardkit.choose")

local suites = {}

-- What each seat sees. spec: kit; setup(T) -> a match where player 1 holds two cards
-- (the first spec.hand_first) and draws spec.drawn next, and player 2 holds one;
-- pieces = { { zone, owner seat, name }, ... } on the table; piece(m) -> a piece whose
-- public stats are stats = { { NAME, value }, ... }; public = { { counter, owner seat, value } }
-- and bodies = { { zone, owner seat, name } } as seat 2 sees them; drawn_unseen: what
-- seat 2 must not see once player 1 drew; faces = { { card, field, value } } in the
-- catalog (a `types` value is the first type).
function suites.views(spec)
  local tests, kit = {}, spec.kit
  local zone, counter = bk.zone, bk.counter

  function tests.test_each_seat_sees_its_own_hand_and_only_the_count_of_the_other(T)
    local m = spec.setup(T)
    local mine, theirs = zone(m:view(1), "hand", 0), zone(m:view(1), "hand", 1)
    T.eq(#mine.cards, 2)
    T.eq(mine.cards[1].name, spec.hand_first)
    T.eq(theirs.count, 1)
    T.eq(#(theirs.cards or {}), 0, "never the opponent's hand")
  end

  function tests.test_no_seat_sees_any_deck_order(T)
    local m = spec.setup(T)
    for seat = 1, 2 do
      for owner = 0, 1 do
        local d = zone(m:view(seat), "deck", owner)
        T.eq(d.count, m.g:count("deck", owner + 1))
        T.eq(#(d.cards or {}), 0)
      end
    end
  end

  function tests.test_both_sides_pieces_are_public_zones_of_their_owner(T)
    local m = spec.setup(T)
    for seat = 1, 2 do
      local v = m:view(seat)
      for _, z in ipairs(spec.pieces) do T.eq(zone(v, z[1], z[2]).cards[1].name, z[3], z[1]) end
    end
  end

  function tests.test_piece_stats_and_statuses_are_public_counters_by_entity(T)
    local m = spec.setup(T)
    local id = spec.piece(m)
    for seat = 1, 2 do
      local v = m:view(seat)
      for _, s in ipairs(spec.stats) do T.eq(counter(v, s[1] .. ":" .. id, -1), s[2], s[1]) end
    end
  end

  function tests.test_each_players_counters_and_body_are_public(T)
    local m = spec.setup(T)
    local v = m:view(2)
    for _, c in ipairs(spec.public) do T.eq(counter(v, c[1], c[2]), c[3], c[1]) end
    for _, z in ipairs(spec.bodies) do T.eq(zone(v, z[1], z[2]).cards[1].name, z[3], z[1]) end
  end

  function tests.test_a_card_drawn_is_named_to_its_owner_only(T)
    local m = spec.setup(T)
    kit.end_turn(m)
    kit.end_turn(m)
    T.ok(kit.saw(m, 1, "You draw " .. spec.drawn))
    T.ok(not kit.saw_part(m, 2, spec.drawn_unseen))
  end

  function tests.test_the_catalog_shows_each_cards_printed_face(T)
    local cards = require(spec.game).cards
    for _, f in ipairs(spec.faces) do
      local v = cards[f[1]][f[2]]
      T.eq(f[2] == "types" and v[1] or v, f[3], f[1])
    end
  end

  return tests
end

-- Bots play whole games. spec: game (module name); decks (the preset names);
-- versus (options added to deck_1 for the games against a passive bot, "" for none).
function suites.bots(spec)
  local tests, finish = {}, bk.finish

  function tests.test_default_bots_finish_every_pairing_of_preset_decks(T)
    for i, a in ipairs(spec.decks) do
      for j, b in ipairs(spec.decks) do
        finish(T, { "default", "default" }, "deck_1=" .. a .. ";deck_2=" .. b, i * 3 + j)
      end
    end
  end

  function tests.test_default_bot_beats_a_passive_opponent_by_its_turn_8(T)
    for seed = 1, 6 do
      local deck = spec.decks[(seed - 1) % #spec.decks + 1]
      local m = finish(T, { "default", "passive" }, "deck_1=" .. deck .. spec.versus, seed)
      local r = m:results()
      T.eq(r[1].rank, 1, "seed " .. seed)
      T.ok(r[1].turns <= 8, deck .. " won by turn " .. r[1].turns)
    end
  end

  function tests.test_random_bots_finish_their_games(T)
    for seed = 1, 3 do finish(T, { "random", "random" }, nil, seed) end
  end

  -- The end screen shows each player's score (the health left): a winner never shows
  -- less than a loser (issue 29: "the loser with the higher score").
  function tests.test_a_winner_never_scores_less_than_a_loser(T)
    for _, bot in ipairs { "default", "random" } do
      for seed = 1, 8 do
        local r = finish(T, { bot, bot }, nil, seed):results()
        for p = 1, 2 do
          local q = 3 - p
          if r[p].rank < r[q].rank then
            T.ok(r[p].score >= r[q].score, bot .. " seed " .. seed .. ": winner "
              .. r[p].score .. ", loser " .. r[q].score)
          end
        end
      end
    end
  end

  function tests.test_game_declares_a_turn_cap_its_bot_games_stay_far_below(T)
    local cap = require(spec.game).max_turns
    T.ok(math.type(cap) == "integer" and cap < 2000, "a turn cap of its own")
    for _, bot in ipairs { "default", "random" } do
      for seed = 1, 3 do
        local r = finish(T, { bot, bot }, nil, seed):results()
        T.ok((r[1].turns + r[2].turns) * 2 <= cap, bot .. ": " .. (r[1].turns + r[2].turns))
      end
    end
  end

  -- Bots name their choice (boardkit/choose.lua): at every `turn` decision of a game the
  -- option bot plays for both (person) seats, the named form takes the very action the
  -- option bot picks from the labelled options, and the kernel's check allows it.
  function tests.test_named_default_turn_is_the_option_bots_pick_at_every_decision(T)
    local game = require(spec.game)
    local k, bot = game.kernel, game.bots.default
    local m = T.match { players = 2, seed = 4 }
    local g, compared = m.g, 0
    for _ = 1, 300 do
      local d = m:decision()
      if not d then break end
      local pick = { 1 }
      if d.kind == "mulligan" then pick = {} end
      if d.kind == "turn" then
        local p = d.player
        local pre = k.prepare and k:prepare(g, p)
        local opts = k:actions(g, p)
        T.eq(#opts, #d.options, "the person's options are the kernel's")
        pick = bot(g, p, { kind = "turn", player = p, options = opts })
        local o, want = k.named.default.turn(k, g, p, pre), opts[pick[1]]
        for _, f in ipairs { "act", "id", "target", "r", "c", "res" } do T.eq(o[f], want[f], f) end
        T.ok(k:allows(g, p, o, pre), "the kernel's check allows it")
        compared = compared + 1
      end
      local ids = {}
      for i, j in ipairs(pick) do ids[i] = d.options[j].id end
      assert(m:answer(d.player, ids))
    end
    T.ok(compared >= 20, compared .. " decisions compared")
  end

  -- A seat of a person next to a bot seat still gets the whole labelled `turn` decision.
  function tests.test_a_person_next_to_a_named_bot_still_gets_every_labelled_option(T)
    local k = require(spec.game).kernel
    local m = T.match { players = 2, seed = 2, bots = { "default" } }
    local d = assert(m:decision())
    if d.kind == "mulligan" then -- Elemental's opening hand first
      assert(m:answer(2, {}))
      d = assert(m:decision())
    end
    T.eq(d.player, 2, "the bot played its turn by name")
    T.eq(d.kind, "turn")
    T.eq(#d.options, #k:actions(m.g, 2), "every action is offered")
    local ends = false
    for _, o in ipairs(d.options) do
      T.ok(type(o.label) == "string" and #o.label > 0, "a label")
      ends = ends or o.label == "End turn"
    end
    T.ok(ends, "End turn is offered")
  end

  -- A named bot's answer the rules do not allow is a script error naming the bot.
  function tests.test_a_named_bots_wrong_action_or_target_is_refused_with_a_clear_error(T)
    local k = require(spec.game).kernel
    local m = T.match { players = 2, seed = 2, bots = { "default" } }
    local real = m.g
    -- the same match, but seat 2 answered by a named bot whose answers are wrong
    local g = setmetatable({ bot = function() return "default" end }, { __index = function(_, f)
      return function(_, ...) return real[f](real, ...) end
    end })
    local wrong = setmetatable({ named = { default = {
      turn = function() return { act = "attack", id = real:top(k.BODY, 1), target = 1 } end,
      target = function() return -1 end,
    } } }, { __index = k })
    local ok, err = pcall(choose.turn, wrong, g, "turn")
    T.ok(not ok and err:find("boardkit: bot default of player %d named the action attack, "
                             .. "which the rules do not allow"), tostring(err))
    wrong.named.default.turn = function() return { act = "attack", id = 1000000, target = 1 } end
    ok, err = pcall(choose.turn, wrong, g, "turn")
    T.ok(not ok and err:find("named the action attack (", 1, true)
         and err:find("no entity", 1, true), "an id that is no entity: " .. tostring(err))
    ok, err = pcall(choose.target, wrong, g, 2, { real:top(k.BODY, 1) }, "Target?", "X")
    T.ok(not ok and err:find("named target -1, which the rules do not allow", 1, true),
         tostring(err))
  end

  function tests.test_same_seed_same_game(T)
    local a = T.match { players = 2, seed = 9, bots = { "default", "default" } }
    local b = T.match { players = 2, seed = 9, bots = { "default", "default" } }
    T.eq(a:hash(), b:hash())
  end

  return tests
end

-- The evaluation hint (game.evaluate, for the search bot): each player gets a value in
-- 0..1, the two sum to 1. spec: kit; game; even (a match spec of even sides); health and
-- board = { match spec, the seat ahead, what it is ahead by, above = the least value
-- the hint must give it (default 0.6) }.
function suites.evaluate(spec)
  local tests, kit = {}, spec.kit

  local function values(T, setup)
    local v = require(spec.game).evaluate(kit.match(T, setup).g)
    T.eq(#v, 2)
    for p = 1, 2 do T.ok(v[p] >= 0 and v[p] <= 1, "value " .. v[p]) end
    T.ok(math.abs(v[1] + v[2] - 1) < 1e-9, "the values sum to 1")
    return v
  end

  local function favours(T, ahead)
    local v = values(T, ahead[1])
    T.ok(v[ahead[2]] > (ahead.above or 0.6), ahead[3] .. ": " .. v[ahead[2]])
  end

  function tests.test_evaluate_gives_even_sides_even_values(T)
    local v = values(T, spec.even)
    T.ok(math.abs(v[1] - 0.5) < 1e-9, "even: " .. v[1])
  end

  function tests.test_evaluate_favours_the_player_with_more_health(T) favours(T, spec.health) end

  function tests.test_evaluate_favours_the_side_with_more_on_the_board(T) favours(T, spec.board) end

  return tests
end

-- Rules the kit gives every board game. spec: kit; game (module name); decks (the preset
-- names: 40 cards each, 1 to 3 copies of a card); a hand of 10 `filler` cards, then
-- `drawn` drawn into it goes to the zone `lost`.
function suites.rules(spec)
  local tests, kit = {}, spec.kit

  function tests.test_preset_decks_have_40_cards_and_at_most_3_copies(T)
    local game = require(spec.game)
    for _, name in ipairs(spec.decks) do
      local n = 0
      for _, entry in ipairs(game.decks[name]) do
        T.ok(game.cards[entry[1]], entry[1] .. " is a card")
        T.ok(entry[2] >= 1 and entry[2] <= 3, entry[1] .. ": 1 to 3 copies")
        n = n + entry[2]
      end
      T.eq(n, 40, name)
    end
  end

  function tests.test_a_card_drawn_into_a_full_hand_is_lost_and_shown_to_both(T)
    local hand = {}
    for i = 1, 10 do hand[i] = spec.filler end
    local m = kit.match(T, { p2 = { hand = hand, deck = { spec.drawn } } })
    kit.end_turn(m)
    T.eq(m.g:count("hand", 2), 10)
    T.eq(kit.names(m.g, spec.lost, 2), spec.drawn)
    for seat = 1, 2 do T.ok(kit.saw(m, seat, "P2's hand is full: " .. spec.drawn .. " is lost")) end
  end

  return tests
end

return suites
