// keys.ts: what a key does on the match and replay screens, as plain functions of the key,
// what has the focus and the decision (main.ts turns them into actions; unit-tested
// without a browser). On a decision: 1-9 pick (or toggle) that option; arrows move the
// focus between the options; on a decision taking several, Enter confirms (also on a
// focused option, whose Space toggles it) and Space confirms when no button has the focus;
// Escape clears what is toggled; B lets the bot answer. On a replay: ← → a step, Home End
// the first and last frame.
import type { DecisionRequest } from "./gen/deckhand";

// What has the focus when the key comes: an option button, another button (or a card that
// acts as one), a text field or a select, or nothing in particular.
export type Target = "option" | "button" | "field" | "none";

export type OptionCommand =
  | { kind: "toggle"; id: number }
  | { kind: "choose"; ids: number[] }
  | { kind: "clear" | "bot" | "next" | "previous" }
  | null;

export function optionKey(key: string, target: Target, d: DecisionRequest, selected: Set<number>): OptionCommand {
  if (target === "field") return null;
  const many = d.max > 1;
  const inRange = selected.size >= d.min && selected.size <= d.max;
  if (/^[1-9]$/.test(key)) {
    const o = d.options[Number(key) - 1];
    if (!o) return null;
    return many ? { kind: "toggle", id: o.id } : { kind: "choose", ids: [o.id] };
  }
  switch (key) {
    case "Enter":
      // another button's Enter (Confirm, the bot, a single choice's option) is its click
      if (!many || target === "button") return null;
      return inRange ? { kind: "choose", ids: [...selected] } : null;
    case " ":
      if (!many || target !== "none") return null;
      return inRange ? { kind: "choose", ids: [...selected] } : null;
    case "Escape":
      return many && selected.size > 0 ? { kind: "clear" } : null;
    case "b": case "B":
      return { kind: "bot" };
    case "ArrowRight": case "ArrowDown":
      return target === "option" || target === "none" ? { kind: "next" } : null;
    case "ArrowLeft": case "ArrowUp":
      return target === "option" || target === "none" ? { kind: "previous" } : null;
  }
  return null;
}

// The frame a replay key leads to from `at` of `total`, or null when the key is not one.
export function replayKey(key: string, at: number, total: number): number | null {
  const last = Math.max(0, total - 1);
  switch (key) {
    case "ArrowLeft": return Math.max(0, at - 1);
    case "ArrowRight": return Math.min(last, at + 1);
    case "Home": return 0;
    case "End": return last;
  }
  return null;
}

// The index the focus moves to among n options from `at` (-1: none focused), wrapping.
export function moveFocus(at: number, n: number, step: 1 | -1): number {
  if (n === 0) return -1;
  if (at < 0) return step > 0 ? 0 : n - 1;
  return (at + step + n) % n;
}
