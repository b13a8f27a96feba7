-- boardkit/choose.lua: decisions every board kernel asks the same way: the target of a
-- card, as a method a kernel adopts (`K.choose_target = choose.target`, which needs only
-- its `describe`), the options to play a card and to attack, and the turn, a loop over
-- one decision whose options are every legal action (the kernel's `start_turn`,
-- `actions`, `perform`, `end_turn` and `over`).
--
-- Labels are built only when someone reads them (g:labels(p) is false when an inline bot
-- answers p: sims and play-outs); options always carry the entity (`card`) a bot reads.
--
-- Bots name their choice: when the bot answering p inline (g:bot(p)) has a named form in
-- the kernel's `named` table (`k.named[bot] = { turn =, target =, space = }`), it is asked
-- for the action, target or space itself, with no option built, and the kernel checks
-- the answer with the rule that would have listed it (`k:allows` for the turn); a wrong
-- one is a script error naming the bot. People, the search tree and bots without a named
-- form answer the labelled options as before.

local choose = {}

-- The named form of the bot answering p inline, or nil.
function choose.named(self, g, p)
  local named = self.named
  if not named then return nil end
  local bot = g:bot(p)
  return bot and named[bot], bot
end

-- A named answer the rules do not allow: the bot's own error, never a silent fix.
function choose.refuse(g, p, what)
  error("boardkit: bot " .. tostring(g:bot(p)) .. " of player " .. p .. " named " .. what
        .. ", which the rules do not allow", 0)
end

-- Whether the array ids holds id (the rules' list a named choice must be in).
function choose.contains(ids, id)
  for i = 1, #ids do
    if ids[i] == id then return true end
  end
  return false
end
local contains = choose.contains

-- Ask p for one of the entities ids (a `target` decision); returns the one chosen.
function choose.target(self, g, p, ids, prompt, source)
  local bot = choose.named(self, g, p)
  if bot and bot.target then
    local id = bot.target(self, g, p, ids, source)
    if not contains(ids, id) then choose.refuse(g, p, "target " .. tostring(id)) end
    return id
  end
  local opts, lab = {}, g:labels(p)
  for i, id in ipairs(ids) do
    opts[i] = { label = lab and self:describe(g, id) or nil, card = id, target = id }
  end
  local pick = g:choose { player = p, kind = "target", prompt = prompt, options = opts,
                          source = source }
  return ids[pick[1]]
end

-- The `turn` decision's options the board games build alike, appended to opts in the
-- fixed order the kernel calls them (labels only when lab: g:labels(p)).

-- "Play NAME" for each distinct card in p's hand that can(self, g, p, id, extra) allows.
function choose.plays(self, g, p, opts, lab, can, extra)
  local ids, names = g:list("hand", p, nil, "distinct")
  for i = 1, #ids do
    local id = ids[i]
    if can(self, g, p, id, extra) then
      opts[#opts + 1] = {
        label = lab and "Play " .. names[i] or nil, card = id, act = "play", id = id }
    end
  end
end

-- "A attacks T" for each piece of `mine` that may attack (self:can_attack), once per
-- target (self:attack_targets); L is passed on to both (Wizardry's listeners).
function choose.attacks(self, g, opts, lab, mine, L)
  for i = 1, #mine do
    local a = mine[i]
    if self:can_attack(g, a, L) then
      local who = lab and self:describe(g, a) .. " attacks "
      for _, t in ipairs(self:attack_targets(g, a, L)) do
        opts[#opts + 1] = {
          label = lab and who .. self:describe(g, t) or nil, card = a, act = "attack", id = a,
          target = t }
      end
    end
  end
end

-- The action a named bot takes (a table like a `turn` option: act, id, target...),
-- checked by k:allows(g, p, o, pre) (k:actions' rules for that one action). pre: what
-- k:prepare(g, p) gives, when the kernel has it (what every check of one decision
-- shares: Wizardry's listeners), handed to the bot and to the check alike.
-- An answer the check cannot even read (an id that is no entity) is refused the same way,
-- with what the check raised.
local function named_action(self, g, p, turn)
  local pre
  if self.prepare then pre = self:prepare(g, p) end
  local o = turn(self, g, p, pre)
  if type(o) ~= "table" then choose.refuse(g, p, "the action " .. tostring(o)) end
  local ok, allowed = pcall(self.allows, self, g, p, o, pre)
  if not (ok and allowed) then
    choose.refuse(g, p, "the action " .. tostring(o.act)
                  .. (ok and "" or " (" .. tostring(allowed) .. ")"))
  end
  return o
end

-- One whole turn of the active player p: it starts, then p answers the `turn` decision
-- (k:actions, done by k:perform, false when it ends the turn) until the turn or the game
-- is over; it ends unless the game is; the other player is next. before(k, g, p), when
-- given, runs before each decision (what happens on its own: Elemental's Berserk).
function choose.turn(self, g, prompt, before)
  local p = self:active(g)
  self:start_turn(g, p)
  local bot = choose.named(self, g, p)
  local turn = bot and bot.turn
  while not self:over(g) do
    if before then
      before(self, g, p)
      if self:over(g) then break end
    end
    local o
    if turn then
      o = named_action(self, g, p, turn)
    else
      local opts = self:actions(g, p)
      o = opts[g:choose { player = p, kind = "turn", options = opts, prompt = prompt }[1]]
    end
    if not self:perform(g, p, o) then break end
  end
  if not self:over(g) then self:end_turn(g, p) end
  g:set_counter("active", 0, 3 - p)
end

return choose
