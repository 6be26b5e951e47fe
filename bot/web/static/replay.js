// A finished hand, trick by trick: buttons, the arrow keys, or a swipe.
"use strict";
(() => {
  const F = window.Filicau;
  const { $, el, texts } = F;
  const root = $("replay");
  F.setBase(root.dataset.cards);
  const steps = JSON.parse($("steps").textContent);
  const last = steps.length - 1;
  let at = 0;

  function where(i) {
    if (i === 0) return texts.deal;
    if (i === last && steps[i].result && !steps[i].trick_shown) return texts.result;
    return texts.trick + " " + i + " / " + (steps[last].trick_shown ? last : last - 1);
  }

  function go(i) {
    at = Math.max(0, Math.min(last, i));
    const s = steps[at];
    const names = F.drawCommon(s);
    F.drawSeats($("seats"), s, { hands: true });
    const t = s.trick_shown;
    F.fillTrick($("trick"), s.seats.length, names, t ? t.cards : [], t ? t.winner : null);
    F.drawResult($("result"), at === last ? s : {});
    $("notes").replaceChildren(...(s.notes || []).map((n) => el("li", null, n)));
    $("moves").replaceChildren(...(s.moves || []).map((m) => el("li", null, m)));
    $("where").textContent = where(at);
    $("prev").disabled = at === 0;
    $("next").disabled = at === last;
    root.dataset.step = at;
    if (location.hash !== "#" + at) history.replaceState(null, "", "#" + at);
  }

  $("prev").onclick = () => go(at - 1);
  $("next").onclick = () => go(at + 1);
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowLeft") go(at - 1);
    else if (e.key === "ArrowRight") go(at + 1);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(last);
  });
  let x0 = null;
  root.addEventListener("pointerdown", (e) => { x0 = e.clientX; });
  root.addEventListener("pointerup", (e) => {
    if (x0 === null) return;
    const dx = e.clientX - x0;
    x0 = null;
    if (Math.abs(dx) > 40) go(at + (dx < 0 ? 1 : -1));
  });
  go(Number(location.hash.slice(1)) || 0);
})();
