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

return tests
