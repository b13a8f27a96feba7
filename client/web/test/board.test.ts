// board.test.ts: playing on the board (src/board.ts): a directed option is taken only by
// its actor and then its target or space, a pair naming several options lists them, the
// panel keeps the undirected options, a card several plain options name lists them, and
// the board's rows and columns come from the hints and what was seen.
import assert from "node:assert/strict";
import { test } from "node:test";
import { boardCols, boardRows, clickCard, panelOptions, spaceOptions, targetsOf } from "../src/board";
import type { DecisionRequest, Option, ZoneHint } from "../src/gen/deckhand";

const opt = (id: number, entity: number, extra: Partial<Option> = {}): Option =>
  ({ id, label: `o${id}`, card: "", entity, verb: "", target: 0, space: "", ...extra });
const decision = (options: Option[]): DecisionRequest => ({
  match_id: "m", event_seq: 1, decision_id: 9, seat: 0, prompt: "", kind: "turn", options, min: 1, max: 1,
  time_left_ms: 0, can_undo: false,
});
// Minion 5 attacks the hero 20 or minion 21, or moves to two spaces; a spell 6 has one
// target; "End turn" acts from nothing.
const d = decision([
  opt(1, 5, { verb: "attack", target: 20 }), opt(2, 5, { verb: "attack", target: 21 }),
  opt(3, 5, { verb: "move", space: "board:front:2" }), opt(4, 5, { verb: "move", space: "board:back:3" }),
  opt(5, 6, { verb: "cast", target: 21 }), opt(6, 0, { verb: "end", label: "End turn" }),
]);

test("test_a_board_click_never_attacks_at_once: the first click picks the minion", () => {
  assert.deepEqual(clickCard(d, 0, 5), { kind: "actor", entity: 5 });
  assert.deepEqual(clickCard(d, 5, 5), { kind: "actor", entity: 0 }, "a second click drops it");
  assert.deepEqual(targetsOf(d, 5), new Set([20, 21]));
});

test("test_a_target_click_takes_the_one_option_it_names", () => {
  const c = clickCard(d, 5, 21);
  assert.equal(c?.kind, "choose");
  assert.equal(c?.kind === "choose" && c.option.id, 2);
  assert.deepEqual(spaceOptions(d, 5, "board:back:3").map((o) => o.id), [4]);
  assert.deepEqual(spaceOptions(d, 6, "board:back:3"), [], "the spell has no space");
});

test("test_an_ambiguous_pair_is_listed_not_taken", () => {
  const two = decision([opt(1, 5, { target: 20, label: "Hit" }), opt(2, 5, { target: 20, label: "Charm" })]);
  const c = clickCard(two, 5, 20);
  assert.equal(c?.kind, "narrow");
  assert.deepEqual(c?.kind === "narrow" && c.options.map((o) => o.id), [1, 2]);
  assert.deepEqual(panelOptions(two, 5, [1, 2]).map((o) => o.id), [1, 2]);
});

test("test_the_panel_keeps_what_is_not_played_on_the_board", () => {
  assert.deepEqual(panelOptions(d, 0, []).map((o) => o.id), [6]);
  assert.deepEqual(panelOptions(d, 5, []).map((o) => o.id), [1, 2, 3, 4]);
  const list = decision([opt(1, 0), opt(2, 7)]);
  assert.deepEqual(panelOptions(list, 0, []).map((o) => o.id), [1, 2], "a list decision shows every option");
});

test("test_a_card_several_plain_options_name_lists_them", () => {
  const old = decision([opt(1, 5, { label: "attack hero" }), opt(2, 5, { label: "move" }), opt(3, 7)]);
  const c = clickCard(old, 0, 5);
  assert.equal(c?.kind, "narrow");
  assert.equal(clickCard(old, 0, 7), null, "one option: the card's own click takes it");
});

test("test_the_board_has_every_row_known_and_its_columns", () => {
  const hints = [{ zone: "board", kind: "board", order: 1, label: "", columns: 5, color: "", description: "" }] as ZoneHint[];
  assert.deepEqual(boardRows(hints, ["front", "back"]), ["front", "back"]);
  const rowHints = [...hints, { ...hints[0], zone: "board:back", order: 3 }, { ...hints[0], zone: "board:front", order: 2 }];
  assert.deepEqual(boardRows(rowHints, ["back", "middle"]), ["front", "back", "middle"]);
  assert.deepEqual(boardCols(5, ["3"]), ["1", "2", "3", "4", "5"]);
  assert.deepEqual(boardCols(0, ["2", "7"]), ["1", "2", "3", "4", "5", "6", "7"]);
  assert.deepEqual(boardCols(0, ["b", "a"]), ["a", "b"]);
});

test("test_a_pick_of_a_card_is_its_own_click", () => {
  // a target decision: each option's target is its own card ("choose a minion")
  const pick = decision([opt(1, 20, { target: 20 }), opt(2, 21, { target: 21 })]);
  assert.equal(clickCard(pick, 0, 20), null, "the card's own option takes it");
  assert.deepEqual(panelOptions(pick, 0, []).map((o) => o.id), [1, 2]);
});

test("test_a_space_only_option_is_taken_on_its_space", () => {
  const place = decision([opt(1, 0, { space: "board:front:1" }), opt(2, 0, { space: "board:back:1" })]);
  assert.deepEqual(spaceOptions(place, 0, "board:back:1").map((o) => o.id), [2]);
  assert.deepEqual(spaceOptions(d, 0, "board:back:3"), [], "a minion's move waits for the minion");
});
