// Beside the table: the auction of the deal and the score sheet of the game.
import { el } from "./dom.js";
import { signed, total } from "./text.js";

export function drawSidebar(table, obs) {
  drawAuction(table, obs);
  drawSheet(table);
}

function drawAuction(table, obs) {
  const L = table.labels;
  const items = [];
  if (obs) {
    for (const bid of obs.bids ?? []) {
      items.push(
        el("li", { className: bid.value === null ? "muted" : null }, [
          el("span", { text: `${table.player(bid.seat).name}: ` }),
          el("strong", { text: bid.value === null ? L.passed : String(bid.value) }),
        ]),
      );
    }
    if (obs.forced && obs.declarer !== null) {
      items.push(el("li", { text: `${table.nameOf(obs.declarer)}: ${obs.bid} (${L.forced})` }));
    }
  }
  if (!items.length) {
    items.push(el("li", { className: "muted", text: "\u2014" }));
  }
  table.parts.auction.replaceChildren(...items);
}

function drawSheet(table) {
  const { view, labels: L, parts } = table;
  const seats = view.players.map((info) => info.position);
  const head = el("thead", {}, [
    el("tr", {}, [
      el("th", { scope: "col", text: "#" }),
      ...seats.map((seat) =>
        el("th", { scope: "col", className: "num", text: table.player(seat).name }),
      ),
    ]),
  ]);
  const rows = (view.deals ?? []).map((deal) =>
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
          className: view.winner === seat ? "num winner" : "num",
          text: total(view.totals[seat]),
        }),
      ),
    ]),
  ]);
  const caption = parts.sheet.querySelector("caption");
  parts.sheet.replaceChildren(caption, head, el("tbody", {}, rows), foot);
}
