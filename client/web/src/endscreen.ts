// endscreen.ts: the end of a match, for a player, a spectator or a replay alike: who won
// and why (GameOver.summary, else the reason in words), whether it was rated, the results
// by place (a resigned seat marked), each player's deck for the deck-builders
// (PlayerResult.deck), and for a player the rematch offer (RematchOffer, RematchState) with
// the buttons the screen offers ("Watch replay", back to the lobby).
import { h, patch, type Child } from "./dom";
import type { Match } from "./match";
import type { GameOver, PlayerResult } from "./gen/deckhand";
import { focusDialog, logEl } from "./render_match";

export interface EndUi {
  notice?: string; // a refusal to show (a rematch refused)
  leave(): void;
  rematch?: () => void; // a seated player's screen offers a rematch
}

function headline(m: Match, over: GameOver): string {
  const me = over.results.find((r) => r.seat === m.seat);
  if (over.reason === "script_error") return "The match was stopped (a card script failed)";
  if (!me) {
    const winners = over.results.filter((r) => r.rank === 1).map((r) => r.name || m.name(r.seat));
    return winners.length ? `${winners.join(" and ")} won` : "Game over";
  }
  if (me.rank === 1) return over.results.filter((r) => r.rank === 1).length > 1 ? "A shared win!" : "You won!";
  return me.resigned ? "You resigned" : "You lost";
}

// Why the match ended: the worker's words, else the reason code made readable.
function why(m: Match, over: GameOver): string {
  if (over.summary) return over.summary;
  const resigned = over.results.find((r) => r.resigned);
  if (resigned) return `${resigned.name || m.name(resigned.seat)} resigned.`;
  if (over.reason === "script_error") return "A card script kept failing, so nobody won.";
  return over.reason ? `The match ended: ${over.reason.replace(/_/g, " ")}.` : "";
}

function rematchEl(m: Match, ui: EndUi): HTMLElement | null {
  if (!ui.rematch) return null;
  const r = m.rematch;
  const mine = r?.offered.includes(m.seat) ?? false;
  const others = (r?.offered ?? []).filter((s) => s !== m.seat).map((s) => m.name(s));
  const state = r?.declined ? "No rematch: a player left." : mine ? "Rematch offered: waiting for the others…"
    : others.length ? `${others.join(" and ")} wants a rematch.` : "";
  return h("div", { class: "rematch", "data-key": "rematch" },
    h("button", { id: "rematch", class: "primary", disabled: mine || !!r?.declined, onclick: ui.rematch },
      others.length && !mine ? "Accept the rematch" : "Rematch"),
    state ? h("span", { role: "status", class: "rematch-state" }, state) : null);
}

export function renderGameOver(root: HTMLElement, m: Match, over: GameOver, ui: EndUi, extra: Child = null): void {
  const reason = why(m, over);
  patch(root, h("main", { class: "game-over", id: "game-over", "data-match": m.id, "data-game": m.game },
    h("h1", {}, headline(m, over)),
    h("p", { class: "game-title" }, m.title(), over.unrated ? h("span", { class: "unrated" }, " · unrated") : null),
    reason ? h("p", { class: "reason", id: "end-reason" }, reason) : null,
    ui.notice ? h("p", { class: "notice", role: "alert" }, ui.notice) : null,
    resultsEl(m, over),
    decksEl(m, over),
    // The rematch last: its words come and go with the others' offers, and must not move
    // the other buttons under a press.
    h("div", { class: "row" }, h("button", { id: "back-to-lobby", onclick: ui.leave }, "Back to the lobby"), extra,
      rematchEl(m, ui)),
    logEl(m)));
  const log = root.querySelector(".log");
  if (log) log.scrollTop = log.scrollHeight; // the log's end: how the match ended
  focusDialog(root);
}

const nameOf = (m: Match, r: PlayerResult) => r.name || m.name(r.seat);

// The results by place (unranked last), then seat.
export function resultsEl(m: Match, over: GameOver): HTMLElement {
  const rows = [...over.results].sort((a, b) => (a.rank || 99) - (b.rank || 99) || a.seat - b.seat);
  return h("table", { class: "results", "data-key": "results" },
    h("caption", {}, "Results"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Place"), h("th", { scope: "col" }, "Player"),
      h("th", { scope: "col" }, m.counterHint("score")?.label || "Score"), h("th", { scope: "col" }, "Turns"))),
    h("tbody", {}, rows.map((r) => h("tr", { class: r.seat === m.seat ? "me" : "", "data-seat": r.seat },
      h("td", {}, r.rank || "–"), h("td", {}, nameOf(m, r), r.resigned ? h("span", { class: "resigned" }, " (resigned)") : null),
      h("td", {}, r.score), h("td", {}, r.turns)))));
}

// Each player's deck at the end (the deck-builders), most copies first.
function decksEl(m: Match, over: GameOver): HTMLElement | null {
  const withDecks = over.results.filter((r) => r.deck.length > 0);
  if (withDecks.length === 0) return null;
  return h("section", { class: "decks", "data-key": "decks", "aria-label": "decks" }, h("h2", {}, "Decks"),
    withDecks.map((r) => {
      const total = r.deck.reduce((n, d) => n + d.count, 0);
      const cards = [...r.deck].sort((a, b) => b.count - a.count || a.card.localeCompare(b.card));
      return h("div", { class: "deck", "data-seat": r.seat }, h("h3", {}, `${nameOf(m, r)} · ${total} cards`),
        h("ul", { class: "deck-list" }, cards.map((d) => h("li", {}, h("b", {}, `${d.count}×`), ` ${d.card}`))));
    }));
}
