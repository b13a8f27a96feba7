// replay.ts: stepping through a finished match (ReplayRequest): the frames as they arrive
// (frame i at index i; the count from `total`), the frame shown, and its screen: the match
// screen of that frame (Match.fromFrames: its public view, the log up to it), a banner
// saying which step it is, and the controls: first, previous, a slider, next, last (the
// keys ← → Home End do the same, keys.ts); the last frame shows the result.
import { h, patch } from "./dom";
import { Match } from "./match";
import { renderMatch } from "./render_match";
import type { MatchUi } from "./ui";
import { resultsEl } from "./endscreen";
import type { ReplayFrame } from "./gen/deckhand";

export class Replay {
  frames: ReplayFrame[] = [];
  total = 0;
  at = 0;
  done = false; // the Reply came: every frame is here (or none will come)

  constructor(public id: string) {}

  // A frame of this replay; false (nothing changes) for another match's or a bad index.
  add(f: ReplayFrame): boolean {
    if (f.match_id !== this.id || f.total === 0 || f.index >= f.total) return false;
    this.total = f.total;
    this.frames[f.index] = f;
    return true;
  }

  // Frames 0..n-1 are here.
  get received(): number {
    let n = 0;
    while (n < this.total && this.frames[n]) n++;
    return n;
  }

  // Go to frame i (bounded by what has arrived); true when it moved.
  go(i: number): boolean {
    const to = Math.max(0, Math.min(i, this.received - 1));
    if (to === this.at || this.received === 0) return false;
    this.at = to;
    return true;
  }

  match(): Match | null {
    return this.frames[this.at] ? Match.fromFrames(this.frames, this.at) : null;
  }
}

export interface ReplayActions {
  go(i: number): void;
  leave(): void;
}

// ui: the page's (a frame has no decision, so it only opens a card's zoom or the rules).
export function renderReplay(root: HTMLElement, r: Replay, act: ReplayActions, notice: string, ui: MatchUi): void {
  const m = r.match();
  const leave = h("button", { id: "leave-replay", onclick: act.leave }, "Back to the lobby");
  if (!m) {
    patch(root, h("div", { class: "replay-loading", "data-key": "replay-loading" },
      h("h1", {}, "Replay"),
      notice ? h("p", { class: "notice", role: "alert" }, notice)
        : h("p", { role: "status" }, r.done ? "This replay has no frames." : `Loading the replay of ${r.id.slice(0, 8)}…`),
      leave));
    return;
  }
  const last = r.total - 1;
  const step = (label: string, id: string, to: number, key: string) =>
    h("button", { id, "aria-label": label, title: `${label} (${key})`, disabled: to === r.at, onclick: () => act.go(to) },
      label);
  const controls = h("div", { class: "replay-controls" },
    h("div", { class: "row" },
      step("First", "replay-first", 0, "Home"),
      step("Previous", "replay-prev", Math.max(0, r.at - 1), "←"),
      h("input", { id: "replay-slider", type: "range", min: 0, max: last, value: r.at, "aria-label": "step",
        oninput: (e: Event) => act.go(Number((e.target as HTMLInputElement).value)) }),
      step("Next", "replay-next", Math.min(last, r.at + 1), "→"),
      step("Last", "replay-last", last, "End"),
      leave),
    m.over ? h("div", { class: "replay-result", "data-key": "result" }, h("h2", {}, "Result"), resultsEl(m, m.over)) : null);
  renderMatch(root, m, ui, {
    banner: h("span", { class: "banner-line" }, h("strong", {}, "Replay"),
      ` · step ${r.at + 1} of ${r.total}`, r.received < r.total ? ` (${r.received} loaded)` : "",
      m.over ? " · the end" : ""),
    controls,
  });
  const slider = root.querySelector<HTMLInputElement>("#replay-slider");
  if (slider && slider.value !== String(r.at)) slider.value = String(r.at);
  const shown = root.querySelector(".match");
  shown?.setAttribute("data-replay-at", String(r.at));
  shown?.setAttribute("data-replay-total", String(r.total));
  shown?.setAttribute("data-replay-loaded", String(r.received));
}
