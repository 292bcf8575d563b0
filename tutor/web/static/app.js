// The web table's script, as ES modules in the package (static/js/, no build step, no CDN); the server
// serves this file as one module with every module it imports (tutor/web/bundle.py: one request):
// selection and drawing only. Every rule, status line and remark comes from the server (tutor/web),
// a thin adapter over the same sessions as the terminal.
//   core.js   labels, page state, DOM helpers        api.js      fetch, errors, labels
//   cards.js  small cards and plays                  hand.js     the fanned hand: tap, swipe, raise
//   felt.js   the table's seats, kitty, counter      game.js     the coached game   final.js  its final card
//   keys.js   keyboard play                          views.js    the five views and the nav
//   lessons.js, puzzles.js (+ stepper.js), history.js (+ replay), mistakes.js, settings.js
import { state } from "./js/core.js";
import { api, embeddedStrings, loadStrings, useStrings } from "./js/api.js";
import { bindGame } from "./js/game.js";
import { bindHistory } from "./js/history.js";
import { onKey } from "./js/keys.js";
import { bindPuzzles } from "./js/puzzles.js";
import { bindNav, currentView, show } from "./js/views.js";

async function boot() {
  const words = embeddedStrings();  // written into the page by the server, in the learner's language
  if (words) useStrings(words);
  else {
    const { data } = await api("/api/settings");
    state.lang = data.settings ? data.settings.lang : state.lang;
    await loadStrings();
  }
  bindGame();
  document.addEventListener("keydown", onKey);
  bindNav();
  bindPuzzles();
  bindHistory();
  await show(currentView());
  document.body.dataset.readyAt = String(Math.round(performance.now()));
  document.body.dataset.ready = "true";
}

boot();
