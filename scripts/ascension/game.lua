-- ascension/game.lua: Ascension: Valley of the Ancients (seed 000 appendices D and F).
--
-- The game table the engine loads (docs/SCRIPTING.md). Drawing, starting decks and
-- ranking come from the deck-builder kernel; the centre row, the two currencies, the
-- Honour pool and the free-form turn (one "turn" phase: play, acquire and defeat in any
-- order, then clean-up) are Ascension's own and live here and in rules.lua. Rule
-- choices are written down in README.md.

local kernel = require("deckbuilder.kernel")
local gametable = require("deckbuilder.gametable")
local data = require("ascension.cards")
local R = require("ascension.rules")
local bots = require("ascension.bots")

local k = kernel.new { cards = data.cards, order = data.order, hand_size = 5 }

-- The turn cap, every seat's turns together: 100 turns each at four players. Bot games
-- take about 20 each; players who never gain Honour (never buy or defeat) reach it.
local MAX_TURNS = 400

local game = gametable.new(k, { name = "ascension", max_players = 4, max_turns = MAX_TURNS,
  zones = gametable.zones { centre_deck = "hidden", row = "public", void = "public",
                            constructs = "public", temples = "public" },
  bots = bots.make(k) })
game.presentation = gametable.presentation {
  zones = {
    row = { kind = "row", order = -2, label = "Centre row", columns = 6 },
    centre_deck = { kind = "deck", order = -1, label = "Centre deck" },
    temples = { kind = "supply", order = 1, label = "Temples" },
    constructs = { kind = "play", order = 2, label = "Constructs" },
    void = { kind = "discard", order = 7, label = "Void" },
  },
  type_colors = { Hero = "#f0d9a8", Monster = "#e3a39a", Construct = "#a9c7e8",
                  Temple = "#d8c3e8" },
}

-- Score: Honour tokens, the Honour printed on every card p owns, and p's Temples.
local SCORED = { "deck", "hand", "discard", "play", "constructs", "temples" }

function k.score(self, g, p)
  local total = g:counter("honour", p)
  for _, z in ipairs(SCORED) do
    local n = g:count(z, p)
    for i = 1, n do total = total + (self.cards[g:name(g:at(z, p, i))].vp or 0) end
  end
  return total
end

function game.setup(g)
  k:setup_supply(g, data.piles)
  for _, name in ipairs(R.TEMPLES) do
    g:set_counter("_temple:" .. name, 0, g:new(name, "temples", 0))
  end
  for _, name in ipairs(data.order) do
    for _ = 1, data.cards[name].centre or 0 do g:new(name, "centre_deck", 0) end
  end
  g:shuffle("centre_deck", 0)
  R.refill(g)
  g:set_counter("honour_pool", 0, R.HONOUR_PER_PLAYER * g:nplayers())
  k:deal_all(g, data.start)
end

-- ---- the turn -------------------------------------------------------------------------

local PER_TURN = { "runes", "power", "_lbhero", "_soulsnare", "_burial" }

local function start_turn(g, p)
  g:add_counter("turns", p, 1)
  g:add_counter("_turnno", 0, 1)
  for _, c in ipairs(PER_TURN) do g:set_counter(c, 0, 0) end
  for _, f in ipairs(R.FACTIONS) do g:set_counter("_played:" .. f, 0, 0) end
  g:log(g:player_name(p) .. "'s turn " .. g:counter("turns", p))
  R.construct_stats(g, k, p)
end

-- An unused Templar Outpost of p's, or nil.
local function outpost(g, p)
  local now = g:counter("_turnno")
  for _, id in ipairs(g:list("constructs", p)) do
    local def = k.cards[g:name(id)]
    if def.free_defeat and g:get(id, "used") ~= now then return id, def.free_defeat end
  end
  return nil
end

-- What p may do now; each option carries act ("all", "play", "buy", "defeat", "free",
-- "end"), and name/cost/card for bots.
local OFFER_PILES = { "Mystic", "Heavy Infantry", "Cultist" }

local function turn_options(g, p)
  local opts = {}
  local hand, hand_names = g:list("hand", p, nil, "distinct")
  if #hand > 0 then
    opts[1] = { label = "Play all treasures", act = "all" }
    for i = 1, #hand do
      opts[#opts + 1] = { label = "Play " .. hand_names[i], card = hand[i], act = "play" }
    end
  end
  local on_offer, names = {}, {}
  for i = 1, #OFFER_PILES do
    local top = g:top(k:pile(OFFER_PILES[i]), 0)
    if top then on_offer[#on_offer + 1] = top end
  end
  local row, row_names = k:distinct(g, R.row(g))
  for i = 1, #on_offer do names[i] = g:name(on_offer[i]) end
  for i = 1, #row do
    on_offer[#on_offer + 1] = row[i]
    names[#names + 1] = row_names[i]
  end
  local runes, power = g:counter("runes"), g:counter("power")
  local free, limit = outpost(g, p)
  for i = 1, #on_offer do
    local id, name = on_offer[i], names[i]
    local c = R.cost(g, k, p, name)
    if k.cards[name].is.Monster then
      if c <= power then
        opts[#opts + 1] = { label = "Defeat " .. name .. " (" .. c .. " power)", act = "defeat",
                            card = id, name = name, cost = c }
      end
      if free and c <= limit then
        opts[#opts + 1] = { label = "Defeat " .. name .. " (free, Templar Outpost)", act = "free",
                            card = id, name = name, cost = c, outpost = free }
      end
    elseif c <= runes then
      opts[#opts + 1] = { label = "Buy " .. name .. " (" .. c .. " runes)", act = "buy",
                          card = id, name = name, cost = c }
    end
  end
  opts[#opts + 1] = { label = "End turn", act = "end" }
  return opts
end

local function play_all(g, p)
  while g:count("hand", p) > 0 do R.play(g, k, p, g:at("hand", p, 1)) end
end

function game.turn(g)
  local p = g:counter("active")
  start_turn(g, p)
  while true do
    R.settle(g, k, p)
    local opts = turn_options(g, p)
    local r = g:choose { player = p, kind = "buy", options = opts,
                         prompt = "Your turn: " .. g:counter("runes") .. " runes, "
                           .. g:counter("power") .. " power" }
    local o = opts[r[1]]
    if o.act == "end" then break end
    if o.act == "all" then
      play_all(g, p)
    elseif o.act == "play" then
      R.play(g, k, p, o.card)
    elseif o.act == "buy" then
      R.buy(g, k, p, o.card)
    elseif o.act == "defeat" then
      R.defeat(g, k, p, o.card)
    else
      g:set(o.outpost, "used", g:counter("_turnno"))
      g:log("Templar Outpost:")
      R.defeat(g, k, p, o.card, true)
    end
  end
  -- Unspent Runes and Power are lost; constructs stay in play.
  g:set_counter("runes", 0, 0)
  g:set_counter("power", 0, 0)
  k:cleanup(g, p)
  g:set_counter("active", 0, p % g:nplayers() + 1)
end

-- Asked after every turn. Once the Honour pool is empty (or a centre slot could not be
-- refilled), the round is finished so that every player has had as many turns: the
-- game ends when the next player would be the first player again.
function game.finished(g)
  local over = g:counter("honour_pool") == 0 or g:counter("_centre_out") ~= 0
  return over and g:counter("active") == 1
end

return game
