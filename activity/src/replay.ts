// A finished hand on its replay page, trick by trick: buttons, the arrow keys, or a swipe;
// drawn with the parts every page shares (draw.ts).

import { byId, Cards, drawResult, drawStatus, el, fillTrick, items, say, seatLine } from "./draw";
import type { Texts } from "./draw";
import type { ReplayState } from "./protocol";

const texts: Texts = JSON.parse(byId("texts").textContent ?? "{}");
const root = byId("replay");
const cards = new Cards(root.dataset.cards ?? "");
const steps: ReplayState[] = JSON.parse(byId("steps").textContent ?? "[]");
const last = steps.length - 1;
let at = 0;

function where(i: number): string {
  if (i === 0) return texts["web.deal"] ?? "";
  if (i === last && steps[i]?.result && !steps[i]?.trick_shown) return texts["web.result"] ?? "";
  return (texts["web.trick"] ?? "") + " " + i + " / " + (steps[last]?.trick_shown ? last : last - 1);
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
      li.append(el("span", "name"), el("span", "meta"), el("span", "clock"), el("div", "hand"));
      list.append(li);
    }
  }
  s.seats.forEach((seat, i) => {
    const li = list.children[i] as HTMLElement;
    (li.children[0] as HTMLElement).textContent = seat.name;
    (li.children[1] as HTMLElement).replaceChildren(...seatLine(seat, texts));
    const held = s.hands?.[i] ?? [];
    (li.children[3] as HTMLElement).replaceChildren(...held.map((c) => cards.img(c, 30, 45)));
  });
}

function go(i: number): void {
  at = Math.max(0, Math.min(last, i));
  const s = steps[at];
  if (!s) return;
  drawStatus(s, texts, cards);
  drawSeats(s);
  const t = s.trick_shown;
  fillTrick(byId("trick"), s, cards, t ? t.cards : [], t ? t.winner : null, undefined, true);
  const result = byId("result");
  result.hidden = !(at === last && s.result);
  if (!result.hidden) drawResult(result, s, cards);
  else result.replaceChildren();
  items(byId("notes"), s.notes ?? []);
  items(byId("moves"), s.moves ?? []);
  say(byId("where"), [where(at)]);
  (byId("prev") as HTMLButtonElement).disabled = at === 0;
  (byId("next") as HTMLButtonElement).disabled = at === last;
  root.dataset.step = String(at);
  if (location.hash !== "#" + at) history.replaceState(null, "", "#" + at);
}

byId("prev").onclick = () => go(at - 1);
byId("next").onclick = () => go(at + 1);
document.addEventListener("keydown", (e) => {
  if (e.key === "ArrowLeft") go(at - 1);
  else if (e.key === "ArrowRight") go(at + 1);
  else if (e.key === "Home") go(0);
  else if (e.key === "End") go(last);
});
let x0: number | null = null;
root.addEventListener("pointerdown", (e) => { x0 = e.clientX; });
root.addEventListener("pointerup", (e) => {
  if (x0 === null) return;
  const dx = e.clientX - x0;
  x0 = null;
  if (Math.abs(dx) > 40) go(at + (dx < 0 ? 1 : -1));
});
go(Number(location.hash.slice(1)) || 0);
