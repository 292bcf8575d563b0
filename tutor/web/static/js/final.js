// The final card of a game: every multiplier, the revealed hands and kitty, "Same deal" / "New deal".
import { $, el, tr } from "./core.js";
import { miniCards, seatGroup } from "./cards.js";
import { newGame } from "./game.js";
import { learnMistakes } from "./mistakes.js";

/**
 * The result lies on the felt: a banner (who won), the multipliers as chips, everyone's score change in
 * large figures (a sign as well as a colour), the cards left in each hand and the kitty, the coach's
 * review folded (one tap opens it), and the buttons at its foot. A phone on its side lays it out in two
 * columns (app.css), so it never scrolls inside.
 */
export function drawFinal(final, review) {
  const node = $("final");
  node.className = "final" + (final.won ? " won" : " lost");
  node.setAttribute("role", "dialog");
  const chips = el("ul", { class: "chips", "aria-label": final.multipliers_title },
    final.multipliers.map((m) => el("li", { class: "chip", text: m })), el("li", { class: "chip cost", text: final.cost_line }));
  const scores = el("ul", { class: "scores", "aria-label": final.score_title }, final.scores.map((s) =>
    el("li", { class: s.delta.startsWith("+") ? "up" : s.delta === "0" ? "" : "down" },
      el("span", { class: "who-name", text: s.name }), el("strong", { class: "delta", text: s.delta }))));
  node.replaceChildren(
    el("div", { class: "final-result" },
      el("h2", { id: "final-title", class: "banner", text: `${final.won ? "★" : "✗"} ${final.title}` }),
      el("p", { class: "winner", text: final.who }),
      chips, scores,
      el("p", { class: "running" }, final.running_score, final.not_scored ? ` · ${final.not_scored}` : ""),
      el("p", { class: "deal-line", text: final.deal_line })),
    el("div", { class: "final-cards" },
      el("div", { class: "hands" }, el("strong", { text: final.remaining_title }),
        final.hands.map((h, seat) => el("div", { class: "shown-hand" }, el("span", { class: "name",
          text: `${h.name}${h.role === "landlord" ? " ♛" : ""}` }),
          h.cards.length ? miniCards(h.cards, seat === 0 ? { hand: true } : seatGroup(seat, [])) : el("span", { class: "none", text: "—" })))),
      el("div", { class: "shown-hand" }, el("span", { class: "name", text: final.kitty_title }), miniCards(final.kitty, { from: 3 })),
      review ? el("details", { class: "review" }, el("summary", { text: review.title }),
        el("ul", {}, review.lines.map((l) => el("li", { text: l })))) : null),
    el("div", { class: "buttons" },
      el("button", { type: "button", class: "primary", onclick: () => newGame({ same: true }) }, tr("same_deal")),
      el("button", { type: "button", onclick: () => newGame({}) }, tr("new_deal")),
      final.game_id ? el("button", { type: "button", onclick: () => learnMistakes(final.game_id) }, tr("learn_mistakes")) : null));
  node.hidden = false;
}
