// Cards drawn as cards: a face is the rank and a suit pip in the corner (the strip a finger sees),
// a joker a star (black for the small one, red for the big one), a hidden card a back.
// Suits mean nothing in this game: each copy of a rank gets one by the deal (suitFor), so the same
// deal always looks the same. Cards travel from the server as the terminal's ranks ("T", "X", "D").
import { el, state, tr } from "./core.js";

const SUITS = ["♠", "♥", "♣", "♦"];
const RED = new Set(["♥", "♦"]);

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

/** The rank as the page writes it: "10" for T, a star for a joker (its name is the accessible one). */
export function shortFace(rank) {
  if (rank === "X") return "☆";
  if (rank === "D") return "★";
  return rank === "T" ? "10" : rank;
}

/** The order of the four suits of ``rank`` in this deal (a small hash of the deal and the rank). */
function suitOrder(rank) {
  let h = 2166136261;
  for (const ch of `${state.suitSeed}:${rank}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  const order = [...SUITS];
  for (let i = order.length - 1; i > 0; i--) {
    h = Math.imul(h ^ (h >>> 15), 2246822507) >>> 0;
    const j = h % (i + 1);
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

/** The suit of copy ``k`` (0–3) of ``rank`` in this deal; jokers have none. */
export function suitFor(rank, k) {
  if (rank === "X" || rank === "D") return "";
  return suitOrder(rank)[Math.max(0, Math.min(3, k))];
}

/**
 * Copy numbers for the cards of a group (a hand, a play): the learner's hand takes the top copies of
 * each rank (its rightmost card copy 3), so a card the learner plays keeps the suit it had in the hand;
 * other groups count from ``from`` (a seat's offset) upwards.
 */
export function copies(cards, { hand = false, held = null, from = 0 } = {}) {
  const total = {};
  for (const r of cards) total[r] = (total[r] || 0) + 1;
  const seen = {};
  return cards.map((r) => {
    const j = seen[r] || 0;
    seen[r] = j + 1;
    if (hand) return 4 - total[r] + j;
    if (held) return 4 - (held[r] || 0) - total[r] + j;  // the learner's own play, just left the hand
    return from + j;
  });
}

/** How many of each rank a hand holds ({rank: n}). */
export function countRanks(cards) {
  const out = {};
  for (const r of cards || []) out[r] = (out[r] || 0) + 1;
  return out;
}

/** The corner of a face: rank over pip (or a star for a joker), hidden from screen readers. */
export function corner(rank, suit) {
  return el("span", { class: "corner", "aria-hidden": "true" },
    el("span", { class: rank === "T" ? "rank ten" : "rank", text: shortFace(rank) }), suit ? el("span", { class: "pip", text: suit }) : null);
}

export function suitClass(suit) {
  return suit && RED.has(suit) ? "red" : "";
}

/** A small face-up card (a play, a kitty, a shown hand). */
export function mini(rank, suit = "") {
  return el("span", { class: ["mini", ...rankClasses(rank), suitClass(suit)].join(" "), role: "img",
                      "aria-label": cardName(rank) }, corner(rank, suit),
    el("span", { class: "face", "aria-hidden": "true", text: suit || shortFace(rank) }));  // shown on the trick's big cards
}

/** Small faces; ``group`` says whose cards they are (see copies()). */
export function miniCards(cards, group = {}) {
  const list = cards || [];
  const ks = copies(list, group);
  // A long play (a long straight, an airplane with wings: up to 20 cards) overlaps more, so that it stays
  // inside an opponent's box and the trick on a 360 px phone (app.css: .minis.longer / .longest).
  const size = list.length > 14 ? " longest" : list.length > 10 ? " longer" : "";
  return el("span", { class: "minis" + size }, list.map((r, i) => mini(r, suitFor(r, ks[i]))));
}

/** ``n`` cards face down, fanned (at most ``shown`` backs drawn) with the count beside them. */
export function backs(n, { shown = 10, label = null } = {}) {
  const fan = el("span", { class: "backs", "aria-hidden": "true" },
    Array.from({ length: Math.min(n, shown) }, () => el("span", { class: "back" })));
  return el("span", { class: "fan", role: "img", "aria-label": label || String(n) }, fan,
    label === "" ? null : el("span", { class: "fan-count", "aria-hidden": "true", text: String(n) }));
}

/** A play (its cards and its name), or the word "pass"; ``group`` as for miniCards. */
export function comboView(move, group = {}) {
  if (!move) return el("span", { class: "pass", text: tr("pass") });
  return el("span", { class: "combo" }, miniCards(move.cards, group), el("span", { class: "combo-name", text: move.name }));
}

/** The copies a seat's play is drawn with: the learner's own from the hand's top, the others from below. */
export function seatGroup(seat, hand) {
  if (seat === 0) return { held: countRanks(hand) };
  return { from: seat === 1 ? 0 : 1 };
}

/**
 * ``text`` into ``node`` with each run of cards it names (``chips``, as the server wrote them in the line)
 * drawn as a chip of small faces: "Beat straight of 7 [5 6 7 8 9 10 J]" — the count apart from the cards.
 * The words stay the same text (a screen reader, a search, a copy read the line as it was written).
 */
export function chipLine(node, text, chips = []) {
  node.replaceChildren();
  let rest = text || "";
  for (const run of [...new Set(chips || [])].filter(Boolean).sort((a, b) => b.length - a.length)) {
    const at = rest.lastIndexOf(run);
    if (at < 0 || node.childNodes.length) continue;  // one chip per line part: the longest run found
    node.append(rest.slice(0, at), chip(run), rest.slice(at + run.length));
    return;
  }
  node.append(rest);
}

/** One run of cards as a chip: each rank in its own small face ("10" too), the jokers by name. */
function chip(run) {
  const box = el("span", { class: "card-chip" });
  const spaced = run.includes(" ") || run.includes("+");
  const parts = spaced ? run.split(/( \+ | )/) : [...run];
  for (const part of parts) {
    if (part === " " || part === " + ") box.append(part);
    else if (part) box.append(el("span", { class: "chip-face" + (/[♥♦]/.test(part) ? " red" : ""), text: part }));
  }
  return box;
}
