-- deckbuilder/turn.lua: the kernel's turn (kernel.lua): playing a card, and the action,
-- buy and clean-up phases, with labelled options for people and the search tree and
-- without them for bots that name their choice (kernel.lua, cfg.bots).
--
-- Kept apart from kernel.lua so that each file reads as one part of the rules: kernel.lua
-- hands its class to turn.add, which adds these methods to it.

local memo = require("deckbuilder.memo")

local turn = {}

function turn.add(kernel)
  local card_option = memo.card_option
  local PLAY_ALL, END_TURN, END_ACTIONS = kernel.PLAY_ALL, kernel.END_TURN, kernel.END_ACTIONS

  -- ---- playing cards ------------------------------------------------------------------

  -- Apply a card's effects: data keywords, then its handler, then the after_play hooks of
  -- other cards for it (kernel.new). Callable more than once for one play (Throne Room),
  -- so it never moves the card itself.
  local function resolve_def(self, g, p, id, name)
    local def, kit = self.cards[name], self.kit
    if kit then
      if self.data_kw[name] then g:deck_resolve(kit, p, name) end
    else
      if def.cards then self:draw(g, p, def.cards) end
      if def.actions then g:add_counter("actions", 0, def.actions) end
      if def.buys then g:add_counter("buys", 0, def.buys) end
      if def.coins then g:add_counter("coins", 0, def.coins) end
    end
    if def.on_play then def.on_play(g, self, p, id) end
    local hooks = self.after_play[name]
    if hooks then
      for i = 1, #hooks do hooks[i](g, self, p, id) end
    end
  end

  function kernel:resolve(g, p, id)
    resolve_def(self, g, p, id, g:name(id))
  end

  -- Put a card from hand into play and resolve it.
  function kernel:play(g, p, id)
    g:move(id, "play", p)
    g:log(g:player_name(p), " plays ", g:name(id))
    self:resolve(g, p, id)
  end

  -- ---- the turn ---------------------------------------------------------------------------

  local function s(n, one, many) return n .. " " .. (n == 1 and one or many) end

  -- The phases' prompts (memoized by their numbers: asked at every decision).
  local action_prompt = memo.by1(function(actions)
    return "Action phase: play an Action (" .. s(actions, "action", "actions") .. " left)"
  end)

  local buy_prompt = memo.by2(function(coins, buys)
    return "Buy phase: $" .. coins .. ", " .. s(buys, "buy", "buys")
  end)

  -- A bot that names its action: the card it names is played (g:deck_play checks it is an
  -- Action in p's hand, with an action left) until it names none or no action is left.
  local function named_actions(self, g, p, bot)
    local kit = self.kit
    while true do
      local names = g:deck_actions(kit, p) -- nil: no action left, or none in hand
      if not names then return end
      local name = bot.action(self, g, p, names)
      if not name then return end
      self:resolve(g, p, g:deck_play(kit, p, name))
    end
  end

  -- named: the named forms of the bot answering p (kernel:turn), or nil.
  function kernel:action_phase(g, p, named)
    if named and named.action then return named_actions(self, g, p, named) end
    local kit = self.kit
    while true do
      -- With a kit, one call answers the common case (no action left, or no Action in
      -- hand: a money deck) without the two tables of hand_kinds.
      if kit then
        if not g:deck_actions(kit, p) then return end
      elseif g:counter("actions") <= 0 then
        return
      end
      local acts, names = self:hand_kinds(g, p, "Action")
      if #acts == 0 then return end
      local opts = {}
      for i = 1, #acts do
        opts[i] = card_option(self.memo, "play", self.play_label[names[i]], acts[i])
      end
      opts[#opts + 1] = END_ACTIONS
      local r = g:choose { player = p, kind = "action", options = opts,
                           prompt = action_prompt(g:counter("actions")) }
      local o = opts[r[1]]
      if o == END_ACTIONS then return end
      g:add_counter("actions", 0, -1)
      self:play(g, p, o.card)
    end
  end

  -- Resolves the played treasures ts (names: their names) from the first on, as
  -- play_treasures does.
  local function resolve_treasures(self, g, p, ts, names)
    -- Plain treasures' coins are added up and added at once, before the next treasure
    -- that does more is resolved and at the end: every script that runs meanwhile (an
    -- on_play) sees the counters that one add per treasure gives.
    local plain, coins = self.plain_coins, 0
    local own_resolve = self.resolve == kernel.resolve
    for i = 1, #ts do
      local id, name = ts[i], names[i]
      local c = plain[name]
      if c and own_resolve then
        coins = coins + c
      else
        if coins ~= 0 then g:add_counter("coins", 0, coins) end
        coins = 0
        if own_resolve then resolve_def(self, g, p, id, name) else self:resolve(g, p, id) end
      end
    end
    if coins ~= 0 then g:add_counter("coins", 0, coins) end
  end

  -- The kit moves and tells the treasures and adds the plain ones' coins up to the first
  -- that does more; it returns the rest, if any, for Lua. When the kit played them all
  -- (every one plain: no script ran), returns the coins and buys counters: the hand then
  -- holds no treasure, and the buy phase's next decision reads nothing again.
  function kernel:play_treasures(g, p)
    local kit = self.kit
    if kit then
      local coins, buys, _, ts, names = g:deck_treasures(kit, p)
      if not ts then return coins, buys end
      resolve_treasures(self, g, p, ts, names)
      return
    end
    local ts, names = g:list("hand", p, self.of_type.Treasure or {}, "names")
    if #ts == 0 then return end
    g:move(ts, "play", p)
    g:log(g:player_name(p), " plays ", ts)
    resolve_treasures(self, g, p, ts, names)
  end

  -- Options of the buy phase; each carries act ("all", "play", "buy", "end") for dispatch.
  -- Also returns the buys and coins counters when it read them (the phase's prompt).
  -- coins, buys: given only when nothing was bought this turn and p's hand holds no
  -- treasure (what play_treasures returned), so there is nothing to read.
  -- into: optional, the array of an earlier decision of this phase, emptied and filled
  -- again (buy_phase: one array a phase, not one a decision).
  function kernel:buy_options(g, p, coins, buys, into)
    -- Sized for 16 options at once (the nils only size it): appended one by one, a
    -- decision's nine or so options grew the table five times.
    local opts = into
    if opts then
      for i = #opts, 1, -1 do opts[i] = nil end
    else
      opts = { nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil }
    end
    if not buys then
      if g:counter("_bought") == 0 then
        local ts, names = self:hand_kinds(g, p, "Treasure")
        if #ts > 0 then
          opts[1] = PLAY_ALL
          for i = 1, #ts do
            opts[i + 1] = card_option(self.memo, "play", self.play_label[names[i]], ts[i])
          end
        end
      end
      buys, coins = g:counter("buys"), nil
    end
    if buys > 0 then
      coins = coins or g:counter("coins")
      self:gain_options(g, coins, nil, "Buy ", "buy", opts)
    end
    if #opts == 0 then return opts end
    opts[#opts + 1] = END_TURN
    return opts, buys, coins
  end

  function kernel:buy(g, p, name)
    local kit = self.kit
    if kit then return (g:deck_buy(kit, p, name)) end
    g:add_counter("coins", 0, -self:cost(g, name))
    g:add_counter("buys", 0, -1)
    g:set_counter("_bought", 0, 1)
    return self:gain(g, p, name, "discard", "buys")
  end

  -- A bot that names its buys plays all its treasures first (what every bot does), then
  -- buys what it names (g:deck_buy checks it could have been chosen) while buys last.
  local function named_buys(self, g, p, bot)
    local kit = self.kit
    local coins, buys, turns, ts, names = g:deck_treasures(kit, p)
    if ts then
      resolve_treasures(self, g, p, ts, names)
      coins, buys = g:counter("coins"), g:counter("buys")
    end
    while buys > 0 do
      local name = bot.buy(self, g, p, coins, turns)
      if not name then return end
      local _
      _, coins, buys = g:deck_buy(kit, p, name)
    end
  end

  -- One options array and one g:choose table serve every decision of the phase: a
  -- decision's are not read once it is answered (its option o is taken out first), and
  -- new ones a decision were most of what a worker's Lua allocated per answer, which set
  -- how often its collector stopped an answer (docs/BENCHMARKS.md, issue 27).
  function kernel:buy_phase(g, p, named)
    if named and named.buy then return named_buys(self, g, p, named) end
    local coins_now, buys_now -- what play_treasures returned, if it did
    local opts, ask
    while true do
      local buys, coins
      opts, buys, coins = self:buy_options(g, p, coins_now, buys_now, opts)
      coins_now, buys_now = nil, nil
      if #opts == 0 then return end
      local prompt = buy_prompt(coins or g:counter("coins"), buys or g:counter("buys"))
      if ask then
        ask.prompt = prompt
      else
        ask = { player = p, kind = "buy", options = opts, prompt = prompt }
      end
      local r = g:choose(ask)
      local o = opts[r[1]]
      if o == END_TURN then return end
      if o == PLAY_ALL then
        coins_now, buys_now = self:play_treasures(g, p)
      elseif o.act == "play" then
        self:play(g, p, o.card)
      else
        self:buy(g, p, o.name)
      end
    end
  end

  function kernel:cleanup(g, p)
    local kit = self.kit
    if kit then return g:deck_cleanup(kit, p) end
    g:move_all("play", p, "discard", p)
    g:move_all("hand", p, "discard", p)
    self:draw(g, p, self.hand_size, true)
  end

  -- The on_turn_start hooks of this kernel's cards run first (kernel.new).
  function kernel:start_turn(g, p)
    local hooks = self.turn_start_hooks
    for i = 1, #hooks do hooks[i](g, self, p) end
    local kit = self.kit
    if kit then
      g:deck_start_turn(kit, p)
      return
    end
    local turns = g:add_counter("turns", p, 1)
    g:set_counter("actions", 0, self.turn_stats.actions)
    g:set_counter("buys", 0, self.turn_stats.buys)
    g:set_counter("coins", 0, 0)
    g:set_counter("_bought", 0, 0)
    g:log(g:player_name(p), "'s turn ", turns)
  end

  -- One whole turn of the active player, then the next player becomes active. Each phase
  -- gets the named forms of p's bot (cfg.bots) when the kit can check what they name:
  -- nil for people and the search tree (g:deck_active names the bot with the player).
  -- A bot with a plan (kernel.new) plays the whole turn in g:deck_bot_turn when nothing
  -- in it needs Lua; otherwise that call changes nothing and names the player and bot.
  function kernel:turn(g)
    local kit, named = self.kit, nil
    local p, bot
    if kit then
      if self.bot_turn then
        p, bot = g:deck_bot_turn(kit)
        if not p then return end
      else
        p, bot = g:deck_active(kit)
      end
      local bots = self.bots
      named = bot and bots and bots[bot]
    else
      p = g:counter("active")
    end
    self:start_turn(g, p)
    local phase_fn = self.phase_fn
    for i = 1, #phase_fn do self[phase_fn[i]](self, g, p, named) end
    if kit then
      g:deck_next(kit, p)
    else
      g:set_counter("active", 0, p % g:nplayers() + 1)
    end
  end
  kernel.cleanup_phase = kernel.cleanup
end

return turn
