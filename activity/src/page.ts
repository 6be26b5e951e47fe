// A table, live, on its web page: the first step comes with the page, the next ones over the
// socket (socket.ts, shared with the Activity), drawn with the same parts (draw.ts).

import { byId, Cards, Countdown, drawResult, drawStatus, el, fillTrick, plain, say, seatLine, words } from "./draw";
import type { Texts } from "./draw";
import type { ServerMessage, Step, TableState } from "./protocol";
import { TableSocket } from "./socket";

const texts: Texts = JSON.parse(byId("texts").textContent ?? "{}");
const root = byId("table");
const cards = new Cards(root.dataset.cards ?? "");
const clock = new Countdown();
let cur: Step = JSON.parse(byId("first").textContent ?? "{}");
clock.set(cur.deadline, cur.now);
let gone = false;
const moves = byId("moves");

function drawSeats(s: TableState): void {
  const list = byId("seats");
  const n = s.seats.length;
  list.style.setProperty("--n", String(n));
  if (list.children.length !== n) {
    list.replaceChildren();
    for (let i = 0; i < n; i++) {
      const li = el("li", "seat");
      li.dataset.seat = String(i);
      li.append(el("span", "name"), el("span", "meta"), el("span", "clock"));
      list.append(li);
    }
  }
  s.seats.forEach((seat, i) => {
    const li = list.children[i] as HTMLElement;
    li.classList.toggle("turn", (s.turn ?? []).includes(i));
    (li.children[0] as HTMLElement).textContent = seat.name;
    (li.children[1] as HTMLElement).replaceChildren(...seatLine(seat, texts));
  });
}

function draw(m: Step): void {
  const s = m.state;
  drawStatus(s, texts, cards);
  drawSeats(s);
  fillTrick(byId("trick"), s, cards, s.trick ?? [], s.winner, undefined, true);
  fillTrick(byId("last"), s, cards, s.last?.cards ?? [], s.last?.winner ?? null, undefined, true);
  const result = byId("result");
  result.hidden = !s.result;
  if (s.result) drawResult(result, s, cards);
  else result.replaceChildren();
  byId("delayed").hidden = !m.delayed;
  say(document.querySelector(".bar h1") as HTMLElement, s.heading.length ? s.heading : [s.title]);
  tick();
}

function logMove(m: Step): void {
  let li: HTMLLIElement | null = null;
  if (m.move) {
    li = el("li");
    li.append(...words(m.move.text));
    li.value = m.at;
  } else if (m.hand) {
    li = el("li", "deal", plain(m.state.heading) || m.state.title);
  }
  if (li) {
    li.dataset.hand = String(m.hand);
    li.dataset.at = String(m.at);
    moves.append(li);
  }
  while (moves.children.length > 200) moves.firstChild?.remove();
  moves.scrollTop = moves.scrollHeight;
}

function tick(): void {
  const left = clock.left();
  const turn = cur.state.turn ?? [];
  for (const li of byId("seats").children) {
    const mark = li.children[2] as HTMLElement;
    const mine = turn.includes(Number((li as HTMLElement).dataset.seat));
    const text = mine && left !== null ? " ⏳ " + left + " " + (texts["web.seconds_left"] ?? "") : "";
    if (mark.textContent !== text) mark.textContent = text;
  }
}
window.setInterval(tick, 500);

function show(m: Step): void {
  if (m.hand === cur.hand && m.at <= cur.at && m.move) return; // already shown
  cur = m;
  clock.set(m.deadline, m.now);
  logMove(m);
  draw(m);
}

const link = byId("link");
const socket = new TableSocket(root.dataset.socket ?? "", {
  message(m: ServerMessage) {
    if (m.type === "step") {
      show(m);
      socket.have(cur.hand || null, cur.at);
    } else if (m.type === "clock") {
      clock.set(m.deadline, m.now);
      tick();
    } else if (m.type === "gone") {
      gone = true;
      link.textContent = texts["web.gone_" + m.reason] ?? "";
    }
  },
  connected(up: boolean) {
    if (gone) return;
    link.textContent = up ? "" : (texts["web.reconnecting"] ?? "");
  },
});
socket.have(cur.hand || null, cur.at);
logMove(cur);
draw(cur);
socket.open();
