// side.ts: what sits beside the table in a match: the chat (lines and emotes between the
// seats, read-only for spectators; a mute per player, kept by this page only; the
// gateway's refusals, such as its flood limit, shown under it) and the dialogs: resigning
// (confirmed), the game's rules summary, a card read in full (the zoom), and an opponent
// asking to take back a move (UndoState "asked": allow or refuse). Dialogs are drawn as
// part of the screen (role="dialog", the focus moved into them), so a redraw keeps them.
import { h, type Child } from "./dom";
import type { Match } from "./match";
import type { MatchUi, SocialUi } from "./ui";

// The emotes the gateway takes (ChatSend.emote) and how they read.
export const EMOTES: Record<string, string> = {
  gg: "Good game!", hi: "Hello!", thanks: "Thanks!", oops: "Oops!", wow: "Wow!", think: "Thinking…",
};

function lineEl(m: Match, c: Match["chat"][number], i: number): HTMLElement {
  const who = c.seat === m.seat ? "You" : c.name || m.name(c.seat);
  return h("li", { "data-key": `c${i}`, "data-seat": c.seat, class: c.emote ? "emote" : "" },
    h("strong", {}, `${who}: `), c.emote ? EMOTES[c.emote] ?? c.emote : c.text);
}

export function chatEl(m: Match, s: SocialUi, readOnly: boolean): HTMLElement {
  const lines = m.chat.map((c, i) => ({ c, i })).filter(({ c }) => !s.muted.has(c.seat) || c.seat === m.seat);
  const others = m.seats().filter((x) => x !== m.seat && !m.name(x).startsWith("Bot "));
  return h("section", { class: "chat", "data-key": "chat", "aria-label": "chat" },
    h("h2", {}, "Chat"),
    h("ol", { class: "chat-lines", "aria-live": "polite", "aria-label": "chat messages", tabindex: 0 },
      lines.length === 0 ? h("li", { class: "muted-text" }, readOnly ? "No messages." : "Say hello to your opponent.") :
        lines.slice(-40).map(({ c, i }) => lineEl(m, c, i))),
    s.error ? h("p", { class: "chat-error", role: "alert" }, s.error) : null,
    readOnly ? null : h("form", { class: "chat-form", id: "chat-form", onsubmit: (e: Event) => {
      e.preventDefault();
      const input = document.getElementById("chat-text") as HTMLInputElement;
      const text = input.value.trim();
      if (text) s.send(text, "");
    } },
    h("input", { id: "chat-text", maxlength: 200, autocomplete: "off", "aria-label": "message", placeholder: "Message" }),
    h("button", { type: "submit", id: "chat-send" }, "Send")),
    readOnly ? null : h("div", { class: "emotes", role: "group", "aria-label": "emotes" },
      Object.entries(EMOTES).map(([k, v]) => h("button", { class: "emote-go", "data-emote": k, title: v,
        onclick: () => s.send("", k) }, k))),
    others.length ? h("div", { class: "mutes" }, others.map((x) => h("button", {
      class: "link mute", "data-seat": x, "aria-pressed": String(s.muted.has(x)), onclick: () => s.mute(x),
    }, s.muted.has(x) ? `Unmute ${m.name(x)}` : `Mute ${m.name(x)}`))) : null);
}

// A modal dialog: a title, its text, its buttons; Escape or the first button closes it.
export function dialogEl(id: string, title: string, body: Child, buttons: Child, alert = false): HTMLElement {
  return h("div", { class: "backdrop", "data-key": `dialog-${id}` },
    h("div", { class: "dialog", id, role: alert ? "alertdialog" : "dialog", "aria-modal": "true",
      "aria-labelledby": `${id}-title` },
    h("h2", { id: `${id}-title` }, title), body, h("div", { class: "row dialog-buttons" }, buttons)));
}

function zoomEl(m: Match, ui: MatchUi, name: string): HTMLElement {
  const info = m.card(name);
  const close = h("button", { id: "zoom-close", onclick: () => ui.open("") }, "Close");
  return dialogEl("zoom", name, h("div", { class: "zoomed" },
    info && info.cost >= 0 ? h("p", {}, h("strong", {}, "Cost "), info.cost) : null,
    info?.types ? h("p", { class: "card-types" }, info.types) : null,
    h("p", { class: "zoom-text" }, info?.text || "No text.")), close);
}

function rulesEl(m: Match, ui: MatchUi): HTMLElement {
  return dialogEl("rules", `How to play ${m.title()}`,
    h("div", { class: "rules" }, paragraphs(m.summary())),
    h("button", { id: "rules-close", onclick: () => ui.open("") }, "Close"));
}

// A rules summary's paragraphs (split by blank lines).
export function paragraphs(text: string): HTMLElement[] {
  return text.split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean).map((p) => h("p", {}, p));
}

function resignEl(ui: MatchUi): HTMLElement {
  return dialogEl("resign-dialog", "Resign this match?",
    h("p", {}, "You leave the match for good and it counts as a loss. The others are told that you resigned."),
    [h("button", { id: "resign-cancel", onclick: () => ui.open("") }, "Keep playing"),
      h("button", { id: "resign-confirm", class: "danger", onclick: () => ui.resign() }, "Resign")], true);
}

// An opponent asks to take back their last move and waits for this seat's consent.
function undoAskedEl(m: Match, ui: MatchUi): HTMLElement | null {
  const u = m.undo;
  if (!u || u.status !== "asked" || u.seat === m.seat || !u.waiting.includes(m.seat)) return null;
  return dialogEl("undo-dialog", `${m.name(u.seat)} asks to take back their last move`,
    h("p", {}, "Allow it? The match goes back to before that move."),
    [h("button", { id: "undo-decline", onclick: () => ui.social.answerUndo(false) }, "Refuse"),
      h("button", { id: "undo-accept", class: "primary", onclick: () => ui.social.answerUndo(true) }, "Allow")], true);
}

export function dialogsEl(m: Match, ui: MatchUi): HTMLElement | null {
  if (ui.dialog === "resign" && !m.over) return resignEl(ui);
  if (ui.dialog === "rules" && m.summary()) return rulesEl(m, ui);
  if (ui.dialog.startsWith("zoom:")) return zoomEl(m, ui, ui.dialog.slice(5));
  return undoAskedEl(m, ui);
}
