// What every page of the bot draws alike (the Activity, the live table, the replay): the
// voice's words (spans: a person in <bdi>, emphasis in <strong>, a card with its code), card
// pictures, a seat's line, the countdown by the server's clock. Only what the server sent is
// drawn: the pages know nothing else.

import type { SeatState, Span, TableState } from "./protocol";

/** A text of the voice, as the socket carries it (bot/voice/wire.py). */
export type Spans = (string | Span)[];

/** The words a page's script shows, by their catalog keys. */
export type Texts = Record<string, string>;

export const el = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  cls?: string,
  text?: string | null,
): HTMLElementTagNameMap[K] => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
};

export const byId = (id: string): HTMLElement => {
  const e = document.getElementById(id);
  if (e === null) throw new Error(`#${id} is missing`);
  return e;
};

function spanNode(s: Span): Node {
  let node: HTMLElement;
  switch (s.k) {
    case "person":
      // A name may be in any script and direction: isolated, it cannot turn the line.
      node = el("bdi", "person", s.text);
      node.dir = "auto";
      if (s.seat !== undefined && s.seat !== null) node.dataset.seat = String(s.seat);
      break;
    case "card":
      node = el("span", "card-name", s.text);
      if (s.card) node.dataset.card = s.card;
      break;
    case "suit":
      node = el("span", "suit", s.text);
      if (s.suit) node.dataset.suit = s.suit;
      break;
    case "code":
      node = el("code", "", s.text);
      break;
    case "time":
      node = el("time", "", s.text);
      if (s.at) node.setAttribute("datetime", new Date(s.at * 1000).toISOString());
      break;
    default:
      if (!s.strong) return document.createTextNode(s.text);
      node = el("span", "", s.text);
  }
  if (!s.strong) return node;
  const strong = el("strong");
  strong.append(node.tagName === "SPAN" && !node.className ? s.text : node);
  return strong;
}

/** A text as nodes. */
export function words(spans: Spans | null | undefined): Node[] {
  return (spans ?? []).map((s) => (typeof s === "string" ? document.createTextNode(s) : spanNode(s)));
}

/** A text as plain words (a person by their name). */
export function plain(spans: Spans | null | undefined): string {
  return (spans ?? []).map((s) => (typeof s === "string" ? s : s.text)).join("");
}

/** Put a text into ``target`` (nothing changes when it says the same). */
export function say(target: HTMLElement, spans: Spans | null | undefined): void {
  const text = plain(spans);
  if (target.dataset.said === text && target.childNodes.length > 0) return;
  target.replaceChildren(...words(spans));
  target.dataset.said = text;
}

/** A list of texts, one item each. */
export function items(list: HTMLElement, texts: Spans[], cls = ""): void {
  list.replaceChildren(...texts.map((t) => {
    const li = el("li", cls);
    li.append(...words(t));
    return li;
  }));
}

/** Card pictures, from where the server serves them (its theme and language). */
export class Cards {
  constructor(public base: string) {}

  img(code: string, w = 60, h = 90): HTMLImageElement {
    const img = el("img");
    img.src = this.base + code + ".png";
    img.alt = code;
    img.dataset.card = code;
    img.width = w;
    img.height = h;
    img.draggable = false;
    img.decoding = "async";
    return img;
  }
}

/** A seat's line under its name: team letter, badges, cards held, card points taken. */
export function seatLine(seat: SeatState, texts: Texts, cards = true): Node[] {
  const out: Node[] = [];
  const add = (nodes: Node[]) => {
    if (nodes.length === 0) return;
    if (out.length) out.push(document.createTextNode(" · "));
    out.push(...nodes);
  };
  if (seat.team) add([document.createTextNode(seat.team)]);
  add(words(seat.badges));
  if (cards && seat.cards) add([document.createTextNode("🂠 " + seat.cards)]);
  if (seat.taken !== null && seat.taken !== undefined) {
    add([document.createTextNode((texts["web.taken"] ?? "") + " " + seat.taken)]);
  }
  return out;
}

/** Trump as the game defines it, after its label ("Trump: Obers, then ❤️ hearts"). */
export function trumpLine(state: TableState, texts: Texts): Node[] {
  if (!state.trump) return [];
  return [document.createTextNode((texts["web.trump"] ?? "") + ": "), ...words(state.trump.text)];
}

/** A page's status line and facts: trump with the cards shown for it, the points, the
 * match score and the phase, the game's facts (``#trump``, ``#points``, ``#facts``). */
export function drawStatus(s: TableState, texts: Texts, cards: Cards): void {
  byId("trump").replaceChildren(...trumpLine(s, texts), ...(s.shown ?? []).map((c) => cards.img(c, 24, 36)));
  const parts = [s.points, s.match, s.phase].filter((x): x is Spans => !!x && x.length > 0);
  byId("points").replaceChildren(
    ...parts.flatMap((x, i) => [...(i ? [document.createTextNode(" · ")] : []), ...words(x)]));
  items(byId("facts"), s.facts ?? []);
}

/** Fill ``box`` with one slot per seat (made once: a card played fills its slot, nothing
 * else moves) and put the trick's cards in them; ``place`` sets where a slot sits. */
export function fillTrick(
  box: HTMLElement,
  state: TableState,
  cards: Cards,
  trick: { seat: number; card: string }[],
  winner: number | null | undefined,
  place?: (slot: HTMLElement, seat: number) => void,
  names = false,
): void {
  const n = state.seats.length;
  if (box.children.length !== n) {
    box.replaceChildren();
    for (let i = 0; i < n; i++) {
      const slot = el("div", "slot");
      slot.dataset.seat = String(i);
      if (names) slot.append(el("span", "who"), el("div", "place"));
      box.append(slot);
    }
    box.style.setProperty("--n", String(n));
  }
  const bySeat = new Map(trick.map((p) => [p.seat, p.card]));
  for (let i = 0; i < n; i++) {
    const slot = box.children[i] as HTMLElement;
    if (place) place(slot, i);
    if (names) (slot.firstChild as HTMLElement).textContent = state.seats[i]?.name ?? "";
    const holder = (names ? slot.lastChild : slot) as HTMLElement;
    const code = bySeat.get(i);
    const shown = (holder.firstChild as HTMLElement | null)?.dataset?.card;
    if (code !== shown) holder.replaceChildren(...(code ? [cards.img(code)] : []));
    slot.classList.toggle("wins", winner === i && bySeat.has(i));
  }
}

/** The result's lines, and the cards nobody played by seat. */
export function drawResult(box: HTMLElement, state: TableState, cards: Cards): void {
  const parts: HTMLElement[] = (state.result ?? []).map((line) => {
    const p = el("p");
    p.append(...words(line));
    return p;
  });
  (state.unplayed ?? []).forEach((held, i) => {
    if (!held.length) return;
    const p = el("p", "left");
    const who = el("bdi", "person", state.seats[i]?.name ?? "");
    who.dir = "auto";
    p.append(who, ": ");
    held.forEach((c) => p.append(cards.img(c, 24, 36)));
    parts.push(p);
  });
  box.replaceChildren(...parts);
}

/** The turn's deadline, counted by the server's clock (a phone's may be off by minutes). */
export class Countdown {
  private offset = 0;
  deadline: number | null = null;

  set(deadline: number | null, now?: number): void {
    if (now) this.offset = now - Date.now() / 1000;
    this.deadline = deadline;
  }

  /** Whole seconds left, or null when no wait runs. */
  left(): number | null {
    if (this.deadline === null) return null;
    return Math.max(0, Math.ceil(this.deadline - this.offset - Date.now() / 1000));
  }
}
