// The table above the hand: the status line, the seats, the facts of the deal, and on the felt
// the auction, the talon, the current trick and (on request) the last one, all drawn from the
// scene the table shows (live-table.js): the server's view as far as it has been shown.
import { el } from "./dom.js";
import { format, total } from "./text.js";

export function drawBoard(table, scene) {
  drawStatus(table, scene);
  drawSeats(table, scene);
  drawDealInfo(table, scene);
  const summary = table.summary !== null;
  drawAuction(table, scene.obs, summary);
  drawTalon(table, scene.obs, summary);
  drawTricks(table, scene.obs, summary);
  drawReplayLink(table, scene);
}

function isDone(trick) {
  return trick.winner !== null && trick.winner !== undefined;
}

// The trick on the table: the one being played, or the one just taken until the next lead.
function shownTrick(obs) {
  return (obs.tricks ?? []).at(-1) ?? null;
}

// The trick taken before the one on the table.
function previousTrick(obs) {
  const tricks = obs.tricks ?? [];
  return tricks.slice(0, -1).findLast(isDone) ?? null;
}

function drawStatus(table, scene) {
  const { view, labels: L, parts } = table;
  const obs = scene.obs;
  let text = "";
  if (table.summary) {
    text = format(L.summaryTitle, { number: table.summary.number });
    if (view.status === "finished") {
      text = gameOverText(table);
    }
  } else if (view.status === "finished" && scene.caughtUp) {
    text = gameOverText(table);
  } else if (view.stopped) {
    text = L.stopped; // the tournament is finished: nobody moves until it is reopened
  } else if (obs && table.myTurn()) {
    const current = shownTrick(obs);
    const leading = obs.phase === "play" && (!current || isDone(current));
    const prompt = leading ? L.prompt.lead : (L.prompt[obs.phase] ?? "");
    text = `${L.yourTurn}. ${prompt}`;
  } else if (obs && obs.behind && obs.talon && obs.phase === "giving" && !obs.gives_done.length) {
    text = format(L.talonTaken, { name: table.nameOf(obs.declarer) });
  } else if (scene.toAct !== null && scene.toAct !== undefined) {
    text = format(L.waitingFor, { name: table.nameOf(scene.toAct) });
  }
  if (parts.status.textContent !== text) {
    parts.status.textContent = text;
  }
  parts.status.classList.toggle("is-my-turn", table.myTurn());
  if (parts.playAgain) {
    parts.playAgain.hidden = !(view.status === "finished" && (table.summary || scene.caughtUp));
  }
}

export function gameOverText(table) {
  const { view, labels: L } = table;
  return view.winner !== null && view.winner !== undefined
    ? format(L.gameOver, { name: table.nameOf(view.winner) })
    : L.gameOverNoWinner;
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

function drawSeats(table, scene) {
  const { view, labels: L } = table;
  const obs = scene.obs;
  const totals = table.shownTotals();
  const boxes = seatOrder(view).map((seat) => {
    const info = table.player(seat);
    const active = Boolean(obs) && obs.active.includes(seat);
    const badges = [];
    if (seat === scene.toAct && !table.summary) {
      badges.push(el("span", { className: "badge badge-turn", text: L.toActBadge }));
    }
    if (obs && obs.dealer === seat) {
      const text = active ? L.dealer : `${L.dealer}, ${L.sitsOut}`;
      badges.push(el("span", { className: "badge", text }));
    }
    if (obs && obs.declarer === seat) {
      badges.push(el("span", { className: "badge badge-declarer", text: L.declarer }));
    }
    const giving = obs && ["giving", "contract"].includes(obs.phase);
    if (giving && (obs.gives_done ?? []).includes(seat)) {
      badges.push(el("span", { className: "badge badge-received", text: L.receivedBadge }));
    }
    const facts = [];
    let bidText = null;
    if (active) {
      facts.push(format(L.cardsLeft, { count: obs.hand_sizes[seat] }));
      if (obs.phase === "bidding") {
        const bid = lastBid(obs, seat);
        if (bid) {
          bidText = bid.value === null ? L.passed : String(bid.value);
        }
      } else if (obs.phase === "play" || obs.phase === "done") {
        facts.push(format(L.cardPoints, { points: obs.card_points[seat] }));
      }
    }
    const classes = ["seat"];
    if (seat === scene.toAct && !table.summary) {
      classes.push("to-act");
    }
    if (seat === view.seat) {
      classes.push("me");
    }
    return el("div", { className: classes.join(" "), "data-seat": seat }, [
      el("div", { className: "seat-name" }, [
        el("strong", { text: info.name }),
        seat === view.seat ? el("span", { className: "muted", text: ` (${L.you})` }) : null,
      ]),
      info.bot_level
        ? el("div", {
            className: "seat-bot muted",
            text: format(L.bot, { level: L.botLevels[info.bot_level] ?? info.bot_level }),
          })
        : null,
      el("div", { className: "seat-line" }, [
        el("span", { className: "seat-total", title: L.total, text: total(totals[seat]) }),
        bidText === null
          ? null
          : el("span", {
              className: bidText === L.passed ? "seat-bid passed" : "seat-bid",
              text: bidText,
            }),
      ]),
      el("div", { className: "seat-facts muted" }, facts.map((text) => el("span", { text }))),
      badges.length ? el("div", { className: "seat-badges" }, badges) : null,
    ]);
  });
  table.parts.seats.replaceChildren(...boxes);
}

function fact(label, value, className = "fact") {
  return el("span", { className }, [
    el("span", { className: "fact-label", text: `${label}: ` }),
    el("strong", { text: value }),
  ]);
}

function drawDealInfo(table, scene) {
  const { labels: L, cards } = table;
  const obs = scene.obs;
  const rows = [];
  if (obs && !table.summary) {
    const facts = [];
    if (scene.number) {
      const deal = format(L.deal, { number: scene.number });
      facts.push(el("strong", { className: "fact", text: deal }));
    }
    const phase = L.phases[obs.phase] ?? obs.phase;
    facts.push(el("span", { className: "fact fact-phase", text: phase }));
    if (obs.phase === "play" || obs.phase === "done") {
      facts.push(
        el("span", { className: `fact fact-trump${obs.trump ? ` suit-${obs.trump}` : ""}` }, [
          el("span", { className: "fact-label", text: `${L.trump}: ` }),
          el("strong", { text: obs.trump ? cards.suitLabel(obs.trump) : L.noTrump }),
        ]),
      );
    }
    if (obs.declarer !== null && obs.declarer !== undefined) {
      facts.push(fact(L.declarer, table.nameOf(obs.declarer)));
      let value = String(obs.contract ? obs.contract : obs.bid);
      if (obs.forced) {
        value += ` (${L.forced})`;
      }
      facts.push(fact(obs.contract ? L.contract : L.bid, value));
    }
    if (obs.talon && (obs.phase === "play" || obs.phase === "done")) {
      // The talon was turned up for everyone: it stays in sight, small, during the play.
      facts.push(
        el("span", { className: "fact fact-talon", "data-talon": obs.talon.join(" ") }, [
          el("span", { className: "fact-label", text: `${L.talon}: ` }),
          ...cards.sorted(obs.talon).map((card) =>
            el("strong", {
              className: `suit-${cards.suitOf(card).letter}`,
              "aria-label": cards.label(card),
              text: cards.short(card),
            }),
          ),
        ]),
      );
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
  table.parts.dealInfo.replaceChildren(...rows);
}

function drawAuction(table, obs, summary) {
  const { parts, labels: L } = table;
  const show = !summary && Boolean(obs) && obs.phase === "bidding";
  parts.auctionBox.hidden = !show;
  if (!show) {
    parts.auction.replaceChildren();
    return;
  }
  const items = (obs.bids ?? []).map((bid) =>
    el("li", { className: bid.value === null ? "bid passed" : "bid" }, [
      el("span", { className: "bid-name", text: table.player(bid.seat).name }),
      el("strong", { text: bid.value === null ? L.passed : String(bid.value) }),
    ]),
  );
  if (!items.length) {
    items.push(el("li", { className: "muted", text: "\u2014" }));
  }
  parts.auction.replaceChildren(...items);
}

function drawTalon(table, obs, summary) {
  const { parts, cards, labels: L } = table;
  const show = !summary && Boolean(obs) && ["bidding", "giving", "contract"].includes(obs.phase);
  parts.talonBox.hidden = !show;
  parts.talonBox.dataset.revealed = String(Boolean(show && obs.talon));
  if (!show) {
    parts.talon.replaceChildren();
    parts.talonNote.replaceChildren();
    return;
  }
  if (obs.talon) {
    parts.talon.replaceChildren(
      ...cards.sorted(obs.talon).map((card) => cards.face(card, "span", { "data-card": card })),
    );
    // Who takes it is said once, in the status line above the hand (drawStatus).
    parts.talonNote.textContent = format(L.cardsGiven, { count: (obs.gives_done ?? []).length });
  } else {
    const backs = Array.from({ length: cards.talonSize }, () => cards.back());
    parts.talon.replaceChildren(
      ...backs,
      el("span", { className: "visually-hidden", text: L.talonHidden }),
    );
    parts.talonNote.replaceChildren();
  }
}

// The cards of a trick, each with the name of who played it (the server says who: `seats`).
function trickNodes(table, trick) {
  const done = isDone(trick);
  return trick.cards.map((card, index) => {
    const seat = trick.seats[index];
    return el("figure", { className: done && trick.winner === seat ? "played winner" : "played" }, [
      table.cards.face(card, "span", { "data-card": card }),
      el("figcaption", { text: table.player(seat).name }),
    ]);
  });
}

function trickWithWinner(table, trick) {
  const nodes = trickNodes(table, trick);
  if (isDone(trick)) {
    nodes.push(
      el("p", {
        className: "trick-winner",
        text: format(table.labels.wonBy, { name: table.nameOf(trick.winner) }),
      }),
    );
  }
  return nodes;
}

function drawTricks(table, obs, summary) {
  const { parts, labels: L, choice } = table;
  const playing = !summary && Boolean(obs) && (obs.phase === "play" || obs.phase === "done");
  parts.currentTrickBox.hidden = !playing;
  const current = playing ? shownTrick(obs) : null;
  parts.currentTrick.replaceChildren(
    ...(current
      ? trickWithWinner(table, current)
      : [el("p", { className: "muted trick-empty", text: L.noTrick })]),
  );
  const previous = playing ? previousTrick(obs) : null;
  parts.lastTrickToggle.hidden = !previous;
  const open = Boolean(previous && choice.lastTrick);
  parts.lastTrickToggle.setAttribute("aria-expanded", String(open));
  parts.lastTrickBox.hidden = !open;
  parts.lastTrick.replaceChildren(...(previous ? trickWithWinner(table, previous) : []));
}

function drawReplayLink(table, scene) {
  const { parts, labels: L } = table;
  const last = scene.deals.at(-1);
  parts.replayLink.hidden = !last || table.summary !== null;
  if (last) {
    parts.replayLink.href = table.replayUrl(last.number);
    parts.replayLink.textContent = format(L.replayDeal, { number: last.number });
  }
}
