// A finished hand on its replay page, move by move as a chess replay steps: the buttons,
// the arrow keys (up and down: a trick at a time), a swipe, or a click on a move of the list;
// and its analysis board (a card of the player to move tapped: the computers play on from
// there, bot/web/board.py). Drawn with the parts every page shares (draw.ts).

import { byId, Cards, drawResult, drawStatus, el, fillTrick, items, person, say, seatLine, words } from "./draw";
import type { Texts } from "./draw";
import type { ReplayState } from "./protocol";

const texts: Texts = JSON.parse(byId("texts").textContent ?? "{}");
const root = byId("replay");
const cards = new Cards(root.dataset.cards ?? "");
const game: ReplayState[] = JSON.parse(byId("steps").textContent ?? "[]");
/** The line shown: the game, or on the analysis board the game up to a position and the
 * computers' play from another card there. */
let steps: ReplayState[] = game;
let last = steps.length - 1;
let at = 0;

/** Each step's trick: 0 before the first card, else the number of the trick it shows. */
let trickOf: number[] = [];
/** The steps that end a trick. */
let ends: number[] = [];

function index(): void {
  trickOf = [];
  let done = 0;
  for (const s of steps) {
    if (s.trick_shown) trickOf.push(++done);
    else trickOf.push((s.trick ?? []).length > 0 ? done + 1 : done === 0 ? 0 : -done);
  }
  ends = steps.map((s, i) => (s.trick_shown ? i : -1)).filter((i) => i >= 0);
  last = steps.length - 1;
}

function where(i: number): string {
  const t = trickOf[i] ?? 0;
  if (i === last && steps[i]?.result && !steps[i]?.trick_shown) return texts["web.result"] ?? "";
  if (t === 0) return texts["web.deal"] ?? "";
  return (texts["web.trick"] ?? "") + " " + Math.abs(t) + " / " + ends.length;
}

function drawSeats(s: ReplayState): void {
  const list = byId("seats");
  const n = s.seats.length;
  list.style.setProperty("--n", String(n));
  if (list.children.length !== n) {
    list.replaceChildren();
    for (let i = 0; i < n; i++) {
      const li = el("li", "seat");
      li.dataset.seat = String(i);
      li.append(person("", "name"), el("span", "meta"), el("span", "clock"), el("div", "hand"));
      list.append(li);
    }
  }
  s.seats.forEach((seat, i) => {
    const li = list.children[i] as HTMLElement;
    (li.children[0] as HTMLElement).textContent = seat.name;
    (li.children[1] as HTMLElement).replaceChildren(...seatLine(seat, texts));
    const held = s.hands?.[i] ?? [];
    // On the game's line, the cards of the player to move are the analysis board's
    // questions: another card there, and the computers play on.
    const asks = steps === game && at < last && (s.turn ?? []).includes(i);
    (li.children[3] as HTMLElement).replaceChildren(...held.map((c) => {
      const img = cards.img(c, 30, 45);
      if (!asks) return img;
      const b = el("button", "try");
      b.type = "button";
      b.dataset.card = c;
      b.append(img);
      b.addEventListener("click", () => void tryCard(c));
      return b;
    }));
  });
}

/** The analysis board: ``code`` instead of the move made at this position. */
async function tryCard(code: string): Promise<void> {
  const from = at;
  const note = byId("board-text");
  const answer = await fetch(location.pathname + "/analysis", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ at: from, action: { card: code } }),
  }).catch(() => null);
  const data = answer && answer.ok ? ((await answer.json()) as { steps: ReplayState[] }) : null;
  byId("board").hidden = false;
  if (!data) {
    note.textContent = texts["web.board_refused"] ?? "";
    return;
  }
  steps = [...game.slice(0, from), ...data.steps];
  index();
  note.textContent = texts["web.board_line"] ?? "";
  root.dataset.line = "analysis";
  listMoves();
  go(from + 1);
}

function backToGame(): void {
  const was = at;
  steps = game;
  index();
  byId("board").hidden = true;
  root.dataset.line = "game";
  listMoves();
  go(Math.min(was, last));
}

/** The hand's moves, once: each a button that goes to its step. */
function listMoves(): void {
  const list = byId("moves");
  list.replaceChildren(...steps.flatMap((s, i) => (s.moves ?? []).map((line) => {
    const li = el("li");
    li.value = i;
    const b = el("button", "move");
    b.type = "button";
    b.dataset.step = String(i);
    b.append(...words(line));
    b.addEventListener("click", () => go(i));
    li.append(b);
    return li;
  })));
}

function go(i: number): void {
  at = Math.max(0, Math.min(last, i));
  const s = steps[at];
  if (!s) return;
  drawStatus(s, texts, cards);
  drawSeats(s);
  const t = s.trick_shown;
  fillTrick(byId("trick"), s, cards, t ? t.cards : (s.trick ?? []), t ? t.winner : null, undefined, true);
  const result = byId("result");
  result.hidden = !(at === last && s.result);
  if (!result.hidden) drawResult(result, s, cards);
  else result.replaceChildren();
  items(byId("notes"), s.notes ?? []);
  for (const b of byId("moves").querySelectorAll<HTMLElement>("button.move")) {
    const now = Number(b.dataset.step) === at;
    b.classList.toggle("now", now);
    if (now) {
      b.setAttribute("aria-current", "step");
      b.scrollIntoView({ block: "nearest" });
    } else b.removeAttribute("aria-current");
  }
  say(byId("where"), [where(at)]);
  (byId("prev") as HTMLButtonElement).disabled = at === 0;
  (byId("next") as HTMLButtonElement).disabled = at === last;
  root.dataset.step = String(at);
  if (location.hash !== "#" + at) history.replaceState(null, "", "#" + at);
}

/** The step ending the trick after (``+1``) or before (``-1``) the one shown. */
function trickStep(dir: 1 | -1): number {
  if (dir > 0) return ends.find((i) => i > at) ?? last;
  return [...ends].reverse().find((i) => i < at) ?? 0;
}

byId("prev").onclick = () => go(at - 1);
byId("next").onclick = () => go(at + 1);
document.addEventListener("keydown", (e) => {
  const keys: Record<string, () => number> = {
    ArrowLeft: () => at - 1, ArrowRight: () => at + 1, ArrowUp: () => trickStep(-1),
    ArrowDown: () => trickStep(1), Home: () => 0, End: () => last,
  };
  const to = keys[e.key];
  if (!to) return;
  e.preventDefault();
  go(to());
});
let x0: number | null = null;
const felt = root.querySelector(".felt") as HTMLElement;
felt.addEventListener("pointerdown", (e) => { x0 = e.clientX; });
felt.addEventListener("pointerup", (e) => {
  if (x0 === null) return;
  const dx = e.clientX - x0;
  x0 = null;
  if (Math.abs(dx) > 40) go(at + (dx < 0 ? 1 : -1));
});
byId("board-back").onclick = backToGame;
index();
root.dataset.line = "game";
listMoves();
go(Number(location.hash.slice(1)) || 0);
