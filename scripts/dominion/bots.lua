-- dominion/bots.lua: bot strategies, `function(g, p, d)` returning option indices.
--
-- A bot sees what its seat sees: the decision's options (its own hand cards, supply
-- piles), public pile counts, its own zone counts and the public counters; the hidden
-- _own:<Card> counters only repeat what anyone can count from the public log of gains
-- and trashes. Bots answer fast (sims are a benchmark): no tables beyond a few locals,
-- no search. Every strategy ends games: each one buys Provinces at $8, and after
-- STALL_TURNS turns any bot buys the dearest card it can, so piles run out.
--
-- Strategies differ only in what they buy and draft; all share the other decisions
-- (playing actions, discards, trashing, gains, reactions and every card's questions).

local botkit = require("deckbuilder.botkit")
local memo = require("deckbuilder.memo")
local endgame = require("dominion.endgame")
local plan = require("dominion.plan")

local bots = {}

local STALL_TURNS = 60
local PLAY_ALL = require("deckbuilder.kernel").PLAY_ALL

-- The first option whose card is named name, or nil.
local function find_card(g, d, name)
  local opts = d.options
  for i = 1, #opts do
    if opts[i].card and g:name(opts[i].card) == name then return i end
  end
  return nil
end

local function find(d, field, value)
  local opts = d.options
  for i = 1, #opts do
    if opts[i][field] == value then return i end
  end
  return nil
end

-- How much a player wants to keep a card: junk (Victory-only, Curse) 0, Copper 1,
-- anything else its cost + 1.
local function keep_value(def)
  if def.is.Curse or (def.is.Victory and not def.is.Action and not def.is.Treasure) then
    return 0
  end
  return def.cost + 1
end

-- The n options with the lowest keep value (n >= 1), as indices.
local function lowest(k, g, d, n)
  local opts, picked, used = d.options, {}, {}
  for j = 1, n do
    local best, bestv
    for i = 1, #opts do
      if not used[i] then
        local v = keep_value(k.cards[g:name(opts[i].card)])
        if not best or v < bestv then best, bestv = i, v end
      end
    end
    used[best] = true
    picked[j] = best
  end
  return picked
end

local function choose_action(k, g, d)
  local opts, best, bestv = d.options, nil, -1
  for i = 1, #opts do
    local id = opts[i].card
    if id then
      local def = k.cards[g:name(id)]
      local v = def.cost + ((def.actions or 0) > 0 and 100 or 0)
      if v > bestv then best, bestv = i, v end
    end
  end
  return { best or #opts }
end

local function choose_discard(k, g, d)
  if (d.min or 1) > 0 then return lowest(k, g, d, d.min or 1) end
  local t = {}
  for i = 1, #d.options do
    if keep_value(k.cards[g:name(d.options[i].card)]) == 0 then t[#t + 1] = i end
  end
  return t
end

local TRASH_PREFERENCE = {
  Mine = { "Silver", "Copper" },
  Remodel = { "Gold", "Curse", "Estate", "Copper" },
}

local dearest_card = botkit.dearest_card

-- An optional trash (Sentry): Curses and Estates only (up to d.max), as indices.
local function curses_and_estates(g, d)
  local t = {}
  for i = 1, #d.options do
    local name = g:name(d.options[i].card)
    if #t < (d.max or 1) and (name == "Curse" or name == "Estate") then t[#t + 1] = i end
  end
  return t
end

local money = endgame.money

-- Chapel: Curses and Estates, and Coppers while $6 of money would remain.
local function chapel_trash(k, g, p, d)
  local t, spare = {}, money(k, g, p) - 6
  for i = 1, #d.options do
    local name = g:name(d.options[i].card)
    local junk = name == "Curse" or name == "Estate"
    if #t < d.max and (junk or (name == "Copper" and spare > 0)) then
      t[#t + 1] = i
      if not junk then spare = spare - 1 end
    end
  end
  return t
end

local function choose_trash(k, g, p, d)
  local src = d.source
  if src == "Thief" then return { dearest_card(k, g, d) } end
  if src == "Chapel" then return chapel_trash(k, g, p, d) end
  local prefs = TRASH_PREFERENCE[src]
  if prefs then
    for _, name in ipairs(prefs) do
      for i = 1, #d.options do
        if d.options[i].label == name then return { i } end
      end
    end
  end
  if (d.min or 1) == 0 then return curses_and_estates(g, d) end
  return lowest(k, g, d, d.min or 1)
end

-- Thief's gain: everything but Copper.
local function thief_gain(k, g, d)
  local t = {}
  for i = 1, #d.options do
    if k.cards[g:name(d.options[i].card)].cost > 0 then t[#t + 1] = i end
  end
  return t
end

-- Topdeck questions: Harbinger takes back a Silver or better; Artisan puts back an
-- Action it cannot play any more, else its least useful card; Bureaucrat and Sentry's
-- order: the least useful card (Bureaucrat) / the most useful on top (Sentry).
local function choose_topdeck(k, g, d)
  local src = d.source
  if src == "Harbinger" then
    local i = dearest_card(k, g, d)
    if keep_value(k.cards[g:name(d.options[i].card)]) >= 4 then return { i } end
    return {}
  end
  if src == "Sentry" then return { dearest_card(k, g, d) } end
  if src == "Artisan" and g:counter("actions") == 0 then
    for i = 1, #d.options do
      if k.cards[g:name(d.options[i].card)].is.Action then return { i } end
    end
  end
  return lowest(k, g, d, 1)
end

-- Spy: discard junk and Copper from its own deck, anything better from others'.
local function choose_spy(k, g, p, d)
  local good = keep_value(k.cards[g:name(d.options[1].card)]) > 1
  if (d.victim == p) == good then return { 2 } end
  return { 1 }
end

-- Kingdom cards a bot drafts, best first (then the dearest left).
local DRAFT = { "Witch", "Laboratory", "Market", "Festival", "Smithy", "Militia", "Library",
                "Council Room", "Village", "Moat" }

local function choose_draft(k, d, wants)
  for _, list in ipairs({ wants, DRAFT }) do
    for _, name in ipairs(list) do
      local i = find(d, "name", name)
      if i then return { i } end
    end
  end
  return { botkit.dearest_named(k, d, "name") }
end

-- Province first, else the dearest card that is not junk, else the dearest.
local function choose_gain(k, g, d)
  if d.source == "Thief" then return thief_gain(k, g, d) end
  local i = find(d, "name", "Province")
  if i then return { i } end
  local best, bestv, any, anyv = nil, -1, 1, -1
  for j = 1, #d.options do
    local o = d.options[j]
    if o.cost > anyv then any, anyv = j, o.cost end
    if keep_value(k.cards[o.name]) > 0 and o.cost > bestv then best, bestv = j, o.cost end
  end
  return { best or any }
end

-- The dearest card on offer other than Curse (the anti-stall purchase).
local function dearest(d)
  local best, bestv = nil, -1
  for i = 1, #d.options do
    local o = d.options[i]
    if o.act == "buy" and o.name ~= "Curse" and o.cost > bestv then best, bestv = i, o.cost end
  end
  return best
end

-- A buy strategy returns the card names it wants, best first, for the coins it has.
local function buy_with(strategy)
  return function(k, g, p, d)
    if d.options[1] == PLAY_ALL then return { 1 } end
    if g:counter("turns", p) > STALL_TURNS then
      return { dearest(d) or #d.options }
    end
    local wants = strategy(k, g, p, g:counter("coins"))
    for j = 1, #wants do
      local i = find(d, "name", wants[j])
      if i then return { i } end
    end
    return { #d.options }
  end
end

-- Wish lists are only read (buy_with, choose_draft), so the constant ones are shared.
local NONE, PROVINCE, GOLD, SILVER = {}, { "Province" }, { "Gold" }, { "Silver" }

local DUCHY, ESTATE = { "Duchy" }, { "Estate" }

-- Plain Big Money: Province at $8, Gold at $6-7, Silver at $3-5, nothing else ever. Two of
-- them tie a third of their games at 4-4 Provinces; kept as a throughput baseline.
local function big_money_plain(_, _, _, coins)
  if coins >= 8 then return PROVINCE end
  if coins >= 6 then return GOLD end
  if coins >= 3 then return SILVER end
  return NONE
end

-- Big Money as simulators play it (the usual baseline): the plain rules, but as the
-- Provinces run out it greens: Duchy instead of Gold at 4 or fewer Provinces left,
-- instead of Silver at 5 or fewer, Estate instead of Silver at 2 or fewer, and an Estate
-- with $2 at 3 or fewer.
local function big_money(k, g, _, coins)
  local left = g:count(k:pile("Province"), 0)
  if coins >= 8 then return PROVINCE end
  if coins >= 6 then return left <= 4 and DUCHY or GOLD end
  if coins == 5 then return left <= 5 and DUCHY or SILVER end
  if coins >= 3 then return left <= 2 and ESTATE or SILVER end
  if coins == 2 and left <= 3 then return ESTATE end
  return NONE
end

local function big_money_smithy(k, g, p, coins)
  if coins == 4 or coins == 5 then
    local have = k:owned(g, p, "Smithy")
    if have == 0 or (have == 1 and k:owned_count(g, p) >= 16) then
      return { "Smithy", "Silver" }
    end
  end
  return big_money(k, g, p, coins)
end

-- Actions the default player never buys: they need a plan it does not have.
local SKIP = { Chapel = true, Thief = true, ["Throne Room"] = true, Feast = true }

-- Terminal actions worth adding to a money deck, by how much they add (the base set's
-- "Big Money + X" ranking: cursing and drawing first, then attacks and money).
local TERMINAL = { Witch = 10, ["Council Room"] = 8, Library = 8, Smithy = 8, Militia = 7,
  Bandit = 5, Moneylender = 4, Bureaucrat = 3, Mine = 2 }

-- The default bot's style, per game (bots.make, bots.named): the terminals' ranks and
-- the non-terminal Actions it buys over a Silver at $5, best first. Dominion's: Militia
-- ranked over the drawing terminals (but Witch), and a Market at $5. Against Big Money on
-- the First Game kingdom (default,big_money, 20,000 games on each of two seeds) it won
-- 77.0% with Accession's style, 84.1% with Dominion's; against Big Money with Smithy
-- 57.3% and 56.7%; on random kingdoms against Big Money 76.9% and 77.9%
-- (docs/BENCHMARKS.md, issue 28, third round). Accession's: the second round's, until
-- measured in Accession's own games (its mirror against `default`).
local STYLES = {
  dominion = { terminal = setmetatable({ Militia = 9 }, { __index = TERMINAL }),
               cantrips = { "Laboratory", "Market" } },
  accession = { terminal = TERMINAL, cantrips = { "Laboratory" } },
}

-- How many terminals a money deck of n cards carries: one, a second from 16 cards on,
-- a third from 28 (more collide: two in one hand waste one).
local function terminals_wanted(n)
  if n >= 28 then return 3 end
  if n >= 16 then return 2 end
  return 1
end

-- Per kernel (a match's order): its terminal Actions (no +actions), in order, and the
-- rank of each one the default player would buy: a known terminal by TERMINAL, an
-- unknown one costing $5 or more by its cost below them; a cheap unknown one (Woodcutter,
-- Workshop, Moat) has none, not worth a terminal slot. And the dearest rule's ranks:
-- every card but Curse by its cost; and choose_action's: every Action card by its cost,
-- +100 when it gives actions. A cache: the same for every match. The terminals' ranks
-- follow the style (STYLES); a kernel is one game's, so it meets one style, and the
-- callers without one (the action and dearest ranks) take the cached ranks as they are.
local rank_memo = memo.cache()

local function ranks_of(k, style)
  local t = rank_memo[k]
  if t and (not style or t.style == style) then return t end
  if (rank_memo.n or 0) >= 128 then memo.empty(rank_memo) end
  local terminal = style and style.terminal or TERMINAL
  t = { names = {}, rank = {}, dearest = {}, action = {}, style = style }
  for name, def in pairs(k.cards) do -- a map: the visiting order does not matter
    if def.is.Action then t.action[name] = def.cost + ((def.actions or 0) > 0 and 100 or 0) end
  end
  for i = 1, #k.order do
    local name = k.order[i]
    local def = k.cards[name]
    if def.is.Action and (def.actions or 0) == 0 then
      t.names[#t.names + 1] = name
      if not SKIP[name] then
        t.rank[name] = terminal[name] and 100 + terminal[name] or def.cost >= 5 and def.cost or nil
      end
    end
    if name ~= "Curse" then t.dearest[name] = def.cost end
  end
  rank_memo[k], rank_memo.n = t, (rank_memo.n or 0) + 1
  return t
end

-- The terminals p owns (of names) and all the cards p owns.
local function owned_of(k, g, p, names)
  if k.kit then return g:deck_owned(k.kit, p, names) end
  local have = 0
  for i = 1, #names do have = have + k:owned(g, p, names[i]) end
  return have, k:owned_count(g, p)
end

-- Of the piles, in order, that hold a card costing at most coins, the first that rank
-- (name -> value) ranks highest, or nil.
local function best_of(k, g, coins, rank)
  if k.kit then return (g:deck_best(k.kit, coins, rank)) end
  local best, bestv, order = nil, nil, k.order
  for i = 1, #order do
    local name = order[i]
    local v = rank[name]
    if v and (not best or v > bestv) and k.cards[name].cost <= coins
       and g:count(k:pile(name), 0) > 0 then
      best, bestv = name, v
    end
  end
  return best
end

-- The best terminal on offer for coins that p should add now, or nil: the first of the
-- highest rank (ranks_of) among the affordable piles, while p has fewer terminals
-- than terminals_wanted.
local function terminal_to_buy(style, k, g, p, coins)
  local t = ranks_of(k, style)
  local have, cards = owned_of(k, g, p, t.names)
  if have >= terminals_wanted(cards) then return nil end
  return best_of(k, g, coins, t.rank)
end

-- A money player with the kingdom's best terminals (the base set's strongest single-card
-- strategies: Witch, Smithy, Council Room...): Province at $8, Gold at $6-7, a terminal
-- while it has fewer than terminals_wanted, its style's cantrips over Silver at $5;
-- it greens like `big_money` (Duchy over Gold at 4 or fewer Provinces left, over Silver
-- at 5 or fewer, Estate at 2 or fewer); Gold, not a Province, while its deck holds less
-- than PROVINCE_MONEY of money and more than EARLY_PROVINCES are left (an early Province
-- in a thin deck chokes it); and near the end it counts the score
-- (endgame.check: a buy that ends the game only when it wins). With PROVINCE_MONEY and
-- EARLY_PROVINCES as here it won 77.2% against Big Money in each of two 40,000-game runs
-- (two seeds each; Accession's style), without that rule 75.8% and 76.1%; 16 beat 15, 17,
-- 18 and 20 (docs/BENCHMARKS.md, issue 28); in Dominion's style 14-18 were level.
local PROVINCE_MONEY, EARLY_PROVINCES = 16, 6

-- When the default bot greens: Duchy over Gold at duchy_gold or fewer Provinces left, over
-- Silver at duchy_silver, Estate over Silver at estate_silver, an Estate with $2 at
-- estate_two. GREENER and BROWNER shift every threshold by two Provinces either way: the
-- bots `greener` and `browner` (Dominion only) are the default bot but for when they
-- green. As whole strategies they are worse (on random kingdoms `default` beat them 57.2%
-- and 60.4% of 4,000 games, seed 9101); they exist for the search, whose candidates are
-- its bots' answers (game.lua, search_widen = false): near the end they offer it the
-- greener and the browner buy, so the decisions that settle close games are searched,
-- and elsewhere they agree with `default` and cost no play-out.
local GREEN = { duchy_gold = 4, duchy_silver = 5, estate_silver = 2, estate_two = 3 }
local function shifted(by)
  local t = {}
  for key, v in pairs(GREEN) do t[key] = v + by end
  return t
end
local GREENER, BROWNER = shifted(2), shifted(-2)

local function default_wants(style, green, k, g, p, coins)
  local left = g:count(k:pile("Province"), 0)
  if coins >= 8 then
    if left > EARLY_PROVINCES and money(k, g, p) < PROVINCE_MONEY then return GOLD end
    return { "Province", "Gold" }
  end
  if coins >= 6 then
    if left <= green.duchy_gold then return { "Duchy", "Gold" } end
    local t = coins == 6 and terminal_to_buy(style, k, g, p, coins)
    if t and TERMINAL[t] and TERMINAL[t] >= 10 then return { t, "Gold" } end
    return GOLD
  end
  if coins == 5 and left <= green.duchy_silver then return { "Duchy", "Silver" } end
  if coins >= 3 and left <= green.estate_silver then return { "Estate", "Silver" } end
  if coins == 2 and left <= green.estate_two then return ESTATE end
  if coins < 3 then return NONE end
  local t = terminal_to_buy(style, k, g, p, coins)
  if t then return { t, "Silver" } end
  if coins == 5 then
    local cantrips = style.cantrips
    for i = 1, #cantrips do
      local name = cantrips[i]
      if k.pile_key[name] and g:count(k:pile(name), 0) > 0 then return { name, "Silver" } end
    end
  end
  return SILVER
end

-- The default bot's buy in the style of game (STYLES).
local function default_buy(game, green)
  local style = STYLES[game]
  if not style then error("dominion/bots: no default bot style for '" .. tostring(game) .. "'") end
  green = green or GREEN
  return function(k, g, p, coins)
    return endgame.check(k, g, p, coins, default_wants(style, green, k, g, p, coins))
  end
end

-- A strategy's wants checked as `default` checks its own: Gold, not a Province, in a thin
-- deck early (fewer than PROVINCE_MONEY of money, more than EARLY_PROVINCES left), and no
-- buy that ends the game behind (endgame.check). For the search's candidates: unchecked,
-- the other bots offered Provinces that choke a thin deck or end the game lost, and the
-- search took some (docs/BENCHMARKS.md, issue 28, Dominion, fifth round).
local function checked(strategy)
  return function(k, g, p, coins)
    local wants = strategy(k, g, p, coins)
    if wants[1] == "Province" and g:count(k:pile("Province"), 0) > EARLY_PROVINCES
       and money(k, g, p) < PROVINCE_MONEY then
      return GOLD
    end
    return endgame.check(k, g, p, coins, wants)
  end
end

-- The dearest card coins buy (not Curse, not a card that costs nothing), as the generic
-- bot buys (deckbuilder/generic_bot.lua): the search's candidate for the kingdom cards
-- `default` ignores (a Gardens where it buys an Estate...), checked (above).
local function dearest_wants(k, g, _, coins)
  local name = best_of(k, g, coins, ranks_of(k).dearest)
  if not name or k.cards[name].cost == 0 then return NONE end
  return { name }
end

-- Witch: Big Money, plus a Witch at $5-$7 while it owns fewer than two (k's order holds
-- only this match's piles, so pile_key says whether Witch is in the kingdom).
local function witch(k, g, p, coins)
  if coins >= 5 and coins < 8 and k.pile_key.Witch and k:owned(g, p, "Witch") < 2 then
    return { "Witch", "Gold", "Silver" }
  end
  return big_money(k, g, p, coins)
end

-- kernel_of(g) is the match's kernel (game.lua): its order holds only this match's piles.
local function make_bot(kernel_of, strategy, wants)
  local buy = buy_with(strategy)
  return function(g, p, d)
    local kind, k = d.kind, kernel_of(g)
    if kind == "buy" then return buy(k, g, p, d) end
    if kind == "action" or kind == "play" then return choose_action(k, g, d) end
    if kind == "discard" then return choose_discard(k, g, d) end
    if kind == "trash" then return choose_trash(k, g, p, d) end
    if kind == "gain" then return choose_gain(k, g, d) end
    if kind == "topdeck" then return choose_topdeck(k, g, d) end
    if kind == "spy" then return choose_spy(k, g, p, d) end
    if kind == "set_aside" then return { g:counter("actions") == 0 and 1 or 2 } end
    if kind == "draft" then return choose_draft(k, d, wants) end
    if kind == "reveal" or kind == "yesno" then return { 1 } end
    return botkit.least(d)
  end
end

-- ---- named forms (deckbuilder/kernel.lua, cfg.bots) ----------------------------------
-- The same choices as the option bots above, made from the match's state and the card
-- data: what the kernel asks a bot seat when it builds no options.

-- choose_action's rule over the Action kinds in hand (names, g:deck_actions): the one
-- with the highest cost, +100 when it gives actions; the first such kind on a tie.
local function named_action(k, _, _, names)
  local best, bestv, value = nil, -1, ranks_of(k).action
  for i = 1, #names do
    local v = value[names[i]]
    if v > bestv then best, bestv = names[i], v end
  end
  return best
end

-- For a game's own action rule that starts from the shared one (accession/bots.lua).
bots.named_action = named_action

-- dearest's rule over what coins buy: the first dearest card other than Curse, or nil.
local function named_dearest(k, g, coins)
  return best_of(k, g, coins, ranks_of(k).dearest)
end

-- buy_with's rule: the first card of the strategy's wish list that coins buy (nil: end
-- the turn), or past STALL_TURNS the dearest.
local function named_buy(strategy)
  return function(k, g, p, coins, turns)
    if turns > STALL_TURNS then return named_dearest(k, g, coins) end
    return g:deck_pick(k.kit, coins, strategy(k, g, p, coins))
  end
end

-- The strategies that are only a wish list per coin amount, as plans (docs/SCRIPTING.md,
-- "Bots"): the kit plays such a bot's turn in C. Each says what its function above
-- says, rule for rule, and the anti-stall rule (named_dearest) is the plan's stall.
local STALL = { after = STALL_TURNS, never = { "Curse" } }

local PLANS = {
  big_money_plain = { stall = STALL, buys = {
    { coins = 8, "Province" },
    { coins = 6, "Gold" },
    { coins = 3, "Silver" },
  } },
  big_money = { stall = STALL, buys = {
    { coins = 8, "Province" },
    { coins = 6, pile_at_most = { "Province", 4 }, "Duchy" },
    { coins = 6, "Gold" },
    { coins = 5, max = 5, pile_at_most = { "Province", 5 }, "Duchy" },
    { coins = 3, pile_at_most = { "Province", 2 }, "Estate" },
    { coins = 3, "Silver" },
    { coins = 2, max = 2, pile_at_most = { "Province", 3 }, "Estate" },
  } },
}

-- Dominion's bots for its search alone (game.lua, search_bots): the answers a search
-- compares with `default`'s. `greener` and `browner` (GREENER above), the dearest card
-- (dearest_wants) and the four Big Money bots, each checked as `default` checks its own
-- buys (checked): `generic` and the Big Money bots unchecked offered Provinces that lost
-- (docs/BENCHMARKS.md, issue 28, Dominion on random kingdoms, fifth round).
bots.SEARCH = { "greener", "browner", "dearest", "checked_big_money", "checked_big_money_plain",
                "checked_big_money_smithy", "checked_witch" }

-- With them `plan` (plan.lua), the search's play-out bot (game.lua, search_playout).
local function search_strategies(game)
  return { plan = plan.strategy(),
           greener = default_buy(game, GREENER), browner = default_buy(game, BROWNER),
           dearest = checked(dearest_wants), checked_big_money = checked(big_money),
           checked_big_money_plain = checked(big_money_plain),
           checked_big_money_smithy = checked(big_money_smithy), checked_witch = checked(witch) }
end

-- Bot name -> named forms, for the kernels' cfg.bots; game: "dominion" or "accession"
-- (the default bot's style, STYLES).
function bots.named(game)
  local t = {}
  local strategies = { default = default_buy(game), big_money = big_money,
                       big_money_plain = big_money_plain,
                       big_money_smithy = big_money_smithy, witch = witch }
  if game == "dominion" then
    for name, strategy in pairs(search_strategies(game)) do strategies[name] = strategy end
  end
  for name, strategy in pairs(strategies) do
    t[name] = { action = named_action, buy = named_buy(strategy), plan = PLANS[name] }
  end
  return t
end

-- A game's own bot on these bots' shared answers, from a buy strategy
-- (k, g, p, coins) -> card names best first (Accession's, accession/bots.lua): its option
-- form, for a kernel source as bots.make takes, and its named form (bots.named). action,
-- optional: its own action play, a named form (k, g, p, names) -> one of names (the
-- Action kinds in hand) or nil to play none; without it the shared rule (choose_action).
function bots.custom(source, strategy, action)
  local kernel_of = source
  if type(source) ~= "function" then kernel_of = function() return source end end
  local bot = make_bot(kernel_of, strategy, NONE)
  if not action then return bot, { action = named_action, buy = named_buy(strategy) } end
  local function labelled(g, p, d)
    if d.kind ~= "action" then return bot(g, p, d) end
    local opts, names = d.options, {}
    for i = 1, #opts do
      if opts[i].card then names[#names + 1] = g:name(opts[i].card) end
    end
    local name = action(kernel_of(g), g, p, names)
    return { name and find_card(g, d, name) or #opts }
  end
  return labelled, { action = action, buy = named_buy(strategy) }
end

-- source: the game's kernel (Accession), or a function g -> the match's kernel (Dominion);
-- game: "dominion" or "accession" (the default bot's style, STYLES).
function bots.make(source, game)
  local kernel_of = source
  if type(source) ~= "function" then kernel_of = function() return source end end
  local t = {
    default = make_bot(kernel_of, default_buy(game), NONE),
    big_money = make_bot(kernel_of, big_money, NONE),
    big_money_plain = make_bot(kernel_of, big_money_plain, NONE),
    big_money_smithy = make_bot(kernel_of, big_money_smithy, { "Smithy" }),
    witch = make_bot(kernel_of, witch, { "Witch" }),
  }
  if game == "dominion" then -- the search's other answers (bots.SEARCH)
    for name, strategy in pairs(search_strategies(game)) do
      t[name] = make_bot(kernel_of, strategy, NONE)
    end
  end
  return t
end

return bots
