// render_match.ts: draws a match for any game from what the View says, nothing else; for
// a player, a spectator (no seat: every seat drawn as an opponent, no options) and a
// replay's frame alike. A zone's kind, order, label, columns and frame colour come from
// the bundle's presentation hints (Catalog.presentation) when it has them, else from the
// zone's name: "hand", piles of a shared supply ("supply:NAME"), a board of spaces
// ("board:ROW:COL", drawn as a grid), rows of visible cards (play area, centre row,
// discard tops, trash), and hidden zones as counts (deck). Card colours are the bundle's
// type colours, else a hue hashed from the first type. Options are buttons (keys 1-9,
// arrows move between them), and the cards they name are clickable where they lie; a
// decision taking several options toggles them and confirms within min..max.
// Every node that may be pressed has a data-key, so a redraw keeps it (dom.ts, patch).
import { h, hue, patch, type Child } from "./dom";
import { NO_SEAT, type Match } from "./match";
import type { Card, DecisionRequest, GameOver, Option, Zone } from "./gen/deckhand";

export interface MatchUi {
  selected: Set<number>; // option ids toggled in a multi-select decision
  sending: boolean; // an answer is in flight
  choose(ids: number[]): void;
  bot(): void;
  toggle(id: number): void;
  leave(): void;
}

// What a spectator's or a replay's screen adds: a banner on top, controls under the table.
export interface Watching {
  banner: Child;
  controls?: Child;
}

const multi = (d: DecisionRequest) => d.max > 1;

type Kind = "hand" | "pile" | "board" | "row" | "count";

export function zoneKind(m: Match, z: Zone): Kind {
  const hinted = m.hint(z.name)?.kind;
  const prefix = z.name.split(":")[0].toLowerCase();
  switch (hinted) {
    case "hand": return "hand";
    case "supply": return z.name.includes(":") ? "pile" : "row";
    case "board": return prefix === "board" && z.name.split(":").length === 3 ? "board" : "row";
    case "deck": case "hidden": return "count";
    case "row": case "play": case "discard": return z.cards.length > 0 ? "row" : "count";
  }
  if (prefix === "hand") return "hand";
  if (prefix === "supply") return "pile";
  if (prefix === "board") return "board";
  return z.cards.length > 0 ? "row" : "count";
}

// Zones in the bundle's order (hinted ones by `order`, the others after them as they came).
function ordered(m: Match, zones: Zone[]): Zone[] {
  const rank = (z: Zone) => m.hint(z.name)?.order ?? Number.MAX_SAFE_INTEGER;
  return zones.map((z, i) => ({ z, i })).sort((a, b) => rank(a.z) - rank(b.z) || a.i - b.i).map((x) => x.z);
}

// The option a card answers, by entity, else (for piles) by card name.
function optionFor(d: DecisionRequest | null, card: Card, byName: boolean): Option | undefined {
  if (!d) return undefined;
  return d.options.find((o) => o.entity !== 0 && o.entity === card.entity) ??
    (byName ? d.options.find((o) => o.card === card.name && (o.entity === 0 || o.entity === card.entity)) : undefined);
}

function cardEl(m: Match, ui: MatchUi, card: Card, key: string, count?: number, byName = false): HTMLElement {
  const info = m.card(card.name);
  const opt = optionFor(m.decision, card, byName);
  const types = info?.types ?? "";
  const colour = m.typeColor(types);
  return h("div", {
    class: "card" + (opt ? " choosable" : "") + (opt && ui.selected.has(opt.id) ? " selected" : ""),
    "data-key": key,
    "data-card": card.name,
    "data-entity": card.entity,
    title: info?.text || card.name,
    role: opt ? "button" : undefined,
    tabindex: opt ? 0 : undefined,
    "aria-pressed": opt && m.decision && multi(m.decision) ? String(ui.selected.has(opt.id)) : undefined,
    style: colour ? `--hue: ${hue(types.split(/[\s-]/)[0] || card.name)}; --type-colour: ${colour}`
      : `--hue: ${hue(types.split(/[\s-]/)[0] || card.name)}`,
    onclick: opt ? () => pick(m, ui, opt) : undefined,
    onkeydown: opt ? (e: Event) => {
      const k = (e as KeyboardEvent).key;
      if (k === "Enter" || k === " ") {
        e.preventDefault();
        e.stopPropagation();
        pick(m, ui, opt);
      }
    } : undefined,
  },
  h("div", { class: "card-top" }, h("span", { class: "card-name" }, card.name),
    info && info.cost >= 0 ? h("span", { class: "card-cost" }, info.cost) : null),
  types ? h("div", { class: "card-types" }, types) : null,
  info?.text ? h("div", { class: "card-text" }, info.text) : null,
  stats(m, card.entity),
  count !== undefined ? h("div", { class: "card-count" }, `×${count}`) : null);
}

function cardKey(z: Zone, c: Card, i: number): string {
  return c.entity ? `e${c.entity}` : `${z.owner}:${z.name}:${i}`;
}

function stats(m: Match, entity: number): HTMLElement | null {
  const list = m.stats(entity);
  if (list.length === 0) return null;
  return h("div", { class: "card-stats" }, list.map(([name, value]) =>
    h("span", { "data-stat": name }, `${name.replace(/_/g, " ")} `, h("b", {}, value))));
}

function pick(m: Match, ui: MatchUi, opt: Option): void {
  if (!m.decision || ui.sending) return;
  if (multi(m.decision)) ui.toggle(opt.id);
  else ui.choose([opt.id]);
}

function label(m: Match, z: Zone): string {
  return m.hint(z.name)?.label || z.name.replace(/^supply:/, "").replace(/_/g, " ");
}

function frame(m: Match, z: Zone): string | undefined {
  const c = m.hint(z.name)?.color;
  return c ? `--zone-colour: ${c}` : undefined;
}

function zoneEl(m: Match, ui: MatchUi, z: Zone): HTMLElement {
  const kind = zoneKind(m, z);
  const key = `z${z.owner}:${z.name}`;
  if (kind === "count")
    return h("div", { class: "zone zone-count" + (frame(m, z) ? " framed" : ""), "data-key": key, "data-zone": z.name,
      style: frame(m, z) }, h("span", { class: "zone-name" }, label(m, z)), h("span", { class: "badge" }, z.count));
  const columns = m.hint(z.name)?.columns ?? 0;
  const cards = h("div", { class: "cards" + (columns > 0 ? " columns" : ""), style: columns > 0 ? `--cols: ${columns}` : undefined },
    z.cards.map((c, i) => cardEl(m, ui, c, cardKey(z, c, i))));
  return h("div", { class: `zone zone-${kind}` + (frame(m, z) ? " framed" : ""), "data-key": key, "data-zone": z.name,
    style: frame(m, z) },
  h("div", { class: "zone-name" }, label(m, z), " ", h("span", { class: "badge" }, z.count)), cards);
}

// The piles of the shared supply: each pile's top card with its count (in the bundle's
// order when hinted per pile, else by cost).
function supplyEl(m: Match, ui: MatchUi, piles: Zone[]): HTMLElement | null {
  if (piles.length === 0) return null;
  const byCost = [...piles].sort((a, b) =>
    (m.card(a.name.replace(/^[^:]*:/, ""))?.cost ?? 0) - (m.card(b.name.replace(/^[^:]*:/, ""))?.cost ?? 0) ||
    a.name.localeCompare(b.name));
  const hinted = piles.some((z) => m.hint(z.name)?.zone === z.name);
  const sorted = hinted ? ordered(m, byCost) : byCost;
  const hint = m.hint(piles[0].name);
  return h("div", { class: "supply" + (hint?.color ? " framed" : ""), "data-key": "supply", style: frame(m, piles[0]) },
    hint?.label ? h("div", { class: "zone-name" }, hint.label) : null,
    h("div", { class: "piles" }, sorted.map((z) => {
      const top = z.cards[z.cards.length - 1] ?? { entity: 0, name: z.name.replace(/^[^:]*:/, "") };
      const el = cardEl(m, ui, top, `pile:${z.name}`, z.count, true);
      if (z.count === 0) el.classList.add("empty");
      el.dataset.zone = z.name;
      return el;
    })));
}

// The rows and columns of every board in the view (a space is a zone only once used, so
// one owner's zones may not show the board's size): rows in order of appearance, columns
// by number, numbered ones filled in from 1 (to the hint's columns when it gives them).
function boardShape(m: Match): { rows: string[]; cols: string[] } {
  const rows: string[] = [];
  const cols = new Set<string>();
  let hinted = 0;
  for (const z of m.zones.values()) {
    const [prefix, r, c] = z.name.split(":");
    if (prefix !== "board" || r === undefined || c === undefined) continue;
    hinted = Math.max(hinted, m.hint(z.name)?.columns ?? 0);
    if (!rows.includes(r)) rows.push(r);
    cols.add(c);
  }
  const nums = [...cols].map(Number);
  if (nums.length && nums.every((n) => Number.isInteger(n) && n >= 1 && n <= 32))
    for (let n = 1; n <= Math.max(...nums, Math.min(hinted, 32)); n++) cols.add(String(n));
  return { rows, cols: [...cols].sort((a, b) => Number(a) - Number(b) || a.localeCompare(b)) };
}

// Spaces "board:ROW:COL" of one owner as a grid, flipped for an opponent, so that the two
// front rows face each other.
function boardEl(m: Match, ui: MatchUi, spaces: Zone[], flip: boolean): HTMLElement | null {
  if (spaces.length === 0) return null;
  const shape = boardShape(m);
  const rows = flip ? [...shape.rows].reverse() : shape.rows;
  const cells: HTMLElement[] = [];
  for (const r of rows)
    for (const c of shape.cols) {
      const z = spaces.find((s) => s.name === `board:${r}:${c}`);
      cells.push(h("div", { class: "space", "data-key": `board:${r}:${c}`, "data-zone": `board:${r}:${c}` },
        z ? z.cards.map((card, i) => cardEl(m, ui, card, cardKey(z, card, i))) : null));
    }
  return h("div", { class: "board", "data-key": "board", style: `--cols: ${shape.cols.length}` }, cells);
}

function countersEl(m: Match, owner: number): HTMLElement | null {
  const cs = m.countersOf(owner);
  if (cs.length === 0) return null;
  return h("div", { class: "counters", "data-key": "counters" }, cs.map((c) =>
    h("span", { class: "counter", "data-counter": c.name, "data-key": c.name }, `${c.name.replace(/_/g, " ")} `, h("b", {}, c.value))));
}

function seatEl(m: Match, ui: MatchUi, seat: number): HTMLElement {
  const mine = seat === m.seat;
  const zones = ordered(m, m.zonesOf(seat));
  const info = m.players.find((p) => p.seat === seat);
  const kind = (z: Zone) => zoneKind(m, z);
  const board = zones.filter((z) => kind(z) === "board");
  const hand = zones.filter((z) => kind(z) === "hand");
  const rest = zones.filter((z) => !["board", "hand"].includes(kind(z)));
  return h("section", { class: "seat" + (mine ? " mine" : "") + (m.waitingFor === seat ? " active" : ""),
    "data-seat": seat, "data-key": `seat${seat}` },
  h("h2", {}, m.name(seat), mine ? " (you)" : "", info && !info.connected ? h("span", { class: "away" }, " away") : null,
    m.waitingFor === seat ? h("span", { class: "turn", "aria-label": "to play" }, " ●") : null),
  countersEl(m, seat),
  boardEl(m, ui, board, !mine),
  h("div", { class: "zones", "data-key": "zones" }, rest.map((z) => zoneEl(m, ui, z))),
  mine ? hand.map((z) => h("div", { class: "hand", "data-key": `hand:${z.name}` }, zoneEl(m, ui, z))) : hand.map((z) => zoneEl(m, ui, z)));
}

// Time left as a player reads it: "42 s" under a minute, "4:05" above.
export function clock(s: number): string {
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// The time left on the pending decision, updated every second by tickTimers.
function timerEl(m: Match): HTMLElement | null {
  const s = m.secondsLeft();
  if (s === undefined) return null;
  return h("span", { class: "timer" + (s <= 10 ? " low" : ""), "data-deadline": m.deadline, role: "timer",
    "aria-label": "time left" }, clock(s));
}

// Every drawn countdown, brought to the clock (main.ts calls this each second).
export function tickTimers(now = Date.now()): void {
  for (const el of Array.from(document.querySelectorAll<HTMLElement>(".timer[data-deadline]"))) {
    const s = Math.max(0, Math.ceil((Number(el.dataset.deadline) - now) / 1000));
    el.textContent = clock(s);
    el.classList.toggle("low", s <= 10);
  }
}

function decisionEl(m: Match, ui: MatchUi): HTMLElement {
  const d = m.decision;
  if (!d) {
    const who = m.waitingFor >= 0 ? `Waiting for ${m.name(m.waitingFor)}…` : m.finished ? "The match is over." : "Waiting…";
    return h("section", { class: "decision idle", "data-key": "decision-idle", "aria-live": "polite" },
      h("p", { class: "prompt" }, who));
  }
  const many = multi(d);
  const n = ui.selected.size;
  return h("section", { class: "decision", "data-key": "decision", "aria-live": "polite", "data-decision": d.decision_id,
    "data-min": d.min, "data-max": d.max },
    h("p", { class: "prompt" }, d.prompt || "Your choice",
      many ? h("span", { class: "range" }, ` (choose ${d.min === d.max ? d.min : `${d.min}–${d.max}`})`) : null,
      " ", timerEl(m)),
    h("div", { class: "options", role: "group", "aria-label": "options" }, d.options.map((o, i) => h("button", {
      class: "option" + (ui.selected.has(o.id) ? " selected" : ""),
      "data-key": `o${d.decision_id}:${o.id}`,
      "data-option": o.id,
      disabled: ui.sending,
      "aria-pressed": many ? String(ui.selected.has(o.id)) : undefined,
      onclick: () => pick(m, ui, o),
    }, i < 9 ? h("kbd", {}, i + 1) : null, o.label || o.card))),
    h("div", { class: "actions" },
      many ? h("button", { class: "confirm", "data-key": "confirm", disabled: ui.sending || n < d.min || n > d.max,
        onclick: () => ui.choose([...ui.selected]) }, `Confirm (${n}) `, h("kbd", {}, "Enter")) : null,
      // always there (disabled when nothing is toggled): the panel keeps its size
      many ? h("button", { class: "clear", "data-key": "clear", disabled: ui.sending || n === 0,
        onclick: () => clearSelection(ui) }, "Clear ", h("kbd", {}, "Esc")) : null,
      !many && d.min === 0 ? h("button", { class: "none", "data-key": "none", disabled: ui.sending, onclick: () => ui.choose([]) },
        "Choose nothing") : null,
      h("button", { class: "bot", id: "bot-answer", disabled: ui.sending, onclick: () => ui.bot() },
        "Let the bot answer ", h("kbd", {}, "B"))));
}

function clearSelection(ui: MatchUi): void {
  for (const id of [...ui.selected]) ui.toggle(id);
}

// A spectator's or replay's status line: whose turn it is (no options to press).
function statusEl(m: Match): HTMLElement {
  const who = m.over ? "The match is over." : m.waitingFor >= 0 ? `${m.name(m.waitingFor)} to play` : "Waiting…";
  return h("section", { class: "decision idle", "data-key": "status", "aria-live": "polite" }, h("p", { class: "prompt" }, who));
}

function logEl(m: Match): HTMLElement {
  const list = h("ol", { class: "log", "aria-label": "game log", tabindex: 0 }, m.log.slice(-80).map((t) => h("li", {}, t)));
  return h("aside", { class: "log-box", "data-key": "log" }, h("h2", {}, "Log"), list);
}

export function renderMatch(root: HTMLElement, m: Match, ui: MatchUi, watching?: Watching): void {
  const shared = ordered(m, m.zonesOf(-1));
  const piles = shared.filter((z) => zoneKind(m, z) === "pile");
  const others = m.seats().filter((s) => s !== m.seat);
  const log = root.querySelector(".log");
  const atEnd = !log || log.scrollTop + log.clientHeight >= log.scrollHeight - 40;
  patch(root, h("div", { class: "match" + (watching ? " watching" : ""), "data-key": `match:${m.id}`, "data-match": m.id,
    "data-game": m.game, "data-event-seq": m.eventSeq, "data-frames": m.frames || undefined },
    h("header", { class: "bar", "data-key": "bar" }, h("strong", {}, m.game), ` · match ${m.id.slice(0, 8)}`,
      countersEl(m, -1)),
    watching ? h("div", { class: "banner", "data-key": "banner", role: "status" }, watching.banner) : null,
    others.map((s) => seatEl(m, ui, s)),
    shared.length ? h("section", { class: "shared", "data-key": "shared" }, supplyEl(m, ui, piles),
      h("div", { class: "zones", "data-key": "zones" }, shared.filter((z) => zoneKind(m, z) !== "pile").map((z) => zoneEl(m, ui, z)))) : null,
    m.seat !== NO_SEAT ? seatEl(m, ui, m.seat) : null,
    watching ? statusEl(m) : decisionEl(m, ui),
    watching?.controls ? h("div", { class: "controls", "data-key": "controls" }, watching.controls) : null,
    logEl(m)));
  const now = root.querySelector(".log");
  if (now && atEnd) now.scrollTop = now.scrollHeight;
}

// The end screen: the results, for a player ("You won!"), a spectator or a replay alike;
// extra holds the buttons the screen offers ("Watch replay").
export function renderGameOver(root: HTMLElement, m: Match, over: GameOver, leave: () => void, extra: Child = null): void {
  const me = over.results.find((r) => r.seat === m.seat);
  const title = over.reason === "script_error" ? "The match was stopped (a card script failed)"
    : me && me.rank === 1 ? "You won!" : "Game over";
  patch(root, h("div", { class: "game-over", id: "game-over", "data-match": m.id },
    h("h1", {}, title),
    over.reason ? h("p", { class: "reason" }, `Reason: ${over.reason.replace(/_/g, " ")}`) : null,
    resultsEl(m, over),
    h("div", { class: "row" },
      h("button", { id: "back-to-lobby", onclick: leave }, "Back to the lobby"), extra),
    logEl(m)));
  const log = root.querySelector(".log");
  if (log) log.scrollTop = log.scrollHeight; // the log's end: how the match ended
}

// The results by place (unranked last), then seat.
export function resultsEl(m: Match, over: GameOver): HTMLElement {
  const rows = [...over.results].sort((a, b) => (a.rank || 99) - (b.rank || 99) || a.seat - b.seat);
  return h("table", { class: "results", "data-key": "results" },
    h("thead", {}, h("tr", {}, h("th", {}, "Place"), h("th", {}, "Player"), h("th", {}, "Score"), h("th", {}, "Turns"))),
    h("tbody", {}, rows.map((r) => h("tr", { class: r.seat === m.seat ? "me" : "" },
      h("td", {}, r.rank || "–"), h("td", {}, r.name || m.name(r.seat)), h("td", {}, r.score), h("td", {}, r.turns)))));
}
