-- deckbuilder/kernel.lua: the rules every deck-builder shares (GAMES.md 1.1).
--
-- A game builds one kernel from its card data (`kernel.new{cards=, order=, ...}`) and
-- calls it from its game functions. The kernel knows zones, drawing, supply piles,
-- the action -> buy -> clean-up turn, playing cards with their data keywords
-- (+cards/+actions/+buys/+coins), gaining, trashing, attacks with reactions, the end
-- of game and the scoring. Nothing Dominion-specific lives here: Accession, Caveman and
-- Ascension reuse it with other data.
--
-- State: a kernel object holds data derived from its cards (names of zones and counters,
-- type sets, the rule hooks of its cards) and its memo of option tables (memo.lua), the
-- same for every match it serves. Every fact about a match lives in `g` (zones,
-- counters), because only that is snapshot, replayed and shown in views:
--   zones    deck/hand/discard/play/aside per player; trash and supply:<Card> (owner 0);
--            box (owner 0) holds cards taken out of the game (unused, test stacking)
--   counters active (whose turn), actions, buys, coins (owner 0, the current turn);
--            turns (per player); _pile:<Card> = 1 for each supply pile of this match;
--            _own:<Card> per player (cards owned, as anyone could count from the log);
--            _bought (owner 0: a buy happened this turn); _unaffected (per player,
--            during one attack)
-- Determinism: arrays only, iterated in order; randomness only from g:shuffle/g:random.
--
-- The deck kit: the turn's mechanics (draw, reshuffle, clean-up, treasures, buying, the
-- end check) run in C over the kernel's own card data (require("deckhand.deck").kit,
-- docs/SCRIPTING.md), each kit method doing what the Lua below it does, so the Lua stays
-- the reference: `kernel.new{..., kit = false}` runs it, and so does a kernel whose game
-- replaces one of the methods the kit stands in for (kernel.__newindex).
--
-- Bots name their choice: cfg.bots maps a bot's name to the named forms of its
-- decisions, { action = fn(k, g, p, names) -> one of names (the Action kinds in hand) or
-- nil, buy = fn(k, g, p, coins, turns) -> card name or nil (coins: what is left; turns:
-- p's turns counter), plan = the same buys as data (optional, docs/SCRIPTING.md) }. A bot
-- with a plan plays its whole turn in one kit call (g:deck_bot_turn) whenever nothing in
-- it needs Lua. When g:bot(p) names such a bot, the turn asks it for names
-- instead of building the options (kernel:turn); the kit checks each name by the rule
-- that lists the options and raises on one that is not allowed. People and the search
-- tree get the labelled options as before.

local memo = require("deckbuilder.memo")
local deck = require("deckhand.deck")

local kernel = {}
kernel.__index = kernel

-- What the kit stands in for: a kernel whose game assigns one of these after kernel.new
-- (a method of its own, other data) keeps the Lua path for everything.
local KIT_REPLACES = { draw = true, reshuffle = true, cost = true, pile = true, gain = true,
  take = true, resolve = true, play = true, hand_size = true, turn_stats = true,
  order = true, cards = true }

-- What a bot's turn in C (g:deck_bot_turn) stands in for: a kernel whose game replaces one
-- of these plays every turn in Lua.
local TURN_REPLACES = { start_turn = true, action_phase = true, buy_phase = true,
  cleanup_phase = true, cleanup = true, play_treasures = true, buy = true }

function kernel.__newindex(k, key, value)
  if KIT_REPLACES[key] then rawset(k, "kit", false) end
  if TURN_REPLACES[key] then rawset(k, "bot_turn", false) end
  -- a game's own score: the kit's results (results_spec) would not call it
  if key == "score" then rawset(k, "results_spec", false) end
  rawset(k, key, value)
end

-- Zone visibilities for the game table (merged with a game's own zones if any).
kernel.zones = {
  deck = "hidden", hand = "owner", discard = "top", play = "public", aside = "public",
  trash = "public", supply = "top", box = "hidden",
}

local OWN_ZONES = { "deck", "hand", "discard", "play", "aside" }
-- The zones whose cards a player owns: its deck on the end screen (game.deck_zones).
kernel.own_zones = OWN_ZONES

-- kernel.new's few_piles: at most this many piles, for costs up to FEW_COST_MAX.
local FEW_PILES, FEW_COST_MAX = 5, 20

-- cfg.cards: name -> card definition ({cost=, types={...}, text=, coins=, cards=,
--            actions=, buys=, vp=, score=function, on_play=function, react=function})
-- cfg.order: every card name, in supply display order (base cards first)
-- cfg.hand_size: cards drawn at clean-up (default 5)
-- cfg.turn_stats: per-turn counters reset at turn start (default actions 1, buys 1)
-- cfg.phases: the turn's phase list (default {"action", "buy", "cleanup"})
-- cfg.pile_of: optional, card name -> pile name for piles that hold several cards
--            (shuffled pools: only the top card of such a pile can be bought or gained)
-- cfg.bots: optional, bot name -> its named forms ({ action =, buy = }, see above)
-- cfg.kit: false runs the turn in Lua only (the reference the kit is tested against)
-- Rule hooks: a card of cfg.order may carry on_turn_start(g, k, p) (run at the start of
-- every turn, before the turn's counters are set) and after_play = { [name] = fn }
-- (fn(g, k, p, id) runs after a card of that name resolves); a kernel runs the hooks of
-- its own order's cards, in that order, so a rule applies only where its card is in the
-- supply (Dominion's Merchant).
function kernel.new(cfg)
  local k = setmetatable({}, kernel)
  k.cards = cfg.cards
  k.order = cfg.order
  k.hand_size = cfg.hand_size or 5
  k.turn_stats = cfg.turn_stats or { actions = 1, buys = 1 }
  k.phases = cfg.phases or { "action", "buy", "cleanup" }
  -- Constant strings built once: zone and counter names are hot in every decision.
  k.pile_zone, k.pile_key = {}, {}
  -- mixed[name]: the card shares its pile; pile_first[name]: it names that pile in counts
  k.mixed, k.pile_first = {}, {}
  k.first_piles = {} -- each pile once, in order: { zone =, key = } (empty_piles)
  k.first_zones = {} -- their zone names, for g:count_empty
  local pile_of, seen = cfg.pile_of or {}, {}
  for _, name in ipairs(k.order) do
    local def = k.cards[name]
    assert(def, "kernel: no card data for " .. name)
    if not def.is then -- set once, at load (card data is read-only after it)
      def.is = {}
      for _, t in ipairs(def.types) do def.is[t] = true end
    end
    k.pile_zone[name] = "supply:" .. (pile_of[name] or name)
    k.pile_key[name] = "_pile:" .. name
    k.mixed[name] = pile_of[name] ~= nil
    k.pile_first[name] = not seen[k.pile_zone[name]]
    if k.pile_first[name] then
      k.first_piles[#k.first_piles + 1] = { zone = k.pile_zone[name], key = k.pile_key[name] }
      k.first_zones[#k.first_zones + 1] = k.pile_zone[name]
    end
    seen[k.pile_zone[name]] = true
  end
  -- few_piles[c]: the names of order costing c or less, while they are FEW_PILES or fewer
  -- and no pile is shared (pile_of): gain_options asks for their tops one at a time rather
  -- than for g:deck_supply's three arrays (a turn's first buy decision, at $0: Copper and
  -- Curse).
  k.few_piles = {}
  if not cfg.pile_of then
    for c = 0, FEW_COST_MAX do
      local names = {}
      for _, name in ipairs(k.order) do
        local cost = k.cards[name].cost
        if type(cost) ~= "number" then names = nil break end
        if cost <= c then names[#names + 1] = name end
      end
      if not names or #names > FEW_PILES then break end
      k.few_piles[c] = names
    end
  end
  -- of_type[ty]: the set of card names of type ty (g:list's filter), over every card so
  -- that a card outside this kernel's order still counts; play_label[name]: "Play <Card>";
  -- own_key[name]: "_own:<Card>"; phase_fn: each phase's method name. All constant,
  -- built once instead of per decision.
  k.of_type, k.play_label, k.own_key = {}, {}, {}
  k.memo = memo.new() -- the decisions' option tables
  -- Where g:deck_supply_in writes the piles a gain lists (gain_options): three caches
  -- filled anew by every call, so a buy decision makes no three new arrays.
  k.supply_scratch = { memo.cache(), memo.cache(), memo.cache() }
  for name, def in pairs(k.cards) do -- sets and maps: the visiting order does not matter
    for _, t in ipairs(def.types) do
      k.of_type[t] = k.of_type[t] or {}
      k.of_type[t][name] = true
    end
    k.play_label[name] = "Play " .. name
    k.own_key[name] = "_own:" .. name
  end
  -- turn_start_hooks: the on_turn_start hooks; after_play[name]: the hooks run after a
  -- card of that name resolves.
  k.turn_start_hooks, k.after_play = {}, {}
  for _, name in ipairs(k.order) do
    local def = k.cards[name]
    if def.on_turn_start then k.turn_start_hooks[#k.turn_start_hooks + 1] = def.on_turn_start end
    for played, hook in pairs(def.after_play or {}) do -- one hook per card name
      local hooks = memo.sub_table(k.after_play, played)
      hooks[#hooks + 1] = hook
    end
  end
  -- plain_coins[name]: the coins of a treasure that does nothing else (play_treasures)
  k.plain_coins = {}
  for name, def in pairs(k.cards) do
    if def.coins and not (def.cards or def.actions or def.buys or def.on_play
                          or k.after_play[name]) then
      k.plain_coins[name] = def.coins
    end
  end
  k.phase_fn = {}
  for i, phase in ipairs(k.phases) do k.phase_fn[i] = phase .. "_phase" end
  -- data_kw[name]: the card has a data keyword the kit resolves (resolve_def)
  k.data_kw = {}
  for name, def in pairs(k.cards) do
    k.data_kw[name] = (def.cards or def.actions or def.buys or def.coins) and true or false
  end
  -- bots: cfg.bots copied, entries too: a kernel made at run time (Dominion's, per
  -- kingdom) then reads them raw, not through the frozen module tables' proxies.
  -- plans: the bots whose whole turn the kit plays, when the turn is the default one
  local plans
  local default_turn = #k.turn_start_hooks == 0 and #k.phases == 3 and k.phases[1] == "action"
    and k.phases[2] == "buy" and k.phases[3] == "cleanup"
  if cfg.bots then
    k.bots = {}
    for name, forms in pairs(cfg.bots) do
      k.bots[name] = { action = forms.action, buy = forms.buy }
      if forms.plan and default_turn then
        plans = plans or {}
        plans[name] = forms.plan
      end
    end
  end
  -- how the kit scores (g:deck_results): the kit adds up the vp, a score function
  -- (Gardens) is the card's own, called from C as it would be from kernel:score
  k.results_spec = { card_score = function(g, p, name) return k.cards[name].score(g, k, p) end }
  k.kit = cfg.kit ~= false and deck.kit { cards = k.cards, order = k.order,
    pile_of = cfg.pile_of, after_play = k.after_play, hand_size = k.hand_size,
    turn_stats = k.turn_stats, plans = plans }
  k.bot_turn = plans ~= nil
  return k
end

-- ---- card data --------------------------------------------------------------------

function kernel:is(g, id, ty) return self.cards[g:name(id)].is[ty] == true end

-- Current cost of a card by name (a game may override for dynamic costs).
function kernel:cost(_, name) return self.cards[name].cost end

function kernel:pile(name) return self.pile_zone[name] or ("supply:" .. name) end

-- ---- small helpers ----------------------------------------------------------------

-- The options without a card: constant, frozen and shared like memo.card_option's.
local PLAY_ALL = memo.freeze { label = "Play all treasures", act = "all" }
local END_TURN = memo.freeze { label = "End turn", act = "end" }
local END_ACTIONS = memo.freeze { label = "End actions", verb = "end" }
local supply_option = memo.supply_option
-- Bots may compare a decision's options with these (o == kernel.PLAY_ALL): reading a
-- frozen option's field costs a metatable step, comparing it costs nothing.
kernel.PLAY_ALL, kernel.END_TURN, kernel.END_ACTIONS = PLAY_ALL, END_TURN, END_ACTIONS

-- Every helper is a method, called k:helper(g, ...); one that needs no kernel data names
-- its self `_`.

-- "Copper, Silver, ...": the names of ids, for log lines.
function kernel.join_names(_, g, ids)
  local t = {}
  for i = 1, #ids do t[i] = g:name(ids[i]) end
  return table.concat(t, ", ")
end

-- The players other than p, in turn order starting at p's left.
function kernel.others(_, g, p)
  local n, t = g:nplayers(), {}
  for i = 1, n - 1 do t[i] = (p - 1 + i) % n + 1 end
  return t
end

-- Ids in p's hand whose card has type ty.
function kernel:hand_of_type(g, p, ty)
  return g:list("hand", p, self.of_type[ty] or {})
end

-- self:distinct(g, self:hand_of_type(g, p, ty)) in one g call: one id per card name of type
-- ty in p's hand, first from the bottom, and their names.
function kernel:hand_kinds(g, p, ty)
  return g:list("hand", p, self.of_type[ty] or {}, "distinct")
end

-- One id per distinct card name among ids, first occurrence first; and their names.
function kernel.distinct(_, g, ids)
  local t, names, seen = {}, {}, {}
  for i = 1, #ids do
    local id = ids[i]
    local n = g:name(id)
    if not seen[n] then
      seen[n] = true
      t[#t + 1] = id
      names[#names + 1] = n
    end
  end
  return t, names
end

-- ---- decisions ----------------------------------------------------------------------

-- Ask p to choose among card ids (labels are the card names). Returns the chosen ids.
-- spec: prompt, kind, min, max (defaults 1), plus any fields bots may read (source=).
function kernel.choose_cards(_, g, p, ids, spec)
  local opts = {}
  for i = 1, #ids do opts[i] = { label = g:name(ids[i]), card = ids[i] } end
  local min = spec.min or 1
  local max = spec.max or 1
  if max > #ids then max = #ids end
  if min > max then min = max end
  if max == 0 then return {} end
  local picked = g:choose { player = p, prompt = spec.prompt, kind = spec.kind,
                            options = opts, min = min, max = max, source = spec.source }
  local out = {}
  for i = 1, #picked do out[i] = ids[picked[i]] end
  return out
end

-- A yes/no question; returns true for the first label.
function kernel.yesno(_, g, p, prompt, yes, no, kind, source)
  local r = g:choose { player = p, prompt = prompt, kind = kind or "yesno",
                       options = { { label = yes }, { label = no } }, source = source }
  return r[1] == 1
end

-- ---- drawing ------------------------------------------------------------------------

-- Shuffle p's discard into a new deck (under whatever the deck still holds).
function kernel.reshuffle(_, g, p)
  if g:move_all("discard", p, "deck", p, "bottom") == 0 then return end
  g:shuffle("deck", p)
  g:log_player(p, " shuffles")
end

-- Draw n cards: the deck first; only when more is needed the discard is shuffled into
-- a new deck; if still short, draw what exists. Returns the drawn ids.
function kernel:draw(g, p, n, quiet)
  local kit = self.kit
  if kit then return g:deck_draw(kit, p, n, quiet) end
  local drawn = g:deal("deck", p, "hand", p, n)
  if #drawn < n then
    self:reshuffle(g, p)
    for _, id in ipairs(g:deal("deck", p, "hand", p, n - #drawn)) do drawn[#drawn + 1] = id end
  end
  if #drawn > 0 then
    g:log_to(p, "You draw ", drawn)
    if not quiet then
      g:log_player(p, " draws ", #drawn, #drawn == 1 and " card" or " cards")
    end
  end
  return drawn
end

-- ---- supply, gaining, trashing -------------------------------------------------------

-- piles: array of {name=, count=}; creates them in order.
function kernel:setup_supply(g, piles)
  local kit = self.kit
  if kit then return g:deck_setup_supply(kit, piles) end
  for _, pile in ipairs(piles) do
    assert(self.cards[pile.name], "kernel: unknown supply card " .. pile.name)
    local zone = self:pile(pile.name)
    if pile.count > 0 then g:new(pile.name, zone, 0, pile.count) end
    g:set_counter(self.pile_key[pile.name], 0, 1)
  end
end

-- Put starting cards in p's deck (from outside the supply), shuffle, draw a hand.
function kernel:deal_start(g, p, cards)
  for _, c in ipairs(cards) do
    if c.count > 0 then g:new(c.name, "deck", p, c.count) end
    g:add_counter(self.own_key[c.name], p, c.count)
  end
  g:shuffle("deck", p)
  self:draw(g, p, self.hand_size, true)
end

-- Deal every player their starting cards (then each(g, p), if given, for the game's own
-- per-player set-up) and give player 1 the first turn.
function kernel:deal_all(g, cards, each)
  local kit = self.kit
  if kit then return g:deck_deal_all(kit, cards, each) end
  for p = 1, g:nplayers() do
    self:deal_start(g, p, cards)
    if each then each(g, p) end
  end
  g:set_counter("active", 0, 1)
end

-- Supply pile names of this match, in display order.
function kernel:supply_names(g)
  local t = {}
  for _, name in ipairs(self.order) do
    if g:counter(self.pile_key[name]) ~= 0 then t[#t + 1] = name end
  end
  return t
end

-- Empty supply piles of this match. Asked after every turn, so one g:count_empty first:
-- when none of the kernel's piles is empty (or absent) the answer is 0.
function kernel:empty_piles(g)
  local kit = self.kit
  if kit then return (g:deck_empty_piles(kit)) end
  if g:count_empty(self.first_zones, 0) == 0 then return 0 end
  local n = 0
  for _, pile in ipairs(self.first_piles) do
    if g:count(pile.zone, 0) == 0 and g:counter(pile.key) ~= 0 then n = n + 1 end
  end
  return n
end

-- Dominion's end: the pile of card `name` (Province) or three supply piles are empty.
function kernel:pile_or_three_out(g, name)
  local kit = self.kit
  if kit and self.pile_zone[name] then
    local empty, left = g:deck_empty_piles(kit, name)
    return left == 0 or empty >= 3
  end
  return g:count(self:pile(name), 0) == 0 or self:empty_piles(g) >= 3
end

-- pile_or_three_out(g, name) as a game's finished(g): with a kit, its check in C
-- (deck.ends), which the engine calls after every turn without entering Lua.
function kernel:pile_or_three_out_check(name)
  if self.kit and self.pile_zone[name] then return deck.ends(self.kit, name, 3) end
  return function(g) return self:pile_or_three_out(g, name) end
end

-- The words for how pile_or_three_out ended a game, as a game's summary(g) (the end
-- screen's; docs/SCRIPTING.md): `gone` when the pile of name ran out, else three piles.
function kernel:pile_or_three_out_words(name, gone)
  return function(g)
    local kit = self.kit
    local empty, left
    if kit and self.pile_zone[name] then
      empty, left = g:deck_empty_piles(kit, name)
    else
      empty, left = self:empty_piles(g), g:count(self:pile(name), 0)
    end
    if left == 0 then return gone end
    if empty >= 3 then return "Three Supply piles ran out." end
    return nil
  end
end

local GAIN_TO = { discard = "discard", hand = "hand", deck = "deck" }

-- Move an existing card to p (to = "discard" default, "hand", or "deck" = on top).
function kernel:take(g, p, id, to)
  local zone = GAIN_TO[to or "discard"]
  assert(zone, "kernel: bad gain destination")
  g:move(id, zone, p)
  g:add_counter(self.own_key[g:name(id)], p, 1)
  return id
end

-- Gain the top card of a supply pile. Returns its id, or nil when the pile is empty.
function kernel:gain(g, p, name, to, verb)
  local id = g:top(self:pile(name), 0)
  if not id or (self.mixed[name] and g:name(id) ~= name) then return nil end
  self:take(g, p, id, to)
  local where = ""
  if to == "hand" then where = " into hand" elseif to == "deck" then where = " onto their deck" end
  g:log_player(p, " ", verb or "gains", " ", name, where)
  return id
end

function kernel:trash(g, p, id)
  g:add_counter(self.own_key[g:name(id)], p, -1)
  g:move(id, "trash", 0)
  g:log_player(p, " trashes ", { id })
end

-- Discard ids. Cards that come from a hidden zone (a hand, cards only p looked at) are
-- named to p alone; the others learn how many: a discard pile shows only its top card,
-- which every View already carries. public: the cards were revealed first (Spy, Thief,
-- Adventurer, Library's set-aside cards), so their names are told to everyone.
function kernel.discard(_, g, p, ids, public)
  if #ids == 0 then return end
  for _, id in ipairs(ids) do g:move(id, "discard", p) end
  if public then
    g:log_player(p, " discards ", ids)
    return
  end
  g:log_to(p, "You discard ", ids)
  g:log_player(p, " discards ", #ids, #ids == 1 and " card" or " cards")
end

function kernel.reveal(_, g, p, ids)
  if #ids == 0 then return end
  g:log_player(p, " reveals ", ids)
end

function kernel:owned(g, p, name) return g:counter(self.own_key[name] or ("_own:" .. name), p) end

-- The supply's option for the pile of name at cost c with top card top (gain_options):
-- the memo's, or made there.
local function pile_option(self, by_name, prefix, act, name, c, top)
  local by_cost = by_name[name]
  local by_top = by_cost and by_cost[c]
  return by_top and by_top[top] or supply_option(self.memo, by_name, prefix, act, name, c, top)
end

-- Supply options for a gain of a card costing at most max (filter(name) optional):
-- labels "<Card> ($<cost>)" (after prefix, if any), card = the pile's top entity.
-- act: optional, set on every option (the buy phase's dispatch). opts: optional, an
-- array to append the options to (returned), instead of a new one.
function kernel:gain_options(g, max, filter, prefix, act, opts)
  opts = opts or {}
  local n, cards, zones, mixed = #opts, self.cards, self.pile_zone, self.mixed
  local data_cost = self.cost == kernel.cost -- no game override: read the card data
  prefix = prefix or ""
  local by_name, order = memo.supply(self.memo, prefix, act), self.order
  local kit = self.kit
  local few = kit and data_cost and self.few_piles[max]
  if few then -- the kit's rule, pile by pile: a top, then the filter
    for i = 1, #few do
      local name = few[i]
      local top = g:top(zones[name], 0)
      if top and (not filter or filter(name)) then
        n = n + 1
        opts[n] = pile_option(self, by_name, prefix, act, name, cards[name].cost, top)
      end
    end
    return opts
  end
  if kit then -- the kit lists the piles by the same rule, in one call
    -- Into the kernel's three scratch arrays where the engine has g:deck_supply_in (an
    -- earlier worker a push reaches has only g:deck_supply, three new arrays) and no
    -- filter runs: a filter is a card's code, which could ask for a gain's options itself
    -- and overwrite them while this loop reads them.
    local names, costs, tops, count
    local scratch = not filter and g.deck_supply_in and self.supply_scratch
    if scratch then
      names, costs, tops = scratch[1], scratch[2], scratch[3]
      count = g:deck_supply_in(kit, max, names, costs, tops)
    else
      names, costs, tops = g:deck_supply(kit, max)
      count = #names
    end
    for i = 1, count do
      local name, c, top = names[i], costs[i], tops[i]
      if not filter or filter(name) then
        local by_cost = by_name[name]
        local by_top = by_cost and by_cost[c]
        n = n + 1
        opts[n] = by_top and by_top[top]
          or supply_option(self.memo, by_name, prefix, act, name, c, top)
      end
    end
    return opts
  end
  -- Only this match's piles have cards, so an empty top means "no pile or empty pile".
  -- (Numeric loops here and in the turn's other hot loops: ipairs costs a C call per
  -- step.)
  for i = 1, #order do
    local name = order[i]
    local c
    if data_cost then c = cards[name].cost else c = self:cost(g, name) end
    if c <= max and (not filter or filter(name)) then
      local top = g:top(zones[name], 0)
      if top and (not mixed[name] or g:name(top) == name) then
        local by_cost = by_name[name]
        local by_top = by_cost and by_cost[c]
        n = n + 1
        opts[n] = by_top and by_top[top]
          or supply_option(self.memo, by_name, prefix, act, name, c, top)
      end
    end
  end
  return opts
end

-- Ask p to gain a card from the supply costing up to max. Returns the gained id or nil.
-- spec: prompt, to, filter, source.
function kernel:choose_gain(g, p, max, spec)
  local opts = self:gain_options(g, max, spec.filter)
  if #opts == 0 then
    g:log(g:player_name(p) .. " has nothing to gain")
    return nil
  end
  local r = g:choose { player = p, prompt = spec.prompt, kind = "gain", options = opts,
                       source = spec.source }
  return self:gain(g, p, opts[r[1]].name, spec.to)
end

-- ---- attacks and reactions ------------------------------------------------------------

-- Each other player, in turn order, may reveal Reactions from hand (the decision is
-- theirs); a reaction's react(g, k, victim, reaction_id, attacker, attack_id) may set
-- the victim's _unaffected counter. Then effect(victim) runs for every other player
-- still affected, in turn order.
function kernel:attack(g, p, attack_id, effect)
  local victims = self:others(g, p)
  local aname = g:name(attack_id)
  for _, v in ipairs(victims) do
    g:set_counter("_unaffected", v, 0)
    local reactions = self:distinct(g, self:hand_of_type(g, v, "Reaction"))
    for _, rid in ipairs(reactions) do
      local def = self.cards[g:name(rid)]
      if def.react and g:counter("_unaffected", v) == 0 then
        local rname = g:name(rid)
        local prompt = g:player_name(p) .. " plays " .. aname .. ": reveal " .. rname .. "?"
        local yes = self:yesno(g, v, prompt, "Reveal " .. rname, "Don't reveal", "reveal",
                               rname)
        if yes then
          self:reveal(g, v, { rid })
          def.react(g, self, v, rid, p, attack_id)
        end
      end
    end
  end
  for _, v in ipairs(victims) do
    if g:counter("_unaffected", v) ~= 0 then
      g:log(g:player_name(v), " is unaffected by ", aname)
      g:set_counter("_unaffected", v, 0)
    else
      effect(v)
    end
  end
end


require("deckbuilder.turn").add(kernel)

-- ---- scoring ----------------------------------------------------------------------------

-- total plus the points of the cards named in scored, by their score functions: what the
-- kit's g:deck_score leaves to Lua (Gardens).
local function plus_scored(self, g, p, total, scored)
  for i = 1, #scored do total = total + self.cards[scored[i]].score(g, self, p) end
  return total
end

-- Victory points of p: every card p owns, by its vp (number) or score(g, k, p) function.
function kernel:score(g, p)
  local kit = self.kit
  if kit then -- the kit adds the vp up; score functions run here
    local total, scored = g:deck_score(kit, p)
    if scored then total = plus_scored(self, g, p, total, scored) end
    return total
  end
  local total = 0
  for _, z in ipairs(OWN_ZONES) do
    local ids = g:list(z, p)
    for i = 1, #ids do
      local def = self.cards[g:name(ids[i])]
      if def.score then
        total = total + def.score(g, self, p)
      elseif def.vp then
        total = total + def.vp
      end
    end
  end
  return total
end

-- A game's refresh(g) that sets every seat's counter `name` to its score (kernel:score):
-- the VP total, set before every decision put to a person (gametable.lua). The kit's path
-- of kernel:score runs in C (deck.score_refresh: every seat's g:deck_score and counter in
-- one call, Gardens' score functions handed back to Lua) unless the game scores its own
-- way (Ascension's k.score). An engine before 2026-11-30 has no deck.score_refresh (a
-- bundle pushed live to a worker of the previous release): there, and with api = {} (the
-- rules tests), the same path runs in Lua, g:deck_score per seat.
function kernel:score_refresh(name, api)
  local kit = self.kit
  local make = kit and (api or deck).score_refresh
  local fast = make and make(kit, name, function(g, p, total, scored)
    g:set_counter(name, p, plus_scored(self, g, p, total, scored))
  end)
  return function(g)
    if fast and self.kit == kit and self.score == kernel.score then return fast(g) end
    for p = 1, g:nplayers() do g:set_counter(name, p, self:score(g, p)) end
  end
end

local NO_NAMES = {}

function kernel:owned_count(g, p)
  local kit = self.kit
  if kit then
    local _, n = g:deck_owned(kit, p, NO_NAMES)
    return n
  end
  local n = 0
  for _, z in ipairs(OWN_ZONES) do n = n + g:count(z, p) end
  return n
end

-- Results by player: most points first; a tie goes to fewer turns; still tied = shared
-- rank. rank = 1 + the number of players strictly ahead. With a kit, one g call
-- (g:deck_results, as self.results_spec says: a game that replaces score sets its own or
-- none).
function kernel:results(g)
  local kit, spec = self.kit, self.results_spec
  if kit and spec then return g:deck_results(kit, spec) end
  local n, res = g:nplayers(), {}
  for p = 1, n do res[p] = { score = self:score(g, p), turns = g:counter("turns", p) } end
  for p = 1, n do
    local ahead = 0
    for q = 1, n do
      local a, b = res[q], res[p]
      if a.score > b.score or (a.score == b.score and a.turns < b.turns) then ahead = ahead + 1 end
    end
    res[p].rank = ahead + 1
  end
  return res
end

return kernel
