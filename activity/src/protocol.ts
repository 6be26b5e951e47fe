// The table socket's messages, GENERATED from bot/web/protocol.py's models through
// protocol.schema.json (python -m bot.web.schema): npm run types. Do not edit by hand.

export type ServerMessage = Hello | Step | Clock | Gone | Refusal | Notice | Answer;
export type JsonValue = unknown;
export type PageMessage = Resume | Act | SeatChange | Hint;

/**
 * The table socket's messages (bot/web/protocol.py), version 1.
 */
export interface Protocol {
  ServerMessage?: ServerMessage;
  PageMessage?: PageMessage;
  ReplayState?: ReplayState;
}
export interface Hello {
  viewer: ViewerInfo;
  watch: string;
  table?: TableInfo | null;
  v: 1;
  type: "hello";
}
export interface ViewerInfo {
  role: "spectator" | "player";
  seat: number | null;
}
/**
 * For the Activity: the table's settings its page follows (``confirm``: a card is
 * played with a second tap), where its card pictures are, and who the user is.
 */
export interface TableInfo {
  confirm: boolean;
  cards: string;
  user: string;
}
/**
 * The table after ``at`` actions of stored hand ``hand`` (0: the lobby).
 */
export interface Step {
  hand: number;
  number: number;
  at: number;
  state: TableState;
  move: Move | null;
  deadline: number | null;
  delayed: boolean;
  now: number;
  mine?: Mine | null;
  v: 1;
  type: "step";
}
/**
 * The table at one moment, as everybody may see it (``bot.web.views.table_state``).
 */
export interface TableState {
  title: string;
  heading: (string | Span)[];
  number: number;
  players: number;
  seats: SeatState[];
  turn: number[];
  phase: (string | Span)[];
  trump: Trump | null;
  shown: string[];
  trick: Played[];
  winner: number | null;
  last: TrickState | null;
  points: (string | Span)[] | null;
  facts: (string | Span)[][];
  match: (string | Span)[] | null;
  unplayed: string[][] | null;
  result: (string | Span)[][] | null;
  lobby?: boolean;
  note?: (string | Span)[] | null;
}
/**
 * One segment of a text: ``k`` its kind (``text``: plain words, set apart only by
 * ``strong``), ``text`` its words in the reader's language; a person's ``seat``, a card's
 * code, a suit's letter, a moment's time (seconds) and ``style``.
 */
export interface Span {
  k: "text" | "person" | "card" | "suit" | "number" | "time" | "code";
  text: string;
  strong?: boolean;
  seat?: number | null;
  card?: string | null;
  suit?: string | null;
  at?: number | null;
  style?: ("relative" | "date") | null;
}
/**
 * A seat as the table shows it: who sits there, their team letter (where teams have
 * letters), their side's role once public (``declarer``, ``defenders``, ``old_man``...),
 * their badges worded, the cards they hold and the card points they took (where each
 * seat counts its own).
 */
export interface SeatState {
  name: string;
  team: string | null;
  role?: string | null;
  badges: (string | Span)[];
  cards: number;
  taken: number | null;
}
/**
 * Trump as the game defines it: the suit (None: a game of permanent trumps alone, or
 * of none) and the words (the permanent trumps, the suit, the cards shown for it).
 */
export interface Trump {
  suit: string | null;
  text: (string | Span)[];
}
export interface Played {
  seat: number;
  card: string;
}
export interface TrickState {
  cards: Played[];
  winner: number;
}
export interface Move {
  seat: number;
  text: (string | Span)[];
  card: string | null;
}
/**
 * The player's own seat (``bot.web.seatview.seat_state``): sent to them only.
 */
export interface Mine {
  seat: number;
  cards: string[];
  legal: string[];
  trumps: string[];
  choices: Choice[];
  together: Together | null;
  private: (string | Span)[][];
  prompt: (string | Span)[];
  notes: (string | Span)[][];
  my_turn: boolean;
  hints: boolean;
  role?: string | null;
  status: SeatStatus;
}
/**
 * One choice the engine offers, sent back as ``{kind: value}``.
 */
export interface Choice {
  kind: string;
  value: JsonValue;
  free: boolean;
  label: (string | Span)[];
}
/**
 * Cards chosen together (burying): ``size`` of ``cards``, sent as ``{kind: [codes]}``;
 * ``widow``: those just taken.
 */
export interface Together {
  kind: string;
  size: number;
  cards: string[];
  label: (string | Span)[];
  widow: string[];
}
/**
 * What the table's live side says of the seat: the computer plays it after its turns
 * ran out (``autoplay``), its player left during the hand (``left``).
 */
export interface SeatStatus {
  autoplay?: boolean | null;
  left?: boolean | null;
}
export interface Clock {
  deadline: number | null;
  now: number;
  v: 1;
  type: "clock";
}
export interface Gone {
  reason: "closed" | "off" | "revoked";
  v: 1;
  type: "gone";
}
/**
 * A message of the page was refused (``reason``), nothing changed.
 */
export interface Refusal {
  reason: string;
  text?: string | null;
  v: 1;
  type: "error";
}
/**
 * A public notice of the table (``key``: a sentence of the catalogs), worded.
 */
export interface Notice {
  key: string;
  seat: number;
  text: (string | Span)[];
  v: 1;
  type: "notice";
}
/**
 * An answer to one player's question (a hint about stored hand ``hand``), for them
 * only: its lines.
 */
export interface Answer {
  text: (string | Span)[][];
  hand: number;
  v: 1;
  type: "answer";
}
export interface Resume {
  v: 1;
  type: "resume";
  hand?: number | null;
  at?: number;
}
export interface Act {
  v: 1;
  type: "act";
  hand: number;
  at: number;
  action: {
    [k: string]: unknown;
  };
  seat?: number | null;
}
export interface SeatChange {
  v: 1;
  type: "seat";
  op: "leave" | "sit" | "back" | "next";
  team?: (0 | 1) | null;
  hand?: number | null;
}
export interface Hint {
  v: 1;
  type: "hint";
  hand: number;
  at: number;
}
/**
 * A replay's step: every hand face up (the hand is over), the trick it shows, its moves,
 * and the review's notes at this trick.
 */
export interface ReplayState {
  title: string;
  heading: (string | Span)[];
  number: number;
  players: number;
  seats: SeatState[];
  turn: number[];
  phase: (string | Span)[];
  trump: Trump | null;
  shown: string[];
  trick: Played[];
  winner: number | null;
  last: TrickState | null;
  points: (string | Span)[] | null;
  facts: (string | Span)[][];
  match: (string | Span)[] | null;
  unplayed: string[][] | null;
  result: (string | Span)[][] | null;
  lobby?: boolean;
  note?: (string | Span)[] | null;
  hands: string[][];
  trick_shown: TrickState | null;
  moves: (string | Span)[][];
  notes: (string | Span)[][];
}
