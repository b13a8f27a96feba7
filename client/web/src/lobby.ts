// lobby.ts: the screens before and between matches: logging in (a guest name, or an
// account: log in or register), the game list with each game's options, queueing,
// parties, lobbies, the running matches one may watch, the leaderboard and the player's
// history (each match with its replay). Each game shows its title and rules summary, its
// options in the bundle's words (OptionSpec.label, value_labels), and
// offers a match against the AI at the difficulties it has (starting at once, unrated)
// beside the queue, whose mode (practice or rated) an account picks. It draws; main.ts acts.
import { h, patch } from "./dom";
import { paragraphs } from "./side";
import type {
  GameDesc, History, Leaderboard, LobbyList, LobbyState, PartyState, WatchList, Welcome,
} from "./gen/deckhand";

export interface LobbyModel {
  me: Welcome;
  games: GameDesc[];
  game: string; // the game picked
  players: number;
  options: Record<string, string>;
  mode: string; // the queue's mode, "" the default (casual)
  difficulty: string; // the AI's, one of the game's difficulties
  queued: string; // the game queued for, "" when none
  party: PartyState | null;
  lobby: LobbyState | null;
  lobbies: LobbyList | null;
  board: Leaderboard | null;
  history: History | null;
  watch: WatchList | null;
  notice: string;
}

export interface LobbyActions {
  pickGame(game: string): void;
  setPlayers(n: number): void;
  setOption(name: string, value: string): void;
  setMode(mode: string): void;
  setDifficulty(level: string): void;
  queue(): void;
  playAi(): void;
  leaveQueue(): void;
  partyCreate(): void;
  partyJoin(code: string): void;
  partyLeave(): void;
  lobbyCreate(pub: boolean): void;
  lobbyJoin(code: string): void;
  lobbyLeave(): void;
  lobbyReady(ready: boolean): void;
  lobbyStart(): void;
  lobbyList(): void;
  leaderboard(): void;
  history(): void;
  watchList(): void;
  watch(matchId: string): void;
  replay(matchId: string): void;
  logout(): void;
}

export interface LoginActions {
  guest(name: string): void;
  login(name: string, password: string): void;
  register(name: string, password: string): void;
}

function field(id: string, labelText: string, attrs: Record<string, string> = {}): HTMLElement {
  return h("label", { for: id }, labelText, h("input", { id, ...attrs }));
}

const value = (root: HTMLElement, id: string) => (root.querySelector(`#${id}`) as HTMLInputElement).value.trim();

export function renderLogin(root: HTMLElement, act: LoginActions, notice: string): void {
  const guest = h("form", { class: "panel", id: "guest-form" },
    h("h2", {}, "Play as a guest"),
    field("guest-name", "Name", { maxlength: "32", autocomplete: "nickname", required: "", value: localStorage.getItem("deckhand.name") ?? "" }),
    h("button", { type: "submit", id: "guest-go" }, "Play"));
  guest.addEventListener("submit", (e) => {
    e.preventDefault();
    act.guest(value(root, "guest-name"));
  });
  const account = h("form", { class: "panel", id: "account-form" },
    h("h2", {}, "Account (rated, with a history)"),
    field("acct-name", "Name", { maxlength: "24", autocomplete: "username" }),
    field("acct-pass", "Password", { type: "password", maxlength: "128", autocomplete: "current-password" }),
    h("div", { class: "row" },
      h("button", { type: "submit", id: "acct-login" }, "Log in"),
      h("button", { type: "button", id: "acct-register",
        onclick: () => act.register(value(root, "acct-name"), value(root, "acct-pass")) }, "Register")));
  account.addEventListener("submit", (e) => {
    e.preventDefault();
    act.login(value(root, "acct-name"), value(root, "acct-pass"));
  });
  const fresh = !root.querySelector(".login");
  patch(root, h("div", { class: "login", "data-key": "login" }, h("h1", {}, "deckhand"),
    notice ? h("p", { class: "notice", role: "alert" }, notice) : null, guest, account));
  if (fresh) (root.querySelector("#guest-name") as HTMLInputElement).focus();
}

// A game's name for players: its title, else its name as a word.
export const gameTitle = (g: GameDesc): string => g.title || g.game.charAt(0).toUpperCase() + g.game.slice(1);

// How a mode reads: casual is practice (unrated), the others as named.
const modeLabel = (mode: string) => (mode === "casual" ? "Practice (unrated)" : `${mode.charAt(0).toUpperCase()}${mode.slice(1)} (rated)`);

// Playing the AI: its difficulty, then the button (none when the server offers no AI).
function aiEl(m: LobbyModel, act: LobbyActions, g: GameDesc): HTMLElement | null {
  if (g.difficulties.length === 0) return null;
  return h("div", { class: "ai-setup", "data-key": "ai" },
    h("label", { for: "ai-level" }, "Difficulty",
      h("select", { id: "ai-level", onchange: (e: Event) => act.setDifficulty((e.target as HTMLSelectElement).value) },
        g.difficulties.map((d) => h("option", { value: d, selected: d === m.difficulty }, d)))),
    h("button", { id: "play-ai", class: "primary", onclick: act.playAi, disabled: !!m.queued }, "Play the AI"));
}

// The queue's mode, for an account (a guest plays casual only).
function modeEl(m: LobbyModel, act: LobbyActions, g: GameDesc): HTMLElement | null {
  if (!m.me.account || g.modes.length < 2) return null;
  return h("label", { for: "queue-mode" }, "Mode",
    h("select", { id: "queue-mode", onchange: (e: Event) => act.setMode((e.target as HTMLSelectElement).value) },
      g.modes.map((x) => h("option", { value: x, selected: x === (m.mode || "casual") }, modeLabel(x)))));
}

function gameCard(m: LobbyModel, act: LobbyActions, g: GameDesc): HTMLElement {
  const picked = g.game === m.game;
  const sizes: number[] = [];
  for (let n = Math.max(1, g.min_players); n <= Math.max(g.min_players, g.max_players); n++) sizes.push(n);
  return h("li", { class: "game" + (picked ? " picked" : ""), "data-game": g.game, "data-key": g.game },
    h("button", { class: "game-pick", "aria-pressed": String(picked), onclick: () => act.pickGame(g.game) }, gameTitle(g)),
    picked && g.summary ? h("details", { class: "game-summary", "data-key": "summary" },
      h("summary", {}, "How to play"), paragraphs(g.summary)) : null,
    picked ? aiEl(m, act, g) : null,
    picked ? h("div", { class: "game-setup" },
      sizes.length > 1 ? h("label", {}, "Players ", h("select", { id: "players", onchange: (e: Event) =>
        act.setPlayers(Number((e.target as HTMLSelectElement).value)) },
      sizes.map((n) => h("option", { value: n, selected: n === m.players }, n)))) : null,
      g.options.map((o) => h("label", { title: o.help }, `${o.label || o.name} `,
        o.values.length ? h("select", { "data-option": o.name, onchange: (e: Event) =>
          act.setOption(o.name, (e.target as HTMLSelectElement).value) },
        o.values.map((v, i) => h("option", { value: v, selected: (m.options[o.name] ?? o.default_value) === v },
          o.value_labels[i] || v)))
          : h("input", { "data-option": o.name, value: m.options[o.name] ?? o.default_value, onchange: (e: Event) =>
            act.setOption(o.name, (e.target as HTMLInputElement).value) }))),
      modeEl(m, act, g),
      m.queued === g.game
        ? h("button", { id: "leave-queue", onclick: act.leaveQueue }, "Leave the queue")
        : h("button", { id: "queue", class: "primary", onclick: act.queue, disabled: !!m.queued }, "Find a match"),
      m.queued === g.game ? h("p", { class: "queued", role: "status" }, "Looking for players…") : null) : null);
}

function partyEl(m: LobbyModel, act: LobbyActions): HTMLElement {
  const p = m.party && !m.party.closed ? m.party : null;
  if (!p)
    return h("section", { class: "panel party", "data-key": "party" }, h("h2", {}, "Party"),
      h("p", {}, "Queue together with friends."),
      h("div", { class: "row" }, h("button", { id: "party-create", onclick: act.partyCreate }, "Create a party"),
        h("input", { id: "party-code", placeholder: "code", "aria-label": "party code", size: 12 }),
        h("button", { id: "party-join", onclick: () =>
          act.partyJoin((document.getElementById("party-code") as HTMLInputElement).value.trim()) }, "Join")));
  return h("section", { class: "panel party", "data-key": "party" }, h("h2", {}, "Party ", h("code", {}, p.code)),
    h("ul", {}, p.members.map((x) => h("li", {}, x.name, x.player_id === p.leader_id ? " (leader)" : "",
      x.connected ? "" : " (away)"))),
    p.queued_game ? h("p", { class: "party-queued" }, `Queued for ${titleOf(m, p.queued_game)}`) : null,
    h("button", { id: "party-leave", onclick: act.partyLeave }, "Leave the party"));
}

const titleOf = (m: LobbyModel, game: string) => {
  const g = m.games.find((x) => x.game === game);
  return g ? gameTitle(g) : game;
};

function lobbyEl(m: LobbyModel, act: LobbyActions): HTMLElement {
  const l = m.lobby && !m.lobby.closed ? m.lobby : null;
  if (!l)
    return h("section", { class: "panel lobbies", "data-key": "lobbies" }, h("h2", {}, "Lobbies"),
      h("div", { class: "row" },
        h("button", { id: "lobby-create", onclick: () => act.lobbyCreate(true) }, "Open a public lobby"),
        h("button", { id: "lobby-create-private", onclick: () => act.lobbyCreate(false) }, "Private")),
      h("div", { class: "row" }, h("input", { id: "lobby-code", placeholder: "code", "aria-label": "lobby code", size: 12 }),
        h("button", { id: "lobby-join", onclick: () =>
          act.lobbyJoin((document.getElementById("lobby-code") as HTMLInputElement).value.trim()) }, "Join"),
        h("button", { id: "lobby-refresh", onclick: act.lobbyList }, "List public lobbies")),
      m.lobbies ? h("ul", { class: "lobby-list" }, m.lobbies.lobbies.length === 0 ? h("li", {}, "No public lobby.") :
        m.lobbies.lobbies.map((s) => h("li", { "data-key": s.code }, `${titleOf(m, s.game)} · ${s.host} · ${s.members}/${s.players} `,
          h("button", { onclick: () => act.lobbyJoin(s.code) }, "Join")))) : null);
  const mine = l.members.find((x) => x.player_id === m.me.player_id);
  return h("section", { class: "panel lobbies", "data-key": "lobbies" }, h("h2", {}, `Lobby `, h("code", {}, l.code), ` · ${l.game}`),
    h("p", {}, `${l.members.length}/${l.players} seats`, l.public ? " · public" : " · private",
      l.options.length ? ` · ${l.options.map((o) => `${o.name}=${o.value}`).join(", ")}` : ""),
    h("ul", {}, l.members.map((x) => h("li", {}, x.name, x.player_id === l.host_id ? " (host)" : "",
      x.ready ? " ✓ ready" : " …"))),
    h("div", { class: "row" },
      h("button", { id: "lobby-ready", onclick: () => act.lobbyReady(!mine?.ready) }, mine?.ready ? "Not ready" : "Ready"),
      l.host_id === m.me.player_id ? h("button", { id: "lobby-start", class: "primary", onclick: act.lobbyStart }, "Start") : null,
      h("button", { id: "lobby-leave", onclick: act.lobbyLeave }, "Leave")));
}

function boardsEl(m: LobbyModel, act: LobbyActions): HTMLElement {
  return h("section", { class: "panel boards", "data-key": "boards" }, h("h2", {}, "Ratings"),
    h("div", { class: "row" }, h("button", { id: "show-leaderboard", onclick: act.leaderboard }, `Leaderboard: ${titleOf(m, m.game)}`),
      m.me.account ? h("button", { id: "show-history", onclick: act.history }, "My matches") : null),
    m.board ? h("table", { class: "leaderboard" },
      h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, "Player"), h("th", {}, "Rating"), h("th", {}, "Matches"))),
      h("tbody", {}, m.board.entries.length === 0 ? h("tr", {}, h("td", { colspan: 4 }, "Nobody rated yet.")) :
        m.board.entries.map((e) => h("tr", {}, h("td", {}, e.rank), h("td", {}, e.name),
          h("td", {}, e.ordinal.toFixed(1)), h("td", {}, e.matches))))) : null,
    m.history ? h("table", { class: "history" },
      h("thead", {}, h("tr", {}, h("th", {}, "When"), h("th", {}, "Game"), h("th", {}, "Place"), h("th", {}, "Against"), h("th", {}, "Rating"))),
      h("tbody", {}, m.history.entries.length === 0 ? h("tr", {}, h("td", { colspan: 5 }, "No rated match yet.")) :
        m.history.entries.map((e) => h("tr", { "data-key": e.match_id, "data-match": e.match_id },
          h("td", {}, new Date(e.ended_ms).toLocaleString()), h("td", {}, e.game),
          h("td", {}, `${e.place}/${e.players}`), h("td", {}, e.opponents.join(", ")),
          h("td", {}, `${e.ordinal_before.toFixed(1)} → ${e.ordinal_after.toFixed(1)}`),
          h("td", {}, h("button", { class: "replay-go", onclick: () => act.replay(e.match_id) }, "Replay")))))) : null);
}

// The running matches one may watch (WatchList, asked for by the Refresh button).
function watchEl(m: LobbyModel, act: LobbyActions): HTMLElement {
  const since = (ms: number) => {
    const min = Math.max(0, Math.round((Date.now() - ms) / 60000));
    return min < 1 ? "just started" : `${min} min`;
  };
  return h("section", { class: "panel watch", "data-key": "watch" }, h("h2", {}, "Watch a match"),
    h("div", { class: "row" }, h("button", { id: "watch-refresh", onclick: act.watchList },
      m.watch ? "Refresh" : "Show running matches")),
    m.watch ? h("ul", { class: "watch-list" }, m.watch.matches.length === 0 ? h("li", {}, "No match running.") :
      m.watch.matches.map((w) => h("li", { "data-key": w.match_id, "data-match": w.match_id, "data-game": w.game },
        h("span", {}, `${titleOf(m, w.game)} · ${w.players.join(" vs ")} · ${since(w.started_ms)} `),
        h("button", { class: "watch-go", onclick: () => act.watch(w.match_id) }, "Watch")))) : null);
}

export function renderLobby(root: HTMLElement, m: LobbyModel, act: LobbyActions): void {
  patch(root, h("div", { class: "lobby", id: "lobby" },
    h("header", { class: "bar" }, h("strong", {}, "deckhand"), ` · ${m.me.name}`, m.me.account ? " (account)" : "", // a guest's name says so
      h("button", { id: "logout", class: "link", onclick: act.logout }, "Log out")),
    m.notice ? h("p", { class: "notice", role: "alert" }, m.notice) : null,
    h("section", { class: "panel games", "data-key": "games" }, h("h2", {}, "Games"),
      h("ul", { class: "game-list" }, m.games.map((g) => gameCard(m, act, g)))),
    partyEl(m, act), lobbyEl(m, act), watchEl(m, act), boardsEl(m, act)));
}
