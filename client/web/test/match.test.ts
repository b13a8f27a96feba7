// match.test.ts: a match as the client keeps it (src/match.ts): deltas applied in order,
// a delta that does not follow asks for a resync and changes nothing, a skipped event_seq
// is noticed, the decision follows the delta, cards come from their bundle's Catalog.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Match, addCatalog } from "../src/match";
import type { DecisionRequest, View, ViewDelta } from "../src/gen/deckhand";

const decision = (id: number, seat = 0): DecisionRequest => ({
  match_id: "m-1", event_seq: 3, decision_id: id, seat, prompt: "Buy", kind: "buy",
  options: [{ id: 1, label: "Buy Copper", card: "Copper", entity: 7 }], min: 1, max: 1,
});

function view(): View {
  return {
    match_id: "m-1", event_seq: 3, seat: 0, game: "dominion",
    players: [{ seat: 0, name: "Ann", connected: true }, { seat: 1, name: "Bo", connected: true }],
    zones: [{ name: "hand", owner: 0, count: 1, cards: [{ entity: 5, name: "Copper" }] },
      { name: "hand", owner: 1, count: 5, cards: [] },
      { name: "supply:Copper", owner: -1, count: 46, cards: [{ entity: 7, name: "Copper" }] }],
    counters: [{ name: "coins", owner: -1, value: 0 }, { name: "_hidden", owner: 0, value: 1 }],
    waiting_for: 0, decision: decision(10), finished: false, bundle_id: "b1", view_seq: 900,
  };
}

const delta = (base: number, seq: number, extra: Partial<ViewDelta> = {}): ViewDelta => ({
  match_id: "m-1", event_seq: 4, seat: 0, base_view_seq: base, view_seq: seq, zones: [], counters: [],
  waiting_for: 1, decision: null, finished: false, ...extra,
});

test("a delta that follows the held view replaces its zones, counters and decision", () => {
  const m = new Match("m-1");
  m.setView(view());
  assert.equal(m.decision?.decision_id, 10);
  const ok = m.applyDelta(delta(900, 1234, {
    zones: [{ name: "hand", owner: 0, count: 0, cards: [] }],
    counters: [{ name: "coins", owner: -1, value: 3 }],
  }));
  assert.equal(ok, true);
  assert.equal(m.viewSeq, 1234);
  assert.equal(m.zonesOf(0).find((z) => z.name === "hand")?.count, 0);
  assert.equal(m.counter("coins", -1), 3);
  assert.equal(m.decision, null);
  assert.equal(m.waitingFor, 1);
  assert.equal(m.zonesOf(-1).length, 1, "zones the delta does not name stay");
});

test("a delta that does not follow is refused and changes nothing", () => {
  const m = new Match("m-1");
  assert.equal(m.applyDelta(delta(900, 901)), false, "no view held");
  m.setView(view());
  assert.equal(m.applyDelta(delta(899, 901, { counters: [{ name: "coins", owner: -1, value: 9 }] })), false);
  assert.equal(m.counter("coins", -1), 0);
  assert.equal(m.viewSeq, 900);
});

test("an event that skips an event_seq is noticed; the log keeps the texts", () => {
  const m = new Match("m-1");
  m.setView(view());
  assert.equal(m.addEvent({ match_id: "m-1", event_seq: 4, kind: "log", text: "Ann buys Copper", seat: -1 }), true);
  assert.equal(m.addEvent({ match_id: "m-1", event_seq: 6, kind: "log", text: "Bo plays", seat: -1 }), false);
  assert.deepEqual(m.log, ["Ann buys Copper", "Bo plays"]);
});

test("another seat's decision is not this seat's; hidden counters are not shown", () => {
  const m = new Match("m-1");
  m.setView(view());
  m.setDecision(decision(11, 1));
  assert.equal(m.decision?.decision_id, 10);
  m.setDecision(decision(12, 0));
  assert.equal(m.decision?.decision_id, 12);
  assert.deepEqual(m.countersOf(0), []);
});

test("a card's counters (NAME:ENTITY) go with the card, not the table", () => {
  const m = new Match("m-1");
  const v = view();
  v.counters.push({ name: "attack:57", owner: -1, value: 2 }, { name: "health:57", owner: -1, value: 1 },
    { name: "_aura:57", owner: -1, value: 1 });
  m.setView(v);
  assert.deepEqual(m.countersOf(-1).map((c) => c.name), ["coins"]);
  assert.deepEqual(m.stats(57), [["attack", 2], ["health", 1]]);
  assert.deepEqual(m.stats(5), []);
});

test("cards are described by their bundle's catalog", () => {
  addCatalog({ bundle_id: "b1", game: "dominion", cards: [{ name: "Copper", cost: 0, types: "Treasure", text: "+$1" }], presentation: null });
  const m = new Match("m-1");
  assert.equal(m.card("Copper"), undefined, "no bundle yet");
  m.setView(view());
  assert.equal(m.card("Copper")?.types, "Treasure");
  assert.equal(m.name(1), "Bo");
});
