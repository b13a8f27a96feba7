-- boardkit/choose.lua: decisions every board kernel asks the same way: the target of a
-- card, as a method a kernel adopts (`K.choose_target = choose.target`, which needs only
-- its `describe`), the options to play a card and to attack, and the turn, a loop over
-- one decision whose options are every legal action (the kernel's `start_turn`,
-- `actions`, `perform`, `end_turn` and `over`).
--
-- Labels are built only when someone reads them (g:labels(p) is false when an inline bot
-- answers p: sims and play-outs); options always carry the entity (`card`) a bot reads.

local choose = {}

-- Ask p for one of the entities ids (a `target` decision); returns the one chosen.
function choose.target(self, g, p, ids, prompt, source)
  local opts, lab = {}, g:labels(p)
  for i, id in ipairs(ids) do
    opts[i] = { label = lab and self:describe(g, id) or nil, card = id }
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

-- One whole turn of the active player p: it starts, then p answers the `turn` decision
-- (k:actions, done by k:perform, false when it ends the turn) until the turn or the game
-- is over; it ends unless the game is; the other player is next. before(k, g, p), when
-- given, runs before each decision (what happens on its own: Elemental's Berserk).
function choose.turn(self, g, prompt, before)
  local p = self:active(g)
  self:start_turn(g, p)
  while not self:over(g) do
    if before then
      before(self, g, p)
      if self:over(g) then break end
    end
    local opts = self:actions(g, p)
    local pick = g:choose { player = p, kind = "turn", options = opts, prompt = prompt }
    if not self:perform(g, p, opts[pick[1]]) then break end
  end
  if not self:over(g) then self:end_turn(g, p) end
  g:set_counter("active", 0, 3 - p)
end

return choose
