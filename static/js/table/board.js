// The middle of the table: the status line, the seats, the facts of the deal, the tricks and
// the talon, all drawn from the view the server sent.
import { el } from "./dom.js";
import { format, total } from "./text.js";

export function drawBoard(table, obs) {
  drawStatus(table, obs);
  drawSeats(table, obs);
  drawDealInfo(table, obs);
  drawTricks(table, obs);
  drawTalon(table, obs);
}

function currentTrick(obs) {
  const last = (obs.tricks ?? []).at(-1);
  return last && (last.winner === null || last.winner === undefined) ? last : null;
}

function lastTrick(obs) {
  return (
    (obs.tricks ?? []).findLast((trick) => trick.winner !== null && trick.winner !== undefined) ??
    null
  );
}

function drawStatus(table, obs) {
  const { view, labels: L, parts } = table;
  let text = "";
  if (view.status === "finished") {
    text =
      view.winner !== null && view.winner !== undefined
        ? format(L.gameOver, { name: table.nameOf(view.winner) })
        : L.gameOverNoWinner;
  } else if (obs && table.myTurn()) {
    const prompt =
      obs.phase === "play" && !currentTrick(obs) ? L.prompt.lead : (L.prompt[obs.phase] ?? "");
    text = `${L.yourTurn}. ${prompt}`;
  } else if (view.to_act !== null && view.to_act !== undefined) {
    text = format(L.waitingFor, { name: table.nameOf(view.to_act) });
  }
  if (parts.status.textContent !== text) {
    parts.status.textContent = text;
  }
  parts.status.classList.toggle("is-my-turn", table.myTurn());
  if (parts.playAgain) {
    parts.playAgain.hidden = view.status !== "finished";
  }
}

// Seats in the order of the view's players, starting left of the viewer, who comes last.
function seatOrder(view) {
  const count = view.players.length;
  const start = view.seat === null || view.seat === undefined ? 0 : (view.seat + 1) % count;
  return Array.from({ length: count }, (_, k) => (start + k) % count);
}

function lastBid(obs, seat) {
  return (obs.bids ?? []).findLast((bid) => bid.seat === seat) ?? null;
}

function drawSeats(table, obs) {
  const { view, labels: L } = table;
  const boxes = seatOrder(view).map((seat) => {
    const info = table.player(seat);
    const active = Boolean(obs) && obs.active.includes(seat);
    const badges = [];
    if (seat === view.to_act) {
      badges.push(el("span", { className: "badge badge-turn", text: L.toActBadge }));
    }
    if (obs && obs.dealer === seat) {
      const text = active ? L.dealer : `${L.dealer}, ${L.sitsOut}`;
      badges.push(el("span", { className: "badge", text }));
    }
    if (obs && obs.declarer === seat) {
      badges.push(el("span", { className: "badge badge-declarer", text: L.declarer }));
    }
    const facts = [];
    if (active) {
      facts.push(format(L.cardsLeft, { count: obs.hand_sizes[seat] }));
      if (obs.phase === "bidding") {
        const bid = lastBid(obs, seat);
        if (bid) {
          facts.push(bid.value === null ? L.passed : String(bid.value));
        }
      } else if (obs.phase === "play" || obs.phase === "done") {
        facts.push(`${obs.card_points[seat]} ${L.cardPoints}`);
      }
    }
    const classes = ["seat"];
    if (seat === view.to_act) {
      classes.push("to-act");
    }
    if (seat === view.seat) {
      classes.push("me");
    }
    return el("div", { className: classes.join(" "), "data-seat": seat }, [
      el("div", { className: "seat-name" }, [
        el("strong", { text: info.name }),
        seat === view.seat ? el("span", { className: "muted", text: ` (${L.you})` }) : null,
        info.bot_level
          ? el("span", {
              className: "seat-bot muted",
              text: format(L.bot, { level: L.botLevels[info.bot_level] ?? info.bot_level }),
            })
          : null,
      ]),
      el("div", { className: "seat-total", title: L.total, text: total(view.totals[seat]) }),
      el("div", { className: "seat-facts muted", text: facts.join(" \u00b7 ") }),
      badges.length ? el("div", { className: "seat-badges" }, badges) : null,
    ]);
  });
  table.parts.seats.replaceChildren(...boxes);
}

function fact(label, value) {
  return el("span", { className: "fact" }, [
    el("span", { className: "fact-label", text: `${label}: ` }),
    el("strong", { text: value }),
  ]);
}

function drawDealInfo(table, obs) {
  const { view, labels: L, cards } = table;
  const rows = [];
  if (obs) {
    const facts = [];
    const number = view.current_deal ? view.current_deal.number : null;
    if (number) {
      facts.push(el("strong", { className: "fact", text: format(L.deal, { number }) }));
    }
    facts.push(el("span", { className: "fact", text: L.phases[obs.phase] ?? obs.phase }));
    facts.push(
      el("span", { className: `fact fact-trump${obs.trump ? ` suit-${obs.trump}` : ""}` }, [
        el("span", { className: "fact-label", text: `${L.trump}: ` }),
        el("strong", { text: obs.trump ? cards.suitLabel(obs.trump) : L.noTrump }),
      ]),
    );
    if (obs.declarer !== null && obs.declarer !== undefined) {
      facts.push(fact(L.declarer, table.nameOf(obs.declarer)));
      let value = String(obs.contract ? obs.contract : obs.bid);
      if (obs.forced) {
        value += ` (${L.forced})`;
      }
      facts.push(fact(obs.contract ? L.contract : L.bid, value));
    }
    rows.push(el("p", { className: "deal-facts" }, facts));

    const notes = [];
    for (const gift of obs.given ?? []) {
      notes.push(format(L.gaveCard, { card: cards.short(gift.card), name: table.nameOf(gift.to) }));
    }
    if (obs.received) {
      notes.push(format(L.gotCard, { card: cards.short(obs.received) }));
    }
    for (const marriage of obs.marriages ?? []) {
      notes.push(
        format(L.marriageDeclared, {
          name: table.nameOf(marriage.seat),
          suit: cards.suitLabel(marriage.suit),
          value: cards.marriageValue(marriage.suit),
        }),
      );
    }
    if (!table.seated) {
      notes.push(L.spectating);
    }
    if (notes.length) {
      rows.push(el("p", { className: "deal-notes muted", text: notes.join(" ") }));
    }
  }
  const previous = (view.deals ?? []).at(-1);
  if (previous) {
    rows.push(
      el("p", { className: "previous-deal" }, [
        format(L.previousDeal, { number: previous.number, summary: table.dealSummary(previous) }),
        " ",
        el("a", { href: table.replayUrl(previous.number), text: L.replay }),
      ]),
    );
  }
  table.parts.dealInfo.replaceChildren(...rows);
}

// The cards of a trick, each with the name of who played it (the server says who: `seats`).
function trickNodes(table, trick) {
  return trick.cards.map((card, index) => {
    const seat = trick.seats[index];
    return el("figure", { className: trick.winner === seat ? "played winner" : "played" }, [
      table.cards.face(card),
      el("figcaption", { text: table.player(seat).name }),
    ]);
  });
}

function drawTricks(table, obs) {
  const { parts, labels: L } = table;
  // Before the play there is no trick to show; the talon has the table to itself.
  parts.currentTrickBox.hidden = !(obs && obs.phase === "play");
  const current = obs ? currentTrick(obs) : null;
  parts.currentTrick.replaceChildren(
    ...(current
      ? trickNodes(table, current)
      : [el("p", { className: "muted trick-empty", text: L.noTrick })]),
  );

  const last = obs ? lastTrick(obs) : null;
  parts.lastTrickBox.hidden = !last;
  if (last) {
    parts.lastTrick.replaceChildren(
      ...trickNodes(table, last),
      el("p", {
        className: "trick-winner",
        text: format(L.wonBy, { name: table.nameOf(last.winner) }),
      }),
    );
  } else {
    parts.lastTrick.replaceChildren();
  }
}

function drawTalon(table, obs) {
  const { parts, cards } = table;
  const show = Boolean(obs) && ["bidding", "giving", "contract"].includes(obs.phase);
  parts.talonBox.hidden = !show;
  if (!show) {
    parts.talon.replaceChildren();
  } else if (obs.talon) {
    parts.talon.replaceChildren(...cards.sorted(obs.talon).map((card) => cards.face(card)));
  } else {
    const backs = Array.from({ length: cards.talonSize }, () => cards.back());
    parts.talon.replaceChildren(
      ...backs,
      el("span", { className: "visually-hidden", text: table.labels.talonHidden }),
    );
  }
}
