// words.test.ts: what a player reads of a match (src/match.ts): counters through the
// bundle's CounterHints (a label, hidden internals left out, the hints' drawing order), the
// game's title and rules summary from the bundle or the lobby, names without a label made
// words, a card's own counters hidden with their counter, and the board's rows in the
// order the options name their spaces before the order zones came in.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Match, addCatalog, gameWords, words } from "../src/match";
import type { DecisionRequest, Presentation, View } from "../src/gen/deckhand";

const presentation: Presentation = {
  zones: [], type_colors: [], title: "Elemental Command", summary: "Play minions.\n\nWin by hero.",
  counters: [
    { counter: "health", label: "Health", description: "At 0 you lose", hidden: false, order: 1 },
    { counter: "vp", label: "Victory points", description: "", hidden: false, order: 0 },
    { counter: "power_used", label: "", description: "", hidden: true, order: 0 },
  ],
};
addCatalog({ bundle_id: "w1", game: "elemental", cards: [], presentation });

function view(extra: Partial<View> = {}): View {
  return {
    match_id: "m", event_seq: 1, seat: 0, game: "elemental", players: [], waiting_for: 0, decision: null,
    finished: false, bundle_id: "w1", view_seq: 1,
    zones: [{ name: "board:back:1", owner: 0, count: 0, cards: [] }, { name: "board:front:1", owner: 0, count: 0, cards: [] }],
    counters: [{ name: "health", owner: 0, value: 30 }, { name: "power_used", owner: 0, value: 1 },
      { name: "max_mana", owner: 0, value: 2 }, { name: "vp", owner: 0, value: 3 },
      { name: "power_used:7", owner: 0, value: 1 }, { name: "attack:7", owner: 0, value: 2 }],
    ...extra,
  };
}

test("test_counters_read_as_the_bundle_says", () => {
  const m = new Match("m");
  m.setView(view());
  assert.deepEqual(m.countersOf(0).map((c) => m.counterLabel(c.name)), ["Victory points", "Health", "Max mana"],
    "hinted first in the hints' order, the hidden one left out, an unhinted one in words");
  assert.deepEqual(m.stats(7), [["attack", 2]], "a card's counter of a hidden name is hidden too");
});

test("test_the_game_has_its_title_and_summary", () => {
  const m = new Match("m");
  m.setView(view());
  assert.equal(m.title(), "Elemental Command");
  assert.match(m.summary(), /Win by hero/);
  const plain = new Match("p", { match_id: "p", seat: 0, game: "mlw", players: [] });
  assert.equal(plain.title(), "Mlw", "no words anywhere: the name, capitalised");
  gameWords.set("mlw", { title: "Major League Wizardry", summary: "Wizards duel." });
  assert.equal(plain.title(), "Major League Wizardry", "the lobby's title when the bundle has none");
  assert.equal(words("max_mana"), "Max mana");
});

test("test_board_rows_follow_the_options_spaces", () => {
  const m = new Match("m");
  m.setView(view());
  assert.deepEqual(m.boardRows, ["back", "front"], "zones alone: as they came");
  const d: DecisionRequest = {
    match_id: "m", event_seq: 1, decision_id: 2, seat: 0, prompt: "", kind: "place", min: 1, max: 1,
    time_left_ms: 0, can_undo: false,
    options: [{ id: 1, label: "front 1", card: "", entity: 5, verb: "", target: 0, space: "board:front:1" },
      { id: 2, label: "back 1", card: "", entity: 5, verb: "", target: 0, space: "board:back:1" }],
  };
  m.setDecision(d);
  assert.deepEqual(m.boardRows, ["front", "back"], "the grid's order, as the options list its spaces");
  m.setView(view());
  assert.deepEqual(m.boardRows, ["front", "back"], "kept for the match");
});
