// The table socket's messages (bot/web/protocol.py, version 1) as the Activity reads them.

export interface SeatInfo {
  name: string;
  badges: string;
  team: string | null;
  cards: number;
  taken: number | null;
}

export interface Played {
  seat: number;
  card: string;
}

export interface TableState {
  title: string;
  heading: string;
  number: number;
  players: number;
  seats: SeatInfo[];
  turn?: number[];
  phase?: string;
  trump?: { suit: string; label: string } | null;
  shown?: string[];
  trick?: Played[];
  winner?: number | null;
  last?: { cards: Played[]; winner: number } | null;
  points?: string | null;
  facts?: string[];
  match?: string | null;
  unplayed?: string[][] | null;
  result?: string[] | null;
  lobby?: boolean;
  note?: string;
}

/** One choice the engine offers: sent back as ``{kind: value}``. */
export interface Choice {
  kind: string;
  value: unknown;
  free: boolean;
  label: string;
}

/** Cards chosen together (burying): ``size`` of ``cards``, sent as ``{kind: [codes]}``. */
export interface Together {
  kind: string;
  size: number;
  cards: string[];
  label: string;
  widow: string[];
}

/** The player's own seat (bot/web/seatview.py). */
export interface Mine {
  seat: number;
  cards: string[];
  legal: string[];
  trumps: string[];
  choices: Choice[];
  together: Together | null;
  private: string[];
  prompt: string;
  my_turn: boolean;
  hints: boolean;
  status: { autoplay?: boolean; left?: boolean };
}

export interface Move {
  seat: number;
  text: string;
  card: string | null;
}

export interface Step {
  type: "step";
  hand: number;
  number: number;
  at: number;
  state: TableState;
  move: Move | null;
  deadline: number | null;
  now: number;
  delayed: boolean;
  mine?: Mine | null;
}

export interface Hello {
  type: "hello";
  viewer: { role: "spectator" | "player"; seat: number | null };
  watch: string;
  table?: { confirm: boolean; cards: string; user: string };
}

export interface Clock {
  type: "clock";
  deadline: number | null;
  now: number;
}

export interface Gone {
  type: "gone";
  reason: "closed" | "off" | "revoked";
}

export interface Refusal {
  type: "error";
  reason: string;
  text?: string;
}

export interface Notice {
  type: "notice";
  key: string;
  seat: number;
  text: string;
}

export interface Answer {
  type: "answer";
  text: string;
}

export type Incoming = Hello | Step | Clock | Gone | Refusal | Notice | Answer;

export type Texts = Record<string, string>;
