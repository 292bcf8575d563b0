// The fanned hand: cards are buttons named by rank, aria-pressed when raised; tap or drag to raise.
import { el, state, tr } from "./core.js";
import { cardName, copies, corner, rankClasses, shortFace, suitClass, suitFor } from "./cards.js";

/** The strips a card may show under its right neighbour, widest first (CSS classes .step-N of app.css). */
const STEPS = [40, 36, 34, 32, 30, 28, 26, 24];

/**
 * The rows and the strip of a hand of ``count`` cards in ``node``: the fewest rows in which every card
 * still shows a strip of at least 24 px (a finger's tap and a swipe's path), and in those rows the
 * widest strip that fits, never wider than the CSS --step. Portrait phones overlap the cards more
 * rather than stack a third row: 17 cards take 2 rows of 9 at 360 px, 20 cards 2 rows of 10.
 * Measured, so it follows the screen and the CSS.
 */
function handLayout(node, count) {
  // the sizes the hand's own felt computed (app.css: --card-w follows the screen; a four-player felt on its side
  // has smaller cards), in pixels (a registered length), the page's when the hand is not on it yet
  // (its parent's: the hand's own .step-N class narrows --step, and a new layout starts from the widest)
  const style = getComputedStyle(node.isConnected && node.parentElement ? node.parentElement : document.documentElement);
  const widest = parseFloat(style.getPropertyValue("--step")) || 40;
  const width = parseFloat(style.getPropertyValue("--card-w")) || 46;
  // A hand not on the page yet (a lesson's or a puzzle's table being built) is as wide as the screen
  // less the page's margins; the CSS wraps a row anyway if that guess is too generous.
  // (main's width, not the screen's: a phone on its side has the sections' rail beside it)
  const page = document.querySelector("main")?.clientWidth || document.documentElement.clientWidth;
  const room = node.isConnected && node.clientWidth ? node.clientWidth - 8 : page - 40;
  const steps = STEPS.filter((s) => s <= widest);
  for (let rows = 1; rows <= Math.max(1, count); rows++) {
    const perRow = Math.max(1, Math.ceil(count / rows));
    const step = steps.find((s) => width + (perRow - 1) * s <= room);
    if (step !== undefined) return { rows, perRow, step: step === widest ? null : step };
  }
  return { rows: count, perRow: 1, step: null };
}

export function drawHand(node, cards, active) {
  node.replaceChildren();
  node.setAttribute("aria-label", tr("your_hand"));
  // A hand too long for one row goes on as few rows as it needs, balanced (17 cards at 360 px: 9 and 8),
  // each card overlapped as much as that takes (see handLayout); rows also wrap by themselves if the width changes.
  const count = (cards || []).length;
  const { rows, perRow, step } = handLayout(node, count);
  let row = null;
  const ks = copies(cards || [], { hand: true });
  node.classList.toggle("rows", rows > 1);
  for (const s of STEPS) node.classList.toggle(`step-${s}`, s === step);
  (cards || []).forEach((rank, i) => {
    if (i % perRow === 0) { row = el("div", { class: "hand-row" }); node.append(row); }
    const suit = suitFor(rank, ks[i]);
    const card = el("button", { type: "button", class: ["card", ...rankClasses(rank), suitClass(suit)].join(" "),
      "aria-pressed": state.selected.has(i) ? "true" : "false", "aria-label": cardName(rank), "data-i": i,
      "data-rank": rank, disabled: !active },
      corner(rank, suit),
      el("span", { class: "face", "aria-hidden": "true", text: suit || shortFace(rank) }));
    row.append(card);
  });
}

export function refreshPressed(node) {
  for (const card of node.querySelectorAll(".card")) {
    card.setAttribute("aria-pressed", state.selected.has(Number(card.dataset.i)) ? "true" : "false");
  }
}

/** The raised cards of ``cards`` as the server reads them ("33J"), in hand order. */
export function selectedText(cards) {
  return [...state.selected].sort((a, b) => a - b).map((i) => (cards || [])[i]).join("");
}

/** Raise exactly the cards of ``ranks`` (a hint's move) in the hand drawn in ``node``. */
export function raise(ranks, cards, node) {
  state.selected.clear();
  const used = new Set();
  for (const rank of ranks) {
    const i = (cards || []).findIndex((r, j) => r === rank && !used.has(j));
    if (i >= 0) used.add(i);
  }
  for (const i of used) state.selected.add(i);
  refreshPressed(node);
}

// Tap to raise or lower; drag across cards to raise (or lower) the whole run.
export function attachSwipe(node, onChange) {
  let drag = null;
  const indexAt = (x, y) => {
    const target = document.elementFromPoint(x, y);
    const card = target && target.closest ? target.closest(".card") : null;
    return card && node.contains(card) && !card.disabled ? Number(card.dataset.i) : null;
  };
  node.addEventListener("pointerdown", (e) => {
    const i = indexAt(e.clientX, e.clientY);
    if (i === null) return;
    e.preventDefault();
    drag = { start: i, last: i, raise: !state.selected.has(i), before: new Set(state.selected) };
    node.setPointerCapture(e.pointerId);
    apply();
  });
  const apply = () => {
    state.selected = new Set(drag.before);
    const [lo, hi] = [Math.min(drag.start, drag.last), Math.max(drag.start, drag.last)];
    for (let i = lo; i <= hi; i++) { if (drag.raise) state.selected.add(i); else state.selected.delete(i); }
    refreshPressed(node);
  };
  node.addEventListener("pointermove", (e) => {
    if (!drag) return;
    const i = indexAt(e.clientX, e.clientY);
    if (i !== null && i !== drag.last) { drag.last = i; apply(); }
  });
  const end = () => { if (drag) { drag = null; onChange(); } };
  node.addEventListener("pointerup", end);
  node.addEventListener("pointercancel", end);
  node.addEventListener("click", (e) => {
    // keyboard activation (Enter/Space on a focused card) arrives as a click without a pointer
    if (e.detail !== 0) return;
    const card = e.target.closest(".card");
    if (!card) return;
    const i = Number(card.dataset.i);
    if (state.selected.has(i)) state.selected.delete(i); else state.selected.add(i);
    refreshPressed(node);
    onChange();
  });
}
