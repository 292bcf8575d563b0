// Settings: language, level, coach on/off, card counter on/off, the variants (stored with the terminal's).
import { $, el, state, tr } from "./core.js";
import { api, loadStrings } from "./api.js";

export async function openSettings() {
  const { data } = await api("/api/settings");
  const s = data.settings;
  const form = $("settings");
  const save = async (change) => {
    const answer = await api("/api/settings", change);
    if (change.lang && answer.ok) { state.lang = change.lang; await loadStrings(); openSettings(); }
    note.textContent = answer.ok ? tr("saved") : answer.data.error;
  };
  const select = (key, values, labels) => el("select", { id: `set-${key}`, onchange: (e) => save({ [key]: e.target.value }) },
    values.map((v, i) => el("option", { value: v, selected: v === s[key], text: labels[i] })));
  const check = (key) => el("input", { type: "checkbox", id: `set-${key}`, checked: s[key],
    onchange: (e) => save({ [key]: e.target.checked }) });
  const note = el("p", { role: "status" });
  form.replaceChildren(el("h1", { class: "title", text: tr("nav_settings") }),
    el("label", {}, el("span", { text: tr("language") }), select("lang", data.languages, ["English", "Русский"])),
    el("label", {}, el("span", { text: tr("level") }), select("level", data.levels, data.levels.map((l) => tr(`level_${l}`)))),
    el("label", {}, check("coach"), el("span", { text: tr("coach_on") })),
    el("label", {}, check("counter"), el("span", { text: tr("counter_on") })),
    el("label", {}, el("span", { text: tr("auction") }),
      select("auction", ["bid", "rob"], [tr("auction_bid"), tr("auction_rob")])),
    el("label", {}, check("open_hand"), el("span", { text: tr("open_setting") })),
    el("label", {}, check("wildcard"), el("span", { text: tr("wild_setting") })),
    el("label", {}, el("span", { text: tr("players") }),  // four players with two decks (RULES §12.4)
      el("select", { id: "set-players", onchange: (e) => save({ players: Number(e.target.value) }) },
        [3, 4].map((v) => el("option", { value: String(v), selected: v === s.players, text: tr(`players_${v}`) })))),
    note);
}
