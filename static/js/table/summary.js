// The end of a deal, on the felt until "Continue" (or a while): the contract made or not, each
// seat's deal points, score and new total, and the marriages declared, all as the server
// recorded them (the finished deal of the view).
import { gameOverText } from "./board.js";
import { el } from "./dom.js";
import { format, signed, total } from "./text.js";

export function drawSummary(table, scene) {
  const { parts, labels: L, cards, view } = table;
  const open = table.summary;
  const deal = open ? table.finishedDeal(open.number) : null;
  const wasHidden = parts.summary.hidden;
  parts.summary.hidden = !deal;
  parts.board.classList.toggle("has-summary", Boolean(deal));
  if (!deal) {
    return;
  }
  const last = view.status === "finished" && deal.number === (view.deals ?? []).at(-1)?.number;
  parts.summaryTitle.textContent = last
    ? `${format(L.summaryTitle, { number: deal.number })}. ${gameOverText(table)}`
    : format(L.summaryTitle, { number: deal.number });

  let outcome = "";
  if (deal.declarer !== null && deal.declarer !== undefined) {
    const template = L.summaryOutcome[deal.outcome];
    outcome = template
      ? format(template, { name: table.nameOf(deal.declarer), contract: deal.contract || deal.bid })
      : "";
  }
  parts.summaryOutcome.textContent = outcome;
  parts.summaryOutcome.dataset.outcome = deal.outcome ?? "";

  const totals = deal.totals ?? view.totals;
  const rows = view.players.map((info) => {
    const seat = info.position;
    const points = deal.points?.[seat] ?? null;
    const score = deal.scores?.[seat] ?? null;
    const classes = [];
    if (seat === deal.declarer) {
      classes.push("declarer", deal.outcome === "made" ? "made" : "failed");
    }
    if (seat === view.seat) {
      classes.push("me");
    }
    return el("tr", { className: classes.join(" ") || null, "data-seat": seat }, [
      el("th", { scope: "row", text: info.name }),
      el("td", { className: "num", text: points === null ? "\u2014" : String(points) }),
      el("td", { className: "num", text: score === null ? "" : signed(score) }),
      el("td", { className: "num total", text: total(totals[seat]) }),
    ]);
  });
  parts.summaryRows.replaceChildren(...rows);

  const notes = (deal.marriages ?? []).map((marriage) =>
    el("li", {
      text: format(L.marriageDeclared, {
        name: table.nameOf(marriage.seat),
        suit: cards.suitLabel(marriage.suit),
        value: cards.marriageValue(marriage.suit),
      }),
    }),
  );
  const sittingOut = (deal.points ?? []).findIndex((points) => points === null);
  if (sittingOut >= 0) {
    notes.push(el("li", { text: format(L.dealerTalon, { name: table.nameOf(sittingOut) }) }));
  }
  if (!last) {
    notes.push(el("li", { className: "muted", text: L.nextDealSoon }));
  }
  parts.summaryNotes.replaceChildren(...notes);
  parts.summaryReplay.href = table.replayUrl(deal.number);

  if (wasHidden) {
    parts.summary.scrollIntoView({ block: "nearest" });
    const focused = document.activeElement;
    if (!focused || focused === document.body || table.root.contains(focused)) {
      parts.summaryContinue.focus({ preventScroll: true });
    }
  }
}
