-- Event-model tests: CAN_* vetoes hide an action, BEFORE_* vetoes cancel it once paid,
-- ON_* events follow it; every listener must agree; statuses on any element carry their
-- own scripts and durations; a card overrides its type's default script by name; one
-- seeded RNG per match; a script error names its card; a trap listens only during the
-- opponent's turn.
local M = require("mlw.testkit")
local k = M.kernel()
local events = require("boardkit.events")

local tests = {}

-- ---- CAN_*, BEFORE_*, ON_* --------------------------------------------------------------

function tests.test_a_can_veto_removes_the_action_from_the_options(T)
  local m = M.match(T, { p1 = { monsters = { { "Knight", frozen = 1 } } } })
  T.ok(not M.offers_any(m, "Knight (P1 slot 1) attacks"), "frozen vetoes CAN_ATTACK")
  T.ok(M.offers(m, "Drain Knight (P1 slot 1)"), "other actions stay")
end

function tests.test_every_listener_must_agree_one_veto_is_enough(T)
  -- Alex's own script allows the direct attack past the Wolf; the Guardian vetoes it.
  local m = M.match(T, { p1 = { monsters = { "Alex" } }, p2 = { monsters = { "Wolf" } } })
  T.ok(M.offers(m, "Alex (P1 slot 1) attacks P2's wizard"))
  local m2 = M.match(T, { p1 = { monsters = { "Alex" } }, p2 = { monsters = { "Guardian" } } })
  T.ok(not M.offers(m2, "Alex (P1 slot 1) attacks P2's wizard"))
  T.ok(M.offers(m2, "Alex (P1 slot 1) attacks " .. M.slot("Guardian", 2, 1)))
end

function tests.test_a_before_veto_cancels_the_action_after_it_is_paid(T)
  local m = M.match(T, { p1 = { hand = { "Fireball" } }, p2 = { trap = "Backfire" } })
  M.play(m, "Fireball", M.wiz(2))
  T.eq(M.health(m, 2), 20, "no effect")
  T.eq(M.mana(m, 1), 6, "the mana is spent")
  T.eq(M.names(m.g, "grave", 1), "Fireball", "the card is spent")
  T.ok(M.saw_part(m, 1, "Fireball is cancelled by Backfire"))
end

function tests.test_on_events_follow_the_action(T)
  -- Ambush listens to ON_PLAY: the monster is already in play when it is hit.
  local m = M.match(T, { p1 = { hand = { "Stone Golem" } }, p2 = { trap = "Ambush" } })
  M.play(m, "Stone Golem")
  T.eq(M.stat(m, 1, 1, "health"), 5)
end

-- ---- statuses ------------------------------------------------------------------------

function tests.test_a_status_on_a_wizard_carries_its_script_too(T)
  local m = M.match(T, { p1 = { hand = { "Fireball" } },
    setup = function(g) k.st:set(g, k:wizard(g, 2), "shield", 1) end })
  M.play(m, "Fireball", M.wiz(2))
  T.eq(M.health(m, 2), 20, "the shield on the wizard absorbed it")
  T.eq(k.st:get(m.g, k:wizard(m.g, 2), "shield"), 0, "and is gone")
end

function tests.test_poison_deals_its_damage_at_its_owners_turn_start(T)
  local m = M.match(T, { p2 = { monsters = { { "Knight", poison = 1 } } } })
  M.end_turn(m)
  T.eq(M.stat(m, 2, 1, "health"), 3)
end

function tests.test_frozen_ends_at_the_end_of_its_owners_next_turn(T)
  local m = M.match(T, { p1 = { monsters = { "Frost Mage" } }, p2 = { monsters = { "Knight" } } })
  M.pick(m, "Activate Frost Mage (P1 slot 1)")
  M.pick(m, M.slot("Knight", 2, 1))
  M.end_turn(m)
  T.ok(not M.offers_any(m, "Knight (P2 slot 1) attacks"), "frozen on its owner's turn")
  M.end_turn(m)
  T.eq(M.stat(m, 2, 1, "frozen"), 0, "worn off")
end

function tests.test_a_boost_ends_with_the_turn_and_takes_its_attack_back(T)
  local m = M.match(T, { p1 = { hand = { "Rage" }, monsters = { "Wolf" } } })
  M.play(m, "Rage", M.slot("Wolf", 1, 1))
  T.eq(M.stat(m, 1, 1, "attack"), 4)
  M.end_turn(m)
  T.eq(M.stat(m, 1, 1, "attack"), 2)
end

function tests.test_statuses_are_public_counters_by_entity(T)
  local m = M.match(T, { p2 = { monsters = { { "Knight", frozen = 1 } } } })
  local id = M.monster(m, 2, 1)
  T.eq(m.g:counter("frozen:" .. id), 1)
  T.eq(m.g:counter("attack:" .. id), 3)
end

function tests.test_options_ask_only_listeners_with_a_handler_in_trigger_order(T)
  local m = M.match(T, { p1 = { monsters = { "Goblin", "Sparky" }, trap = "Pitfall" },
                         p2 = { monsters = { { "Knight", frozen = 1 }, "Wolf" },
                                trap = "Backfire" } })
  local g = m.g
  local all = k:listeners(g)
  T.eq(#all, 7, "2 wizards, 4 monsters, the trap of the player not on turn")
  local names = {}
  for _, id in ipairs(k:live_listeners(g)) do names[#names + 1] = g:name(id) end
  T.eq(table.concat(names, ","), "Sparky,Knight,Backfire")
end

-- k:live_listeners (one g:pick in C) against the Lua rule it replaces: a listener is kept
-- when its card has an `on` table or it holds a status that listens; defs are its cards.
function tests.test_live_listeners_are_the_listeners_with_a_card_or_status_handler(T)
  local m = M.match(T, { p1 = { monsters = { "Goblin", { "Wolf", shield = 1 }, "Sparky" } },
                         p2 = { monsters = { { "Knight", poison = 1 }, "Drain Warden" },
                                trap = "Backfire" } })
  local g, want, defs = m.g, {}, {}
  for _, id in ipairs(k:listeners(g)) do
    local def = k:def(g, id)
    local keep = def.on ~= nil
    for _, d in ipairs(k.LISTENING) do keep = keep or g:get(id, d.name) ~= 0 end
    if keep then want[#want + 1], defs[#defs + 1] = id, def end
  end
  local L = k:live_listeners(g)
  T.eq(#want, 5)
  T.eq(#L, #want)
  for i = 1, #want do
    T.eq(L[i], want[i])
    T.ok(L.defs[i] == defs[i], "the card of listener " .. i)
  end
end

-- The bus indexes which cards handle which event (events:index): asking or telling
-- through the index answers as walking every listener does.
function tests.test_the_indexed_bus_answers_as_a_walk_over_every_listener(T)
  local m = M.match(T, { p1 = { monsters = { "Goblin", "Ghost" } },
                         p2 = { monsters = { "Drain Warden", "Guardian" }, trap = "Backfire" } })
  local g, bus = m.g, k.bus
  local walk = events.new { status = k.st, card = bus.card, describe = bus.describe,
                            listeners = function(gg) return k:listeners(gg) end }
  local a, d = M.monster(m, 1, 1), M.monster(m, 2, 1)
  local asks = {
    { "CAN_DRAIN", { player = 1, unit = a } }, { "CAN_DRAIN", { player = 2, unit = d } },
    { "CAN_ATTACK_WIZARD", { player = 1, unit = a } }, { "CAN_DEFEND", { unit = d, attacker = a } },
    { "CAN_DEFEND", { unit = M.monster(m, 1, 2), attacker = d } },
    { "CAN_DISCARD", { player = 1, card = a } }, { "CAN_PLAY", { player = 1, card = a } },
  }
  for _, q in ipairs(asks) do
    local ok1, by1 = bus:ask(g, q[1], q[2])
    local ok2, by2 = walk:ask(g, q[1], q[2])
    T.eq({ ok1, by1 }, { ok2, by2 }, q[1])
  end
  T.eq(bus.by_card.CAN_DRAIN["Drain Warden"], true)
  T.eq(bus.by_card.NO_SUCH_EVENT, nil, "an event no card handles walks nobody")
end

-- ---- default scripts per type --------------------------------------------------------

function tests.test_a_card_overrides_its_types_default_script_by_name(T)
  local cards = require("mlw.game").cards
  local types = require("mlw.types")
  T.eq(cards["Knight"].can_attack_wizard, types.monster.can_attack_wizard, "inherited")
  T.ok(cards["Alex"].can_attack_wizard ~= types.monster.can_attack_wizard, "overridden")
  T.eq(cards["Sparky"].attacks_per_turn, 2)
  T.eq(cards["Knight"].attacks_per_turn, 1)
  T.eq(cards["Fireball"].resolve, types.spell.resolve)
end

-- ---- randomness ----------------------------------------------------------------------

function tests.test_one_seeded_rng_per_match_replays_alike(T)
  local spec = { players = 2, seed = 5, bots = { "default", "default" } }
  M.check_replays(T, spec)
  local other = T.match { players = 2, seed = 6, bots = { "default", "default" } }
  T.ok(other:hash() ~= T.match(spec):hash(), "another seed, another game")
end

-- ---- errors --------------------------------------------------------------------------

function tests.test_a_card_script_error_names_the_card(T)
  local m = M.match(T, { p1 = { hand = { "Fireball" } } })
  local id = m.g:top("hand", 1)
  local ok, err = pcall(k.run, k, m.g, id, "effect", function() error("boom", 0) end)
  T.ok(not ok)
  T.eq(err, "Fireball (entity " .. id .. "): effect: boom")
end

function tests.test_an_error_in_a_real_cards_listener_names_the_card_and_the_event(T)
  -- Viper's ON_DAMAGE handler reads ctx.target: an event without one breaks it.
  local m = M.match(T, { p1 = { monsters = { "Viper" } } })
  local id = M.monster(m, 1, 1)
  local ok, err = pcall(k.emit, k, m.g, "ON_DAMAGE", { source = id, amount = 1 })
  T.ok(not ok)
  local want = "Viper (P1 slot 1) (entity " .. id .. "): ON_DAMAGE: "
  T.eq(tostring(err):sub(1, #want), want)
end

function tests.test_a_listener_error_names_the_element_and_the_event(T)
  local m = M.match(T, {})
  local bus = events.new {
    card = function() return { on = { CAN_X = function() error("boom", 0) end } } end,
    listeners = function(g) return { k:wizard(g, 2) } end,
    describe = function(g, id) return k:describe(g, id) end,
  }
  local ok, err = pcall(bus.ask, bus, m.g, "CAN_X", {})
  T.ok(not ok)
  T.eq(err, "P2's wizard: CAN_X: boom")
end

-- ---- traps ---------------------------------------------------------------------------

function tests.test_a_trap_listens_only_during_the_opponents_turn(T)
  local m = M.match(T, { p1 = { monsters = { "Knight" }, trap = "Pitfall" },
                         p2 = { monsters = { "Stone Golem" } } })
  M.attack(m, 1, 1, M.slot("Stone Golem", 2, 1))
  T.eq(m.g:count("trap", 1), 1, "not on its owner's own attack")
  M.end_turn(m)
  M.pick(m, "Stone Golem (P2 slot 1) attacks " .. M.slot("Knight", 1, 1))
  T.eq(m.g:count("trap", 1), 0, "fired on the opponent's")
end

-- ---- the bus's walk narrowed in C ---------------------------------------------------------

-- A bus over three listeners whose statuses listen to PING (boardkit/events.lua narrows
-- its walk with g:pick): the Knight's card gives the Troll a mark, and the mark's handler
-- notes who ran it.
local function ping_bus(ids)
  local status = require("boardkit.status")
  local st = status.new { { name = "mark", on = { PING = function(_, id, ctx)
    ctx.seen[#ctx.seen + 1] = id
  end } } }
  local cards = { Knight = { on = { PING = function(g, _, _) st:set(g, ids[3], "mark", 1) end } } }
  local bus = events.new { status = st, card = function(g, id) return cards[g:name(id)] end,
                           listeners = function() return ids end }
  bus:index(cards)
  return bus, st
end

-- A status an earlier handler gives a later listener runs in the same event, as it did
-- when every listener was walked; listeners with nothing to run are passed over.
function tests.test_a_status_given_mid_event_still_runs_its_handler_that_event(T)
  local m = M.match(T, { p1 = { monsters = { "Wolf", "Knight", "Troll" } } })
  local g = m.g
  local ids = { M.monster(m, 1, 1), M.monster(m, 1, 2), M.monster(m, 1, 3) }
  local bus, st = ping_bus(ids)
  local ctx = { seen = {} }
  bus:emit(g, "PING", ctx)
  T.eq(ctx.seen, { ids[3] }, "the Troll, marked by the Knight, ran its mark")
  st:set(g, ids[1], "mark", 1)
  ctx = { seen = {} }
  T.ok(bus:ask(g, "PING", ctx))
  T.eq(ctx.seen, { ids[1], ids[3] }, "the Wolf first, in listener order")
end

-- g:fallen (in C) finds the monsters at 0 health the way a walk over both monster zones
-- does, the active player's first: the order Wizardry destroys them in.
function tests.test_death_check_in_c_finds_the_active_players_dead_monster_first(T)
  local m = M.match(T, { p1 = { monsters = { "Wolf", "Knight" } },
                         p2 = { monsters = { "Troll", "Wolf" } } })
  local g = m.g
  local dead = { M.monster(m, 1, 2), M.monster(m, 2, 1) }
  g:set(dead[1], "health", 0)
  g:set(dead[2], "health", -2)
  local want = {}
  for p = 1, 2 do
    for _, id in ipairs(g:list("monsters", p)) do
      if g:get(id, "health") <= 0 then want[#want + 1] = id end
    end
  end
  T.eq(want, dead)
  T.eq(g:fallen({ "monsters" }, "health", false, 1, 2), want)
  T.eq(g:fallen({ "monsters" }, "health", false, 2, 1), { dead[2], dead[1] }, "owners' order")
end

-- A monster enters play with one g:status_enter (in C), from its card's data at load: the
-- values, durations and published counters a st:set per stat gives.
function tests.test_a_monster_enters_with_the_stats_st_set_would_give_it(T)
  local m = M.match(T, {})
  local g = m.g
  for _, name in ipairs { "Wolf", "Troll", "Ghost" } do
    local def = k.cards[name]
    local fast, slow = g:new(name, "hand", 1), g:new(name, "hand", 2)
    k:summon(g, fast, 1)
    g:move(slow, "monsters", 2)
    k.st:set(g, slow, "attack", def.attack)
    k.st:set(g, slow, "health", def.health)
    k.st:set(g, slow, "max_health", def.health)
    T.eq(g:gets(fast, k.st.names), g:gets(slow, k.st.names), name .. ": values")
    T.eq(g:gets(fast, k.st.untils), g:gets(slow, k.st.untils), name .. ": durations")
    for _, s in ipairs(k.st.names) do
      T.eq(g:counter(s .. ":" .. fast), g:counter(s .. ":" .. slow), name .. ": " .. s)
    end
  end
end

return tests
