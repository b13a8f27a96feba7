// match.ts: one match as this seat knows it: the last full View with every ViewDelta
// applied in order (a delta that does not follow the held view_seq, or an Event that skips
// an event_seq, asks for a Resync), the pending decision and when it runs out, the log,
// the result. A spectator's match is the same, fed by SpectatorFrames, with no seat of its
// own (seat -1); a replay builds one per frame (fromFrames). Cards are described by the
// Catalog of the view's bundle, kept by bundle_id for the page's life with the bundle's
// presentation hints (zone and counter words, the game's title and rules summary). Beside
// the game: the match's chat, an undo being asked for and the rematch offers.
import type {
  CardInfo, Catalog, ChatMessage, Counter, CounterHint, DecisionRequest, Event as GameEvent, GameOver, MatchFound,
  PlayerInfo, Presentation, RematchState, ReplayFrame, SpectatorFrame, UndoState, View, ViewDelta, Zone, ZoneHint,
} from "./gen/deckhand";

interface Bundle { cards: Map<string, CardInfo>; presentation: Presentation | null }
const catalogs = new Map<string, Bundle>();

export function addCatalog(c: Catalog): void {
  catalogs.set(c.bundle_id, { cards: new Map(c.cards.map((card) => [card.name, card])), presentation: c.presentation });
}

// A name as words ("max_mana" -> "Max mana"), for what the bundle gives no label.
export const words = (name: string): string => {
  const w = name.replace(/_/g, " ");
  return w.charAt(0).toUpperCase() + w.slice(1);
};

// The lobby's words for each game (GameDesc.title and summary), for a match whose bundle
// gives none.
export const gameWords = new Map<string, { title: string; summary: string }>();

// The seat a spectator or a replay "is": none.
export const NO_SEAT = -1;

const key = (name: string, owner: number) => `${owner}|${name}`;

export class Match {
  seat: number;
  game: string;
  names: string[];
  players: PlayerInfo[] = [];
  zones = new Map<string, Zone>();
  counters = new Map<string, Counter>();
  viewSeq = -1; // no View held
  eventSeq = 0;
  bundle = "";
  waitingFor = -1;
  decision: DecisionRequest | null = null;
  finished = false;
  log: string[] = [];
  over: GameOver | null = null;
  // When the pending decision's time runs out (Date.now() ms), 0 when unknown or unlimited.
  deadline = 0;
  // Spectating: how far behind the match the last frame was, and how many watch.
  delayMs = 0;
  spectators = 0;
  frames = 0; // SpectatorFrames applied
  // The rows of the board seen so far, kept for the match (a row stays drawn once known,
  // even when empty): in the order options name their spaces ("board:ROW:COL"; a game
  // lists its spaces in its grid's order, the row nearest the middle first), then in the
  // order zones came.
  boardRows: string[] = [];
  private rowsByOptions: string[] = [];
  private rowsByZones: string[] = [];
  chat: ChatMessage[] = [];
  undo: UndoState | null = null;
  rematch: RematchState | null = null;

  constructor(public id: string, found?: MatchFound) {
    this.seat = found?.seat ?? 0;
    this.game = found?.game ?? "";
    this.names = found?.players ?? [];
  }

  private get presentation(): Presentation | null {
    return catalogs.get(this.bundle)?.presentation ?? null;
  }

  // The game's name for players: the bundle's title, else its name as a word.
  title(): string {
    const g = this.game.replace(/_/g, " ");
    return this.presentation?.title || gameWords.get(this.game)?.title || g.charAt(0).toUpperCase() + g.slice(1);
  }

  summary(): string {
    return this.presentation?.summary || gameWords.get(this.game)?.summary || "";
  }

  zoneHints(): ZoneHint[] {
    return this.presentation?.zones ?? [];
  }

  counterHint(name: string): CounterHint | undefined {
    return this.presentation?.counters.find((c) => c.counter === name);
  }

  // A counter as a player reads it: its hint's label, else its name in words.
  counterLabel(name: string): string {
    return this.counterHint(name)?.label || words(name);
  }

  card(name: string): CardInfo | undefined {
    return catalogs.get(this.bundle)?.cards.get(name);
  }

  // The bundle's hint for a zone: by its exact name, else by its name's prefix ("supply"
  // for "supply:Copper", "board" for "board:1:3").
  hint(zone: string): ZoneHint | undefined {
    const zones = catalogs.get(this.bundle)?.presentation?.zones ?? [];
    return zones.find((z) => z.zone === zone) ?? zones.find((z) => z.zone === zone.split(":")[0]);
  }

  // The bundle's colour for a card's types ("Action - Attack"): the first type word it
  // colours, "" when none.
  typeColor(types: string): string {
    const colours = catalogs.get(this.bundle)?.presentation?.type_colors ?? [];
    for (const word of types.split(/[\s-]+/)) {
      const c = colours.find((t) => t.type.toLowerCase() === word.toLowerCase());
      if (c) return c.color;
    }
    return "";
  }

  // Seconds left on the pending decision, rounded up; undefined when not known.
  secondsLeft(now = Date.now()): number | undefined {
    return this.deadline > 0 ? Math.max(0, Math.ceil((this.deadline - now) / 1000)) : undefined;
  }

  private timeDecision(d: DecisionRequest | null, now: number): void {
    if (!d) this.deadline = 0;
    else if (d.decision_id !== this.decision?.decision_id || this.deadline === 0)
      this.deadline = d.time_left_ms > 0 ? now + d.time_left_ms : 0;
  }

  setView(v: View, now = Date.now()): void {
    if (this.seat !== NO_SEAT) this.seat = v.seat;
    this.game = v.game || this.game;
    this.players = v.players;
    this.bundle = v.bundle_id;
    this.zones = new Map(v.zones.map((z) => [key(z.name, z.owner), z]));
    this.counters = new Map(v.counters.map((c) => [key(c.name, c.owner), c]));
    this.viewSeq = v.view_seq;
    this.eventSeq = Math.max(this.eventSeq, v.event_seq);
    this.waitingFor = v.waiting_for;
    const d = v.decision && v.decision.seat === this.seat ? v.decision : null;
    this.timeDecision(d, now);
    this.decision = d;
    this.finished = v.finished;
    this.noteRows(v.zones, d);
  }

  // Board rows named by the decision's options' spaces or by zones.
  private noteRows(zones: Zone[], d: DecisionRequest | null): void {
    const add = (list: string[], name: string) => {
      const [prefix, row, col] = name.split(":");
      if (prefix === "board" && row && col !== undefined && !list.includes(row)) list.push(row);
    };
    for (const o of d?.options ?? []) add(this.rowsByOptions, o.space ?? "");
    for (const z of zones) add(this.rowsByZones, z.name);
    this.boardRows = [...new Set([...this.rowsByOptions, ...this.rowsByZones])];
  }

  // Apply a delta; false when it does not follow the held view (the caller resyncs).
  applyDelta(d: ViewDelta, now = Date.now()): boolean {
    if (this.viewSeq < 0 || d.base_view_seq !== this.viewSeq) return false;
    for (const z of d.zones) this.zones.set(key(z.name, z.owner), z);
    for (const c of d.counters) this.counters.set(key(c.name, c.owner), c);
    this.viewSeq = d.view_seq;
    this.waitingFor = d.waiting_for;
    const dec = d.decision && d.decision.seat === this.seat ? d.decision : null;
    this.timeDecision(dec, now);
    this.decision = dec;
    this.finished = d.finished;
    this.noteRows(d.zones, dec);
    return true;
  }

  setDecision(d: DecisionRequest, now = Date.now()): void {
    if (d.seat !== this.seat) return;
    this.timeDecision(d, now);
    this.decision = d;
    this.noteRows([], d);
  }

  // A chat line of this match (the last 100 kept).
  addChat(c: ChatMessage): void {
    this.chat.push(c);
    if (this.chat.length > 100) this.chat.splice(0, this.chat.length - 100);
  }

  // One SpectatorFrame: its public events (those not logged yet) then its view. Frames of
  // another match are refused.
  applyFrame(f: SpectatorFrame, now = Date.now()): boolean {
    if (f.match_id !== this.id) return false;
    this.seat = NO_SEAT;
    for (const e of f.events) if (e.event_seq === 0 || e.event_seq > this.eventSeq) this.addEvent(e);
    if (f.view) this.setView(f.view, now);
    this.decision = null;
    this.delayMs = f.delay_ms;
    this.spectators = f.spectators;
    this.frames++;
    if (f.game_over) this.over = f.game_over;
    return true;
  }

  // The match as a replay shows it at frames[upto]: that frame's view, the log of every
  // frame up to it, the result on the last. frames[i] is frame i.
  static fromFrames(frames: ReplayFrame[], upto: number): Match {
    const f = frames[upto];
    const m = new Match(f.match_id, { match_id: f.match_id, seat: NO_SEAT, game: f.game, players: f.players });
    m.seat = NO_SEAT;
    for (let i = 0; i <= upto; i++) for (const e of frames[i]?.events ?? []) if (e.text) m.log.push(e.text);
    if (f.view) m.setView(f.view);
    m.game = f.game || m.game;
    m.decision = null;
    m.over = f.game_over;
    return m;
  }

  // Record an event; false when one was missed (the caller resyncs).
  addEvent(e: GameEvent): boolean {
    const gap = this.viewSeq >= 0 && e.event_seq > this.eventSeq + 1;
    if (e.event_seq > this.eventSeq) this.eventSeq = e.event_seq;
    if (e.text) {
      this.log.push(e.text);
      if (this.log.length > 300) this.log.splice(0, this.log.length - 300);
    }
    return !gap;
  }

  counter(name: string, owner: number): number | undefined {
    return this.counters.get(key(name, owner))?.value;
  }

  name(seat: number): string {
    return this.players.find((p) => p.seat === seat)?.name || this.names[seat] || `seat ${seat + 1}`;
  }

  seats(): number[] {
    const n = Math.max(this.players.length, this.names.length);
    return Array.from({ length: n }, (_, i) => i);
  }

  zonesOf(owner: number): Zone[] {
    return [...this.zones.values()].filter((z) => z.owner === owner);
  }

  // Counters shown for an owner: not hidden ("_name", or hidden by the bundle's hint), not
  // a card's ("name:ENTITY"); in the hints' order, then as they came.
  countersOf(owner: number): Counter[] {
    const order = (c: Counter) => this.counterHint(c.name)?.order ?? Number.MAX_SAFE_INTEGER;
    return [...this.counters.values()].filter((c) => c.owner === owner && !c.name.startsWith("_") &&
      !/:\d+$/.test(c.name) && !this.counterHint(c.name)?.hidden)
      .map((c, i) => ({ c, i })).sort((a, b) => order(a.c) - order(b.c) || a.i - b.i).map((x) => x.c);
  }

  // A card's own counters ("attack:57" for entity 57), drawn on the card.
  stats(entity: number): [string, number][] {
    if (!entity) return [];
    const tail = `:${entity}`;
    return [...this.counters.values()].filter((c) => c.name.endsWith(tail) && !c.name.startsWith("_") &&
      !this.counterHint(c.name.slice(0, -tail.length))?.hidden)
      .map((c) => [c.name.slice(0, -tail.length), c.value]);
  }
}
