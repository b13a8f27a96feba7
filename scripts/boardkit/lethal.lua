-- boardkit/lethal.lua: lethal on board, the same rule for every board game's bots. When the
-- attacks that may hit the enemy's body (a hero, a wizard) this turn add up to its health or
-- more, going face first wins the turn, where the usual order (plays, then trades, then the
-- body) may spend the attackers on pieces first. Each game finds its attackers (who may
-- attack, what blocks them); this file adds them up and picks the first attack.

local lethal = {}

-- attackers: (attacker, attack) pairs in the options' order, each attacker counted once.
-- The one with the most attack (the first on ties) when they add up to need, else nil.
function lethal.pick(need, attackers)
  local sum, best, most = 0, nil, 0
  for i = 1, #attackers, 2 do
    local a, atk = attackers[i], attackers[i + 1]
    sum = sum + atk
    if atk > most then best, most = a, atk end
  end
  if best and sum >= need then return best end
  return nil
end

-- lethal.pick over a turn decision's options: the index of the attack on target (the
-- enemy's body, whose health is need) to make, or nil; attack_of(id) is a piece's attack.
function lethal.option(d, target, need, attack_of)
  local seen, pairs = {}, {}
  for _, o in ipairs(d.options) do
    if o.act == "attack" and o.target == target and not seen[o.id] then
      seen[o.id] = true
      pairs[#pairs + 1], pairs[#pairs + 2] = o.id, attack_of(o.id)
    end
  end
  local a = lethal.pick(need, pairs)
  for i, o in ipairs(d.options) do
    if a and o.act == "attack" and o.id == a and o.target == target then return i end
  end
  return nil
end

return lethal
