// main.ts: the web client's one state and what each message and click does to it. The
// token (and the match being played) live in the tab's sessionStorage, so each tab is one
// player, and a reload or a dropped connection logs in again with Hello{token} and
// resumes the match with Resync, through whichever gateway served the page. Besides playing, the page may watch a running match
// (Spectate, then SpectatorFrames) or step through a finished one (ReplayRequest, then
// ReplayFrames): the same match screen, read-only.
import "./style.css";
import { Conn, RequestError } from "./conn";
import { h, patch } from "./dom";
import { renderLobby, renderLogin, type LobbyActions, type LobbyModel } from "./lobby";
import { Match, addCatalog, gameWords, NO_SEAT } from "./match";
import { moveFocus, optionKey, replayKey, type Target } from "./keys";
import { renderMatch, shownOptions, tickTimers, zoneKind } from "./render_match";
import type { MatchUi } from "./ui";
import { renderGameOver } from "./endscreen";
import { Replay, renderReplay } from "./replay";
import type { GameDesc, Option, ServerMessage, SpectatorFrame, UndoState, Welcome } from "./gen/deckhand";

const TOKEN = "deckhand.token";
const MATCH = "deckhand.match";
// Shown when the cluster does not answer GamesRequest (an older matchmaker).
const KNOWN_GAMES = ["dominion", "accession", "ascension", "caveman", "elemental"];

const root = document.getElementById("app")!;
const conn = new Conn();
// What a test reads in the page: the last messages, every SpectatorFrame received, and this
// seat's hand (entities) after each View or ViewDelta; both with the public state they go
// with (publicState: event_seqs and view_seqs are per seat, so a spectator's frame and a
// seat's view of one moment meet by what both show).
// The options of each accepted answer (deckhandChosen), so a test that played on the board
// knows what its clicks chose.
const spy = window as unknown as {
  deckhandTrace: string[]; deckhandFrames: { at: number; state: string; frame: SpectatorFrame }[];
  deckhandHands: { seq: number; at: number; state: string; hand: number[] }[];
  deckhandChosen: Option[][];
};

// What every seat and a spectator see alike at a moment: each zone's count, the cards of
// the shared zones, the counters no one hides.
function publicState(m: Match): string {
  const zones = [...m.zones.values()].map((z) =>
    `${z.owner}|${z.name}|${z.count}${z.owner < 0 ? "|" + z.cards.map((c) => c.entity).join(",") : ""}`).sort();
  const counters = [...m.counters.values()].filter((c) => !c.name.startsWith("_"))
    .map((c) => `${c.owner}|${c.name}=${c.value}`).sort();
  return zones.join(";") + "#" + counters.join(";");
}
spy.deckhandTrace = conn.trace;
spy.deckhandFrames = [];
spy.deckhandHands = [];
spy.deckhandChosen = [];
let me: Welcome | null = null;
let match: Match | null = null;
let watching: Match | null = null; // the match being spectated
let replay: Replay | null = null; // the replay being stepped through
let notice = "";
let retry = 0;
// Each tab keeps its own token, so two tabs are two players. An account logged in in two
// tabs is one player, though, and the gateway keeps only its newest connection: a tab that
// sees another log in as the same account stops reconnecting (instead of the two taking
// the player from each other every second) until asked to play here again.
const TAB_KEY = "deckhand.tab";
const tab = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
let elsewhere = false;
const lobby: Omit<LobbyModel, "me"> = {
  games: KNOWN_GAMES.map((game) => fallbackGame(game)), game: "dominion", players: 2, options: {}, mode: "",
  difficulty: "", queued: "", party: null, lobby: null, lobbies: null, board: null, history: null, watch: null, notice: "",
};
const ui: MatchUi = {
  selected: new Set(), sending: false, actor: 0, narrowed: [], dialog: "", scriptError: "", notice: "",
  social: {
    muted: new Set(), error: "",
    send: (text, emote) => sendChat(text, emote),
    mute: (seat) => {
      if (!ui.social.muted.delete(seat)) ui.social.muted.add(seat);
      draw();
    },
    answerUndo: (accept) => {
      const m = match;
      if (!m) return;
      m.undo = null;
      conn.request("undo_answer", { match_id: m.id, accept }).catch(say);
      draw();
    },
  },
  choose: (ids) => answer({ option_ids: ids }),
  bot: () => answer({ bot: "default" }),
  toggle: (id) => {
    if (!ui.selected.delete(id)) ui.selected.add(id);
    draw();
  },
  leave: () => leaveMatch(),
  setActor: (entity, narrowed = []) => {
    ui.actor = entity;
    ui.narrowed = narrowed;
    draw();
  },
  // A dialog takes the focus (render_match.ts); closing it gives the focus back to what
  // had it before.
  open: (dialog) => {
    if (dialog && !ui.dialog) focusBefore = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    ui.dialog = dialog;
    drawNow();
    if (!dialog && focusBefore?.isConnected) focusBefore.focus();
    if (!dialog) focusBefore = null;
  },
  resign: () => resign(),
  undo: () => undo(),
};
let focusBefore: HTMLElement | null = null;
// Where the tab's player is kept: this tab only.
const store = sessionStorage;

function fallbackGame(game: string): GameDesc {
  return {
    game, min_players: 2, max_players: 2, modes: ["casual"], options: [], bots: ["default"],
    title: "", summary: "", difficulties: [], deck_builder: false,
  };
}

// ---- drawing: at most once per turn of the event loop ----------------------------------
// Redraws patch the page in place (dom.ts), so a button being pressed while a message
// arrives is still the same button when the press ends.
let drawQueued = false;
function draw(): void {
  if (drawQueued) return;
  drawQueued = true;
  setTimeout(() => {
    drawQueued = false;
    drawNow();
  }, 0);
}

// The page: a status line (offline, another tab) above the screen of the moment.
const statusBox = h("div", { id: "status" });
const screen = h("div", { id: "screen" });
root.replaceChildren(statusBox, screen);

function drawNow(): void {
  patch(statusBox, elsewhere
    ? h("p", { class: "offline", role: "status" }, "You are playing in another tab. ",
      h("button", { id: "play-here", onclick: () => { elsewhere = false; retry = 0; reconnect(); } }, "Play here"))
    : !conn.open && me ? h("p", { class: "offline", role: "status" }, "Connection lost: reconnecting…") : null);
  ui.notice = notice;
  if (!me) renderLogin(screen, loginActions, notice);
  else if (replay) renderReplay(screen, replay, replayActions, notice, ui);
  else if (watching?.over) renderGameOver(screen, watching, watching.over, { notice, leave: () => stopWatching() }, replayButton(watching.id));
  else if (watching) renderMatch(screen, watching, ui, { banner: watchBanner(watching) });
  else if (match?.over) renderGameOver(screen, match, match.over, { notice, leave: () => leaveMatch(), rematch: () => rematch() },
    replayButton(match.id));
  else if (match) renderMatch(screen, match, ui);
  else renderLobby(screen, { ...lobby, me, notice }, lobbyActions);
}

function replayButton(id: string): HTMLElement {
  return h("button", { id: "watch-replay", class: "primary", onclick: () => startReplay(id) }, "Watch replay");
}

function watchBanner(m: Match): HTMLElement {
  const behind = Math.round(m.delayMs / 1000);
  return h("span", { class: "banner-line" }, h("strong", {}, "Spectating"),
    h("span", {}, `${behind} s behind`, m.spectators > 0 ? ` · ${m.spectators} watching` : ""),
    h("button", { id: "stop-watching", onclick: () => stopWatching() }, "Stop watching ", h("kbd", {}, "Esc")));
}

function say(e: unknown): void {
  notice = e instanceof Error ? e.message : String(e);
  draw();
}

// ---- logging in and staying logged in ----------------------------------------------------
function loggedIn(w: Welcome): void {
  me = w;
  elsewhere = false;
  if (w.account) localStorage.setItem(`${TAB_KEY}:${w.player_id}`, tab);
  store.setItem(TOKEN, w.token);
}

async function login(body: string, value: object): Promise<void> {
  notice = "";
  try {
    if (!conn.open) await conn.connect();
    await conn.request(body, value);
    await afterLogin();
  } catch (e) {
    me = null;
    say(e);
  }
}

async function afterLogin(): Promise<void> {
  const stored = store.getItem(MATCH);
  if (stored && !match) match = new Match(stored);
  if (match && !match.over) {
    try {
      await conn.request("resync", { match_id: match.id });
    } catch (e) {
      if (e instanceof RequestError && (e.code === "UNKNOWN_MATCH" || e.code === "BAD_REQUEST")) forgetMatch();
    }
  }
  if (watching && !watching.over) watch(watching.id); // a new connection watches nothing
  draw();
  loadGames();
}

async function loadGames(): Promise<void> {
  try {
    await conn.request("games_request", {});
  } catch {
    // An older cluster: the known games, with their defaults.
  }
}

const loginActions = {
  // The name as typed: the Welcome's carries the server's guest mark (" (guest)").
  guest: (name: string) => { localStorage.setItem("deckhand.name", name); return login("hello", { name }); },
  login: (name: string, password: string) => login("account_login", { name, password }),
  register: (name: string, password: string) => login("register", { name, password }),
};

// A dropped connection: connect again (1 s, 2 s, up to 5 s apart) and resume.
function reconnect(): void {
  draw();
  const token = store.getItem(TOKEN);
  if (!token || !me || elsewhere) return;
  setTimeout(async () => {
    try {
      await conn.connect();
      await conn.request("hello", { token });
      retry = 0;
      notice = "";
      await afterLogin();
    } catch {
      retry++;
      if (!conn.open) reconnect();
    }
  }, Math.min(5000, 1000 * (retry + 1)));
}

// ---- a match --------------------------------------------------------------------------
function forgetMatch(): void {
  match = null;
  store.removeItem(MATCH);
  resetChoice();
  ui.dialog = "";
}

// What the player had picked toward an answer: dropped when the decision changes.
function resetChoice(): void {
  ui.selected.clear();
  ui.actor = 0;
  ui.narrowed = [];
  ui.scriptError = "";
}

function leaveMatch(): void {
  const m = match;
  // Leaving the end screen declines a rematch someone offered.
  if (m?.over && m.rematch && !m.rematch.declined && !m.rematch.new_match_id)
    conn.request("rematch_offer", { match_id: m.id, decline: true }).catch(() => {});
  forgetMatch();
  lobby.queued = "";
  draw();
}

// Resign (confirmed in its dialog): the match ends for this seat; a two-seat match ends
// with a GameOver, a bigger one plays on with a bot, and the page goes back to the lobby.
function resign(): void {
  const m = match;
  ui.dialog = "";
  if (!m || m.over) return draw();
  conn.request("resign", { match_id: m.id }).then(() => {
    setTimeout(() => {
      if (match === m && !m.over) {
        notice = "You resigned: the others play on.";
        leaveMatch();
      }
    }, 2000);
  }, say);
  draw();
}

function undo(): void {
  const m = match;
  if (!m || !m.decision?.can_undo || ui.sending) return;
  conn.request("undo_request", { match_id: m.id }).then(() => draw(), (e) => {
    m.log.push(`(undo: ${e instanceof Error ? e.message : String(e)})`);
    draw();
  });
}

function rematch(): void {
  const m = match;
  if (!m?.over) return;
  conn.request("rematch_offer", { match_id: m.id, decline: false }).catch(say);
}

// A line or an emote to the match; a refusal (the flood limit, the length cap) is shown
// under the chat, the line kept in its field.
function sendChat(text: string, emote: string): void {
  const m = match ?? watching;
  if (!m) return;
  ui.social.error = ""; // a new line: the last refusal is old news (accepted lines answer later than refused ones)
  conn.request("chat_send", { match_id: m.id, text, emote }).then(() => {
    const input = document.getElementById("chat-text") as HTMLInputElement | null;
    if (text && input) input.value = "";
    draw();
  }, (e) => {
    const why = e instanceof Error ? e.message : String(e);
    ui.social.error = e instanceof RequestError && e.code === "RATE_LIMITED" && !/too many/i.test(why)
      ? "Not sent: too many messages at once; wait a moment." : `Not sent: ${why}`;
    draw();
  });
}

// ---- watching a running match, stepping through a finished one ---------------------------
function watch(id: string): void {
  notice = "";
  if (!watching || watching.id !== id) watching = new Match(id);
  watching.seat = NO_SEAT;
  spy.deckhandFrames.length = 0;
  conn.request("spectate", { match_id: id }).catch((e) => {
    if (watching?.id === id && !watching.over) watching = null;
    say(e);
  });
  draw();
}

function stopWatching(): void {
  const w = watching;
  watching = null;
  ui.dialog = "";
  if (w && !w.over) conn.request("spectate_stop", {}).catch(say);
  lobbyActions.watchList();
  draw();
}

function onFrame(f: SpectatorFrame): void {
  if (!watching || !watching.applyFrame(f)) return;
  if (spy.deckhandFrames.length < 5000) spy.deckhandFrames.push({ at: Date.now(), state: publicState(watching), frame: f });
}

function startReplay(id: string): void {
  notice = "";
  const r = new Replay(id);
  replay = r;
  conn.request("replay_request", { match_id: id }).then(() => {
    r.done = true;
    draw();
  }, (e) => {
    r.done = true;
    say(e);
  });
  draw();
}

const replayActions = {
  go: (i: number) => {
    if (replay?.go(i)) draw();
  },
  leave: () => { // to the lobby, past the end screen the replay was opened from
    replay = null;
    ui.dialog = "";
    notice = "";
    if (watching?.over) watching = null;
    if (match?.over) leaveMatch();
    draw();
  },
};

// This seat's hand after a View or ViewDelta, for a test to compare with what spectators see.
function noteHand(m: Match, seq: number): void {
  const hand = [...m.zones.values()].filter((z) => z.owner === m.seat && zoneKind(m, z) === "hand")
    .flatMap((z) => z.cards.map((c) => c.entity));
  if (spy.deckhandHands.length < 20000) spy.deckhandHands.push({ seq, at: Date.now(), state: publicState(m), hand });
}

async function answer(how: { option_ids?: number[]; bot?: string }): Promise<void> {
  const m = match;
  const d = m?.decision;
  if (!m || !d || ui.sending) return;
  ui.sending = true;
  draw();
  try {
    await conn.request("choose", { match_id: m.id, decision_id: d.decision_id, option_ids: how.option_ids ?? [], bot: how.bot ?? "" });
    if (m.decision?.decision_id === d.decision_id) m.decision = null;
    notice = "";
    if (spy.deckhandChosen.length < 1000) spy.deckhandChosen.push(d.options.filter((o) => how.option_ids?.includes(o.id)));
    resetChoice();
  } catch (e) {
    const text = e instanceof Error ? e.message : String(e);
    m.log.push(`(${text})`);
    if (e instanceof RequestError && e.code === "SCRIPT_ERROR") ui.scriptError = text;
    else notice = text;
    if (e instanceof RequestError && e.code === "ILLEGAL_CHOICE") resync(m);
  } finally {
    ui.sending = false;
    draw();
  }
}

function resync(m: Match): void {
  m.viewSeq = -1;
  conn.request("resync", { match_id: m.id }).catch(() => {});
}

function onMatchMessage(msg: ServerMessage): boolean {
  const id = msg.view?.match_id ?? msg.view_delta?.match_id ?? msg.decision?.match_id ??
    msg.event?.match_id ?? msg.game_over?.match_id;
  if (id === undefined) return false;
  if (!match || match.id !== id) {
    if (msg.body !== "view") return true; // a match this page has left
    forgetMatch();
    match = new Match(id);
    store.setItem(MATCH, id);
  }
  const m = match;
  const before = m.decision?.decision_id;
  if (msg.view) m.setView(msg.view);
  if (msg.view_delta && !m.applyDelta(msg.view_delta)) resync(m);
  if (msg.view || msg.view_delta) noteHand(m, msg.view?.event_seq ?? msg.view_delta?.event_seq ?? 0);
  if (msg.decision) m.setDecision(msg.decision);
  if (msg.event && !m.addEvent(msg.event)) resync(m);
  if (msg.game_over) {
    m.over = msg.game_over;
    ui.dialog = "";
    store.removeItem(MATCH);
  }
  // What was toggled stays toggled until the decision is another (a View or a repeated
  // DecisionRequest of the same decision keeps the player's picks).
  if (m.decision?.decision_id !== before) resetChoice();
  return true;
}

// An undo's news in the log, in words.
function undoWords(m: Match, u: UndoState): string {
  const mine = u.seat === m.seat;
  switch (u.status) {
    case "asked": return mine ? "(you asked to take back your last move; waiting for the others to allow it)" : "";
    case "accepted": return mine ? "(your last move was taken back)" : `(${m.name(u.seat)}'s last move was taken back)`;
    case "declined": return mine ? "(your undo was refused)" : `(${m.name(u.seat)}'s undo was refused)`;
    case "expired": return mine ? "(your undo was not answered in time)" : `(${m.name(u.seat)}'s undo was not answered in time)`;
  }
  return "";
}

// Chat, undo and rematch news of the match being played or watched.
function onSocial(msg: ServerMessage): boolean {
  const id = msg.chat?.match_id ?? msg.undo?.match_id ?? msg.rematch?.match_id;
  if (id === undefined) return false;
  const m = match?.id === id ? match : watching?.id === id ? watching : null;
  if (!m) return true;
  if (msg.chat) m.addChat(msg.chat);
  if (msg.undo) {
    m.undo = msg.undo;
    const words = undoWords(m, msg.undo);
    if (words) m.log.push(words);
  }
  if (msg.rematch) m.rematch = msg.rematch;
  return true;
}

conn.onMessage = (msg) => {
  if (msg.welcome) loggedIn(msg.welcome);
  else if (msg.catalog) addCatalog(msg.catalog);
  else if (msg.match_found) {
    forgetMatch();
    match = new Match(msg.match_found.match_id, msg.match_found);
    store.setItem(MATCH, match.id);
    lobby.queued = "";
    notice = "";
    if (lobby.party) lobby.party.queued_game = ""; // the party's queue ended in this match
  } else if (msg.games) {
    if (msg.games.games.length) lobby.games = msg.games.games;
    for (const g of lobby.games) gameWords.set(g.game, { title: g.title, summary: g.summary });
    pickGame(lobby.games.some((g) => g.game === lobby.game) ? lobby.game : lobby.games[0].game);
  } else if (msg.party) lobby.party = msg.party.closed ? null : msg.party;
  else if (msg.lobby) lobby.lobby = msg.lobby.closed ? null : msg.lobby;
  else if (msg.lobby_list) lobby.lobbies = msg.lobby_list;
  else if (msg.leaderboard) lobby.board = msg.leaderboard;
  else if (msg.history) lobby.history = msg.history;
  else if (msg.watch_list) lobby.watch = msg.watch_list;
  else if (msg.spectator_frame) onFrame(msg.spectator_frame);
  else if (msg.replay_frame) replay?.add(msg.replay_frame);
  else if (msg.reply && !msg.reply.ok) notice = msg.reply.error?.message ?? "";
  else if (!onSocial(msg)) onMatchMessage(msg);
  draw();
};
conn.onClose = () => reconnect();
// An account logged in from several tabs is one player (the gateway keeps the newest
// connection): a tab that sees another take it stops reconnecting.
window.addEventListener("storage", (e) => {
  if (!me?.account || e.key !== `${TAB_KEY}:${me.player_id}` || e.newValue === tab) return;
  elsewhere = true;
  conn.close();
  draw();
});

// ---- the lobby's actions -----------------------------------------------------------------
function pickGame(game: string): void {
  const g = lobby.games.find((x) => x.game === game);
  lobby.game = game;
  lobby.options = {};
  lobby.players = g ? Math.max(g.min_players, Math.min(lobby.players, g.max_players)) : 2;
  if (g && !g.modes.includes(lobby.mode)) lobby.mode = "";
  if (g && !g.difficulties.includes(lobby.difficulty)) lobby.difficulty = g.difficulties[Math.min(1, g.difficulties.length - 1)] ?? "";
  lobby.board = null;
}

const options = () => Object.entries(lobby.options).map(([name, value]) => ({ name, value }));
const act = (body: string, value: object = {}, then?: () => void) => () => {
  notice = "";
  conn.request(body, value).then(() => {
    then?.();
    draw();
  }, say);
};

const lobbyActions: LobbyActions = {
  pickGame: (game) => {
    pickGame(game);
    draw();
  },
  setPlayers: (n) => { lobby.players = n; },
  setOption: (name, value) => { lobby.options[name] = value; },
  setMode: (mode) => { lobby.mode = mode; },
  setDifficulty: (level) => { lobby.difficulty = level; },
  queue: () => act("queue_join", { game: lobby.game, players: lobby.players, options: options(), mode: lobby.mode },
    () => { lobby.queued = lobby.game; })(),
  // Against the AI: the match starts at once (MatchFound follows), unrated.
  playAi: () => act("queue_join", { game: lobby.game, players: lobby.players, options: options(), vs_ai: lobby.difficulty })(),
  leaveQueue: () => act("queue_leave", { game: lobby.queued }, () => { lobby.queued = ""; })(),
  partyCreate: act("party_create"),
  partyJoin: (code) => act("party_join", { code })(),
  partyLeave: act("party_leave", {}, () => { lobby.party = null; }),
  lobbyCreate: (pub) => act("lobby_create", { game: lobby.game, players: lobby.players, options: options(), public: pub })(),
  lobbyJoin: (code) => act("lobby_join", { code })(),
  lobbyLeave: act("lobby_leave", {}, () => { lobby.lobby = null; }),
  lobbyReady: (ready) => act("lobby_ready", { ready })(),
  lobbyStart: act("lobby_start"),
  lobbyList: () => act("lobby_list_request", { game: "" })(),
  leaderboard: () => act("leaderboard_request", { game: lobby.game, limit: 20 })(),
  history: act("history_request", { limit: 20 }),
  watchList: () => act("watch_list_request", { game: "" })(),
  watch: (id) => watch(id),
  replay: (id) => startReplay(id),
  logout: () => {
    store.removeItem(TOKEN);
    forgetMatch();
    me = null;
    conn.close();
    draw();
  },
};

// ---- keys (keys.ts): options on a decision, steps of a replay, Escape leaves watching --
function target(el: EventTarget | null): Target {
  if (el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement) return "field";
  if (el instanceof HTMLElement && el.classList.contains("option")) return "option";
  if (el instanceof HTMLButtonElement || (el instanceof HTMLElement && el.getAttribute("role") === "button")) return "button";
  return "none";
}

function focusOption(step: 1 | -1): void {
  const buttons = Array.from(document.querySelectorAll<HTMLButtonElement>(".decision .option"));
  const at = moveFocus(buttons.indexOf(document.activeElement as HTMLButtonElement), buttons.length, step);
  if (at >= 0) buttons[at].focus();
}

document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
  const on = target(e.target);
  if (ui.dialog) {
    if (e.key !== "Escape") return;
    ui.open("");
  } else if (replay) {
    const to = on === "field" ? null : replayKey(e.key, replay.at, replay.total);
    if (to === null) return;
    replayActions.go(to);
  } else if (watching && !watching.over) {
    if (e.key !== "Escape") return;
    stopWatching();
  } else {
    const d = match?.decision;
    if (d && (e.key === "u" || e.key === "U") && d.can_undo && on !== "field") return void (undo(), e.preventDefault());
    const shown = match && d ? { ...d, options: shownOptions(match, ui) } : null;
    const cmd = shown && !match?.over && !ui.sending ? optionKey(e.key, on, shown, ui.selected) : null;
    if (!cmd) return;
    if (cmd.kind === "toggle") ui.toggle(cmd.id);
    else if (cmd.kind === "choose") ui.choose(cmd.ids);
    else if (cmd.kind === "clear") {
      ui.selected.clear();
      draw();
    } else if (cmd.kind === "bot") ui.bot();
    else focusOption(cmd.kind === "next" ? 1 : -1);
  }
  e.preventDefault();
});

// The countdowns on screen follow the clock without a redraw.
setInterval(() => tickTimers(), 1000);

// ---- start: resume with the kept token, or ask who is playing ---------------------------
async function start(): Promise<void> {
  const token = store.getItem(TOKEN);
  if (!token) return draw();
  try {
    await conn.connect();
    await conn.request("hello", { token });
    await afterLogin();
  } catch (e) {
    store.removeItem(TOKEN);
    me = null;
    if (!(e instanceof RequestError) || e.code !== "UNAUTHENTICATED") say(e);
    else draw();
  }
}

start();
