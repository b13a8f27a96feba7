-- ascension/game.lua: Ascension: Valley of the Ancients (seed 000 appendices D and F).
--
-- The game table the engine loads (docs/SCRIPTING.md). Drawing, starting decks and
-- ranking come from the deck-builder kernel; the centre row, the two currencies, the
-- Honour pool and the free-form turn (one "turn" phase: play, acquire and defeat in any
-- order, then clean-up) are Ascension's own and live here and in rules.lua. Rule
-- choices are written down in README.md.

local kernel = require("deckbuilder.kernel")
local gametable = require("deckbuilder.gametable")
local words = require("ascension.words")
local data = require("ascension.cards")
local R = require("ascension.rules")
local bots = require("ascension.bots")
local deck_games = require("deckhand.deck_games")

local k = kernel.new { cards = data.cards, order = data.order, hand_size = 5 }

-- The turn cap, every seat's turns together: 100 turns each at four players. Bot games
-- take about 20 each; players who never gain Honour (never buy or defeat) reach it.
local MAX_TURNS = 400

local game = gametable.new(k, { name = "ascension", max_players = 4, max_turns = MAX_TURNS,
  zones = gametable.zones { centre_deck = "hidden", row = "public", void = "public",
                            constructs = "public", temples = "public" },
  deck_zones = { "deck", "hand", "discard", "play", "constructs", "temples" },
  bots = bots.make(k) })
game.presentation = gametable.presentation {
  title = words.title, summary = words.summary, counters = words.counters,
  zones = {
    row = { kind = "row", order = -2, label = "Centre row", columns = 6,
            description = "Heroes and Constructs to acquire, Monsters to defeat" },
    centre_deck = { kind = "deck", order = -1, label = "Centre deck",
                    description = "Refills the centre row, face down" },
    temples = { kind = "supply", order = 1, label = "Temples",
                description = "Worth Honour to whoever holds them" },
    constructs = { kind = "play", order = 2, label = "Constructs",
                   description = "Constructs stay in play and work every turn" },
    void = { kind = "discard", order = 7, label = "Void",
             description = "Banished and defeated cards, out of the game" },
  },
  type_colors = { Hero = "#f0d9a8", Monster = "#e3a39a", Construct = "#a9c7e8",
                  Temple = "#d8c3e8" },
}

-- Score: Honour tokens, the Honour printed on every card p owns, and p's Temples.
local SCORED = { "deck", "hand", "discard", "play", "constructs", "temples" }

function k.score(self, g, p)
  local total = g:counter("honour", p)
  for _, z in ipairs(SCORED) do
    local _, names = g:list(z, p, nil, "names")
    for i = 1, #names do total = total + R.facts(self, names[i]).vp end
  end
  return total
end
-- The same score in C, from the kit's card data (the vp printed on each card).
k.results_spec = { zones = SCORED, counter = "honour" }

-- The centre deck's cards and how many of each, in data.order, and the Temples with
-- their counters: the same for every match, so read once, when the bundle loads.
local CENTRE, CENTRE_N = {}, {}
for _, name in ipairs(data.order) do
  local n = data.cards[name].centre or 0
  if n > 0 then CENTRE[#CENTRE + 1], CENTRE_N[#CENTRE_N + 1] = name, n end
end
local TEMPLES, TEMPLE_KEY = R.TEMPLES, R.TEMPLE_KEY

function game.setup(g)
  k:setup_supply(g, data.piles)
  for i = 1, #TEMPLES do
    local name = TEMPLES[i]
    g:set_counter(TEMPLE_KEY[name], 0, g:new(name, "temples", 0))
  end
  -- every centre card in one call: the ids and order that one g:new per card gives
  g:new(CENTRE, "centre_deck", 0, CENTRE_N)
  g:shuffle("centre_deck", 0)
  R.refill(g)
  g:set_counter("honour_pool", 0, R.HONOUR_PER_PLAYER * g:nplayers())
  k:deal_all(g, data.start)
end

-- ---- the turn -------------------------------------------------------------------------

-- A turn starts in one g call (engine_deck_games.c): p's turns + 1, the turn number
-- _turnno + 1, the per-turn counters back to 0, "<player>'s turn N"; then the
-- constructs' statistics.
local PER_TURN = { "runes", "power", "_lbhero", "_soulsnare", "_burial" }
for _, f in ipairs(R.FACTIONS) do PER_TURN[#PER_TURN + 1] = R.PLAYED[f] end
local turn_start = deck_games.start { turns = "turns", step = { "_turnno" }, zero = PER_TURN,
                                      line = "'s turn " }

local function start_turn(g, p)
  g:deck_start(turn_start, p)
  R.construct_stats(g, k, p)
end

-- What p may do now; each option carries act ("all", "play", "buy", "defeat", "free",
-- "end"), and name/cost/card for bots. The cards on offer are R.offer's, and what may be
-- done with each is R.acts' (the rule a bot's named choice is checked with).
local function turn_options(g, p)
  local opts = {}
  local hand, hand_names = g:list("hand", p, nil, "distinct")
  if #hand > 0 then
    opts[1] = { label = "Play all treasures", act = "all" }
    for i = 1, #hand do
      opts[#opts + 1] = { label = "Play " .. hand_names[i], card = hand[i], act = "play" }
    end
  end
  local on_offer, names = R.offer(g, k, true)
  local runes, power = g:counter("runes"), g:counter("power")
  local free, limit = R.outpost(g, k, p)
  for i = 1, #on_offer do
    local id, name = on_offer[i], names[i]
    local c = R.cost(g, k, p, name)
    local act, free_too = R.acts(k, name, c, runes, power, limit)
    if act == "defeat" then
      opts[#opts + 1] = { label = "Defeat " .. name .. " (" .. c .. " power)", act = "defeat",
                          card = id, name = name, cost = c }
    elseif act == "buy" then
      opts[#opts + 1] = { label = "Buy " .. name .. " (" .. c .. " runes)", act = "buy",
                          card = id, name = name, cost = c }
    end
    if free_too then
      opts[#opts + 1] = { label = "Defeat " .. name .. " (free, Templar Outpost)", act = "free",
                          card = id, name = name, cost = c, outpost = free }
    end
  end
  opts[#opts + 1] = { label = "End turn", act = "end" }
  return opts
end

-- The turn decision put to a person or the search tree (or a bot without a named form):
-- the labelled options. Returns the chosen act and its card.
local function asked_choice(g, p)
  local opts = turn_options(g, p)
  local r = g:choose { player = p, kind = "buy", options = opts,
                       prompt = "Your turn: " .. g:counter("runes") .. " runes, "
                         .. g:counter("power") .. " power" }
  local o = opts[r[1]]
  return o.act, o.card
end

-- The turn decision of an inline bot with a named form (bots.named): given the count of
-- p's hand and, when it is empty, what is on offer (R.turn_offer), it names an act and
-- a card (an index into the offer, or a card in hand to play), checked with the rule
-- that would have listed it (R.check: an error otherwise). The offer is read once for
-- both (built: the count of p's constructs). Returns the act and the card's id.
local OFFER_ACT = { buy = true, defeat = true, free = true }

local function named_choice(g, p, bot, named, built)
  local hand = g:count("hand", p)
  local ids, names, runes, power, limit
  if hand == 0 then ids, names, runes, power, limit = R.turn_offer(g, k, p, built) end
  local act, choice = named(k, g, p, hand, ids, names, runes, power, limit)
  if not ids and OFFER_ACT[act] then
    ids, names, runes, power, limit = R.turn_offer(g, k, p, built)
  end
  return act, R.check(g, k, p, bot, act, choice, hand, ids, names, runes, power, limit)
end

-- Plays the bottom card of the hand until none is left (cards drawn meanwhile included):
-- the plain cards at the bottom with one g:deck_run, then the card above them with its
-- hooks (R.play), and so on.
local run = R.play_run(k)

local function play_all(g, p)
  local _, id = g:deck_run(run, p)
  while id do
    R.play(g, k, p, id)
    _, id = g:deck_run(run, p)
  end
end

local named_turns = bots.named(k)

function game.turn(g)
  local p = g:counter("active")
  start_turn(g, p)
  local bot = g:bot(p)
  local named = bot and named_turns[bot]
  while true do
    local built = g:count("constructs", p) -- settling fires abilities, builds nothing
    R.settle(g, k, p, built)
    local act, id
    if named then
      act, id = named_choice(g, p, bot, named, built)
    else
      act, id = asked_choice(g, p)
    end
    if act == "end" then break end
    if act == "all" then
      play_all(g, p)
    elseif act == "play" then
      R.play(g, k, p, id)
    elseif act == "buy" then
      R.buy(g, k, p, id)
    elseif act == "defeat" then
      R.defeat(g, k, p, id)
    else
      g:set(R.outpost(g, k, p), "used", g:counter("_turnno"))
      g:log("Templar Outpost:")
      R.defeat(g, k, p, id, true)
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

-- How it ended, in words for the end screen.
function game.summary(g)
  if g:counter("honour_pool") == 0 then return "The Honour pool ran out." end
  return "The centre row could not be refilled."
end

return game
