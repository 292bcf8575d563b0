// Small cards (for plays, kitties, shown hands): rank big, twos and jokers marked by more than colour.
import { el, tr } from "./core.js";

export const RANK_FACE = { T: "10", X: "JOKER", D: "JOKER" };

export function cardName(rank) {
  if (rank === "X") return tr("small_joker");
  if (rank === "D") return tr("big_joker");
  if (rank === "T") return "10";
  return rank;
}

export function rankClasses(rank) {
  if (rank === "2") return ["two"];
  if (rank === "X") return ["joker", "small-joker"];
  if (rank === "D") return ["joker", "big-joker"];
  return [];
}

/** The short face of a rank: "10", "☆J" (small joker), "★J" (big joker), else the rank. */
export function shortFace(rank) {
  if (RANK_FACE[rank] === "JOKER") return rank === "D" ? "★J" : "☆J";
  return RANK_FACE[rank] || rank;
}

export function mini(rank) {
  return el("span", { class: ["mini", ...rankClasses(rank)].join(" "), title: cardName(rank),
                      "aria-label": cardName(rank) }, shortFace(rank));
}

export function miniCards(cards) {
  return el("span", { class: "minis" }, (cards || []).map(mini));
}

/** A play (its cards and its name), or the word "pass". */
export function comboView(move) {
  if (!move) return el("span", { class: "pass", text: tr("pass") });
  return el("span", {}, miniCards(move.cards), el("span", { class: "combo-name", text: move.name }));
}
