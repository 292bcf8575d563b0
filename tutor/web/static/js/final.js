// The final card of a game: every multiplier, the revealed hands and kitty, "Same deal" / "New deal".
import { $, el, tr } from "./core.js";
import { miniCards, seatGroup } from "./cards.js";
import { newGame } from "./game.js";
import { learnMistakes } from "./mistakes.js";

export function drawFinal(final, review) {
  const node = $("final");
  node.className = "final" + (final.won ? "" : " lost");
  node.setAttribute("role", "dialog");
  node.replaceChildren(
    el("h2", { id: "final-title", text: `${final.won ? "★" : "✗"} ${final.title}` }),
    el("p", { text: final.who }),
    el("p", {}, el("strong", { text: `${final.multipliers_title}: ` }), final.multipliers.join(" · ")),
    el("p", { text: final.cost_line }),
    el("p", {}, el("strong", { text: `${final.score_title}: ` }),
      final.scores.map((s) => `${s.name} ${s.delta}`).join(" · "), final.not_scored ? ` ${final.not_scored}` : ""),
    el("p", { text: final.running_score }),
    el("div", { class: "hands" }, el("strong", { text: final.remaining_title }),
      final.hands.map((h, seat) => el("div", { class: "shown-hand" }, el("span", { class: "name",
        text: `${h.name}${h.role === "landlord" ? " ♛" : ""}: ` }),
        h.cards.length ? miniCards(h.cards, seat === 0 ? { hand: true } : seatGroup(seat, [])) : "—"))),
    el("div", { class: "shown-hand" }, el("span", { class: "name", text: `${final.kitty_title}: ` }), miniCards(final.kitty, { from: 3 })),
    el("p", { text: final.deal_line }),
    ...(review ? [el("div", {}, el("h3", { text: review.title }), el("ul", {}, review.lines.map((l) => el("li", { text: l }))))] : []),
    el("div", { class: "buttons" },
      el("button", { type: "button", class: "primary", onclick: () => newGame({ same: true }) }, tr("same_deal")),
      el("button", { type: "button", onclick: () => newGame({}) }, tr("new_deal")),
      final.game_id ? el("button", { type: "button", onclick: () => learnMistakes(final.game_id) }, tr("learn_mistakes")) : null));
  node.hidden = false;
}
