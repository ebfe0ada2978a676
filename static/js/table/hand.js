// The viewer's hand: the cards as buttons with one tab stop (arrow keys move between them),
// the server's legal plays and gifts marked; a click plays a card or picks it to give.
import { playOf } from "./controls.js";

export function drawHand(table, obs) {
  const { parts, choice, cards } = table;
  const holding = table.seated && Boolean(obs) && (obs.hand ?? []).length > 0;
  parts.handArea.hidden = !holding;
  if (!holding) {
    delete parts.hand.dataset.drawn;
    parts.hand.replaceChildren();
    return;
  }
  const hand = cards.sorted(obs.hand);
  const turn = table.myTurn();
  const playable = new Set(
    turn && obs.phase === "play" ? table.legalOf("play").map((action) => action.card) : [],
  );
  const givable = new Set(
    turn && obs.phase === "giving" ? table.legalOf("give").map((action) => action.card) : [],
  );
  if (!hand.includes(choice.handCard)) {
    const firstUsable = hand.find((card) => playable.has(card) || givable.has(card));
    choice.handCard = firstUsable ?? hand[0] ?? null;
  }
  const described = hand.map((card, index) => {
    const usable = (playable.has(card) || givable.has(card)) && !table.pending;
    const classes = [];
    if (playable.has(card)) {
      classes.push("playable");
    }
    if (givable.has(card)) {
      classes.push("givable");
    }
    if (card === obs.received && obs.phase !== "play") {
      classes.push("received");
    }
    const attributes = {
      type: "button",
      className: classes.join(" "),
      "data-card": card,
      "data-key": `card-${card}`,
      "data-index": String(index),
      tabindex: card === choice.handCard ? "0" : "-1",
      "aria-disabled": usable ? null : "true",
    };
    if (obs.phase === "giving" && turn) {
      attributes["aria-pressed"] = choice.giveCard === card ? "true" : "false";
    }
    return { card, attributes };
  });
  // The page redraws on every poll; a hand rebuilt while a finger is on a card loses the tap
  // (the press and the release land on different buttons), so it is rebuilt only when a card
  // or a mark on one changed.
  const drawn = JSON.stringify(described);
  if (parts.hand.dataset.drawn === drawn && parts.hand.childElementCount === hand.length) {
    return;
  }
  parts.hand.dataset.drawn = drawn;
  parts.hand.replaceChildren(
    ...described.map(({ card, attributes }) => cards.face(card, "button", attributes)),
  );
}

function handButtons(table) {
  return [...table.parts.hand.querySelectorAll("button.card")];
}

export function focusHand(table) {
  const hand = table.parts.hand;
  const target =
    hand.querySelector('button.card[tabindex="0"]') ?? hand.querySelector("button.card");
  target?.focus();
}

function moveFocus(table, to) {
  const buttons = handButtons(table);
  if (!buttons.length) {
    return;
  }
  const index = Math.max(0, Math.min(to, buttons.length - 1));
  buttons.forEach((candidate, position) => {
    candidate.tabIndex = position === index ? 0 : -1;
  });
  table.choice.handCard = buttons[index].getAttribute("data-card");
  buttons[index].focus();
}

export function bindHand(table) {
  const hand = table.parts.hand;

  hand.addEventListener("keydown", (event) => {
    const current = event.target.closest("button.card");
    if (!current) {
      return;
    }
    const buttons = handButtons(table);
    const index = buttons.indexOf(current);
    const moves = {
      ArrowRight: index + 1,
      ArrowDown: index + 1,
      ArrowLeft: index - 1,
      ArrowUp: index - 1,
      Home: 0,
      End: buttons.length - 1,
    };
    if (Object.hasOwn(moves, event.key)) {
      event.preventDefault();
      moveFocus(table, moves[event.key]);
    }
  });

  hand.addEventListener("click", (event) => {
    const target = event.target.closest("button.card");
    if (!target) {
      return;
    }
    const card = target.getAttribute("data-card");
    table.choice.handCard = card;
    const obs = table.observation;
    if (table.pending || !obs || !table.myTurn()) {
      return;
    }
    if (obs.phase === "play") {
      const action = playOf(table, card);
      if (action) {
        table.send(action);
      } else {
        table.showError(table.labels.notLegal);
      }
    } else if (obs.phase === "giving" && target.classList.contains("givable")) {
      table.choice.giveCard = table.choice.giveCard === card ? null : card;
      table.hideError();
      table.render();
    }
  });
}
