-- dominion/tests/default_style.lua: the default bot's style in Dominion (dominion/bots.lua,
-- STYLES): Militia is its first terminal where Smithy is on offer too, it buys a Market,
-- not a Silver, at $5 once it has its terminal; a game with no style is refused clearly.
-- Accession's own style is pinned in accession/tests/default_style.lua (a bundle may
-- carry Dominion without Accession).
local bots = require("dominion.bots")

local tests = {}

local function game() return require("dominion.game") end

-- A two-player First Game match (Militia, Smithy and Market on offer) in which player 1
-- gains the cards gains names at set-up; its kernel and the default bot's named buy.
local function first_game(T, gains)
  local m = T.match { players = 2, setup = function(g)
    local k = game().kernel_of(g)
    for _, name in ipairs(gains) do k:gain(g, 1, name) end
  end }
  return m.g, game().kernel_of(m.g), bots.named("dominion").default.buy
end

function tests.test_default_buys_militia_not_smithy_as_its_first_terminal(T)
  local g, k, buy = first_game(T, {})
  T.ok(k.pile_key.Smithy and k.pile_key.Militia, "both on offer")
  T.eq(buy(k, g, 1, 4, 1), "Militia", "$4, no terminal yet")
  T.eq(buy(k, g, 1, 5, 1), "Militia", "$5, no terminal yet")
end

function tests.test_default_buys_a_market_not_a_silver_at_5_once_it_has_its_terminal(T)
  local g, k, buy = first_game(T, { "Militia" })
  T.eq(buy(k, g, 1, 5, 3), "Market", "$5 with its one terminal")
  T.eq(buy(k, g, 1, 4, 3), "Silver", "$4: no Market")
  T.eq(buy(k, g, 2, 5, 3), "Militia", "the other player has no terminal yet")
end

function tests.test_default_bot_without_a_style_is_refused_clearly(T)
  local ok, err = pcall(bots.named, "caveman")
  T.ok(not ok, "no style for that game")
  T.ok(tostring(err):find("no default bot style for 'caveman'", 1, true), tostring(err))
  ok, err = pcall(bots.make, function() end)
  T.ok(not ok and tostring(err):find("no default bot style for 'nil'", 1, true), tostring(err))
end

return tests
