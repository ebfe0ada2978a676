// The viewer's move, when it is his turn: bid or pass, give a card to each opponent, name the
// contract, concede, declare a marriage. Every choice offered is one of the server's legal
// actions; nothing here decides what is legal.
import { el } from "./dom.js";
import { format } from "./text.js";

export function drawControls(table, obs) {
  let nodes = [];
  if (obs && table.myTurn()) {
    const draw = PHASES[obs.phase];
    nodes = draw ? draw(table) : [];
  }
  table.parts.controls.hidden = nodes.length === 0;
  table.parts.controls.replaceChildren(...nodes);
}

const PHASES = {
  bidding: biddingControls,
  giving: givingControls,
  contract: contractControls,
  play: playControls,
};

function valueSelect(id, label, values, chosen, onChange) {
  const select = el("select", { id, "data-key": id, onchange: onChange });
  for (const value of values) {
    const option = el("option", { value: String(value), text: String(value) });
    option.selected = value === chosen;
    select.append(option);
  }
  return el("div", { className: "control-field" }, [el("label", { for: id, text: label }), select]);
}

function button(table, key, text, onClick, extraClass = null) {
  return el("button", {
    type: "button",
    className: extraClass,
    "data-key": key,
    "aria-disabled": table.pending ? "true" : null,
    onclick: (event) => {
      event.preventDefault();
      if (!table.pending) {
        onClick();
      }
    },
    text,
  });
}

function concedeButton(table) {
  const concede = table.legalOf("concede")[0];
  if (!concede) {
    return null;
  }
  const ask = () => {
    // The question says what conceding scores, in the server's words (its own scoring).
    if (window.confirm(table.view.concede_confirm)) {
      table.send(concede);
    }
  };
  return button(table, "concede", table.labels.concede, ask, "secondary concede");
}

function row(nodes) {
  return [el("div", { className: "control-row" }, nodes.filter(Boolean))];
}

function biddingControls(table) {
  const { choice, labels: L } = table;
  const bids = table.legalOf("bid");
  const pass = table.legalOf("pass")[0];
  const values = bids.map((action) => action.value);
  if (!values.includes(choice.bid)) {
    choice.bid = values.length ? values[0] : null;
  }
  const nodes = [];
  if (values.length) {
    nodes.push(
      valueSelect("bid-value", L.yourBid, values, choice.bid, (event) => {
        choice.bid = Number(event.target.value);
        const bidButton = table.parts.controls.querySelector('[data-key="bid"]');
        bidButton.textContent = format(L.bidValue, { value: choice.bid });
      }),
      button(table, "bid", format(L.bidValue, { value: choice.bid }), () => {
        const action = bids.find((candidate) => candidate.value === choice.bid);
        if (action) {
          table.send(action);
        }
      }),
    );
  }
  if (pass) {
    nodes.push(button(table, "pass", L.pass, () => table.send(pass), "secondary"));
  }
  return row(nodes);
}

function givingControls(table) {
  const { choice, labels: L, cards } = table;
  const gives = table.legalOf("give");
  const recipients = [...new Set(gives.map((action) => action.to))];
  if (!gives.some((action) => action.card === choice.giveCard)) {
    choice.giveCard = null;
  }
  const nodes = recipients.map((to) => {
    const name = table.player(to).name;
    const text = choice.giveCard
      ? format(L.giveCardTo, { card: cards.short(choice.giveCard), name })
      : format(L.giveTo, { name });
    const give = button(table, `give-${to}`, text, () => {
      if (!choice.giveCard) {
        table.showError(L.chooseCard);
        table.focusHand();
        return;
      }
      const action = gives.find(
        (candidate) => candidate.to === to && candidate.card === choice.giveCard,
      );
      if (action) {
        choice.giveCard = null;
        table.send(action);
      }
    });
    if (!choice.giveCard) {
      give.classList.add("waiting");
    }
    return give;
  });
  return row([...nodes, concedeButton(table)]);
}

function contractControls(table) {
  const { choice, labels: L } = table;
  const contracts = table.legalOf("contract");
  const values = contracts.map((action) => action.value);
  if (!values.includes(choice.contract)) {
    choice.contract = values.length ? values[0] : null;
  }
  const nodes = [];
  if (values.length) {
    nodes.push(
      valueSelect("contract-value", L.contract, values, choice.contract, (event) => {
        choice.contract = Number(event.target.value);
        const nameButton = table.parts.controls.querySelector('[data-key="contract"]');
        nameButton.textContent = format(L.nameContract, { value: choice.contract });
      }),
      button(table, "contract", format(L.nameContract, { value: choice.contract }), () => {
        const action = contracts.find((candidate) => candidate.value === choice.contract);
        if (action) {
          table.send(action);
        }
      }),
    );
  }
  return row([...nodes, concedeButton(table)]);
}

// The marriages the viewer may declare with his lead (the server's plays marked `marriage`).
function playControls(table) {
  const { choice, labels: L, cards } = table;
  const withMarriage = table.legalOf("play").filter((action) => action.marriage);
  if (!withMarriage.length) {
    return [];
  }
  const box = el("input", {
    type: "checkbox",
    id: "declare-marriage",
    "data-key": "declare-marriage",
    onchange: (event) => {
      choice.marriage = event.target.checked;
    },
  });
  box.checked = choice.marriage;
  const suits = [...new Set(withMarriage.map((action) => cards.suitOf(action.card).letter))].map(
    (suit) => `${cards.suitLabel(suit)} ${cards.marriageValue(suit)}`,
  );
  return [
    el("div", { className: "control-row marriage-choice" }, [
      box,
      el("label", { for: "declare-marriage", text: `${L.declareMarriage} (${suits.join(", ")})` }),
    ]),
  ];
}

// The legal play of `card`, with the marriage declared if the viewer wants that and may.
export function playOf(table, card) {
  const plays = table.legalOf("play").filter((action) => action.card === card);
  const preferred = plays.find((action) => Boolean(action.marriage) === table.choice.marriage);
  return preferred ?? plays[0] ?? null;
}
