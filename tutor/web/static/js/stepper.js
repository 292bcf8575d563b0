// A line stepped move by move (a puzzle's solution or the refutation of a wrong move): the table before
// the first move, then after each move, with who played what; buttons and the arrow keys move along it.
import { el, tr } from "./core.js";
import { feltView } from "./felt.js";

/** A panel stepping through ``line`` ({start, steps: [{who, text, table}]}) under ``title``. */
export function lineStepper(title, line) {
  let at = 0;  // 0: before the first move; i: after move i
  const total = line.steps.length;
  const where = el("p", { class: "where", role: "status", "aria-live": "polite" });
  const said = el("p", { class: "said" });
  const board = el("div", { class: "line-table" });
  const button = (label, text, go) => el("button", { type: "button", "aria-label": label, onclick: () => { go(); draw(); } }, text);
  const first = button(tr("first"), tr("first"), () => { at = 0; });
  const back = button(tr("prev_move"), `◀ ${tr("prev_move")}`, () => { at = Math.max(0, at - 1); });
  const next = button(tr("next_move"), `${tr("next_move")} ▶`, () => { at = Math.min(total, at + 1); });
  const last = button(tr("last"), tr("last"), () => { at = total; });
  next.classList.add("primary");
  const panel = el("section", { class: "panel stepper-panel", tabindex: "0", "aria-label": title },
    el("h3", { text: title }), where, said, board,
    el("div", { class: "buttons stepper" }, first, back, next, last),
    el("p", { class: "keys", text: tr("stepper_keys") }));
  function draw() {
    const step = at ? line.steps[at - 1] : null;
    where.textContent = at ? tr("line_at", { n: at, total }) : tr("line_start");
    said.textContent = step ? `${step.who}: ${step.text}` : "";
    board.replaceChildren(feltView(at ? step.table : line.start, { label: title }).node);
    first.disabled = back.disabled = at === 0;
    next.disabled = last.disabled = at === total;
  }
  /** Arrow keys (and Home/End) step through the line; true when the key was one of them. */
  panel.step = (key) => {
    const moves = { ArrowLeft: () => { at = Math.max(0, at - 1); }, ArrowRight: () => { at = Math.min(total, at + 1); },
                    Home: () => { at = 0; }, End: () => { at = total; } };
    if (!moves[key]) return false;
    moves[key]();
    draw();
    return true;
  };
  panel.addEventListener("keydown", (e) => { if (panel.step(e.key)) e.preventDefault(); });
  draw();
  return panel;
}
