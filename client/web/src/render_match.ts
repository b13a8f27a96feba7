// render_match.ts: draws a match for any game from what the View says, nothing else.
// Zones are laid out by kind, read from their names: "hand", piles of a shared supply
// ("supply:NAME"), a board of spaces ("board:ROW:COL", drawn as a grid), rows of visible
// cards (play area, centre row, discard tops, trash), and hidden zones as counts (deck).
// Options are buttons (keys 1-9), and the cards they name are clickable where they lie;
// a decision taking several options toggles them and confirms within min..max.
import { h, hue } from "./dom";
import type { Match } from "./match";
import type { Card, Decision, GameOver, Option, Zone } from "./types";

export interface MatchUi {
  selected: Set<number>; // option ids toggled in a multi-select decision
  sending: boolean; // an answer is in flight
  choose(ids: number[]): void;
  bot(): void;
  toggle(id: number): void;
  leave(): void;
}

const multi = (d: Decision) => d.max > 1;

function zoneKind(z: Zone): "hand" | "pile" | "board" | "row" | "count" {
  const prefix = z.name.split(":")[0].toLowerCase();
  if (prefix === "hand") return "hand";
  if (prefix === "supply") return "pile";
  if (prefix === "board") return "board";
  return z.cards.length > 0 ? "row" : "count";
}

// The option a card answers, by entity, else (for piles) by card name.
function optionFor(d: Decision | null, card: Card, byName: boolean): Option | undefined {
  if (!d) return undefined;
  return d.options.find((o) => o.entity !== 0 && o.entity === card.entity) ??
    (byName ? d.options.find((o) => o.card === card.name && (o.entity === 0 || o.entity === card.entity)) : undefined);
}

function cardEl(m: Match, ui: MatchUi, card: Card, count?: number, byName = false): HTMLElement {
  const info = m.card(card.name);
  const opt = optionFor(m.decision, card, byName);
  const types = info?.types ?? "";
  const el = h("div", {
    class: "card" + (opt ? " choosable" : "") + (opt && ui.selected.has(opt.id) ? " selected" : ""),
    "data-card": card.name,
    "data-entity": card.entity,
    title: info?.text || card.name,
    role: opt ? "button" : undefined,
    tabindex: opt ? 0 : undefined,
    onclick: opt ? () => pick(m, ui, opt) : undefined,
    onkeydown: opt ? ((e: KeyboardEvent) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        pick(m, ui, opt);
      }
    }) as EventListener : undefined,
  },
  h("div", { class: "card-top" }, h("span", { class: "card-name" }, card.name),
    info && info.cost >= 0 ? h("span", { class: "card-cost" }, info.cost) : null),
  types ? h("div", { class: "card-types" }, types) : null,
  info?.text ? h("div", { class: "card-text" }, info.text) : null,
  stats(m, card.entity),
  count !== undefined ? h("div", { class: "card-count" }, `×${count}`) : null);
  el.style.setProperty("--hue", String(hue(types.split(/[\s-]/)[0] || card.name)));
  return el;
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

function label(z: Zone): string {
  return z.name.replace(/^supply:/, "").replace(/_/g, " ");
}

function zoneEl(m: Match, ui: MatchUi, z: Zone): HTMLElement {
  const kind = zoneKind(z);
  if (kind === "count")
    return h("div", { class: "zone zone-count", "data-zone": z.name }, h("span", { class: "zone-name" }, label(z)),
      h("span", { class: "badge" }, z.count));
  return h("div", { class: `zone zone-${kind}`, "data-zone": z.name },
    h("div", { class: "zone-name" }, label(z), " ", h("span", { class: "badge" }, z.count)),
    h("div", { class: "cards" }, z.cards.map((c) => cardEl(m, ui, c))));
}

// The piles of the shared supply: each pile's top card with its count.
function supplyEl(m: Match, ui: MatchUi, piles: Zone[]): HTMLElement | null {
  if (piles.length === 0) return null;
  const sorted = [...piles].sort((a, b) =>
    (m.card(label(a))?.cost ?? 0) - (m.card(label(b))?.cost ?? 0) || a.name.localeCompare(b.name));
  return h("div", { class: "supply" }, sorted.map((z) => {
    const top = z.cards[z.cards.length - 1] ?? { entity: 0, name: label(z) };
    const el = cardEl(m, ui, top, z.count, true);
    if (z.count === 0) el.classList.add("empty");
    el.dataset.zone = z.name;
    return el;
  }));
}

// The rows and columns of every board in the view (a space is a zone only once used, so
// one owner's zones may not show the board's size): rows in order of appearance, columns
// by number, numbered ones filled in from 1.
function boardShape(m: Match): { rows: string[]; cols: string[] } {
  const rows: string[] = [];
  const cols = new Set<string>();
  for (const z of m.zones.values()) {
    const [prefix, r, c] = z.name.split(":");
    if (prefix !== "board" || r === undefined || c === undefined) continue;
    if (!rows.includes(r)) rows.push(r);
    cols.add(c);
  }
  const nums = [...cols].map(Number);
  if (nums.length && nums.every((n) => Number.isInteger(n) && n >= 1 && n <= 32))
    for (let n = 1; n <= Math.max(...nums); n++) cols.add(String(n));
  return { rows, cols: [...cols].sort((a, b) => Number(a) - Number(b) || a.localeCompare(b)) };
}

// Spaces "board:ROW:COL" of one owner as a grid, flipped for an opponent, so that the two
// front rows face each other.
function boardEl(m: Match, ui: MatchUi, spaces: Zone[], flip: boolean): HTMLElement | null {
  if (spaces.length === 0) return null;
  const shape = boardShape(m);
  const rows = flip ? [...shape.rows].reverse() : shape.rows;
  const colList = shape.cols;
  const grid = h("div", { class: "board" });
  grid.style.setProperty("--cols", String(colList.length));
  for (const r of rows)
    for (const c of colList) {
      const z = spaces.find((s) => s.name === `board:${r}:${c}`);
      grid.append(h("div", { class: "space", "data-zone": `board:${r}:${c}` },
        z ? z.cards.map((card) => cardEl(m, ui, card)) : null));
    }
  return grid;
}

function countersEl(m: Match, owner: number): HTMLElement | null {
  const cs = m.countersOf(owner);
  if (cs.length === 0) return null;
  return h("div", { class: "counters" }, cs.map((c) => h("span", { class: "counter", "data-counter": c.name },
    `${c.name.replace(/_/g, " ")} `, h("b", {}, c.value))));
}

function seatEl(m: Match, ui: MatchUi, seat: number): HTMLElement {
  const mine = seat === m.seat;
  const zones = m.zonesOf(seat);
  const info = m.players.find((p) => p.seat === seat);
  const board = zones.filter((z) => zoneKind(z) === "board");
  const hand = zones.filter((z) => zoneKind(z) === "hand");
  const rest = zones.filter((z) => !["board", "hand"].includes(zoneKind(z)));
  return h("section", { class: "seat" + (mine ? " mine" : "") + (m.waitingFor === seat ? " active" : ""),
    "data-seat": seat },
  h("h2", {}, m.name(seat), mine ? " (you)" : "", info && !info.connected ? h("span", { class: "away" }, " away") : null,
    m.waitingFor === seat ? h("span", { class: "turn" }, " ●") : null),
  countersEl(m, seat),
  boardEl(m, ui, board, !mine),
  h("div", { class: "zones" }, rest.map((z) => zoneEl(m, ui, z))),
  mine ? hand.map((z) => h("div", { class: "hand" }, zoneEl(m, ui, z))) : hand.map((z) => zoneEl(m, ui, z)));
}

function decisionEl(m: Match, ui: MatchUi): HTMLElement {
  const d = m.decision;
  if (!d) {
    const who = m.waitingFor >= 0 ? `Waiting for ${m.name(m.waitingFor)}…` : m.finished ? "The match is over." : "Waiting…";
    return h("section", { class: "decision idle", "aria-live": "polite" }, h("p", { class: "prompt" }, who));
  }
  const many = multi(d);
  const n = ui.selected.size;
  return h("section", { class: "decision", "aria-live": "polite", "data-decision": d.decision_id,
    "data-min": d.min, "data-max": d.max },
    h("p", { class: "prompt" }, d.prompt || "Your choice",
      many ? h("span", { class: "range" }, ` (choose ${d.min === d.max ? d.min : `${d.min}–${d.max}`})`) : null),
    h("div", { class: "options" }, d.options.map((o, i) => h("button", {
      class: "option" + (ui.selected.has(o.id) ? " selected" : ""),
      "data-option": o.id,
      disabled: ui.sending,
      "aria-pressed": many ? String(ui.selected.has(o.id)) : undefined,
      onclick: () => pick(m, ui, o),
    }, i < 9 ? h("kbd", {}, i + 1) : null, o.label || o.card))),
    h("div", { class: "actions" },
      many ? h("button", { class: "confirm", disabled: ui.sending || n < d.min || n > d.max,
        onclick: () => ui.choose([...ui.selected]) }, `Confirm (${n}) `, h("kbd", {}, "Enter")) : null,
      !many && d.min === 0 ? h("button", { class: "none", disabled: ui.sending, onclick: () => ui.choose([]) }, "Choose nothing") : null,
      h("button", { class: "bot", id: "bot-answer", disabled: ui.sending, onclick: () => ui.bot() },
        "Let the bot answer ", h("kbd", {}, "B"))));
}

function logEl(m: Match): HTMLElement {
  const list = h("ol", { class: "log", "aria-label": "game log" }, m.log.slice(-80).map((t) => h("li", {}, t)));
  return h("aside", { class: "log-box" }, h("h2", {}, "Log"), list);
}

export function renderMatch(root: HTMLElement, m: Match, ui: MatchUi): void {
  const shared = m.zonesOf(-1);
  const piles = shared.filter((z) => zoneKind(z) === "pile");
  const others = m.seats().filter((s) => s !== m.seat);
  const scrolled = root.querySelector(".log")?.scrollTop;
  root.replaceChildren(h("div", { class: "match", "data-match": m.id, "data-game": m.game },
    h("header", { class: "bar" }, h("strong", {}, m.game), ` · match ${m.id.slice(0, 8)}`,
      countersEl(m, -1)),
    others.map((s) => seatEl(m, ui, s)),
    shared.length ? h("section", { class: "shared" }, supplyEl(m, ui, piles),
      h("div", { class: "zones" }, shared.filter((z) => zoneKind(z) !== "pile").map((z) => zoneEl(m, ui, z)))) : null,
    seatEl(m, ui, m.seat),
    decisionEl(m, ui),
    logEl(m)));
  const log = root.querySelector(".log");
  if (log) log.scrollTop = scrolled !== undefined && scrolled < log.scrollHeight - 400 ? scrolled : log.scrollHeight;
}

export function renderGameOver(root: HTMLElement, m: Match, over: GameOver, leave: () => void): void {
  const results = [...over.results].sort((a, b) => (a.rank || 99) - (b.rank || 99) || a.seat - b.seat);
  const me = over.results.find((r) => r.seat === m.seat);
  const title = over.reason === "script_error" ? "The match was stopped (a card script failed)"
    : me && me.rank === 1 ? "You won!" : "Game over";
  root.replaceChildren(h("div", { class: "game-over", id: "game-over", "data-match": m.id },
    h("h1", {}, title),
    over.reason ? h("p", { class: "reason" }, `Reason: ${over.reason.replace(/_/g, " ")}`) : null,
    h("table", { class: "results" },
      h("thead", {}, h("tr", {}, h("th", {}, "Place"), h("th", {}, "Player"), h("th", {}, "Score"), h("th", {}, "Turns"))),
      h("tbody", {}, results.map((r) => h("tr", { class: r.seat === m.seat ? "me" : "" },
        h("td", {}, r.rank || "–"), h("td", {}, r.name || m.name(r.seat)), h("td", {}, r.score), h("td", {}, r.turns))))),
    h("button", { id: "back-to-lobby", onclick: leave, autofocus: true }, "Back to the lobby"),
    logEl(m)));
}
