// ui.ts: the match screen's state and actions, shared by the parts that draw it
// (render_match.ts: the table and the decision; side.ts: chat and dialogs) and
// filled by main.ts, which acts on them. Types only: no part imports another through it.

export interface SocialUi {
  muted: Set<number>; // seats whose lines this page hides
  error: string; // the last refusal of a line (flood, length)
  send(text: string, emote: string): void;
  mute(seat: number): void;
  answerUndo(accept: boolean): void;
}

export interface MatchUi {
  selected: Set<number>; // option ids toggled in a multi-select decision
  sending: boolean; // an answer is in flight
  actor: number; // the card picked on the board (board.ts), 0: none
  narrowed: number[]; // the options a board click left to choose between
  dialog: string; // the open dialog: "resign", "rules", "zoom:CARD", "" none
  scriptError: string; // the last answer failed in a card script: what the server said
  notice: string; // the last refusal of a request (resign, undo...), in words
  social: SocialUi;
  choose(ids: number[]): void;
  bot(): void;
  toggle(id: number): void;
  leave(): void;
  setActor(entity: number, narrowed?: number[]): void;
  open(dialog: string): void;
  resign(): void;
  undo(): void;
}
