// render_match.ts: draws a match for any game from what the View says, nothing else; for
// a player, a spectator (no seat: every seat drawn as an opponent, no options) and a
// replay's frame alike. A zone's kind, order, label, columns and frame colour come from
// the bundle's presentation hints (Catalog.presentation) when it has them, else from the
// zone's name: "hand", piles of a shared supply ("supply:NAME"), a board of spaces
// ("board:ROW:COL", drawn as a grid of every row known, empty spaces included), rows of
// visible cards (play area, centre row, discard tops, trash), and hidden zones as counts
// (deck). Counters carry the bundle's words (CounterHint: label, help, hidden, order).
// Card colours are the bundle's type colours, else a hue hashed from the first type.
//
// The layout never hides the player's own cards: the table (opponents, the shared
// supply, the own seat and board) on the left, the decision, chat and log beside it, the
// own hand in a dock under the table; on a phone the decision and the hand are docked at
// the bottom of the screen, one above the other, and the table scrolls above them. Every
// card's full text opens in a zoom (its "i" button). Options are buttons (keys 1-9) and
// make the cards they name clickable where they lie; options that say what they act on
// are played on the board (board.ts). Every node that may be pressed has a data-key, so a
// redraw keeps it (dom.ts, patch).
import { h, hue, patch, type Child } from "./dom";
import { NO_SEAT, words, type Match } from "./match";
import type { Card, DecisionRequest, Option, Zone } from "./gen/deckhand";
import { actors, boardCols, boardDriven, boardRows, clickCard, panelOptions, spaceOptions, targetsOf } from "./board";
import { chatEl, dialogsEl } from "./side";
import type { MatchUi } from "./ui";

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

// The card picked on the board: the one clicked, or the only one that can act when every
// option acts from it (a spell's targets).
export function actorOf(d: DecisionRequest | null, ui: MatchUi): number {
  const who = actors(d);
  if (ui.actor && who.has(ui.actor)) return ui.actor;
  if (d && who.size === 1 && d.options.every((o) => o.entity === [...who][0])) return [...who][0];
  return 0;
}

// Several options name the card (by entity): a click lists them.
const manyFor = (d: DecisionRequest | null, entity: number) =>
  !!d && entity !== 0 && d.options.filter((o) => o.entity === entity).length > 1;

// The option a card answers, by entity, else (for piles) by card name.
function optionFor(d: DecisionRequest | null, card: Card, byName: boolean): Option | undefined {
  if (!d) return undefined;
  return d.options.find((o) => o.entity !== 0 && o.entity === card.entity) ??
    (byName ? d.options.find((o) => o.card === card.name && (o.entity === 0 || o.entity === card.entity)) : undefined);
}

function cardEl(m: Match, ui: MatchUi, card: Card, key: string, count?: number, byName = false): HTMLElement {
  const info = m.card(card.name);
  const d = m.decision;
  const actor = actorOf(d, ui);
  const board = boardDriven(d);
  const isActor = (board && actors(d).has(card.entity)) || (!board && manyFor(d, card.entity));
  const isTarget = !!actor && targetsOf(d, actor).has(card.entity);
  const plain = isActor || isTarget ? undefined : optionFor(d, card, byName);
  const active = !!plain || isActor || isTarget;
  const types = info?.types ?? "";
  const colour = m.typeColor(types);
  const cls = "card" + (active ? " choosable" : "") + (plain && ui.selected.has(plain.id) ? " selected" : "") +
    (isTarget ? " target" : "") + (actor && actor === card.entity ? " actor" : "");
  const act = () => (plain ? pick(m, ui, plain) : clickOnBoard(m, ui, card.entity));
  const el = h("div", {
    class: cls,
    "data-key": key,
    "data-card": card.name,
    "data-entity": card.entity,
    "data-acts": isActor ? "1" : undefined, // picked first, then its target or space
    title: info?.text || card.name,
    role: active ? "button" : undefined,
    tabindex: active ? 0 : undefined,
    "aria-pressed": plain && d && multi(d) ? String(ui.selected.has(plain.id)) : isActor ? String(actor === card.entity) : undefined,
    style: colour ? `--hue: ${hue(types.split(/[\s-]/)[0] || card.name)}; --type-colour: ${colour}`
      : `--hue: ${hue(types.split(/[\s-]/)[0] || card.name)}`,
    onclick: active ? act : undefined,
    onkeydown: active ? (e: Event) => {
      const k = (e as KeyboardEvent).key;
      if (k === "Enter" || k === " ") {
        e.preventDefault();
        e.stopPropagation();
        act();
      }
    } : undefined,
  },
  h("div", { class: "card-top" }, h("span", { class: "card-name" }, card.name),
    info && info.cost >= 0 ? h("span", { class: "card-cost", title: "cost" }, info.cost) : null),
  types ? h("div", { class: "card-types" }, types) : null,
  info?.text ? h("div", { class: "card-text" }, info.text) : null,
  stats(m, card.entity),
  count !== undefined ? h("div", { class: "card-count", title: "left in the pile" }, `×${count}`) : null,
  isTarget ? h("span", { class: "sr-only" }, " (a target)") : null);
  // The zoom is the card's neighbour, not its child: a button inside a button is no button.
  return h("div", { class: "card-wrap", "data-key": `w${key}` }, el,
    info ? h("button", { class: "zoom", "aria-label": `Read ${card.name}`, title: `Read ${card.name}`,
      onclick: () => ui.open(`zoom:${card.name}`) }, "i") : null);
}

function cardKey(z: Zone, c: Card, i: number): string {
  return c.entity ? `e${c.entity}` : `${z.owner}:${z.name}:${i}`;
}

function stats(m: Match, entity: number): HTMLElement | null {
  const list = m.stats(entity);
  if (list.length === 0) return null;
  return h("div", { class: "card-stats" }, list.map(([name, value]) =>
    h("span", { "data-stat": name, title: m.counterHint(name)?.description || undefined },
      `${m.counterLabel(name)} `, h("b", {}, value))));
}

function pick(m: Match, ui: MatchUi, opt: Option): void {
  if (!m.decision || ui.sending) return;
  if (multi(m.decision)) ui.toggle(opt.id);
  else ui.choose([opt.id]);
}

function clickOnBoard(m: Match, ui: MatchUi, entity: number): void {
  if (ui.sending) return;
  const c = clickCard(m.decision, actorOf(m.decision, ui), entity);
  if (!c) return;
  if (c.kind === "narrow" && !boardDriven(m.decision)) return ui.setActor(0, c.options.map((o) => o.id));
  if (c.kind === "choose") ui.choose([c.option.id]);
  else if (c.kind === "actor") ui.setActor(c.entity);
  else ui.setActor(actorOf(m.decision, ui), c.options.map((o) => o.id));
}

function clickSpace(m: Match, ui: MatchUi, zone: string): void {
  const opts = spaceOptions(m.decision, actorOf(m.decision, ui), zone);
  if (opts.length === 1) ui.choose([opts[0].id]);
  else if (opts.length > 1) ui.setActor(actorOf(m.decision, ui), opts.map((o) => o.id));
}

function label(m: Match, z: Zone): string {
  return m.hint(z.name)?.label || words(z.name.replace(/^supply:/, ""));
}

function frame(m: Match, z: Zone): string | undefined {
  const c = m.hint(z.name)?.color;
  return c ? `--zone-colour: ${c}` : undefined;
}

function zoneEl(m: Match, ui: MatchUi, z: Zone): HTMLElement {
  const kind = zoneKind(m, z);
  const key = `z${z.owner}:${z.name}`;
  const help = m.hint(z.name)?.description || undefined;
  if (kind === "count")
    return h("div", { class: "zone zone-count" + (frame(m, z) ? " framed" : ""), "data-key": key, "data-zone": z.name,
      style: frame(m, z), title: help }, h("span", { class: "zone-name" }, label(m, z)), h("span", { class: "badge" }, z.count));
  const columns = m.hint(z.name)?.columns ?? 0;
  const cards = h("div", { class: "cards" + (columns > 0 ? " columns" : ""), style: columns > 0 ? `--cols: ${columns}` : undefined },
    z.cards.map((c, i) => cardEl(m, ui, c, cardKey(z, c, i))));
  return h("div", { class: `zone zone-${kind}` + (frame(m, z) ? " framed" : ""), "data-key": key, "data-zone": z.name,
    style: frame(m, z), title: help },
  h("div", { class: "zone-name" }, label(m, z), " ", h("span", { class: "badge" }, z.count)), cards);
}

// The piles of the shared supply: each pile's top card with its cost and count (in the
// bundle's order when hinted per pile, else by cost).
function supplyEl(m: Match, ui: MatchUi, piles: Zone[]): HTMLElement | null {
  if (piles.length === 0) return null;
  const byCost = [...piles].sort((a, b) =>
    (m.card(a.name.replace(/^[^:]*:/, ""))?.cost ?? 0) - (m.card(b.name.replace(/^[^:]*:/, ""))?.cost ?? 0) ||
    a.name.localeCompare(b.name));
  const hinted = piles.some((z) => m.hint(z.name)?.zone === z.name);
  const sorted = hinted ? ordered(m, byCost) : byCost;
  const hint = m.hint(piles[0].name);
  return h("div", { class: "supply" + (hint?.color ? " framed" : ""), "data-key": "supply", style: frame(m, piles[0]),
    title: hint?.description || undefined },
  h("div", { class: "zone-name" }, hint?.label || "Supply"),
  h("div", { class: "piles" }, sorted.map((z) => {
    const top = z.cards[z.cards.length - 1] ?? { entity: 0, name: z.name.replace(/^[^:]*:/, "") };
    const el = cardEl(m, ui, top, `pile:${z.name}`, z.count, true);
    const card = el.firstElementChild as HTMLElement;
    if (z.count === 0) card.classList.add("empty");
    card.dataset.zone = z.name;
    return el;
  })));
}

// The board of one owner: every space of every row known ("board:ROW:COL"), empty ones
// included, flipped for an opponent so that the two front rows face each other. With a
// card picked on the board, the spaces it may go to are highlighted and clickable.
function boardEl(m: Match, ui: MatchUi, owner: number, flip: boolean): HTMLElement | null {
  const seen = [...m.zones.values()].map((z) => z.name.split(":")).filter((p) => p[0] === "board" && p.length === 3);
  const rowsKnown = boardRows(m.zoneHints(), m.boardRows);
  if (rowsKnown.length === 0) return null;
  const cols = boardCols(m.hint("board:x:1")?.columns ?? 0, seen.map((p) => p[2]));
  const rows = flip ? [...rowsKnown].reverse() : rowsKnown;
  const mine = owner === m.seat;
  const actor = mine ? actorOf(m.decision, ui) : 0;
  const cells: HTMLElement[] = [];
  for (const r of rows)
    for (const c of cols) {
      const name = `board:${r}:${c}`;
      const z = m.zones.get(`${owner}|${name}`);
      const moves = mine ? spaceOptions(m.decision, actor, name) : [];
      const go = moves.length > 0 && !ui.sending;
      cells.push(h("div", {
        class: "space" + (go ? " target" : ""), "data-key": name, "data-zone": name, "data-row": r, "data-col": c,
        role: go ? "button" : undefined, tabindex: go ? 0 : undefined,
        "aria-label": go ? (moves.length === 1 ? moves[0].label : `${r} ${c}`) : undefined,
        title: `${r} ${c}`,
        onclick: go ? () => clickSpace(m, ui, name) : undefined,
        onkeydown: go ? (e: Event) => {
          const k = (e as KeyboardEvent).key;
          if (k === "Enter" || k === " ") {
            e.preventDefault();
            clickSpace(m, ui, name);
          }
        } : undefined,
      }, z ? z.cards.map((card, i) => cardEl(m, ui, card, cardKey(z, card, i))) : null));
    }
  return h("div", { class: "board", "data-key": "board", "data-owner": owner, style: `--cols: ${cols.length}` }, cells);
}

function countersEl(m: Match, owner: number): HTMLElement | null {
  const cs = m.countersOf(owner);
  if (cs.length === 0) return null;
  return h("div", { class: "counters", "data-key": "counters" }, cs.map((c) =>
    h("span", { class: "counter", "data-counter": c.name, "data-key": c.name, title: m.counterHint(c.name)?.description || undefined },
      `${m.counterLabel(c.name)} `, h("b", {}, c.value))));
}

function seatEl(m: Match, ui: MatchUi, seat: number): HTMLElement {
  const mine = seat === m.seat;
  const zones = ordered(m, m.zonesOf(seat));
  const info = m.players.find((p) => p.seat === seat);
  const kind = (z: Zone) => zoneKind(m, z);
  const hand = zones.filter((z) => kind(z) === "hand");
  const rest = zones.filter((z) => !["board", "hand"].includes(kind(z)));
  return h("section", { class: "seat" + (mine ? " mine" : "") + (m.waitingFor === seat ? " active" : ""),
    "data-seat": seat, "data-key": `seat${seat}`, "aria-label": mine ? "your side" : m.name(seat) },
  h("h2", {}, m.name(seat), mine ? " (you)" : "", info && !info.connected ? h("span", { class: "away" }, " away") : null,
    m.waitingFor === seat ? h("span", { class: "turn", "aria-label": "to play" }, " ●") : null),
  countersEl(m, seat),
  boardEl(m, ui, seat, !mine),
  h("div", { class: "zones", "data-key": "zones" }, rest.map((z) => zoneEl(m, ui, z))),
  mine ? null : hand.map((z) => zoneEl(m, ui, z)));
}

// The own hand, docked under the table (at the screen's bottom on a phone).
function handDock(m: Match, ui: MatchUi): HTMLElement | null {
  if (m.seat === NO_SEAT) return null;
  const hands = ordered(m, m.zonesOf(m.seat)).filter((z) => zoneKind(m, z) === "hand");
  if (hands.length === 0) return null;
  return h("section", { class: "hand-dock", "data-key": "hand-dock", "aria-label": "your hand" },
    hands.map((z) => h("div", { class: "hand", "data-key": `hand:${z.name}` }, zoneEl(m, ui, z))));
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

// The options drawn as buttons (board.ts: on a board decision, those not played on it).
export function shownOptions(m: Match, ui: MatchUi): Option[] {
  return m.decision ? panelOptions(m.decision, actorOf(m.decision, ui), ui.narrowed) : [];
}

// What the board asks of the player now, in words.
function boardHint(m: Match, ui: MatchUi): HTMLElement | null {
  const d = m.decision;
  if (!boardDriven(d)) return null;
  const actor = actorOf(d, ui);
  const name = [...m.zones.values()].flatMap((z) => z.cards).find((c) => c.entity === actor)?.name ?? "";
  return h("p", { class: "board-hint", "data-key": "board-hint" }, actor
    ? [`${name || "Card"} picked: click a highlighted target or space.`, " ",
      ui.actor ? h("button", { class: "link", id: "drop-actor", onclick: () => ui.setActor(0) }, "Pick another") : null]
    : "Click one of your highlighted cards, then its target or the space it goes to.");
}

// A move that failed in a card script: the server's words (what happened, an error id, the
// way out), else ours, and the way out as a button: the bot answers this decision (not
// offered when it was the bot's answer that failed).
function scriptErrorEl(ui: MatchUi): HTMLElement | null {
  if (!ui.scriptError) return null;
  const botFailed = /^the bot/i.test(ui.scriptError);
  return h("div", { class: "script-error", role: "alert", "data-key": "script-error" },
    h("p", {}, /could not be played|could not answer/i.test(ui.scriptError) ? ui.scriptError
      : `Your move could not be played: the game's rules failed on it (${ui.scriptError}). Nothing changed. ` +
        "Choose another move, or let the bot answer for you."),
    botFailed ? null : h("button", { id: "script-error-bot", class: "primary", onclick: () => ui.bot() }, "Let the bot answer"));
}

function decisionEl(m: Match, ui: MatchUi): HTMLElement {
  const d = m.decision;
  if (!d) {
    const who = m.waitingFor >= 0 ? `Waiting for ${m.name(m.waitingFor)}…` : m.finished ? "The match is over." : "Waiting…";
    return h("section", { class: "decision idle", "data-key": "decision-idle", "aria-live": "polite", "aria-label": "decision" },
      h("p", { class: "prompt" }, who));
  }
  const many = multi(d);
  const n = ui.selected.size;
  return h("section", { class: "decision", "data-key": "decision", "aria-live": "polite", "aria-label": "decision",
    "data-decision": d.decision_id, "data-min": d.min, "data-max": d.max },
  h("p", { class: "prompt" }, d.prompt || "Your choice",
    many ? h("span", { class: "range" }, ` (choose ${d.min === d.max ? d.min : `${d.min}–${d.max}`})`) : null,
    " ", timerEl(m)),
  scriptErrorEl(ui),
  boardHint(m, ui),
  h("div", { class: "options", role: "group", "aria-label": "options" }, shownOptions(m, ui).map((o, i) => h("button", {
    class: "option" + (ui.selected.has(o.id) ? " selected" : ""),
    "data-key": `o${d.decision_id}:${o.id}`,
    "data-option": o.id,
    "data-verb": o.verb || undefined,
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
    d.can_undo ? h("button", { id: "undo", "data-key": "undo", disabled: ui.sending, onclick: () => ui.undo() },
      "Undo ", h("kbd", {}, "U")) : null,
    h("button", { class: "bot", id: "bot-answer", disabled: ui.sending, onclick: () => ui.bot() },
      "Let the bot answer ", h("kbd", {}, "B"))));
}

function clearSelection(ui: MatchUi): void {
  for (const id of [...ui.selected]) ui.toggle(id);
}

// A spectator's or replay's status line: whose turn it is (no options to press).
function statusEl(m: Match): HTMLElement {
  const who = m.over ? "The match is over." : m.waitingFor >= 0 ? `${m.name(m.waitingFor)} to play` : "Waiting…";
  return h("section", { class: "status-line", "data-key": "status", "aria-live": "polite" }, h("p", { class: "prompt" }, who));
}

export function logEl(m: Match): HTMLElement {
  const list = h("ol", { class: "log", "aria-label": "game log", tabindex: 0 }, m.log.slice(-80).map((t) => h("li", {}, t)));
  return h("section", { class: "log-box", "data-key": "log", "aria-label": "log" }, h("h2", {}, "Log"), list);
}

function barEl(m: Match, ui: MatchUi, playing: boolean): HTMLElement {
  return h("header", { class: "bar", "data-key": "bar" }, h("strong", { class: "title" }, m.title()),
    h("span", { class: "match-id" }, `match ${m.id.slice(0, 8)}`),
    countersEl(m, -1),
    h("span", { class: "bar-actions" },
      m.summary() ? h("button", { id: "show-rules", onclick: () => ui.open("rules") }, "How to play") : null,
      playing ? h("button", { id: "resign", class: "danger", onclick: () => ui.open("resign") }, "Resign and leave") : null));
}

export function renderMatch(root: HTMLElement, m: Match, ui: MatchUi, watching?: Watching): void {
  const shared = ordered(m, m.zonesOf(-1));
  const piles = shared.filter((z) => zoneKind(m, z) === "pile");
  const others = m.seats().filter((s) => s !== m.seat);
  const log = root.querySelector(".log");
  const atEnd = !log || log.scrollTop + log.clientHeight >= log.scrollHeight - 40;
  const playing = !watching && m.seat !== NO_SEAT && !m.over;
  const dock = handDock(m, ui);
  patch(root, h("div", { class: "match" + (watching ? " watching" : "") + (dock ? " docked" : ""),
    "data-key": `match:${m.id}`, "data-match": m.id,
    "data-game": m.game, "data-event-seq": m.eventSeq, "data-frames": m.frames || undefined },
  barEl(m, ui, playing),
  watching ? h("div", { class: "banner", "data-key": "banner", role: "status" }, watching.banner) : null,
  ui.notice ? h("p", { class: "notice match-notice", role: "alert", "data-key": "notice" }, ui.notice) : null,
  h("main", { class: "table", "data-key": "table" },
    others.map((s) => seatEl(m, ui, s)),
    shared.length ? h("section", { class: "shared", "data-key": "shared", "aria-label": "shared cards" }, supplyEl(m, ui, piles),
      h("div", { class: "zones", "data-key": "zones" }, shared.filter((z) => zoneKind(m, z) !== "pile").map((z) => zoneEl(m, ui, z)))) : null,
    m.seat !== NO_SEAT ? seatEl(m, ui, m.seat) : null),
  dock,
  h("aside", { class: "side", "data-key": "side" },
    watching ? statusEl(m) : decisionEl(m, ui),
    watching?.controls ? h("div", { class: "controls", "data-key": "controls" }, watching.controls) : null,
    watching && m.frames === 0 ? null : chatEl(m, ui.social, !playing),
    logEl(m)),
  dialogsEl(m, ui)));
  const now = root.querySelector(".log");
  if (now && atEnd) now.scrollTop = now.scrollHeight;
  focusDialog(root);
}

// An open dialog holds the focus (its first button), so keys go to it.
export function focusDialog(root: HTMLElement): void {
  const dialog = root.querySelector<HTMLElement>("[role=dialog], [role=alertdialog]");
  if (dialog && !dialog.contains(document.activeElement)) dialog.querySelector<HTMLElement>("button, input")?.focus();
}
