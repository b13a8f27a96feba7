-- deckbuilder/memo.lua: the kernel's caches, kept out of kernel.lua so that the kernel
-- reads as rules.
--
-- Every buy decision offers the same few dozen labels and options, and building them anew
-- was most of the time of building a decision (docs/BENCHMARKS.md): building each label
-- was a tenth of a sim's time, a new table per option per decision the biggest part. So
-- labels, prompts and option tables are built once and shared between decisions and
-- between the matches of the VM. That is safe only because nobody writes them, so the
-- shared option tables are frozen (memo.freeze): writing to one is an error. Nothing here
-- holds match state: every value is a pure function of its keys.
--
-- The engine makes module state read-only once the bundle is loaded (docs/SCRIPTING.md,
-- "The sandbox"), so every table a memo writes at run time is a cache (memo.cache): a
-- table the engine leaves writable and may empty between any two calls (it does when the
-- VM's memory is tight). A memo therefore finds what it needs again when its cache is
-- empty.

local deck = require("deckhand.deck")

local memo = {}

local CACHE = { __cache = true }

-- A new cache: an empty table the engine leaves writable after load and may empty at
-- any time, so what it holds must be a pure function of its keys.
function memo.cache()
  return setmetatable({}, CACHE)
end

-- Empties the cache t.
function memo.empty(t)
  for k in pairs(t) do t[k] = nil end
end

-- t[k], a new empty table there when there is none (the memos nest them).
local function sub_table(t, k)
  local v = t[k]
  if not v then
    v = {}
    t[k] = v
  end
  return v
end
memo.sub_table = sub_table

local function refuse_write(_, key)
  error("deckbuilder: shared table is read-only (writing field '" .. tostring(key) .. "')", 2)
end

-- A read-only view of the record t: reading a field gives t's, writing any field raises
-- an error. The view is an empty table whose locked metatable reads through to t, which
-- no one else may keep a reference to. Meant for records (options), so # and pairs do
-- not see through it: two closures more per frozen table cost a sim 0.3%. A read costs
-- one metatable step more than on t itself.
-- The engine's deck.freeze makes the same view over a copy of t that only the view holds,
-- and keeps what g:choose reads of an option beside it, so a decision offering the record
-- reads nothing from Lua. An engine before 2026-11-30 has no deck.freeze: api = {} (the
-- tests) stands for it.
function memo.freeze(t, api)
  local c_freeze = (api or deck).freeze
  if c_freeze then return c_freeze(t, refuse_write) end
  return setmetatable({}, { __index = t, __newindex = refuse_write, __metatable = "frozen" })
end

-- fn(a) memoized: a function of one key that computes each value once.
function memo.by1(fn)
  local cache = memo.cache()
  return function(a)
    local v = cache[a]
    if not v then
      v = fn(a)
      cache[a] = v
    end
    return v
  end
end

-- fn(a, b) memoized, like memo.by1.
function memo.by2(fn)
  local cache = memo.cache()
  return function(a, b)
    local by_a = cache[a]
    local v = by_a and by_a[b]
    if not v then
      by_a = sub_table(cache, a)
      v = fn(a, b)
      by_a[b] = v
    end
    return v
  end
end

-- "<prefix><Card> ($<cost>)", per prefix, card and cost: the supply's option labels.
local labels = memo.cache()
local function cost_label(prefix, name, c)
  local by_cost = sub_table(sub_table(labels, prefix), name)
  local label = by_cost[c]
  if not label then
    label = prefix .. name .. " ($" .. c .. ")"
    by_cost[c] = label
  end
  return label
end
memo.cost_label = cost_label

-- One kernel's option memo (kernel.new), a cache: opts[act][label][card] = the option,
-- and supply[prefix][act][name][cost][top] = the supply's options (memo.supply_option).
-- It holds at most OPTS_MAX options and starts again when full (or emptied).
local OPTS_MAX = 4096

local function restart(m)
  m.opts, m.supply, m.n = {}, {}, 0
end

function memo.new()
  local m = memo.cache()
  restart(m)
  return m
end

-- The frozen option { label =, card =, name =, cost =, act = } naming a card (the
-- supply's, the hand's). name and cost are set for the supply's options only.
function memo.card_option(m, act, label, card, name, cost)
  -- the hit without a call: every decision asks again for the options it asked before
  local opts = m.opts
  local by_label = opts and opts[act or ""]
  local by_card = by_label and by_label[label]
  local o = by_card and by_card[card]
  if o then return o end
  if not opts then restart(m) end
  by_card = sub_table(sub_table(m.opts, act or ""), label)
  o = by_card[card]
  if not o then
    o = memo.freeze { label = label, card = card, name = name, cost = cost, act = act }
    if m.n >= OPTS_MAX then
      restart(m)
    else
      by_card[card] = o
      m.n = m.n + 1
    end
  end
  return o
end

-- The supply memo of one prefix and act: [name][cost][top] = the option, so that the
-- kernel's gain_options finds an option with three lookups and no call; on a miss it
-- calls memo.supply_option, which fills it.
function memo.supply(m, prefix, act)
  local supply = m.supply
  local by_prefix = supply and supply[prefix]
  local by_name = by_prefix and by_prefix[act or ""]
  if by_name then return by_name end
  if not supply then restart(m) end
  return sub_table(sub_table(m.supply, prefix), act or "")
end

function memo.supply_option(m, by_name, prefix, act, name, c, top)
  local by_top = sub_table(sub_table(by_name, name), c)
  local o = memo.card_option(m, act, cost_label(prefix, name, c), top, name, c)
  by_top[top] = o
  return o
end

return memo
