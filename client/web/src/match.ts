// match.ts: one match as this seat knows it: the last full View with every ViewDelta
// applied in order (a delta that does not follow the held view_seq, or an Event that skips
// an event_seq, asks for a Resync), the pending decision, the log, the result. Cards are
// described by the Catalog of the view's bundle, kept by bundle_id for the page's life.
import type {
  CardInfo, Catalog, Counter, Decision, GameEvent, GameOver, MatchFound, PlayerInfo, View, ViewDelta, Zone,
} from "./types";

const catalogs = new Map<string, Map<string, CardInfo>>();

export function addCatalog(c: Catalog): void {
  catalogs.set(c.bundle_id, new Map(c.cards.map((card) => [card.name, card])));
}

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
  decision: Decision | null = null;
  finished = false;
  log: string[] = [];
  over: GameOver | null = null;

  constructor(public id: string, found?: MatchFound) {
    this.seat = found?.seat ?? 0;
    this.game = found?.game ?? "";
    this.names = found?.players ?? [];
  }

  card(name: string): CardInfo | undefined {
    return catalogs.get(this.bundle)?.get(name);
  }

  setView(v: View): void {
    this.seat = v.seat;
    this.game = v.game || this.game;
    this.players = v.players;
    this.bundle = v.bundle_id;
    this.zones = new Map(v.zones.map((z) => [key(z.name, z.owner), z]));
    this.counters = new Map(v.counters.map((c) => [key(c.name, c.owner), c]));
    this.viewSeq = v.view_seq;
    this.eventSeq = Math.max(this.eventSeq, v.event_seq);
    this.waitingFor = v.waiting_for;
    this.decision = v.decision && v.decision.seat === this.seat ? v.decision : null;
    this.finished = v.finished;
  }

  // Apply a delta; false when it does not follow the held view (the caller resyncs).
  applyDelta(d: ViewDelta): boolean {
    if (this.viewSeq < 0 || d.base_view_seq !== this.viewSeq) return false;
    for (const z of d.zones) this.zones.set(key(z.name, z.owner), z);
    for (const c of d.counters) this.counters.set(key(c.name, c.owner), c);
    this.viewSeq = d.view_seq;
    this.waitingFor = d.waiting_for;
    this.decision = d.decision ?? null;
    this.finished = d.finished;
    return true;
  }

  setDecision(d: Decision): void {
    if (d.seat === this.seat) this.decision = d;
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

  // Counters shown for an owner: not hidden ("_name"), not a card's ("name:ENTITY").
  countersOf(owner: number): Counter[] {
    return [...this.counters.values()].filter((c) => c.owner === owner && !c.name.startsWith("_") &&
      !/:\d+$/.test(c.name));
  }

  // A card's own counters ("attack:57" for entity 57), drawn on the card.
  stats(entity: number): [string, number][] {
    if (!entity) return [];
    const tail = `:${entity}`;
    return [...this.counters.values()].filter((c) => c.name.endsWith(tail) && !c.name.startsWith("_"))
      .map((c) => [c.name.slice(0, -tail.length), c.value]);
  }
}
