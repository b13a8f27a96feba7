-- boardkit/hand.lua: drawing into a hand that has a limit, the way both board games draw:
-- the deck's top card to the hand, privately named to its owner; with the hand full the
-- card is lost instead (shown to both); with the deck empty the game's own penalty.
--
-- rules = { limit = N or the name of the owner's counter that holds it,
--           lost = the zone a card drawn into a full hand goes to,
--           empty = function(g, p) ... end (what drawing from an empty deck costs) }

local hand = {}

-- Is p's hand full?
function hand.full(g, p, rules)
  local limit = rules.limit
  if type(limit) == "string" then limit = g:counter(limit, p) end
  return g:count("hand", p) >= limit
end

-- p draws n cards, one at a time.
function hand.draw(g, p, n, rules)
  for _ = 1, n do
    local id = g:top("deck", p)
    if not id then
      rules.empty(g, p)
    elseif hand.full(g, p, rules) then
      g:move(id, rules.lost, p)
      g:log(g:player_name(p), "'s hand is full: ", { id }, " is lost")
    else
      g:move(id, "hand", p)
      g:log_to(p, "You draw ", { id })
    end
  end
end

return hand
