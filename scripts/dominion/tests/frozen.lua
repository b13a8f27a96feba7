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

-- memo.freeze makes its record in the engine (deck.freeze) when the engine has it, else in
-- Lua (api = {}: an engine before 2026-11-30); scripts see the same table either way.
function tests.test_a_frozen_record_reads_the_same_made_by_the_engine_or_in_lua(T)
  local fields = { label = "Buy Gold ($6)", name = "Gold", cost = 6, act = "buy" }
  local made = {}
  for _, api in ipairs { false, {} } do
    local src = {}
    for k, v in pairs(fields) do src[k] = v end
    local t = memo.freeze(src, api or nil)
    made[#made + 1] = t
    for k, v in pairs(fields) do T.eq(t[k], v, k) end
    T.eq(t.card, nil)
    T.eq(next(t), nil, "pairs sees no field")
    T.eq(#t, 0)
    T.eq(getmetatable(t), "frozen")
    local ok, err = pcall(function() t.cost = 0 end)
    T.ok(not ok and tostring(err):find("shared table is read-only (writing field 'cost')", 1, true),
      tostring(err))
    refuses_writes(T, t, "record")
  end
  T.ok(made[1] ~= made[2])
end

-- The engine's record is a copy of the table it was made from, which no one else holds,
-- and rawset refuses it: what a decision read from it once is what it reads every time.
function tests.test_a_record_frozen_by_the_engine_keeps_its_fields_when_its_source_changes(T)
  local src = { label = "Buy Gold ($6)", name = "Gold", cost = 6 }
  local t = memo.freeze(src)
  src.cost, src.label = 0, "Buy Gold ($0)"
  T.eq(t.cost, 6)
  T.eq(t.label, "Buy Gold ($6)")
  T.ok(not pcall(rawset, t, "label", "Buy Gold ($0)"), "rawset refuses it")
  T.eq(t.label, "Buy Gold ($6)")
end

-- A person's buy decision offers the kernel's shared records: the engine reads the same
-- labels and cards from them as the options hold.
function tests.test_a_buy_decision_reads_the_labels_and_cards_of_its_shared_records(T)
  local m = buying(T)
  local d = m:decision()
  local opts = kernel():buy_options(m.g, 1)
  T.eq(#d.options, #opts)
  for i, o in ipairs(opts) do
    T.eq(d.options[i].label, o.label, "option " .. i)
    T.eq(d.options[i].card, o.card, "option " .. i)
  end
end

return tests
