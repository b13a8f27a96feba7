-- Bot tests: every strategy plays whole games to the end on every pairing of the preset
-- decks; the default bot beats a passive opponent quickly; passive games end by the
-- empty deck before the turn cap (the tests every board game owes are
-- boardkit/suites.lua's).
local M = require("mlw.testkit")

local tests = require("boardkit.suites").bots {
  game = "mlw.game", decks = { "fire", "frost" }, versus = "",
}

local finish = M.finish

function tests.test_passive_bots_end_by_the_empty_deck_before_the_turn_cap(T)
  local m = finish(T, { "passive", "passive" }, nil, 1)
  local r = m:results()
  T.ok(r[1].turns + r[2].turns < require("mlw.game").max_turns)
  T.eq(m.g:count("deck", 1) + m.g:count("deck", 2), 0)
end

function tests.test_passive_bot_never_plays_attacks_or_drains(T)
  local m = finish(T, { "default", "passive" }, nil, 2)
  T.eq(m.g:count("monsters", 2) + m.g:count("trap", 2), 0)
  T.eq(m.g:count("hand", 2) + m.g:count("deck", 2) + m.g:count("grave", 2), 40,
       "every card of P2 still in hand, deck, or lost to a full hand")
end

function tests.test_bots_never_surrender(T)
  for seed = 1, 3 do
    local m = finish(T, { "random", "default" }, nil, seed)
    T.eq(m.g:counter("surrendered", 1) + m.g:counter("surrendered", 2), 0)
  end
end

-- The named turn scores attacks from a view read once per decision (each monster's attack
-- and health on first use); it picks what scoring every option of k:actions picks.
function tests.test_default_bot_named_attack_is_the_one_its_options_scoring_picks(T)
  local k, bots = M.kernel(), require("mlw.game").bots
  local cases = {
    { p1 = { monsters = { "Wolf", "Knight" } }, p2 = { monsters = { "Troll", "Wolf" } } },
    { p1 = { monsters = { "Troll" } }, p2 = { monsters = { "Knight", "Ghost" } } },
    { p1 = { monsters = { "Knight" } }, p2 = {} },
  }
  for i, spec in ipairs(cases) do
    spec.p1.hand, spec.p2.hand = {}, {}
    local m = M.match(T, spec)
    local g = m.g
    local d = { kind = "turn", player = 1, options = k:actions(g, 1) }
    local o = d.options[bots.default(g, 1, d)[1]]
    local named = k.named.default.turn(k, g, 1, k:prepare(g))
    T.eq({ named.act, named.id, named.target }, { o.act, o.id, o.target }, "case " .. i)
    T.eq(named.act, "attack", "case " .. i)
  end
end

-- Lethal on board: Alex (3 attack, may attack the wizard past defenders) and a Wolf
-- against a Goblin it would kill without dying (the usual first pick) and 3 health left
-- on the wizard: the bot goes face and wins this turn.
local LETHAL = { p1 = { hand = {}, monsters = { "Wolf", "Alex" } },
                 p2 = { hand = {}, health = 3, monsters = { "Goblin" } } }

function tests.test_default_bot_takes_lethal_on_board_before_a_trade(T)
  local m = M.match(T, { bots = { "default" }, p1 = LETHAL.p1, p2 = LETHAL.p2 })
  local r = m:results()
  T.ok(r ~= nil, "the match is over")
  T.eq(r[1].rank, 1, "P1 won")
  T.ok(M.monster(m, 2, 1) ~= nil, "the Goblin was not attacked")
end

function tests.test_default_bot_named_lethal_is_the_one_its_options_pick(T)
  local k, bots = M.kernel(), require("mlw.game").bots
  local m = M.match(T, LETHAL)
  local g = m.g
  local d = { kind = "turn", player = 1, options = k:actions(g, 1) }
  local o = d.options[bots.default(g, 1, d)[1]]
  local named = k.named.default.turn(k, g, 1, k:prepare(g))
  T.eq({ named.act, named.id, named.target }, { o.act, o.id, o.target })
  T.eq({ o.act, o.target }, { "attack", k:wizard(g, 2) })
end

return tests
