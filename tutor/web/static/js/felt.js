// The table's parts: a seat (name, role, whose turn, card count or shown hand, last play), the kitty,
// the card counter. The coached game draws into index.html's felt; feltView() builds a whole table
// (the same parts) for a lesson step or a puzzle position.
import { el, tr } from "./core.js";
import { api } from "./api.js";
import { backs, cardName, comboView, miniCards, seatGroup, shortFace } from "./cards.js";
import { drawHand } from "./hand.js";

/**
 * One seat into ``box``; ``over``: the game has ended (no "to move" mark); ``hand``: the learner's
 * cards (the suits of the learner's own plays follow them). An opponent's hidden hand is a fan of
 * card backs with the count; a hand shown face up is drawn small.
 */
export function seatBox(box, seat, over, hand = [], onTable = false, count = 3) {
  box.replaceChildren();
  const side = sideOf(seat.seat, count);
  const moving = seat.to_move && !over;
  box.classList.toggle("turn", Boolean(moving));
  const role = seat.role ? el("span", { class: `role ${seat.role}`,
    text: seat.role === "landlord" ? tr("landlord_mark") : tr("farmer_mark") }) : null;
  box.append(el("div", { class: "who" }, el("span", { class: "name", text: seat.name }), role,
    moving ? el("span", { class: "turnmark", text: `▶ ${tr(seat.seat === 0 ? "to_move_you" : "to_move")}` }) : null));
  if (seat.cards && !seat.fanned && seat.cards.length) box.append(el("div", { class: "shown" }, miniCards(seat.cards, seatGroup(seat.seat, []))));
  else if (seat.seat !== 0 && seat.count !== undefined) box.append(backs(seat.count, { label: seat.count_text }));
  const last = el("div", { class: "last" });
  if (seat.last) {
    if (seat.last.kind === "play" && onTable) {
      // the play lies in the middle of the felt (the trick, named by its seat): drawn once, not here too
      // (the words in a span of their own: a cramped table shows the arrow alone, app.css)
      const [before, after] = ON_TABLE[side];
      last.append(el("span", { class: "on-table" }, before, el("span", { class: "words", text: tr("phone_on_table") }), after));
    } else if (seat.last.kind === "play") {
      last.append(comboView(seat.last, seatGroup(seat.seat, hand)));
      if (seat.last.to_beat) last.append(el("span", { class: "tobeat", "aria-label": tr("to_beat"), text: "◀" }));
    } else last.append(el("span", { class: "pass", text: seat.last.text }));
  }
  box.append(last);
}

/** The kitty: its backs (three; eight with four players, RULES §12.4) until the landlord takes it, then its cards face up. */
export function kittyBox(node, kitty, size = 3) {
  node.replaceChildren(el("span", { class: "kitty-label", text: tr("kitty") }),
    kitty ? miniCards(kitty, { from: 3 }) : backs(size, { shown: 3, label: tr("kitty_hidden") }));
}

/**
 * The side of the table a seat sits at, from the number of seats the state lists: you at the foot, the
 * seat that plays after you at the right, the one before you at the left, any between them across.
 */
export function sideOf(seat, count) {
  if (seat === 0) return "me";
  if (seat === 1) return "right";
  return seat === count - 1 ? "left" : "across";
}

/** Which way a side is from the middle of the felt: the arrow of the trick's seat tag. */
const TOWARDS = { me: "▼", right: "▶", left: "◀", across: "▲" };
/** The mark of a seat whose play lies in the middle: an arrow from the seat towards the trick. */
const ON_TABLE = { me: ["▲ ", ""], right: ["◀ ", ""], left: ["", " ▶"], across: ["", " ▼"] };

/**
 * The felt's seat boxes (``seat-0`` … ``seat-N``) for the seats a state lists: one per seat, each at its
 * side (``sideOf``), the felt marked ``seats-N`` (app.css lays two or three opponents out from it).
 * Boxes of seats the state no longer lists go; the others are kept (and redrawn by ``seatBox``).
 */
export function seatBoxes(felt, count) {
  for (const name of [...felt.classList]) if (name.startsWith("seats-")) felt.classList.remove(name);
  felt.classList.add(`seats-${count}`);
  for (const old of felt.querySelectorAll(":scope > .seat")) if (Number(old.id.replace("seat-", "")) >= count) old.remove();
  const middle = felt.querySelector(":scope > .middle");
  for (let seat = 0; seat < count; seat++) {
    const box = document.getElementById(`seat-${seat}`) || felt.insertBefore(el("div", { id: `seat-${seat}` }), middle);
    box.classList.remove("me", "right", "left", "across");
    box.classList.add("seat", sideOf(seat, count));
  }
}

/**
 * The trick in the middle of the table: the play to beat, moved in from its seat (CSS), its seat named
 * above it ("◀ West · Pair"); ``--n`` (its length) lets the CSS size its cards to the space there.
 */
export function trickBox(node, move, seat, hand = [], seatName = "", count = 3) {
  node.replaceChildren();
  node.className = "trick";
  if (!move) return;
  const side = sideOf(seat, count);
  node.classList.add(`from-${side}`);
  const combo = comboView(move, seatGroup(seat, hand));
  combo.style.setProperty("--n", String(move.cards.length));
  if (move.cards.length <= 4) combo.classList.add("beside");  // its seat's tag beside it on a phone on its side (app.css)
  const name = combo.querySelector(".combo-name");
  const tag = el("span", { class: "trick-seat" }, side === "right" ? `${seatName} ${TOWARDS.right}` : `${TOWARDS[side]} ${seatName}`,
    name ? el("span", { class: "tag-name", text: ` · ${name.textContent}` }) : "");
  name?.remove();
  combo.prepend(tag);
  node.append(combo);
}

export function counterRow(node, counter) {
  node.hidden = !counter;
  node.replaceChildren(...(counter ? [el("strong", { text: tr("card_counter") + ":" }),
    ...counter.map((c) => el("span", { class: c.n ? "" : "zero", "aria-label": `${cardName(c.rank)}: ${c.n}` },
      `${shortFace(c.rank)}:${c.n}`))] : []));
}

/**
 * A whole table from the server's felt object ({seats, hand, kitty, lines, caption}): the left and
 * right seats on top, the kitty between them, your seat and your hand fanned at the bottom.
 * ``active``: the hand's cards can be raised. Returns {node, hand, status}; ``status`` is a live region.
 */
export function feltView(felt, { active = false, label = null } = {}) {
  // the game's seats as the server counts them (four with four players), else three or the highest listed
  const count = felt.players || Math.max(3, ...felt.seats.map((s) => s.seat + 1));
  const box = (seat) => {
    const node = el("div", { class: `seat ${sideOf(seat.seat, count)}` });
    seatBox(node, seat, felt.over, felt.hand || [], false, count);
    return node;
  };
  // the opponents as they sit, from your left round to your right, then the middle and you
  const opponents = felt.seats.filter((s) => s.seat !== 0).sort((a, b) => b.seat - a.seat);
  const kitty = felt.kitty !== undefined ? kittyView(felt.kitty) : null;
  const status = el("p", { class: "status", role: "status", "aria-live": "polite" });
  const hand = el("div", { class: "hand", role: "group" });
  drawHand(hand, felt.hand || [], active);
  if (felt.hand_label) hand.setAttribute("aria-label", felt.hand_label);
  const node = el("div", { class: `felt felt-small seats-${count}`, role: "group", "aria-label": label || tr("table") },
    felt.caption ? el("p", { class: "caption", text: felt.caption }) : null,
    ...opponents.map(box),
    kitty ? el("div", { class: "middle" }, kitty) : null, ...felt.seats.filter((s) => s.seat === 0).map(box),
    (felt.lines || []).length ? el("div", { class: "lines" }, felt.lines.map((l) => el("p", { text: l }))) : null,
    status, hand);
  return { node, hand, status };
}

function kittyView(kitty) {
  if (kitty === null) return null;
  const node = el("div", { class: "kitty" });
  kittyBox(node, kitty);
  return node;
}

/**
 * The status line under a hand, kept up to date as cards are raised: ``look(text, statusNode)`` asks
 * ``path`` (the session reads the cards; nothing is played) and draws only the newest answer.
 * ``rev()`` gives the current revision; ``look.cancel()`` drops an answer still on its way.
 */
export function statusFeed(path, rev) {
  let seq = 0;
  const look = async (text, status) => {
    const mine = ++seq;
    if (!text) { status.textContent = ""; status.className = "status"; return; }
    const answer = await api(path, { rev: rev(), cards: text });
    if (mine !== seq || !answer.ok) return;
    for (const event of answer.data.events) {
      if (event.type === "status") { status.textContent = event.text; status.className = `status ${event.ok ? "ok" : "bad"}`; }
    }
  };
  look.cancel = () => { seq += 1; };
  return look;
}
