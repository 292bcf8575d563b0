// Keyboard play: at the table (type cards, Enter plays, P passes, H hints, U undoes, 0–3 bid) and in
// a learn-from-your-mistakes moment (type cards, Enter plays, P passes, H shows a better move,
// N goes to the next moment; 0–3 in an auction moment). Letters are read by their place on the keyboard too, so the keys
// work with a Russian layout on (P is «з» there).
import { $, state } from "./core.js";
import { refreshPressed } from "./hand.js";
import { act, playCards, selectionChanged } from "./game.js";
import { currentView } from "./views.js";

const KEY_RANK = { t: "T", "0": "T", j: "J", q: "Q", k: "K", a: "A", x: "X", d: "D", b: "X", r: "D" };

/** The key pressed: a Latin letter or digit (lower case) whatever the layout, else its name ("Enter"). */
function keyName(e) {
  if (e.key.length !== 1) return e.key;
  const key = e.key.toLowerCase();
  if (/[a-z0-9]/.test(key)) return key;
  const place = /^(?:Key([A-Z])|Digit([0-9]))$/.exec(e.code || "");
  return place ? (place[1] || place[2]).toLowerCase() : key;
}

function typedCard(key, cards) {
  const rank = KEY_RANK[key] || ("3456789".includes(key) ? key : key === "2" ? "2" : null);
  if (!rank) return false;
  const i = cards.findIndex((r, j) => r === rank && !state.selected.has(j));
  if (i >= 0) state.selected.add(i);
  return true;
}

/** Esc, Backspace and typed cards change the raised cards of ``cards`` drawn in ``node``; true when handled. */
function editSelection(key, cards, node, changed) {
  if (key === "Escape") state.selected.clear();
  else if (key === "Backspace") {
    const last = Math.max(-1, ...state.selected);
    if (last >= 0) state.selected.delete(last);
  } else if (key === "1") return true;  // the 1 of "10"
  else if (!typedCard(key, cards)) return false;
  refreshPressed(node);
  changed();
  return true;
}

/** Enter plays, unless a button other than a card has the focus (then Enter presses that button). */
function entersPlay(e) {
  return e.key === "Enter" && !(e.target.closest && e.target.closest("button:not(.card)"));
}

export function onKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const tag = (e.target.tagName || "").toLowerCase();
  if (tag === "input" || tag === "select" || tag === "textarea") return;
  const key = keyName(e);
  const view = currentView();
  if (view === "play" && state.game) {
    const game = state.game;
    if (game.waiting === "bid" && "0123".includes(key) && key.length === 1) { act("/api/game/bid", { bid: Number(key) }); return; }
    if (game.waiting !== "play") return;
    if (entersPlay(e)) { e.preventDefault(); playCards(); return; }
    if (key === "p") { act("/api/game/pass"); return; }
    if (key === "h") { act("/api/game/hint"); return; }
    if (key === "u") { act("/api/game/undo"); return; }
    editSelection(key, game.hand, $("hand"), selectionChanged);
  } else if (view === "history" && state.moment && state.moment.node.isConnected) {
    const moment = state.moment;  // set by mistakes.js while a moment is on the screen
    if (moment.bid) {  // an auction moment: 0 passes, 1–3 bid
      if (key.length === 1 && "0123".includes(key)) { moment.bid(Number(key)); return; }
      if (key === "h") moment.show();
      if (key === "n") moment.skip();
      return;
    }
    if (entersPlay(e)) { e.preventDefault(); moment.play(); return; }
    if (key === "p") { if (moment.canPass) moment.pass(); return; }
    if (key === "h") { moment.show(); return; }
    if (key === "n") { moment.skip(); return; }
    editSelection(key, moment.cards, moment.node, moment.changed);
  }
}
