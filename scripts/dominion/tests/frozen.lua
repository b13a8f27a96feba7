-- Rules tests: the tables the kernel shares between decisions and matches (its option
-- tables, deckbuilder/memo.lua) are frozen, so a script that writes one fails at once
-- instead of changing what other decisions and matches offer.
local kit = require("deckbuilder.testkit")
local memo = require("deckbuilder.memo")

local function kernel() return require("dominion.game").kernel end

-- A match whose player 1 is in the buy phase with Copper and Silver in hand.
local function buying(T)
  local m = T.match { players = 2, seed = 3, setup = function(g)
    kit.set_hand(g, 1, { "Copper", "Silver", "Estate", "Estate", "Estate" })
  end }
  T.eq(m:decision().kind, "buy")
  return m
end

-- o refuses every write: to a field it has, to a new field, to its metatable.
local function refuses_writes(T, o, what)
  local ok, err = pcall(function() o.label = "Buy everything" end)
  T.ok(not ok, what .. ": writing a field raises")
  T.ok(tostring(err):find("read-only", 1, true), tostring(err))
  T.ok(not pcall(function() o.extra = 1 end), what .. ": adding a field raises")
  T.ok(not pcall(setmetatable, o, nil), what .. ": its metatable is locked")
end

local tests = {}

function tests.test_writing_a_shared_buy_option_raises_an_error(T)
  local m = buying(T)
  local opts = kernel():buy_options(m.g, 1)
  T.eq(opts[1].label, "Play all treasures")
  T.eq(opts[2].label, "Play Copper")
  T.eq(opts[#opts].label, "End turn")
  local copper
  for _, o in ipairs(opts) do
    if o.name == "Copper" then copper = o end
  end
  T.eq(copper.label, "Buy Copper ($0)")
  refuses_writes(T, opts[1], "Play all treasures")
  refuses_writes(T, opts[2], "Play Copper")
  refuses_writes(T, copper, "Buy Copper")
  refuses_writes(T, opts[#opts], "End turn")
  T.eq(copper.label, "Buy Copper ($0)", "the option is unchanged")
  T.eq(kernel():buy_options(m.g, 1)[2], opts[2], "the next decision shares it")
end

function tests.test_writing_a_shared_gain_option_raises_an_error(T)
  local m = buying(T)
  local opts = kernel():gain_options(m.g, 4)
  T.ok(#opts > 0)
  refuses_writes(T, opts[1], "gain option")
  T.ok(not pcall(function() opts[1].cost = 0 end), "the cost cannot be lowered")
end

function tests.test_a_frozen_record_reads_like_the_original(T)
  local t = memo.freeze { label = "Buy Gold ($6)", name = "Gold", cost = 6 }
  T.eq(t.label, "Buy Gold ($6)")
  T.eq(t.name .. t.cost, "Gold6")
  T.eq(t.card, nil)
  T.ok(not pcall(function() t.cost = 0 end), "writing raises")
  T.ok(not pcall(function() t.card = 1 end), "adding a field raises")
  T.eq(t.cost, 6)
  T.eq(getmetatable(t), "frozen", "the metatable is not handed out")
end

return tests
