// A position as rows (seats with shown hands or counts, the kitty, the play to beat): replays use it.
import { el, tr } from "./core.js";
import { comboView, miniCards } from "./cards.js";

export function positionView(position) {
  const box = el("div", { class: "position" });
  for (const seat of position.seats) {
    box.append(el("div", { class: "row" }, el("span", { class: "name" },
      `${seat.name}${seat.role === "landlord" ? " ♛" : ""}`),
      seat.cards ? miniCards(seat.cards) : (seat.count !== null && seat.count !== undefined ? `${seat.count} ▮` : "")));
  }
  if (position.kitty) box.append(el("div", { class: "row" }, `${tr("kitty")}: `, miniCards(position.kitty)));
  for (const line of position.lines) box.append(el("div", { class: "row", text: line }));
  if (position.table) box.append(el("div", { class: "row" }, `${position.table_by}: `, comboView(position.table)));
  return box;
}
