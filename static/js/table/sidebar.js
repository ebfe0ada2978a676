// Beside the table: the score sheet of the game, as far as the table has shown the deals' ends.
import { el } from "./dom.js";
import { signed, total } from "./text.js";

export function drawSidebar(table, scene) {
  drawSheet(table, scene.deals);
}

function drawSheet(table, deals) {
  const { view, labels: L, parts } = table;
  const totals = table.shownTotals();
  // The winner is marked once the table has shown the game's last deal.
  const all = deals.length === (view.deals ?? []).length;
  const seats = view.players.map((info) => info.position);
  const head = el("thead", {}, [
    el("tr", {}, [
      el("th", { scope: "col", text: "#" }),
      ...seats.map((seat) =>
        el("th", {
          scope: "col",
          className: "num",
          text: table.player(seat).name,
          title: table.player(seat).name, // whole, where the column cuts it
        }),
      ),
    ]),
  ]);
  const rows = deals.map((deal) =>
    el("tr", {}, [
      el("th", { scope: "row" }, [
        el("a", {
          href: table.replayUrl(deal.number),
          title: `${L.replay}: ${table.dealSummary(deal)}`,
          text: String(deal.number),
        }),
      ]),
      ...seats.map((seat) => {
        const score = deal.scores ? deal.scores[seat] : null;
        const classes = ["num"];
        if (deal.declarer === seat) {
          classes.push("declarer-score", deal.outcome === "made" ? "made" : "failed");
        }
        const text = score === null || score === undefined ? "" : signed(score);
        return el("td", { className: classes.join(" "), text });
      }),
    ]),
  );
  if (!rows.length) {
    rows.push(
      el("tr", {}, [
        el("td", { colspan: String(seats.length + 1), className: "muted", text: L.noScores }),
      ]),
    );
  }
  const foot = el("tfoot", {}, [
    el("tr", {}, [
      el("th", { scope: "row", text: L.total }),
      ...seats.map((seat) =>
        el("td", {
          className: view.winner === seat && all ? "num winner" : "num",
          text: total(totals[seat]),
        }),
      ),
    ]),
  ]);
  const caption = parts.sheet.querySelector("caption");
  parts.sheet.replaceChildren(caption, head, el("tbody", {}, rows), foot);
}
