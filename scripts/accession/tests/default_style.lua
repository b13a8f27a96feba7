-- accession/tests/default_style.lua: Accession's default bot keeps its own style of
-- Dominion's shared bot (dominion/bots.lua, STYLES): Smithy ranks over Militia and it buys
-- a Silver, not a Market, at $5, where Dominion's First Game style does the opposite
-- (dominion/tests/default_style.lua).
local bots = require("dominion.bots")
local acc = require("accession.game")

local tests = {}

function tests.test_accession_default_keeps_smithy_first_and_silver_at_5(T)
  local m = T.match { players = 2, setup = function(g) acc.kernel:gain(g, 1, "Smithy") end }
  local k, buy = acc.kernel, bots.named("accession").default.buy
  T.eq(buy(k, m.g, 2, 4, 1), "Smithy", "Accession's style: Smithy ranks over Militia")
  T.eq(buy(k, m.g, 1, 5, 3), "Silver", "Accession's style: no Market at $5")
end

return tests
