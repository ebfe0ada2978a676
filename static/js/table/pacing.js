// Moves that arrive together are shown one after another. In the embedded mode the bots answer
// a human's move at once, so one view can hold a whole round of bids, the talon turned up, the
// gifts, the contract and several cards: the table shows them step by step, with the pauses the
// server sends (gameplay.pacing), and offers the viewer's own move only once it has caught up.
//
// A deal's public facts come in the order the deal goes: the bids, the talon turned up, the
// gifts, the contract, the cards, the end. `stepsOf` lists them as an observation holds them;
// `sceneAt` is the observation as it was after the first `count` of them, built from the
// observation's own facts only (which trick a card is in, who played it and who won are the
// server's).

export function stepsOf(obs) {
  if (!obs) {
    return [];
  }
  const steps = (obs.bids ?? []).map((bid) => ({ kind: "bid", seat: bid.seat }));
  if (obs.talon) {
    steps.push({ kind: "talon", seat: obs.declarer });
  }
  for (const to of obs.gives_done ?? []) {
    steps.push({ kind: "give", seat: obs.declarer, to });
  }
  if (obs.contract) {
    steps.push({ kind: "contract", seat: obs.declarer });
  }
  (obs.tricks ?? []).forEach((trick, number) => {
    trick.cards.forEach((_card, index) => {
      const complete = trick.winner !== null && trick.winner !== undefined;
      steps.push({
        kind: "play",
        seat: trick.seats[index],
        trick: number,
        ends: complete && index === trick.cards.length - 1,
      });
    });
  });
  if (obs.phase === "done") {
    steps.push({ kind: "end", seat: null });
  }
  return steps;
}

// How long to wait, after the step before was shown, before showing `step` (milliseconds).
export function pauseBefore(step, previous, viewerSeat, pace) {
  if (step.seat !== null && step.seat === viewerSeat && step.kind !== "talon") {
    return 0; // the viewer's own move: he has just made it
  }
  if (previous && previous.kind === "talon") {
    return pace.talon; // the talon stays turned up for a while before anything else
  }
  if (previous && previous.ends) {
    return pace.trick; // and so does a finished trick
  }
  return (
    { bid: pace.bid, talon: pace.bid, give: pace.give, contract: pace.contract }[step.kind] ??
    pace.card
  );
}

function count(steps, kind) {
  return steps.filter((step) => step.kind === kind).length;
}

// The phase the table is in while it waits for `next` (after `last`).
function phaseBefore(next, last, obs) {
  if (!next) {
    return obs.phase;
  }
  const before = { bid: "bidding", talon: "bidding", give: "giving", contract: "contract" };
  if (next.kind === "end") {
    const after = { talon: "giving", give: "giving", contract: "play", play: "play" };
    return after[last?.kind] ?? obs.phase;
  }
  return before[next.kind] ?? "play";
}

// The observation `obs` as it stood after its first `shown` steps. `seat` is the viewer's;
// `talonSize` how many cards the talon has (the card facts of the server).
export function sceneAt(obs, shown, { seat, talonSize }) {
  const steps = stepsOf(obs);
  if (!obs || shown >= steps.length) {
    return obs ? { ...obs, behind: false, next: null } : null;
  }
  const done = steps.slice(0, shown);
  const hidden = steps.slice(shown);
  const talonShown = count(done, "talon") > 0;
  const givesShown = count(done, "give");
  let plays = count(done, "play");

  const tricks = [];
  for (const trick of obs.tricks ?? []) {
    if (plays <= 0) {
      break;
    }
    const cards = Math.min(plays, trick.cards.length);
    tricks.push(
      cards === trick.cards.length
        ? trick
        : {
            ...trick,
            cards: trick.cards.slice(0, cards),
            seats: trick.seats.slice(0, cards),
            winner: null,
            points: null, // the server counts whole tricks only
          },
    );
    plays -= cards;
  }
  const cardPoints = (obs.card_points ?? []).map(() => 0);
  for (const trick of tricks) {
    if (trick.winner !== null && trick.winner !== undefined) {
      cardPoints[trick.winner] += trick.points ?? 0;
    }
  }

  // Hand sizes: the final ones with the steps not yet shown taken back.
  const handSizes = [...(obs.hand_sizes ?? [])];
  for (const step of hidden) {
    if (step.kind === "play") {
      handSizes[step.seat] += 1;
    } else if (step.kind === "give") {
      handSizes[step.seat] += 1;
      handSizes[step.to] -= 1;
    } else if (step.kind === "talon") {
      handSizes[step.seat] -= talonSize;
    }
  }

  const givesDone = (obs.gives_done ?? []).slice(0, givesShown);
  let hand = obs.hand ?? [];
  if (!talonShown && seat !== null && seat === obs.declarer && obs.talon) {
    hand = hand.filter((card) => !obs.talon.includes(card));
  }
  const received = obs.received && givesDone.includes(seat) ? obs.received : null;
  if (obs.received && !received) {
    hand = hand.filter((card) => card !== obs.received);
  }
  const next = hidden[0];
  const last = done.at(-1) ?? null;
  const bids = (obs.bids ?? []).slice(0, count(done, "bid"));
  const lastTrick = tricks.at(-1);
  return {
    ...obs,
    behind: true,
    next,
    phase: phaseBefore(next, last, obs),
    to_act: next.seat,
    hand,
    hand_sizes: handSizes,
    bids,
    declarer: talonShown ? obs.declarer : null,
    bid: talonShown ? obs.bid : null,
    forced: talonShown ? obs.forced : false,
    talon: talonShown ? obs.talon : null,
    given: (obs.given ?? []).slice(0, givesShown),
    received,
    gives_done: givesDone,
    contract: count(done, "contract") ? obs.contract : null,
    trump: lastTrick ? lastTrick.trump : null,
    tricks,
    marriages: (obs.marriages ?? []).filter((marriage) => marriage.trick < tricks.length),
    card_points: cardPoints,
    scores: null,
    outcome: null,
    legal: [],
  };
}
