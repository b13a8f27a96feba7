// board.ts: playing on the board, for any game whose options say what they act on. An
// option with an entity and a target or a space (Option.entity, .target, .space, filled by
// the game's script) is "directed": its card is picked first (the actor), then its target
// (a card) or the space it leads to (a board square) is clicked, and the option is taken
// only when that pair names exactly one option; otherwise the panel lists the few that
// remain. The targets of the picked actor are highlighted. Options without that structure
// (an older bundle, "End turn", a buy) stay buttons, so a game gets board play from its
// options alone, with no code of its own here. Also the board's shape: its rows, from
// the zones and spaces seen in the match and the bundle's hints, and its columns.
import type { DecisionRequest, Option, ZoneHint } from "./gen/deckhand";

// (An option whose target is its own card, "pick this one", is answered by that card alone.)
export const directed = (o: Option): boolean =>
  o.entity !== 0 && ((o.target !== 0 && o.target !== o.entity) || (o.space ?? "") !== "");

// An option that is only a space ("where does it go?"), answered by clicking the space.
const spaceOnly = (o: Option): boolean => o.entity === 0 && (o.space ?? "") !== "";

// The decision has options to be played on the board.
export const boardDriven = (d: DecisionRequest | null): boolean => !!d && d.options.some((o) => directed(o) || spaceOnly(o));

// The entities that act in a directed option of d: the cards to pick first.
export function actors(d: DecisionRequest | null): Set<number> {
  return new Set((d?.options ?? []).filter(directed).map((o) => o.entity));
}

// The options of the picked actor.
export const actsOf = (d: DecisionRequest | null, actor: number): Option[] =>
  actor ? (d?.options ?? []).filter((o) => o.entity === actor) : [];

// What a click on the card `entity` does: take one option, pick (or drop) the actor, list
// the options it leaves to choose between, or nothing (then the card's own plain option,
// if any, applies).
export type BoardClick =
  | { kind: "choose"; option: Option }
  | { kind: "actor"; entity: number }
  | { kind: "narrow"; options: Option[] }
  | null;

export function clickCard(d: DecisionRequest | null, actor: number, entity: number): BoardClick {
  if (!d || !entity) return null;
  if (!boardDriven(d)) {
    // Options without structure: a card that several options name lists them (a click
    // never takes the first of them, as it once attacked with a minion meant to move).
    const named = d.options.filter((o) => o.entity === entity);
    return named.length > 1 ? { kind: "narrow", options: named } : null;
  }
  if (actor && actor !== entity) {
    const hits = actsOf(d, actor).filter((o) => o.target === entity);
    if (hits.length === 1) return { kind: "choose", option: hits[0] };
    if (hits.length > 1) return { kind: "narrow", options: hits };
  }
  if (actor === entity) return { kind: "actor", entity: 0 };
  if (actors(d).has(entity)) return { kind: "actor", entity };
  return null;
}

// The options that lead to the space `zone` ("board:back:3"): the picked actor's, or with
// none picked those that are only a space.
export const spaceOptions = (d: DecisionRequest | null, actor: number, zone: string): Option[] =>
  (actor ? actsOf(d, actor) : (d?.options ?? []).filter(spaceOnly)).filter((o) => o.space === zone);

// The picked actor's targets: entities its options aim at.
export const targetsOf = (d: DecisionRequest | null, actor: number): Set<number> =>
  new Set(actsOf(d, actor).filter((o) => o.target !== 0).map((o) => o.target));

// The options drawn as buttons: all of them for a list decision; on a board decision the
// ones not played on the board, and the picked actor's (or the few a click left open).
export function panelOptions(d: DecisionRequest, actor: number, narrowed: number[]): Option[] {
  if (narrowed.length) return d.options.filter((o) => narrowed.includes(o.id));
  if (!boardDriven(d)) return d.options;
  if (actor) return actsOf(d, actor);
  return d.options.filter((o) => !directed(o));
}

// The board's rows in drawing order: those the bundle's hints name ("board:back" or
// "board:back:1"), in the hints' order, then those seen in the match, as they came.
export function boardRows(hints: ZoneHint[], seen: string[]): string[] {
  const hinted = [...hints].sort((a, b) => a.order - b.order).map((z) => z.zone.split(":"))
    .filter((p) => p[0] === "board" && p.length >= 2 && p[1]).map((p) => p[1]);
  const rows: string[] = [];
  for (const r of [...hinted, ...seen]) if (!rows.includes(r)) rows.push(r);
  return rows;
}

// The board's columns: numbered 1..N (N the hint's columns, or the highest seen), else
// the names seen, sorted.
export function boardCols(columns: number, seen: string[]): string[] {
  const nums = seen.map(Number);
  if (nums.every((n) => Number.isInteger(n) && n >= 1 && n <= 32)) {
    const n = Math.max(0, ...nums, Math.min(columns, 32));
    return Array.from({ length: n }, (_, i) => String(i + 1));
  }
  return [...new Set(seen)].sort();
}
