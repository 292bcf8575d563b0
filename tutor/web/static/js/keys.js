// Keyboard play on the table: type cards, Enter plays, P passes, H hints, U undoes, 0–3 bid.
import { $, state } from "./core.js";
import { refreshPressed } from "./hand.js";
import { act, playCards, selectionChanged } from "./game.js";
import { currentView } from "./views.js";

const KEY_RANK = { t: "T", "0": "T", j: "J", q: "Q", k: "K", a: "A", x: "X", d: "D", b: "X", r: "D" };

function typedCard(key, cards) {
  const rank = KEY_RANK[key.toLowerCase()] || ("3456789".includes(key) ? key : key === "2" ? "2" : null);
  if (!rank) return false;
  const i = cards.findIndex((r, j) => r === rank && !state.selected.has(j));
  if (i >= 0) state.selected.add(i);
  return true;
}

export function onKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const tag = (e.target.tagName || "").toLowerCase();
  if (tag === "input" || tag === "select" || tag === "textarea") return;
  const view = currentView();
  if (view === "play" && state.game) {
    const game = state.game;
    if (game.waiting === "bid" && "0123".includes(e.key)) { act("/api/game/bid", { bid: Number(e.key) }); return; }
    if (game.waiting !== "play") return;
    if (e.key === "Enter" && !(e.target.closest && e.target.closest("button:not(.card)"))) {
      e.preventDefault(); playCards(); return;
    }
    const key = e.key.toLowerCase();
    if (key === "p") { act("/api/game/pass"); return; }
    if (key === "h") { act("/api/game/hint"); return; }
    if (key === "u") { act("/api/game/undo"); return; }
    if (e.key === "Escape") { state.selected.clear(); refreshPressed($("hand")); selectionChanged(); return; }
    if (e.key === "Backspace") {
      const last = Math.max(-1, ...state.selected);
      if (last >= 0) state.selected.delete(last);
      refreshPressed($("hand")); selectionChanged(); return;
    }
    if (key === "1") return;  // the 1 of "10"
    if (typedCard(e.key, game.hand)) { refreshPressed($("hand")); selectionChanged(); }
  }
}
