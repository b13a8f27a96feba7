// types.ts: the protocol's messages as the client reads them (proto/deckhand.proto, field
// names as in the .proto; 64-bit numbers as numbers; enums by name). Only what the client
// uses is spelled out.

export interface ErrorMsg { code: string; message: string }
export interface Reply { cmd_id: number; ok: boolean; error: ErrorMsg | null }
export interface Welcome { player_id: string; token: string; name: string; account: boolean }
export interface MatchFound { match_id: string; seat: number; game: string; players: string[] }
export interface GameEvent { match_id: string; event_seq: number; kind: string; text: string; seat: number }
export interface Option { id: number; label: string; card: string; entity: number }
export interface Decision {
  match_id: string; event_seq: number; decision_id: number; seat: number; prompt: string;
  kind: string; options: Option[]; min: number; max: number; time_left_ms: number;
}
export interface Card { entity: number; name: string }
export interface Zone { name: string; owner: number; count: number; cards: Card[] }
export interface Counter { name: string; owner: number; value: number }
export interface CardInfo { name: string; cost: number; types: string; text: string }
export interface PlayerInfo { seat: number; name: string; connected: boolean }
export interface ZoneHint { zone: string; kind: string; order: number; label: string; columns: number; color: string }
export interface TypeColor { type: string; color: string }
export interface Presentation { zones: ZoneHint[]; type_colors: TypeColor[] }
export interface Catalog { bundle_id: string; game: string; cards: CardInfo[]; presentation: Presentation | null }
export interface View {
  match_id: string; event_seq: number; seat: number; game: string; players: PlayerInfo[];
  zones: Zone[]; counters: Counter[]; waiting_for: number; decision: Decision | null;
  finished: boolean; bundle_id: string; view_seq: number;
}
export interface ViewDelta {
  match_id: string; event_seq: number; seat: number; base_view_seq: number; view_seq: number;
  zones: Zone[]; counters: Counter[]; waiting_for: number; decision: Decision | null; finished: boolean;
}
export interface PlayerResult { seat: number; name: string; score: number; rank: number; turns: number }
export interface GameOver { match_id: string; event_seq: number; results: PlayerResult[]; reason: string }
export interface LeaderboardEntry {
  rank: number; player_id: string; name: string; ordinal: number; mu: number; sigma: number; matches: number;
}
export interface Leaderboard { game: string; mode: string; entries: LeaderboardEntry[] }
export interface HistoryEntry {
  match_id: string; game: string; mode: string; ended_ms: number; place: number; players: number;
  ordinal_before: number; ordinal_after: number; opponents: string[];
}
export interface History { entries: HistoryEntry[] }
export interface GameOption { name: string; value: string }
export interface Member { player_id: string; name: string; connected: boolean; ready: boolean }
export interface PartyState { code: string; leader_id: string; members: Member[]; queued_game: string; closed: boolean }
export interface LobbyState {
  code: string; game: string; mode: string; options: GameOption[]; public: boolean; host_id: string;
  players: number; members: Member[]; match_id: string; closed: boolean;
}
export interface LobbySummary {
  code: string; game: string; mode: string; host: string; players: number; members: number; options: GameOption[];
}
export interface LobbyList { lobbies: LobbySummary[] }
export interface OptionSpec { name: string; values: string[]; default_value: string; help: string }
export interface GameDesc {
  game: string; min_players: number; max_players: number; modes: string[]; options: OptionSpec[]; bots: string[];
}
export interface Games { games: GameDesc[] }
export interface SpectatorFrame {
  match_id: string; view: View | null; events: GameEvent[]; delay_ms: number; game_over: GameOver | null; spectators: number;
}
export interface WatchEntry { match_id: string; game: string; mode: string; players: string[]; started_ms: number }
export interface WatchList { matches: WatchEntry[] }
export interface ReplayFrame {
  match_id: string; index: number; total: number; view: View | null; events: GameEvent[]; game: string;
  players: string[]; game_over: GameOver | null;
}

// A ServerMessage: `body` names the field that is set.
export interface ServerMsg {
  body: string;
  reply?: Reply; welcome?: Welcome; match_found?: MatchFound; event?: GameEvent;
  decision?: Decision; view?: View; game_over?: GameOver; catalog?: Catalog;
  view_delta?: ViewDelta; leaderboard?: Leaderboard; history?: History; party?: PartyState;
  lobby?: LobbyState; lobby_list?: LobbyList; games?: Games; spectator_frame?: SpectatorFrame;
  watch_list?: WatchList; replay_frame?: ReplayFrame;
}
