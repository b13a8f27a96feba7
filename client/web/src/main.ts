// main.ts: the web client's one state and what each message and click does to it. The
// token (and the match being played) live in localStorage, so a reload or a dropped
// connection logs in again with Hello{token} and resumes the match with Resync, through
// whichever gateway served the page.
import "./style.css";
import { Conn, RequestError } from "./conn";
import { h } from "./dom";
import { renderLobby, renderLogin, type LobbyActions, type LobbyModel } from "./lobby";
import { Match, addCatalog } from "./match";
import { renderGameOver, renderMatch, type MatchUi } from "./render_match";
import type { GameDesc, ServerMsg, Welcome } from "./types";

const TOKEN = "deckhand.token";
const MATCH = "deckhand.match";
// Shown when the cluster does not answer GamesRequest (an older matchmaker).
const KNOWN_GAMES = ["dominion", "accession", "ascension", "caveman", "elemental"];

const root = document.getElementById("app")!;
const conn = new Conn();
(window as unknown as { deckhandTrace: string[] }).deckhandTrace = conn.trace;
let me: Welcome | null = null;
let match: Match | null = null;
let notice = "";
let retry = 0;
// Tabs of one browser share the token, so they are one player, and the gateway keeps only
// the newest connection: a tab that sees another log in stops reconnecting (instead of the
// two taking the player from each other every second) until asked to play here again.
const TAB_KEY = "deckhand.tab";
const tab = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
let elsewhere = false;
const lobby: Omit<LobbyModel, "me"> = {
  games: KNOWN_GAMES.map((game) => fallbackGame(game)), game: "dominion", players: 2, options: {},
  queued: "", party: null, lobby: null, lobbies: null, board: null, history: null, notice: "",
};
const ui: MatchUi = {
  selected: new Set(), sending: false,
  choose: (ids) => answer({ option_ids: ids }),
  bot: () => answer({ bot: "default" }),
  toggle: (id) => {
    if (!ui.selected.delete(id)) ui.selected.add(id);
    draw();
  },
  leave: () => leaveMatch(),
};

function fallbackGame(game: string): GameDesc {
  return { game, min_players: 2, max_players: 2, modes: ["casual"], options: [], bots: ["default"] };
}

// ---- drawing: at most once per turn of the event loop ----------------------------------
// Not while a pointer is pressed: a redraw replaces the buttons, and a press that ends on
// a new button is no click (the likely way a toggle of a multi-choice went missing in the
// browser test when two clicks came quickly); the draw waits for the release.
let drawQueued = false;
let pointerHeld = false;
let drawHeld = false;
function draw(): void {
  if (drawQueued) return;
  drawQueued = true;
  setTimeout(() => {
    drawQueued = false;
    if (pointerHeld) drawHeld = true;
    else drawNow();
  }, 0);
}
document.addEventListener("pointerdown", () => { pointerHeld = true; }, true);
for (const ev of ["pointerup", "pointercancel"])
  document.addEventListener(ev, () => {
    pointerHeld = false;
    if (drawHeld) {
      drawHeld = false;
      draw(); // after the click this release makes
    }
  }, true);

function drawNow(): void {
  const focused = (document.activeElement as HTMLElement | null)?.id;
  if (!me) renderLogin(root, loginActions, notice);
  else if (match?.over) renderGameOver(root, match, match.over, () => leaveMatch());
  else if (match) renderMatch(root, match, ui);
  else renderLobby(root, { ...lobby, me, notice }, lobbyActions);
  if (elsewhere)
    root.prepend(h("p", { class: "offline", role: "status" }, "You are playing in another tab. ",
      h("button", { id: "play-here", onclick: () => { elsewhere = false; retry = 0; reconnect(); } }, "Play here")));
  else if (!conn.open && me) root.prepend(h("p", { class: "offline", role: "status" }, "Connection lost: reconnecting…"));
  if (focused) document.getElementById(focused)?.focus();
}

function say(e: unknown): void {
  notice = e instanceof Error ? e.message : String(e);
  draw();
}

// ---- logging in and staying logged in ----------------------------------------------------
function loggedIn(w: Welcome): void {
  me = w;
  elsewhere = false;
  localStorage.setItem(TAB_KEY, tab);
  localStorage.setItem(TOKEN, w.token);
  localStorage.setItem("deckhand.name", w.name);
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
  const stored = localStorage.getItem(MATCH);
  if (stored && !match) match = new Match(stored);
  if (match && !match.over) {
    try {
      await conn.request("resync", { match_id: match.id });
    } catch (e) {
      if (e instanceof RequestError && (e.code === "UNKNOWN_MATCH" || e.code === "BAD_REQUEST")) forgetMatch();
    }
  }
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
  guest: (name: string) => login("hello", { name }),
  login: (name: string, password: string) => login("account_login", { name, password }),
  register: (name: string, password: string) => login("register", { name, password }),
};

// A dropped connection: connect again (1 s, 2 s, up to 5 s apart) and resume.
function reconnect(): void {
  draw();
  const token = localStorage.getItem(TOKEN);
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
  localStorage.removeItem(MATCH);
  ui.selected.clear();
}

function leaveMatch(): void {
  forgetMatch();
  lobby.queued = "";
  draw();
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
    ui.selected.clear();
  } catch (e) {
    notice = e instanceof Error ? e.message : String(e);
    m.log.push(`(${notice})`);
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

function onMatchMessage(msg: ServerMsg): boolean {
  const id = msg.view?.match_id ?? msg.view_delta?.match_id ?? msg.decision?.match_id ??
    msg.event?.match_id ?? msg.game_over?.match_id;
  if (id === undefined) return false;
  if (!match || match.id !== id) {
    if (msg.body !== "view") return true; // a match this page has left
    forgetMatch();
    match = new Match(id);
    localStorage.setItem(MATCH, id);
  }
  const m = match;
  if (msg.view) m.setView(msg.view);
  if (msg.view_delta && !m.applyDelta(msg.view_delta)) resync(m);
  if (msg.decision) m.setDecision(msg.decision);
  if (msg.event && !m.addEvent(msg.event)) resync(m);
  if (msg.game_over) {
    m.over = msg.game_over;
    localStorage.removeItem(MATCH);
  }
  if (msg.decision || msg.view) ui.selected.clear();
  return true;
}

conn.onMessage = (msg) => {
  if (msg.welcome) loggedIn(msg.welcome);
  else if (msg.catalog) addCatalog(msg.catalog);
  else if (msg.match_found) {
    forgetMatch();
    match = new Match(msg.match_found.match_id, msg.match_found);
    localStorage.setItem(MATCH, match.id);
    lobby.queued = "";
  } else if (msg.games) {
    if (msg.games.games.length) lobby.games = msg.games.games;
    pickGame(lobby.games.some((g) => g.game === lobby.game) ? lobby.game : lobby.games[0].game);
  } else if (msg.party) lobby.party = msg.party.closed ? null : msg.party;
  else if (msg.lobby) lobby.lobby = msg.lobby.closed ? null : msg.lobby;
  else if (msg.lobby_list) lobby.lobbies = msg.lobby_list;
  else if (msg.leaderboard) lobby.board = msg.leaderboard;
  else if (msg.history) lobby.history = msg.history;
  else if (msg.reply && !msg.reply.ok) notice = msg.reply.error?.message ?? "";
  else onMatchMessage(msg);
  draw();
};
conn.onClose = () => reconnect();
window.addEventListener("storage", (e) => {
  if (e.key !== TAB_KEY || e.newValue === tab || !me) return;
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
  queue: () => act("queue_join", { game: lobby.game, players: lobby.players, options: options() },
    () => { lobby.queued = lobby.game; })(),
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
  logout: () => {
    localStorage.removeItem(TOKEN);
    forgetMatch();
    me = null;
    conn.close();
    draw();
  },
};

// ---- keys: 1-9 pick an option, Enter confirms a multi-select, B asks the bot ------------
document.addEventListener("keydown", (e) => {
  const d = match?.decision;
  const typing = e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement;
  if (!d || typing || e.ctrlKey || e.metaKey || e.altKey) return;
  if (/^[1-9]$/.test(e.key)) {
    const o = d.options[Number(e.key) - 1];
    if (!o) return;
    if (d.max > 1) ui.toggle(o.id);
    else ui.choose([o.id]);
  } else if (e.key === "Enter" && d.max > 1) {
    // Enter confirms, also on an option just toggled (whose own Enter would toggle it back);
    // on another button (Confirm, the bot) that button's click does what it says.
    const onButton = e.target instanceof HTMLButtonElement && !e.target.classList.contains("option");
    if (onButton) return;
    if (ui.selected.size >= d.min && ui.selected.size <= d.max) ui.choose([...ui.selected]);
  } else if (e.key === "b" || e.key === "B") {
    ui.bot();
  } else return;
  e.preventDefault();
});

// ---- start: resume with the kept token, or ask who is playing ---------------------------
async function start(): Promise<void> {
  const token = localStorage.getItem(TOKEN);
  if (!token) return draw();
  try {
    await conn.connect();
    await conn.request("hello", { token });
    await afterLogin();
  } catch (e) {
    localStorage.removeItem(TOKEN);
    me = null;
    if (!(e instanceof RequestError) || e.code !== "UNAUTHENTICATED") say(e);
    else draw();
  }
}

start();
