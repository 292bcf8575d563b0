// The final card of a game: every multiplier, the revealed hands and kitty, "Same deal" / "New deal".
import { $, el, tr } from "./core.js";
import { miniCards, seatGroup } from "./cards.js";
import { newGame } from "./game.js";
import { learnMistakes } from "./mistakes.js";

/** A screen too short for the final card and the coach's review at once (a phone on its side; app.css agrees). */
const SHORT_SCREEN = "(max-height: 500px)";

export function drawFinal(final, review) {
  const node = $("final");
  node.className = "final" + (final.won ? "" : " lost");
  node.setAttribute("role", "dialog");
  // Three parts a phone on its side lays out in two columns (app.css): the result, the cards (and the coach's
  // review, folded into a <details> there so that the card itself never needs to scroll), the buttons.
  node.replaceChildren(
    el("div", { class: "final-result" },
      el("h2", { id: "final-title", text: `${final.won ? "★" : "✗"} ${final.title}` }),
      el("p", { text: final.who }),
      el("p", {}, el("strong", { text: `${final.multipliers_title}: ` }), final.multipliers.join(" · ")),
      el("p", { text: final.cost_line }),
      el("p", {}, el("strong", { text: `${final.score_title}: ` }),
        final.scores.map((s) => `${s.name} ${s.delta}`).join(" · "), final.not_scored ? ` ${final.not_scored}` : ""),
      el("p", { text: final.running_score }),
      el("p", { class: "deal-line", text: final.deal_line })),
    el("div", { class: "final-cards" },
      el("div", { class: "hands" }, el("strong", { text: final.remaining_title }),
        final.hands.map((h, seat) => el("div", { class: "shown-hand" }, el("span", { class: "name",
          text: `${h.name}${h.role === "landlord" ? " ♛" : ""}: ` }),
          h.cards.length ? miniCards(h.cards, seat === 0 ? { hand: true } : seatGroup(seat, [])) : "—"))),
      el("div", { class: "shown-hand" }, el("span", { class: "name", text: `${final.kitty_title}: ` }), miniCards(final.kitty, { from: 3 })),
      review ? el("details", { class: "review", open: !matchMedia(SHORT_SCREEN).matches }, el("summary", { text: review.title }),
        el("ul", {}, review.lines.map((l) => el("li", { text: l })))) : null),
    el("div", { class: "buttons" },
      el("button", { type: "button", class: "primary", onclick: () => newGame({ same: true }) }, tr("same_deal")),
      el("button", { type: "button", onclick: () => newGame({}) }, tr("new_deal")),
      final.game_id ? el("button", { type: "button", onclick: () => learnMistakes(final.game_id) }, tr("learn_mistakes")) : null));
  node.hidden = false;
}
