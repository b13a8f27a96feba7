// watch.test.ts: what the spectator and replay screens, the presentation hints, the
// decision timers and the keys are made of (src/match.ts, replay.ts, keys.ts,
// render_match.ts zoneKind), fed protocol messages as the servers send them.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Match, NO_SEAT, addCatalog } from "../src/match";
import { Replay } from "../src/replay";
import { moveFocus, optionKey, replayKey } from "../src/keys";
import { clock, zoneKind } from "../src/render_match";
import type { DecisionRequest, Event as GameEvent, ReplayFrame, SpectatorFrame, View } from "../src/gen/deckhand";

const decision = (id: number, seat = 0, extra: Partial<DecisionRequest> = {}): DecisionRequest => ({
  match_id: "m-1", event_seq: 3, decision_id: id, seat, prompt: "Buy", kind: "buy", min: 1, max: 1, time_left_ms: 0,
  options: [{ id: 1, label: "Buy Copper", card: "Copper", entity: 7 }, { id: 2, label: "Done", card: "", entity: 0 }],
  ...extra,
});

function view(seq: number, extra: Partial<View> = {}): View {
  return {
    match_id: "m-1", event_seq: seq, seat: 0, game: "dominion",
    players: [{ seat: 0, name: "Ann", connected: true }, { seat: 1, name: "Bo", connected: true }],
    zones: [{ name: "hand", owner: 0, count: 5, cards: [] }, { name: "play", owner: 0, count: 1, cards: [{ entity: 9, name: "Smithy" }] },
      { name: "supply:Copper", owner: -1, count: 46, cards: [{ entity: 7, name: "Copper" }] }],
    counters: [], waiting_for: 0, decision: null, finished: false, bundle_id: "hinted", view_seq: seq, ...extra,
  };
}

const ev = (seq: number, text: string): GameEvent => ({ match_id: "m-1", event_seq: seq, kind: "log", text, seat: -1 });

const frame = (seq: number, events: GameEvent[], extra: Partial<SpectatorFrame> = {}): SpectatorFrame => ({
  match_id: "m-1", view: view(seq), events, delay_ms: 3000, game_over: null, spectators: 2, ...extra,
});

test("test_spectator_frames_log_each_public_event_once_and_show_no_decision", () => {
  const m = new Match("m-1");
  assert.equal(m.applyFrame(frame(4, [ev(3, "Ann plays Smithy"), ev(4, "Ann draws 3 cards")])), true);
  // a view carrying a decision (it must not, but) is not shown as one: a spectator has no seat
  assert.equal(m.applyFrame(frame(6, [ev(4, "Ann draws 3 cards"), ev(5, "Ann buys Copper")],
    { view: view(6, { decision: decision(10) }) })), true);
  assert.deepEqual(m.log, ["Ann plays Smithy", "Ann draws 3 cards", "Ann buys Copper"]);
  assert.equal(m.seat, NO_SEAT);
  assert.equal(m.decision, null);
  assert.equal(m.delayMs, 3000);
  assert.equal(m.spectators, 2);
  assert.deepEqual(m.seats(), [0, 1], "both seats are drawn as players");
  assert.equal(m.over, null);
});

test("test_spectator_refuses_another_matchs_frame_and_ends_on_game_over", () => {
  const m = new Match("m-1");
  m.applyFrame(frame(4, []));
  assert.equal(m.applyFrame({ ...frame(9, [ev(9, "other")]), match_id: "m-2" }), false);
  assert.equal(m.eventSeq, 4);
  assert.deepEqual(m.log, []);
  const over = { match_id: "m-1", event_seq: 12, reason: "", results: [{ seat: 1, name: "Bo", score: 30, rank: 1, turns: 20 }] };
  m.applyFrame(frame(12, [ev(12, "Bo wins")], { game_over: over }));
  assert.equal(m.over?.results[0].name, "Bo");
});

const rframe = (index: number, total: number, extra: Partial<ReplayFrame> = {}): ReplayFrame => ({
  match_id: "m-1", index, total, view: view(index + 1), events: [ev(index + 1, `step ${index}`)], game: "dominion",
  players: ["Ann", "Bo"], game_over: null, ...extra,
});

test("test_replay_steps_only_through_frames_that_arrived", () => {
  const r = new Replay("m-1");
  assert.equal(r.match(), null, "nothing to show before frame 0");
  assert.equal(r.add(rframe(0, 4)), true);
  assert.equal(r.add(rframe(2, 4)), true);
  assert.equal(r.add({ ...rframe(1, 4), match_id: "m-2" }), false, "another match's frame");
  assert.equal(r.add(rframe(7, 4)), false, "an index past total");
  assert.equal(r.received, 1, "frame 1 is missing");
  assert.equal(r.go(3), false, "cannot step past what arrived");
  r.add(rframe(1, 4));
  assert.equal(r.received, 3);
  assert.equal(r.go(99), true);
  assert.equal(r.at, 2);
  assert.equal(r.go(-5), true);
  assert.equal(r.at, 0);
});

test("test_replay_frame_shows_the_log_up_to_it_and_the_result_at_the_end", () => {
  const r = new Replay("m-1");
  const over = { match_id: "m-1", event_seq: 4, reason: "", results: [{ seat: 0, name: "Ann", score: 5, rank: 1, turns: 2 }] };
  for (let i = 0; i < 3; i++) r.add(rframe(i, 3, i === 2 ? { game_over: over } : {}));
  r.go(1);
  let m = r.match()!;
  assert.deepEqual(m.log, ["step 0", "step 1"]);
  assert.equal(m.seat, NO_SEAT);
  assert.equal(m.name(1), "Bo");
  assert.equal(m.over, null);
  r.go(2);
  m = r.match()!;
  assert.equal(m.log.length, 3);
  assert.equal(m.over?.results[0].rank, 1);
  assert.equal(m.zonesOf(0).find((z) => z.name === "play")?.cards[0].name, "Smithy");
});

test("test_presentation_hints_name_zones_by_name_or_prefix_and_colour_types", () => {
  addCatalog({
    bundle_id: "hinted", game: "dominion", cards: [{ name: "Smithy", cost: 4, types: "Action", text: "+3 Cards" }],
    presentation: {
      zones: [{ zone: "supply", kind: "supply", order: 1, label: "Kingdom", columns: 0, color: "" },
        { zone: "play", kind: "hand", order: 0, label: "In play", columns: 0, color: "#123456" },
        { zone: "trash", kind: "hidden", order: 5, label: "", columns: 0, color: "" }],
      type_colors: [{ type: "Action", color: "#eeeeee" }, { type: "Victory", color: "green" }],
    },
  });
  addCatalog({ bundle_id: "plain", game: "dominion", cards: [], presentation: null });
  const m = new Match("m-1");
  m.setView(view(1));
  assert.equal(m.hint("supply:Copper")?.label, "Kingdom");
  assert.equal(m.hint("play")?.color, "#123456");
  assert.equal(m.hint("hand"), undefined);
  assert.equal(m.typeColor("Action - Attack"), "#eeeeee");
  assert.equal(m.typeColor("Treasure - Victory"), "green");
  assert.equal(m.typeColor("Treasure"), "");
  const zone = (name: string, cards = 1) => ({ name, owner: 0, count: cards, cards: cards ? [{ entity: 3, name: "X" }] : [] });
  assert.equal(zoneKind(m, zone("play")), "hand", "the hint's kind wins over the name");
  assert.equal(zoneKind(m, zone("trash")), "count", "a hidden hint is a count even with cards");
  assert.equal(zoneKind(m, zone("supply:Copper")), "pile");
  // without hints, the names decide as before
  m.setView(view(2, { bundle_id: "plain" }));
  assert.equal(m.hint("supply:Copper"), undefined);
  assert.equal(zoneKind(m, zone("play")), "row");
  assert.equal(zoneKind(m, zone("trash", 0)), "count");
  assert.equal(zoneKind(m, zone("hand")), "hand");
  assert.equal(zoneKind(m, zone("board:1:2")), "board");
});

test("test_decision_timer_counts_from_receipt_and_only_for_a_limited_decision", () => {
  const m = new Match("m-1");
  m.setView(view(1, { decision: decision(10, 0, { time_left_ms: 30_000 }) }), 1_000);
  assert.equal(m.deadline, 31_000);
  assert.equal(m.secondsLeft(1_000), 30);
  assert.equal(m.secondsLeft(21_500), 10);
  assert.equal(m.secondsLeft(40_000), 0);
  // the same decision again (a resync) keeps the first deadline; a new one starts its own
  m.setDecision(decision(10, 0, { time_left_ms: 30_000 }), 5_000);
  assert.equal(m.deadline, 31_000);
  m.setDecision(decision(11, 0, { time_left_ms: 8_000 }), 6_000);
  assert.equal(m.deadline, 14_000);
  assert.equal(clock(m.secondsLeft(6_000)!), "8 s");
  assert.equal(clock(245), "4:05");
  assert.equal(clock(60), "1:00");
  m.setDecision(decision(12, 0, { time_left_ms: 0 }), 7_000);
  assert.equal(m.secondsLeft(7_000), undefined, "no limit: no countdown");
  m.setDecision(decision(13, 1, { time_left_ms: 5_000 }), 8_000);
  assert.equal(m.decision?.decision_id, 12, "another seat's decision is not this seat's");
  assert.equal(m.applyDelta({ match_id: "m-1", event_seq: 2, seat: 0, base_view_seq: 1, view_seq: 2, zones: [], counters: [],
    waiting_for: 1, decision: null, finished: false }, 9_000), true);
  assert.equal(m.secondsLeft(9_000), undefined, "answered: the countdown goes");
});

test("test_keys_pick_toggle_confirm_and_clear_a_decision", () => {
  const one = decision(10);
  const several = decision(11, 0, { min: 1, max: 2 });
  const none = new Set<number>();
  assert.deepEqual(optionKey("2", "none", one, none), { kind: "choose", ids: [2] });
  assert.equal(optionKey("3", "none", one, none), null, "no third option");
  assert.deepEqual(optionKey("1", "option", several, none), { kind: "toggle", id: 1 });
  assert.equal(optionKey("1", "field", several, none), null, "typing in a field");
  assert.equal(optionKey("Enter", "none", several, none), null, "fewer than min toggled");
  assert.deepEqual(optionKey("Enter", "option", several, new Set([2])), { kind: "choose", ids: [2] });
  assert.equal(optionKey("Enter", "button", several, new Set([2])), null, "Confirm's own Enter clicks it");
  assert.deepEqual(optionKey(" ", "none", several, new Set([1, 2])), { kind: "choose", ids: [1, 2] });
  assert.equal(optionKey(" ", "option", several, new Set([1])), null, "Space on an option toggles it");
  assert.equal(optionKey("Enter", "option", one, none), null, "a single choice's Enter is its button's click");
  assert.deepEqual(optionKey("Escape", "none", several, new Set([1])), { kind: "clear" });
  assert.equal(optionKey("Escape", "none", several, none), null);
  assert.deepEqual(optionKey("B", "none", one, none), { kind: "bot" });
  assert.deepEqual(optionKey("ArrowRight", "option", one, none), { kind: "next" });
  assert.deepEqual(optionKey("ArrowUp", "none", one, none), { kind: "previous" });
  assert.equal(optionKey("ArrowLeft", "button", one, none), null);
});

test("test_replay_keys_step_within_the_frames_and_focus_wraps", () => {
  assert.equal(replayKey("ArrowRight", 3, 10), 4);
  assert.equal(replayKey("ArrowRight", 9, 10), 9);
  assert.equal(replayKey("ArrowLeft", 0, 10), 0);
  assert.equal(replayKey("Home", 5, 10), 0);
  assert.equal(replayKey("End", 5, 10), 9);
  assert.equal(replayKey("x", 5, 10), null);
  assert.equal(moveFocus(-1, 3, 1), 0);
  assert.equal(moveFocus(-1, 3, -1), 2);
  assert.equal(moveFocus(2, 3, 1), 0);
  assert.equal(moveFocus(0, 0, 1), -1);
});
