// The table drawn: seats around, the trick in the middle, the player's hand fanned at the
// bottom (legal cards raised, trumps marked), every choice the engine offers as a button,
// the countdown. Only what the socket sent is drawn: the page knows nothing else.

import { byId, Cards, Countdown, el, fillTrick, items, say, trumpLine, words } from "./draw";
import type { Spans, Texts } from "./draw";
import type { Choice, Hello, Mine, Step, TableState } from "./protocol";

/** What the view asks of the socket (main.ts sends it). */
export interface Requests {
  act(action: Record<string, unknown>): void;
  seat(op: "leave" | "sit" | "back" | "next", team?: 0 | 1): void;
  hint(): void;
}

/** Where seat ``rel`` places of the viewer's sits, around an ellipse (0: the bottom; the
 * next to play on the left, as at a real table). Percent of the box. */
function place(rel: number, n: number, rx: number, ry: number): [number, number] {
  const angle = Math.PI / 2 + (rel * 2 * Math.PI) / n;
  return [50 + rx * Math.cos(angle), 50 + ry * Math.sin(angle)];
}

export class TableView {
  private texts: Texts;
  private cards = new Cards("cards/dark/en/");
  private confirm = false;
  private viewerSeat: number | null = null;
  step: Step | null = null;
  private readonly clock_ = new Countdown();
  /** A card tapped once, waiting for the second tap (the table's confirm setting). */
  private armed: string | null = null;
  /** Cards picked to be chosen together (burying). */
  private picked = new Set<string>();
  /** An action sent and not yet answered: the controls wait. */
  private pending = false;
  private shownResult = -1;
  private readonly root: HTMLElement;

  constructor(texts: Texts, private readonly ask: Requests) {
    this.texts = texts;
    this.root = byId("app");
    this.root.replaceChildren(this.skeleton());
    byId("last-btn").addEventListener("click", () => this.showLast());
    window.addEventListener("resize", () => this.fan());
    window.setInterval(() => this.tick(), 250);
  }

  setTexts(texts: Texts): void {
    this.texts = texts;
    byId("last-btn").textContent = this.w("btn.last_trick");
    byId("moves-title").textContent = this.w("web.moves");
  }

  private w(key: string): string {
    return this.texts[key] ?? key;
  }

  private skeleton(): HTMLElement {
    const table = el("div", "table");
    table.id = "table";
    const top = el("header", "top");
    const heading = el("h1", "heading");
    heading.id = "heading";
    const chips = el("div", "chips");
    for (const id of ["trump", "points", "clock", "link"]) {
      const chip = el("span", `chip ${id}`);
      chip.id = id;
      chip.hidden = true;
      chips.append(chip);
    }
    top.append(heading, chips);

    const board = el("section", "board");
    board.id = "board";
    const felt = el("div", "felt");
    const trick = el("div", "trick");
    trick.id = "trick";
    const shown = el("div", "shown");
    shown.id = "shown";
    const result = el("div", "result");
    result.id = "result";
    result.hidden = true;
    const last = el("button", "small ghost", this.w("btn.last_trick"));
    last.id = "last-btn";
    last.type = "button";
    felt.append(trick, shown, result, last);
    const seats = el("ol", "seats");
    seats.id = "seats";
    board.append(felt, seats);

    const side = el("section", "side");
    const prompt = el("p", "prompt");
    prompt.id = "prompt";
    prompt.setAttribute("aria-live", "polite");
    const priv = el("ul", "private");
    priv.id = "private";
    const choices = el("div", "choices");
    choices.id = "choices";
    const actions = el("div", "actions");
    actions.id = "actions";
    const facts = el("ul", "facts");
    facts.id = "facts";
    const log = el("details", "log");
    log.id = "log";
    const summary = el("summary", "", this.w("web.moves"));
    summary.id = "moves-title";
    const moves = el("ol", "moves");
    moves.id = "moves";
    log.append(summary, moves);
    side.append(prompt, priv, choices, actions, facts, log);

    const hand = el("section", "hand");
    hand.id = "hand";
    const toast = el("div", "toast");
    toast.id = "toast";
    toast.setAttribute("role", "status");
    toast.hidden = true;
    const sheet = el("div", "sheet");
    sheet.id = "sheet";
    sheet.hidden = true;
    table.append(top, board, side, hand, toast, sheet);
    return table;
  }

  // -- what the socket says --------------------------------------------------------------------

  hello(m: Hello): void {
    this.viewerSeat = m.viewer.seat;
    if (m.table) {
      this.cards = new Cards(m.table.cards);
      this.confirm = m.table.confirm;
    }
    this.root.dataset.role = m.viewer.role;
  }

  connected(up: boolean): void {
    const link = byId("link");
    link.hidden = up;
    link.textContent = up ? "" : this.w("web.reconnecting");
  }

  clock(deadline: number | null, now: number): void {
    this.clock_.set(deadline, now);
    this.tick();
  }

  show(step: Step): void {
    const first = this.step === null || this.step.hand !== step.hand;
    this.step = step;
    this.pending = false;
    this.armed = null;
    if (!step.mine?.together) this.picked.clear();
    this.clock(step.deadline, step.now);
    this.draw(step, first);
  }

  private me(): number {
    return this.step?.mine?.seat ?? this.viewerSeat ?? 0;
  }

  private draw(step: Step, first: boolean): void {
    const s = step.state;
    this.root.dataset.hand = String(step.hand);
    this.root.dataset.at = String(step.at);
    say(byId("heading"), s.heading.length ? s.heading : [s.title]);
    const trump = byId("trump");
    trump.hidden = !s.trump;
    trump.replaceChildren(...trumpLine(s, this.texts));
    const points = byId("points");
    points.hidden = !s.points;
    say(points, s.points);
    this.drawSeats(s);
    this.drawTrick(s);
    this.drawShown(s);
    const result = byId("result");
    result.hidden = !s.result;
    const lines: Spans[] = s.lobby && s.note ? [s.note] : (s.result ?? []);
    result.replaceChildren(...lines.map((line) => {
      const p = el("p");
      p.append(...words(line));
      return p;
    }));
    result.hidden = !(s.result || (s.lobby && s.note));
    items(byId("facts"), [...(s.facts ?? []), ...(s.match ? [s.match] : [])]);
    this.drawMoves(step, first);
    this.drawMine(step);
    this.drawActions(step);
    this.fan();
    if (s.result && this.shownResult !== step.hand) this.shownResult = step.hand;
  }

  private drawSeats(s: TableState): void {
    const list = byId("seats");
    const n = s.seats.length;
    const me = this.me();
    if (list.children.length !== n) {
      list.replaceChildren();
      for (let i = 0; i < n; i++) {
        const li = el("li", "seat");
        li.dataset.seat = String(i);
        li.append(el("span", "name"), el("span", "meta"), el("span", "count"));
        list.append(li);
      }
    }
    const turn = new Set(s.turn ?? []);
    s.seats.forEach((seat, i) => {
      const li = list.children[i] as HTMLElement;
      const rel = (i - me + n) % n;
      const [x, y] = place(rel, n, 42, 40);
      li.style.setProperty("--x", `${x}%`);
      li.style.setProperty("--y", `${y}%`);
      li.dataset.rel = String(rel);
      // Seats at the sides keep to the board's edge rather than hang over it.
      li.classList.toggle("west", x < 30);
      li.classList.toggle("east", x > 70);
      li.classList.toggle("me", rel === 0 && this.step?.mine != null);
      li.classList.toggle("turn", turn.has(i));
      (li.children[0] as HTMLElement).textContent = seat.name;
      const meta: Node[] = seat.team ? [document.createTextNode(seat.team)] : [];
      const badges = words(seat.badges);
      if (meta.length && badges.length) meta.push(document.createTextNode(" · "));
      (li.children[1] as HTMLElement).replaceChildren(...meta, ...badges);
      const taken = seat.taken !== null && seat.taken !== undefined
        ? ` · ${this.w("web.taken")} ${seat.taken}` : "";
      (li.children[2] as HTMLElement).textContent = seat.cards ? `🂠 ${seat.cards}${taken}` : taken;
    });
  }

  private cardImg(code: string): HTMLImageElement {
    return this.cards.img(code);
  }

  private drawTrick(s: TableState): void {
    const n = s.seats.length;
    const me = this.me();
    fillTrick(byId("trick"), s, this.cards, s.trick ?? [], s.winner, (slot, i) => {
      const [x, y] = place((i - me + n) % n, n, 24, 22);
      slot.style.setProperty("--x", `${x}%`);
      slot.style.setProperty("--y", `${y}%`);
    });
  }

  private drawShown(s: TableState): void {
    const box = byId("shown");
    const codes = s.shown ?? [];
    const have = [...box.children].map((c) => (c as HTMLElement).dataset.card);
    if (have.join() !== codes.join()) box.replaceChildren(...codes.map((c) => this.cardImg(c)));
  }

  private drawMoves(step: Step, first: boolean): void {
    const list = byId("moves");
    if (first) list.replaceChildren();
    if (step.move) {
      const li = el("li");
      li.append(...words(step.move.text));
      li.dataset.at = String(step.at);
      list.append(li);
      while (list.children.length > 80) list.firstChild?.remove();
    }
  }

  // -- the player's own ------------------------------------------------------------------------

  private drawMine(step: Step): void {
    const mine = step.mine ?? null;
    const prompt = byId("prompt");
    const priv = byId("private");
    const choices = byId("choices");
    this.root.classList.toggle("my-turn", !!mine?.my_turn);
    if (mine === null) {
      prompt.textContent = step.state.lobby ? "" : this.w("activity.spectating");
      priv.replaceChildren();
      choices.replaceChildren();
      byId("hand").replaceChildren();
      return;
    }
    const status = mine.status ?? {};
    if (status.autoplay) prompt.textContent = this.w("activity.autoplay");
    else if (status.left) prompt.textContent = this.w("hand.left");
    else say(prompt, mine.prompt);
    items(priv, [...mine.private, ...(mine.notes ?? [])]);
    const buttons: HTMLElement[] = [];
    const usable = (c: Choice) => c.free || (mine.my_turn && !status.left);
    for (const c of mine.choices.filter(usable)) {
      const b = el("button", c.free ? "choice free" : "choice");
      b.append(...words(c.label));
      b.type = "button";
      b.dataset.kind = c.kind;
      b.dataset.value = JSON.stringify(c.value);
      b.addEventListener("click", () => this.send({ [c.kind]: c.value }, b));
      buttons.push(b);
    }
    const together = mine.together;
    if (together && mine.my_turn) {
      const label = el("p", "together");
      label.append(...words(together.label), ` (${this.picked.size}/${together.size})`);
      label.id = "together";
      const done = el("button", "choice primary", this.w("activity.done"));
      done.type = "button";
      done.id = "together-done";
      done.disabled = this.picked.size !== together.size;
      done.addEventListener("click", () =>
        this.send({ [together.kind]: [...this.picked] }, done));
      buttons.push(label, done);
    }
    choices.replaceChildren(...buttons);
    this.drawHand(mine);
  }

  private drawHand(mine: Mine): void {
    const box = byId("hand");
    const legal = new Set(mine.legal);
    const trumps = new Set(mine.trumps);
    const together = mine.my_turn ? mine.together : null;
    const pickable = new Set(together?.cards ?? []);
    const widow = new Set(together?.widow ?? []);
    const have = [...box.children].map((c) => (c as HTMLElement).dataset.card).join();
    if (have !== mine.cards.join()) {
      box.replaceChildren(
        ...mine.cards.map((code) => {
          const b = el("button", "card");
          b.type = "button";
          b.dataset.card = code;
          b.append(this.cardImg(code));
          b.addEventListener("click", () => this.tap(code, b));
          return b;
        }),
      );
    }
    for (const b of box.children as HTMLCollectionOf<HTMLElement>) {
      const code = b.dataset.card ?? "";
      const playable = mine.my_turn && !mine.status?.left && legal.has(code);
      b.classList.toggle("legal", playable);
      b.classList.toggle("trump", trumps.has(code));
      b.classList.toggle("pickable", pickable.has(code));
      b.classList.toggle("picked", this.picked.has(code));
      b.classList.toggle("widow", widow.has(code));
      b.classList.toggle("armed", this.armed === code);
      b.setAttribute("aria-disabled", String(!(playable || pickable.has(code))));
    }
  }

  /** The hand fanned to the width it has: overlapping, slightly turned. */
  private fan(): void {
    const box = document.getElementById("hand");
    if (box === null) return;
    const cards = [...box.children] as HTMLElement[];
    const n = cards.length;
    if (n === 0) return;
    const width = box.clientWidth;
    // As wide as a fifth of the hand's room, and no taller than a sixth of the screen.
    const cw = Math.max(40, Math.min(76, Math.floor(width / 5),
      Math.floor(window.innerHeight / 9)));
    // The outer cards turn: keep room for their corners inside the box.
    const spread = n > 1 ? Math.min(8, n) : 0;
    const room = width - cw - 2 * Math.ceil(cw * 1.5 * Math.sin((spread * Math.PI) / 180));
    const step = n > 1 ? Math.min(cw * 0.92, room / (n - 1)) : 0;
    const start = (width - (cw + step * (n - 1))) / 2;
    box.style.setProperty("--cw", `${cw}px`);
    cards.forEach((c, i) => {
      const mid = (n - 1) / 2;
      const turn = n > 1 ? ((i - mid) / Math.max(mid, 1)) * spread : 0;
      const drop = Math.abs(i - mid) ** 2 * (n > 1 ? 8 / Math.max(mid * mid, 1) : 0);
      c.style.left = `${start + i * step}px`;
      c.style.setProperty("--turn", `${turn}deg`);
      c.style.setProperty("--drop", `${drop}px`);
      c.style.zIndex = String(i + 1);
    });
  }

  private tap(code: string, button: HTMLElement): void {
    const mine = this.step?.mine;
    if (!mine || this.pending) return;
    const together = mine.my_turn ? mine.together : null;
    if (together && together.cards.includes(code)) {
      if (this.picked.has(code)) this.picked.delete(code);
      else if (this.picked.size < together.size) this.picked.add(code);
      this.drawMine(this.step as Step);
      return;
    }
    if (!mine.my_turn || mine.status?.left || !mine.legal.includes(code)) return;
    if (this.confirm && this.armed !== code) {
      this.armed = code;
      this.drawHand(mine);
      this.toast(this.w("activity.tap_again"));
      return;
    }
    this.send({ card: code }, button);
  }

  private send(action: Record<string, unknown>, from: HTMLElement): void {
    if (this.pending) return;
    this.pending = true;
    from.classList.add("pending");
    this.ask.act(action);
  }

  // -- seats, hints, the end of a hand -----------------------------------------------------------

  private drawActions(step: Step): void {
    const mine = step.mine ?? null;
    const s = step.state;
    const over = !!s.result;
    const buttons: HTMLElement[] = [];
    const button = (cls: string, label: string, onClick: () => void, id: string) => {
      const b = el("button", cls, label);
      b.type = "button";
      b.id = id;
      b.addEventListener("click", onClick);
      buttons.push(b);
    };
    if (mine !== null) {
      const status = mine.status ?? {};
      if (status.autoplay) button("primary", this.w("activity.back"), () => this.ask.seat("back"), "back");
      if (mine.hints) button("ghost", this.w("btn.hint"), () => this.ask.hint(), "hint");
      if (over && !status.left) {
        button("primary", this.w("btn.next_hand"), () => this.ask.seat("next"), "next");
      }
      if (!over && !status.left) {
        button("danger small", this.w("btn.leave_hand"), () => this.askLeave(), "leave");
      }
    } else if (over) {
      const teams = s.seats.some((seat) => seat.team);
      if (teams) {
        button("primary", this.w("btn.join_a"), () => this.ask.seat("sit", 0), "sit-a");
        button("primary", this.w("btn.join_b"), () => this.ask.seat("sit", 1), "sit-b");
      } else {
        button("primary", this.w("btn.sit"), () => this.ask.seat("sit"), "sit");
      }
    }
    byId("actions").replaceChildren(...buttons);
  }

  private askLeave(): void {
    this.sheet([el("p", "", this.w("hand.leave_ask"))], [
      [this.w("btn.leave_yes"), "danger", () => this.ask.seat("leave")],
      [this.w("btn.leave_no"), "ghost", () => undefined],
    ]);
  }

  private showLast(): void {
    const s = this.step?.state;
    const last = s?.last;
    const body: HTMLElement[] = [];
    if (s && last) {
      const row = el("div", "last-trick");
      for (const p of last.cards) {
        const cell = el("figure", p.seat === last.winner ? "wins" : "");
        const who = el("bdi", "person", s.seats[p.seat]?.name ?? "");
        who.dir = "auto";
        const caption = el("figcaption");
        caption.append(who);
        cell.append(this.cardImg(p.card), caption);
        row.append(cell);
      }
      body.push(row);
    } else {
      body.push(el("p", "", "—"));
    }
    this.sheet(body, [[this.w("activity.close"), "ghost", () => undefined]]);
  }

  answer(lines: Spans[]): void {
    const body = lines.map((line) => {
      const p = el("p", "hint-text");
      p.append(...words(line));
      return p;
    });
    this.sheet(body, [[this.w("activity.close"), "ghost", () => undefined]]);
  }

  private sheet(body: HTMLElement[], buttons: [string, string, () => void][]): void {
    const sheet = byId("sheet");
    const card = el("div", "sheet-card");
    const row = el("div", "sheet-buttons");
    for (const [label, cls, act] of buttons) {
      const b = el("button", cls, label);
      b.type = "button";
      b.addEventListener("click", () => {
        // Closed, it keeps nothing (a hint names cards of a hand that will be over).
        sheet.hidden = true;
        sheet.replaceChildren();
        act();
      });
      row.append(b);
    }
    card.append(...body, row);
    sheet.replaceChildren(card);
    sheet.hidden = false;
  }

  // -- messages -----------------------------------------------------------------------------------

  refused(text: string): void {
    this.pending = false;
    this.armed = null;
    for (const b of document.querySelectorAll(".pending")) b.classList.remove("pending");
    this.toast(text, true);
  }

  notice(text: Spans): void {
    this.toast(text.map((s) => (typeof s === "string" ? s : s.text)).join(""));
    const li = el("li", "notice");
    li.append(...words(text));
    byId("moves").append(li);
  }

  toast(text: string, error = false): void {
    const toast = byId("toast");
    toast.textContent = text;
    toast.classList.toggle("error", error);
    toast.hidden = false;
    window.clearTimeout(Number(toast.dataset.timer ?? 0));
    toast.dataset.timer = String(window.setTimeout(() => (toast.hidden = true), 3500));
  }

  gone(text: string, retry: (() => void) | null): void {
    const buttons: [string, string, () => void][] = retry
      ? [[this.w("activity.retry"), "primary", retry]] : [];
    this.sheet([el("p", "", text)], buttons);
  }

  /** The countdown: the server's deadline, counted by the server's clock. */
  private tick(): void {
    const clock = document.getElementById("clock");
    if (clock === null) return;
    const left = this.clock_.left();
    clock.hidden = left === null;
    clock.textContent = left === null ? "" : `⏳ ${left} ${this.w("web.seconds_left")}`;
    clock.classList.toggle("low", left !== null && left <= 10);
    this.root.dataset.left = left === null ? "" : String(left);
  }
}
