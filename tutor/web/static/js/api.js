// Talking to the server: every request goes through api(), which shows the "waiting" note and
// answers {ok, status, data} (the server's errors are JSON with one "error" line).
import { $, S, state, tr } from "./core.js";

export async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  const sep = path.includes("?") ? "&" : "?";
  state.busy += 1;
  $("busy").hidden = false;
  $("busy").textContent = tr("waiting");
  document.body.setAttribute("aria-busy", "true");
  try {
    const response = await fetch(`${path}${sep}lang=${state.lang}`, options);
    const data = await response.json();
    return { ok: response.ok, status: response.status, data };
  } finally {
    state.busy -= 1;
    if (!state.busy) { $("busy").hidden = true; document.body.removeAttribute("aria-busy"); }
  }
}

/** The labels in the learner's language, applied to the static page ([data-t], [data-bid]). */
export async function loadStrings() {
  const { data } = await api("/api/strings");
  Object.assign(S, data.strings);
  document.documentElement.lang = state.lang;
  document.title = tr("title");
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = tr(node.dataset.t);
  for (const node of document.querySelectorAll("[data-bid]")) {
    const n = Number(node.dataset.bid);
    node.textContent = n ? tr("bid", { n }) : tr("pass");
  }
  $("keys").textContent = tr("keyboard_help");
}
