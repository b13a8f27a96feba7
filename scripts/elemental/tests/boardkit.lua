-- Tests of the shared board library (boardkit/): grid positions, statuses with
-- durations and their published counters, the event bus and its vetoes. They run on
-- Elemental Command matches (its grid, statuses and bus), but pin boardkit's own rules.
local E = require("elemental.testkit")
local grid = require("boardkit.grid")
local events = require("boardkit.events")

local tests = {}

function tests.test_grid_names_every_space_as_a_zone_and_parses_it_back(T)
  local gr = grid.new { rows = { "front", "back" }, cols = 5 }
  T.eq(gr:zone(2, 4), "board:back:4")
  T.eq(gr:label(1, 3), "front 3")
  T.eq(#gr:all_spaces(), 10)
  local m = E.match(T, { p1 = { board = { ["back 4"] = "Stone Wall" } } })
  local r, c, owner = gr:pos(m.g, E.at(m, 1, "back 4"))
  T.eq({ r, c, owner }, { 2, 4, 1 })
end

function tests.test_grid_front_is_the_first_piece_of_a_column_from_the_middle(T)
  local m = E.match(T, { p2 = { board = { ["back 2"] = "Stone Wall", ["front 3"] = "Zephyr Imp",
                                          ["back 3"] = "Root Warden" } } })
  local gr = E.kernel().grid
  T.eq(m.g:name(gr:front(m.g, 2, 3)), "Zephyr Imp")
  T.eq(m.g:name(gr:front(m.g, 2, 2)), "Stone Wall")
  T.eq(gr:front(m.g, 2, 1), nil)
  T.eq(#gr:free(m.g, 2), 7)
  T.eq(#gr:pieces(m.g, 2), 3)
end

function tests.test_grid_pieces_and_free_spaces_come_in_reading_order(T)
  local m = E.match(T, { p2 = { board = { ["back 2"] = "Stone Wall", ["front 3"] = "Zephyr Imp",
                                          ["back 3"] = "Root Warden" } } })
  local gr, g = E.kernel().grid, m.g
  local names = {}
  for _, id in ipairs(gr:pieces(g, 2)) do names[#names + 1] = g:name(id) end
  T.eq(names, { "Zephyr Imp", "Stone Wall", "Root Warden" })
  T.eq(gr:free(g, 2), { { 1, 1 }, { 1, 2 }, { 1, 4 }, { 1, 5 }, { 2, 1 }, { 2, 4 }, { 2, 5 } })
  T.eq(#gr:pieces(g, 1), 0)
  T.eq(#gr:free(g, 1), 10)
end

function tests.test_grid_adjacent_and_beside(T)
  local gr = grid.new { rows = { "front", "back" }, cols = 5 }
  T.eq(gr:adjacent(1, 1), { { 1, 2 }, { 2, 1 } })
  T.eq(gr:adjacent(2, 3), { { 2, 2 }, { 2, 4 }, { 1, 3 } })
end

function tests.test_grid_refuses_a_taken_space(T)
  local m = E.match(T, { p1 = { board = { ["front 1"] = "Stone Wall" } } })
  local gr = E.kernel().grid
  local id = m.g:new("Zephyr Imp", "hand", 1)
  T.ok(not pcall(gr.place, gr, m.g, id, 1, 1, 1))
end

function tests.test_status_with_a_duration_wears_off_at_the_end_of_its_turn(T)
  local m = E.match(T, { p1 = { board = { ["front 1"] = "Zephyr Imp" } } })
  local st, g, id = E.kernel().st, m.g, E.at(m, 1, "front 1")
  st:set(g, id, "taunt", 1, g:counter("turn") + 2)
  T.eq(st:ends(g, id, "taunt"), 3)
  E.end_turn(m)
  E.end_turn(m)
  T.eq(st:get(g, id, "taunt"), 1, "on through the ends of turns 1 and 2")
  E.end_turn(m)
  T.eq(st:get(g, id, "taunt"), 0)
end

function tests.test_a_shorter_duration_does_not_cut_a_longer_one(T)
  local m = E.match(T, { p1 = { board = { ["front 1"] = "Zephyr Imp" } } })
  local st, g, id = E.kernel().st, m.g, E.at(m, 1, "front 1")
  st:set(g, id, "swift", 1)
  st:set(g, id, "swift", 1, 1)
  T.eq(st:ends(g, id, "swift"), 0, "permanent stays permanent")
end

function tests.test_public_statuses_are_mirrored_into_counters_and_cleared_on_leaving(T)
  local m = E.match(T, { p1 = { board = { ["front 1"] = "Pebble Sentry" } } })
  local id = E.at(m, 1, "front 1")
  T.eq(m.g:counter("taunt:" .. id), 1)
  T.eq(m.g:counter("health:" .. id), 1)
  E.kernel().st:clear(m.g, id)
  T.eq(m.g:counter("taunt:" .. id), 0)
  T.eq(m.g:counter("health:" .. id), 0)
end

function tests.test_status_held_lists_names_in_declaration_order(T)
  local m = E.match(T, { p1 = { board = { ["front 1"] = "Living Rampart" } } })
  T.eq(table.concat(E.kernel().st:held(m.g, E.at(m, 1, "front 1")), ","),
       "attack,health,max_health,taunt,reflect")
end

function tests.test_status_nheld_counts_what_held_lists(T)
  local m = E.match(T, { p1 = { board = { ["front 1"] = "Living Rampart" } } })
  local st, id = E.kernel().st, E.at(m, 1, "front 1")
  T.eq(st:nheld(m.g, id), 5)
  st:dispel(m.g, id)
  T.eq(st:nheld(m.g, id), #st:held(m.g, id))
  T.eq(st:nheld(m.g, id), 3, "a dispel keeps the base stats")
end

function tests.test_bus_ask_is_vetoed_by_any_one_listener(T)
  local m = E.match(T, { p1 = { board = { ["front 1"] = "Zephyr Imp" } },
                         p2 = { board = { ["back 5"] = "Gravity Well" } } })
  local k = E.kernel()
  local ok, by = k.bus:ask(m.g, "can_move", { unit = E.at(m, 1, "front 1") })
  T.eq(ok, false)
  T.eq(m.g:name(by), "Gravity Well")
  T.eq((k.bus:ask(m.g, "can_move", { unit = E.at(m, 2, "back 5") })), true)
end

function tests.test_bus_handlers_come_from_the_card_then_its_statuses(T)
  local m = E.match(T, { p1 = { board = { ["front 1"] = { "Gravity Well", stun = 1 } } } })
  local k = E.kernel()
  T.eq(#k.bus:handlers(m.g, E.at(m, 1, "front 1"), "can_move"), 2)
  T.eq(#k.bus:handlers(m.g, E.at(m, 1, "front 1"), "can_attack"), 1)
end

-- g:tops, g:gets and g:count_held read a frozen module list (a grid's zone names, a status set's
-- names) through ids kept once per list (engine_board.c): the answers are the per-name
-- rule's (g:top per space, g:get per status), and a plain copy's.
function tests.test_tops_and_gets_of_frozen_lists_answer_as_one_call_per_name_does(T)
  local m = E.match(T, { p2 = { board = { ["back 2"] = "Stone Wall",
                                          ["front 3"] = "Zephyr Imp" } } })
  local k, g = E.kernel(), m.g
  local zones, copy = k.grid.zones, {}
  for i, z in ipairs(zones) do copy[i] = z end
  local tops, empty = {}, {}
  for i, z in ipairs(zones) do
    local id = g:top(z, 2)
    if id then tops[#tops + 1] = id else empty[#empty + 1] = i end
  end
  for _ = 1, 2 do -- the second call answers from the kept ids
    T.eq(g:tops(zones, 2), tops)
    T.eq(g:tops(zones, 2, "empty"), empty)
    T.eq(g:tops(copy, 2), tops)
    T.eq(g:count_empty(zones, 2), #empty)
  end
  local id, names, values = E.at(m, 2, "front 3"), k.st.names, {}
  for i, n in ipairs(names) do values[i] = g:get(id, n) end
  T.eq(g:gets(id, names), values)
  T.eq(g:gets(id, names), values)
  local held = 0
  for _, v in ipairs(values) do held = held + (v ~= 0 and 1 or 0) end
  T.eq(g:count_held(id, names), held, "g:count_held: the nonzero ones")
  T.eq(g:count_held(id, { "attack", "stun" }), 1, "a list a script built")
end

-- A list a script built (not frozen) may change between calls: it is read afresh.
function tests.test_tops_reads_a_list_a_script_built_afresh_on_every_call(T)
  local m = E.match(T, { p1 = { board = { ["front 1"] = "Stone Wall" } } })
  local g, list = m.g, { "board:front:1" }
  T.eq(#g:tops(list, 1), 1)
  list[1] = "board:front:2"
  T.eq(#g:tops(list, 1), 0)
  local id = E.at(m, 1, "front 1")
  T.eq(g:gets(id, { "stun", "health" }), { 0, g:get(id, "health") })
end

-- g:pick(ids, names [, attrs [, "names"]]) against the Lua rule it replaces: an id is
-- kept when names maps its card name to true or it holds any of attrs.
function tests.test_pick_keeps_ids_whose_card_is_named_or_that_hold_an_attribute(T)
  local m = E.match(T, { p1 = { board = { ["front 1"] = "Stone Wall", ["front 2"] = "Zephyr Imp",
                                          ["front 3"] = { "Zephyr Imp", stun = 1 } } } })
  local g, ids = m.g, E.kernel():minions(m.g, 1)
  local names, attrs = { ["Stone Wall"] = true }, { "root", "stun" }
  local want, want_names = {}, {}
  for _, id in ipairs(ids) do
    if names[g:name(id)] or g:get(id, "root") ~= 0 or g:get(id, "stun") ~= 0 then
      want[#want + 1], want_names[#want_names + 1] = id, g:name(id)
    end
  end
  T.eq(#want, 2)
  T.eq(g:pick(ids, names), { ids[1] })
  local got, got_names = g:pick(ids, names, attrs, "names")
  T.eq({ got, got_names }, { want, want_names })
  T.eq(g:pick(ids, {}, E.kernel().st.names), ids, "a frozen list of attributes")
  T.ok(not pcall(g.pick, g, { 0 }, names), "an id that is no entity is refused")
end

-- g:gather(zones, owner...) against the Lua rule it replaces: g:list of each zone of its
-- owner, joined in order.
function tests.test_gather_joins_the_zones_of_their_owners_in_order(T)
  local m = E.match(T, { p1 = { hand = { "Fireball", "Stone Wall" },
                                board = { ["front 2"] = "Zephyr Imp" } } })
  local g, want = m.g, {}
  local zones, owners = { "hero", "hand", "board:front:2", "hero", "grave" }, { 1, 1, 1, 2, 2 }
  for i, z in ipairs(zones) do
    for _, id in ipairs(g:list(z, owners[i])) do want[#want + 1] = id end
  end
  T.eq(#want, 5)
  T.eq(g:gather(zones, table.unpack(owners)), want)
  T.ok(not pcall(g.gather, g, zones, 1, 2), "one owner per zone")
end

-- g:due(ids, attrs, now) against the Lua rule it replaces: an id is due when any of the
-- attributes is other than 0 and at most now (a status ending by turn now).
function tests.test_due_keeps_ids_with_a_status_ending_by_now(T)
  local m = E.match(T, { p1 = { board = { ["front 1"] = "Stone Wall", ["front 2"] = "Zephyr Imp",
                                          ["front 3"] = "Zephyr Imp" } } })
  local st, g = E.kernel().st, m.g
  local ids = E.kernel():minions(g, 1)
  st:set(g, ids[1], "stun", 1, 3)
  st:set(g, ids[3], "root", 1, 5)
  for _, now in ipairs { 2, 3, 4, 5, 9 } do
    local want = {}
    for _, id in ipairs(ids) do
      local due = false
      for _, u in ipairs(st.untils) do
        local v = g:get(id, u)
        due = due or (v ~= 0 and v <= now)
      end
      if due then want[#want + 1] = id end
    end
    T.eq(g:due(ids, st.untils, now), want, "turn " .. now)
  end
  T.eq(#g:due(ids, st.untils, 5), 2)
end

function tests.test_blame_passes_every_result_and_names_the_entity_in_errors(T)
  local function describe(_, id) return "piece " .. id end
  local a, b, c = events.blame(describe, nil, 7, "x", function(...) return ... end, 1, nil, 3)
  T.eq({ a, b, c }, { 1, nil, 3 })
  T.eq(select("#", events.blame(describe, nil, 7, "x", function() return nil, nil end)), 2)
  local ok, err = pcall(events.blame, describe, nil, 7, "on_play",
                        function() error("boom", 0) end)
  T.eq({ ok, err }, { false, "piece 7: on_play: boom" })
  local thrown = {}
  ok, err = pcall(events.blame, describe, nil, 7, "x", function() error(thrown) end)
  T.ok(not ok and err == thrown, "an error that is not a string passes unchanged")
end

return tests
