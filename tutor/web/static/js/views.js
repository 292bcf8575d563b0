// One page, five views: the path names the view, the nav links mark the current one.
import { $ } from "./core.js";
import { openGame } from "./game.js";
import { openCourse } from "./lessons.js";
import { openPuzzles } from "./puzzles.js";
import { openHistory } from "./history.js";
import { openInsights } from "./insights.js";
import { openSettings } from "./settings.js";

const VIEWS = ["play", "learn", "puzzle", "history", "insights", "settings"];

export function currentView() {
  const name = location.pathname.replace(/^\//, "") || "play";
  return VIEWS.includes(name) ? name : "play";
}

export async function show(view) {
  for (const name of VIEWS) $(`view-${name}`).hidden = name !== view;
  for (const link of document.querySelectorAll("[data-nav]")) {
    if (link.dataset.nav === view) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  if (view === "play") await openGame();
  if (view === "learn") await openCourse();
  if (view === "puzzle") await openPuzzles();
  if (view === "history") await openHistory();
  if (view === "insights") await openInsights();
  if (view === "settings") await openSettings();
}

export function bindNav() {
  for (const link of document.querySelectorAll("[data-nav]")) {
    link.addEventListener("click", (e) => {
      e.preventDefault();
      history.pushState(null, "", link.getAttribute("href"));
      show(currentView());
    });
  }
  window.addEventListener("popstate", () => show(currentView()));
}
