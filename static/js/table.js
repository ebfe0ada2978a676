// The live table's entry module (templates/gameplay/table.html loads it as type="module"): it
// reads what the page carries, the viewer's view of the game, the words to show, the engine's
// facts of the cards and the URLs, and starts the table; the modules in table/ do the rest.
// Module paths are relative so that collectstatic's hashed names reach them (core.static_files).
import { readJson } from "./table/dom.js";
import { LiveTable } from "./table/live-table.js";

const root = document.getElementById("live-table");
if (root) {
  const table = new LiveTable(root, {
    view: readJson("table-view"),
    labels: readJson("table-labels"),
    cards: readJson("table-cards"),
    config: readJson("table-config"),
  });
  table.start();
}
