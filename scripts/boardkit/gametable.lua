-- boardkit/gametable.lua: the game table (docs/SCRIPTING.md) of a two-player board game
-- played with preset decks, with what both board games share already in it.
--
-- Each seat picks a preset deck by a match option (`deck_1`, `deck_2`); the set-up gives
-- each seat what the game says (a hero, a wizard, its counters), then its deck, shuffled,
-- and its opening hand; player 1 starts. A player at 0 health or less, or one who
-- surrendered (the counter `surrendered`), loses; both at once is a draw; at the turn
-- cap the most health wins. The score is the health left. The game's game.lua builds
-- its table here and adds its bots and evaluation.

local gametable = {}

local ORDINAL = { "first", "second" }

-- "earth, wind or fire".
local function choices(values)
  if #values == 1 then return values[1] end
  return table.concat(values, ", ", 1, #values - 1) .. " or " .. values[#values]
end

local LABEL = { "First player's deck", "Second player's deck" }

-- The options deck_1 and deck_2 (OptionSpec: name, values, default, help, and the words
-- players read: label, value_labels): each seat's preset deck among `values`, by default
-- defaults[seat]; help(ordinal) says what it picks ("the first player's hero and preset
-- deck"); each value reads capitalized ("Earth").
function gametable.deck_options(values, defaults, help)
  local options, words = {}, {}
  for _, v in ipairs(values) do words[v] = v:sub(1, 1):upper() .. v:sub(2) end
  for p = 1, 2 do
    options[p] = { name = "deck_" .. p, label = LABEL[p], values = { table.unpack(values) },
                   value_labels = words, default = defaults[p], help = help(ORDINAL[p]) }
  end
  return options
end

-- The deck option of seat p, checked against the presets (the default when absent).
function gametable.deck_of(g, game, p)
  local spec = game.options[p]
  local v = g:option(spec.name) or spec.default
  if not game.decks[v] then
    error(game.name .. ": " .. spec.name .. " must be " .. choices(spec.values))
  end
  return v
end

-- Each seat ranked by health: a loser (health at 0 or less, or surrendered) is second
-- unless both lost; between two standing players the most health wins.
function gametable.results(g)
  local res, lost = {}, {}
  for p = 1, 2 do
    lost[p] = g:counter("health", p) <= 0 or g:counter("surrendered", p) ~= 0
    res[p] = { score = g:counter("health", p), turns = g:counter("turns", p) }
  end
  for p = 1, 2 do
    local q = 3 - p
    local rank = 1
    if lost[p] and not lost[q] then rank = 2
    elseif not lost[p] and not lost[q] and res[q].score > res[p].score then rank = 2
    end
    res[p].rank = rank
  end
  return res
end

-- The counters every such game keeps: a player's words, and the internals never shown.
-- A card's statuses (`attack:ID`) are hinted by their name (`attack`).
local KIT_COUNTERS = {
  health = { label = "Health", order = 0,
             description = "A player at 0 health loses; on a card, the damage it can take" },
  attack = { label = "Attack", order = 1, description = "The damage this card deals" },
  max_health = { label = "Full health", order = 2,
                 description = "The most health this card can heal to" },
  turn = { label = "Turn", order = 20, description = "Turns played in this match" },
  turns = { label = "Turns taken", order = 21, description = "Turns this player has played" },
  active = { hidden = true }, -- whose turn it is: the client knows it from the decision
  surrendered = { hidden = true }, -- shown by the end of the match
  -- No counter: the words of the end screen's PlayerResult.score (docs/SCRIPTING.md).
  score = { label = "Health left", order = 99,
            description = "A player at 0 health has lost; at the turn cap the most health wins" },
}

-- Presentation hints (docs/SCRIPTING.md) from zones listed in the order a client draws
-- them: { { "hero", "play", "Hero", description = "..." }, { "board", "board", "Board",
-- columns = 5 }, ... }; words = { title =, summary =, counters = {...} }: the game's
-- title, rules summary and own counters (added to the kit's, or overriding them).
function gametable.presentation(list, type_colors, words)
  words = words or {}
  local zones, counters = {}, {}
  for i, z in ipairs(list) do
    zones[z[1]] = { kind = z[2], order = i - 1, label = z[3], columns = z.columns,
                    description = z.description }
  end
  for name, hint in pairs(KIT_COUNTERS) do counters[name] = hint end
  for name, hint in pairs(words.counters or {}) do counters[name] = hint end
  return { zones = zones, type_colors = type_colors, title = words.title,
           summary = words.summary, counters = counters }
end

-- How the match ended, in words for the end screen (the game's summary(g)): who
-- surrendered, whose leader (`leader`: "hero", "wizard") fell, or nil (the turn cap, which
-- the server words itself).
function gametable.summary(leader)
  return function(g)
    local fell = {}
    for p = 1, 2 do
      if g:counter("surrendered", p) ~= 0 then return g:player_name(p) .. " surrendered." end
      if g:counter("health", p) <= 0 then fell[#fell + 1] = g:player_name(p) end
    end
    if #fell == 2 then return "Both players fell at once." end
    if #fell == 1 then return fell[1] .. "'s " .. leader .. " fell." end
    return nil
  end
end

-- spec: name, max_turns, zones, cards, options (gametable.deck_options), decks (name ->
-- { { card, copies }, ... }), kernel (its `turn` and `over` run the match; tests reach it
-- as game.kernel), opening_hand, seat = function(g, p, deck) (what seat p gets before its
-- deck), presentation, open_zones (the board's zones: every seat's are opened for views),
-- leader (what falls at 0 health: "hero", the default, or "wizard").
function gametable.new(spec)
  local game = {
    name = spec.name, min_players = 2, max_players = 2, max_turns = spec.max_turns,
    zones = spec.zones, cards = spec.cards, options = spec.options, decks = spec.decks,
    kernel = spec.kernel, presentation = spec.presentation,
  }
  local k = spec.kernel
  function game.setup(g)
    for p = 1, 2 do
      local deck = gametable.deck_of(g, game, p)
      spec.seat(g, p, deck)
      for _, entry in ipairs(spec.decks[deck]) do g:new(entry[1], "deck", p, entry[2]) end
      g:shuffle("deck", p)
      g:deal("deck", p, "hand", p, spec.opening_hand)
    end
    g:set_counter("active", 0, 1)
  end
  function game.turn(g) k:turn(g) end
  function game.finished(g) return k:over(g) end
  -- Every seat's board zones (spec.open_zones) exist from the first decision a person
  -- sees, so a client draws the whole board, its empty spaces too. The engine runs
  -- refresh only where a person plays: all-bot games stay what they were.
  local open = spec.open_zones
  if open then
    function game.refresh(g)
      for p = 1, 2 do
        for i = 1, #open do g:open_zone(open[i], p) end
      end
    end
  end
  game.results = gametable.results
  game.summary = gametable.summary(spec.leader or "hero")
  return game
end

return gametable
