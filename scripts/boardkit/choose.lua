-- boardkit/choose.lua: decisions every board kernel asks the same way, as methods a
-- kernel adopts (`K.choose_target = choose.target`): they need only its `describe`.
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

return choose
