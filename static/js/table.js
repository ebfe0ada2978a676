// The live table: draws the viewer's own view of the game (sent by the server, never computed
// here) and keeps it current over the websocket, or by polling when there is none. Only the
// actions the server lists as legal are offered; the server checks every move again anyway.
(function () {
  "use strict";

  var root = document.getElementById("live-table");
  if (!root) {
    return;
  }

  function readJson(id) {
    return JSON.parse(document.getElementById(id).textContent);
  }

  var L = readJson("table-labels");
  var config = readJson("table-config");
  var view = readJson("table-view");

  var SUIT_SYMBOL = { S: "\u2660", C: "\u2663", D: "\u2666", H: "\u2665" };
  var SUITS = "SCDH";
  var RANKS = "9JQKTA";
  var MARRIAGE_VALUE = { S: 40, C: 60, D: 80, H: 100 };
  var POLL_MS = 1500;
  var OPEN_TIMEOUT_MS = 3000;
  var PENDING_TIMEOUT_MS = 8000;

  var parts = {
    status: document.getElementById("table-status"),
    playAgain: document.getElementById("play-again"),
    connection: document.getElementById("connection"),
    connectionText: document.getElementById("connection-text"),
    seats: document.getElementById("seats"),
    dealInfo: document.getElementById("deal-info"),
    currentTrick: document.getElementById("current-trick"),
    currentTrickBox: document.getElementById("current-trick-box"),
    lastTrick: document.getElementById("last-trick"),
    lastTrickBox: document.getElementById("last-trick-box"),
    talon: document.getElementById("talon"),
    talonBox: document.getElementById("talon-box"),
    controls: document.getElementById("controls"),
    error: document.getElementById("table-error"),
    handArea: document.getElementById("hand-area"),
    hand: document.getElementById("hand"),
    auction: document.getElementById("auction"),
    sheet: document.getElementById("score-sheet"),
  };

  // What the viewer chose on this page; kept across redraws.
  var choice = {
    turn: null, // the sequence number the choices below were made at
    giveCard: null, // the card picked to give, in the giving phase
    bid: null,
    contract: null,
    marriage: true, // declare a marriage when leading its king or queen
    handCard: null, // the card that takes the hand's single tab stop
  };
  var pending = false;
  var pendingTimer = null;

  // ------------------------------------------------------------ small helpers

  function format(template, params) {
    return String(template).replace(/%\((\w+)\)s/g, function (whole, key) {
      return Object.prototype.hasOwnProperty.call(params, key) ? params[key] : whole;
    });
  }

  function el(tag, attributes, children) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) {
      var value = attributes[name];
      if (value === null || value === undefined || value === false) {
        return;
      }
      if (name === "text") {
        node.textContent = value;
      } else if (name === "className") {
        node.className = value;
      } else if (name.indexOf("on") === 0) {
        node.addEventListener(name.slice(2), value);
      } else {
        node.setAttribute(name, value === true ? "" : value);
      }
    });
    (children || []).forEach(function (child) {
      if (child !== null && child !== undefined) {
        node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
      }
    });
    return node;
  }

  function cardOrder(card) {
    return SUITS.indexOf(card[1]) * 6 + RANKS.indexOf(card[0]);
  }

  function sortCards(cards) {
    return (cards || []).slice().sort(function (a, b) {
      return cardOrder(a) - cardOrder(b);
    });
  }

  function rankText(card) {
    return card[0] === "T" ? "10" : card[0];
  }

  function cardShort(card) {
    return rankText(card) + SUIT_SYMBOL[card[1]];
  }

  function cardLabel(card) {
    return format(L.card, { rank: L.ranks[card[0]], suit: L.suits[card[1]] });
  }

  function suitLabel(suit) {
    return SUIT_SYMBOL[suit] + "\u00a0" + L.suits[suit];
  }

  // The face of a card: rank over suit, red for diamonds and hearts.
  function cardFace(card, tag, attributes) {
    var base = { className: "card suit-" + card[1] };
    if (tag !== "button") {
      base.role = "img";
    }
    base["aria-label"] = cardLabel(card);
    Object.keys(attributes || {}).forEach(function (name) {
      base[name] = name === "className" ? base.className + " " + attributes[name] : attributes[name];
    });
    return el(tag || "span", base, [
      el("span", { className: "card-rank", "aria-hidden": "true", text: rankText(card) }),
      el("span", { className: "card-suit", "aria-hidden": "true", text: SUIT_SYMBOL[card[1]] }),
    ]);
  }

  function cardBack() {
    return el("span", { className: "card card-back", "aria-hidden": "true" });
  }

  function player(seat) {
    for (var i = 0; i < view.players.length; i += 1) {
      if (view.players[i].position === seat) {
        return view.players[i];
      }
    }
    return { position: seat, name: "#" + seat, bot_level: "" };
  }

  function nameOf(seat) {
    var name = player(seat).name;
    return seat === view.seat ? name + " (" + L.you + ")" : name;
  }

  function signed(number) {
    return number > 0 ? "+" + number : total(number);
  }

  function total(number) {
    return number < 0 ? "\u2212" + Math.abs(number) : String(number);
  }

  function observation() {
    return view.observation || null;
  }

  function myTurn() {
    return view.legal && view.legal.length > 0 && view.seat !== null;
  }

  function legalOf(type) {
    return (view.legal || []).filter(function (action) {
      return action.type === type;
    });
  }

  // The seat that played the i-th card of a trick led by `leader`.
  function seatOfPlay(obs, leader, index) {
    var active = obs.active;
    return active[(active.indexOf(leader) + index) % active.length];
  }

  // ------------------------------------------------------------ drawing

  function render() {
    var focused = document.activeElement;
    var focusKey = focused && root.contains(focused) ? focused.getAttribute("data-key") : null;
    var focusIndex = focused && focused.hasAttribute("data-index") ? +focused.dataset.index : -1;

    var obs = observation();
    if (choice.turn !== view.sequence) {
      // A new turn starts from the lowest bid or contract, not from a value chosen before.
      choice.turn = view.sequence;
      choice.bid = null;
      choice.contract = null;
    }
    root.setAttribute("data-phase", obs ? obs.phase : "");
    root.setAttribute("data-my-turn", myTurn() ? "true" : "false");
    root.setAttribute("data-sequence", String(view.sequence));
    root.setAttribute("aria-busy", pending ? "true" : "false");
    renderStatus(obs);
    renderSeats(obs);
    renderDealInfo(obs);
    renderTricks(obs);
    renderTalon(obs);
    renderControls(obs);
    renderHand(obs);
    renderAuction(obs);
    renderSheet();

    if (focusKey) {
      var again = root.querySelector('[data-key="' + focusKey + '"]');
      if (!again && focusIndex >= 0) {
        // The focused card was played or given: stay in the hand, next to where it was.
        var cards = parts.hand.querySelectorAll("button.card");
        again = cards[Math.min(focusIndex, cards.length - 1)] || null;
      }
      if (again && document.activeElement !== again) {
        again.focus();
      }
    }
  }

  function renderStatus(obs) {
    var text = "";
    if (view.status === "finished") {
      text =
        view.winner !== null && view.winner !== undefined
          ? format(L.gameOver, { name: nameOf(view.winner) })
          : L.gameOverNoWinner;
    } else if (obs && myTurn()) {
      var prompt = L.prompt[obs.phase] || "";
      if (obs.phase === "play" && !currentTrick(obs)) {
        prompt = L.prompt.lead;
      }
      text = L.yourTurn + ". " + prompt;
    } else if (view.to_act !== null && view.to_act !== undefined) {
      text = format(L.waitingFor, { name: nameOf(view.to_act) });
    }
    if (parts.status.textContent !== text) {
      parts.status.textContent = text;
    }
    parts.status.classList.toggle("is-my-turn", myTurn());
    if (parts.playAgain) {
      parts.playAgain.hidden = view.status !== "finished";
    }
  }

  // Seats in the order of play, starting left of the viewer, who comes last.
  function seatOrder() {
    var count = view.players.length;
    var start = view.seat === null || view.seat === undefined ? 0 : (view.seat + 1) % count;
    var order = [];
    for (var k = 0; k < count; k += 1) {
      order.push((start + k) % count);
    }
    return order;
  }

  function lastBid(obs, seat) {
    var found = null;
    (obs.bids || []).forEach(function (bid) {
      if (bid.seat === seat) {
        found = bid;
      }
    });
    return found;
  }

  function renderSeats(obs) {
    var boxes = seatOrder().map(function (seat) {
      var info = player(seat);
      var classes = ["seat"];
      if (seat === view.to_act) {
        classes.push("to-act");
      }
      if (seat === view.seat) {
        classes.push("me");
      }
      var badges = [];
      if (seat === view.to_act) {
        badges.push(el("span", { className: "badge badge-turn", text: L.toActBadge }));
      }
      if (obs && obs.dealer === seat) {
        var sitsOut = obs.active.indexOf(seat) < 0;
        badges.push(
          el("span", { className: "badge", text: sitsOut ? L.dealer + ", " + L.sitsOut : L.dealer })
        );
      }
      if (obs && obs.declarer === seat) {
        badges.push(el("span", { className: "badge badge-declarer", text: L.declarer }));
      }
      var facts = [];
      if (obs && obs.active.indexOf(seat) >= 0) {
        facts.push(format(L.cardsLeft, { count: obs.hand_sizes[seat] }));
        if (obs.phase === "bidding") {
          var bid = lastBid(obs, seat);
          if (bid) {
            facts.push(bid.value === null ? L.passed : String(bid.value));
          }
        } else if (obs.phase === "play" || obs.phase === "done") {
          facts.push(obs.card_points[seat] + " " + L.cardPoints);
        }
      }
      return el("div", { className: classes.join(" "), "data-seat": seat }, [
        el("div", { className: "seat-name" }, [
          el("strong", { text: info.name }),
          seat === view.seat ? el("span", { className: "muted", text: " (" + L.you + ")" }) : null,
          info.bot_level
            ? el("span", {
                className: "seat-bot muted",
                text: format(L.bot, { level: L.botLevels[info.bot_level] || info.bot_level }),
              })
            : null,
        ]),
        el("div", { className: "seat-total", title: L.total, text: total(view.totals[seat]) }),
        el("div", { className: "seat-facts muted", text: facts.join(" \u00b7 ") }),
        badges.length ? el("div", { className: "seat-badges" }, badges) : null,
      ]);
    });
    parts.seats.replaceChildren.apply(parts.seats, boxes);
  }

  function lastFinishedDeal() {
    return view.deals && view.deals.length ? view.deals[view.deals.length - 1] : null;
  }

  function replayUrl(number) {
    return config.replayUrl.replace("__number__", String(number));
  }

  function dealSummary(deal) {
    if (deal.declarer === null || deal.declarer === undefined) {
      return L.outcomes[deal.outcome] || "";
    }
    return format(L.dealSummary, {
      name: nameOf(deal.declarer),
      contract: deal.contract || deal.bid || "",
      outcome: L.outcomes[deal.outcome] || deal.outcome || "",
    });
  }

  function fact(label, value) {
    return el("span", { className: "fact" }, [
      el("span", { className: "fact-label", text: label + ": " }),
      el("strong", { text: value }),
    ]);
  }

  function renderDealInfo(obs) {
    var rows = [];
    var facts = [];
    var number = view.current_deal ? view.current_deal.number : null;
    if (obs) {
      if (number) {
        facts.push(el("strong", { className: "fact", text: format(L.deal, { number: number }) }));
      }
      facts.push(el("span", { className: "fact", text: L.phases[obs.phase] || obs.phase }));
      facts.push(
        el("span", { className: "fact fact-trump" + (obs.trump ? " suit-" + obs.trump : "") }, [
          el("span", { className: "fact-label", text: L.trump + ": " }),
          el("strong", { text: obs.trump ? suitLabel(obs.trump) : L.noTrump }),
        ])
      );
      if (obs.declarer !== null && obs.declarer !== undefined) {
        facts.push(fact(L.declarer, nameOf(obs.declarer)));
        var value = obs.contract ? String(obs.contract) : String(obs.bid);
        if (obs.forced) {
          value += " (" + L.forced + ")";
        }
        facts.push(fact(obs.contract ? L.contract : L.bid, value));
      }
      rows.push(el("p", { className: "deal-facts" }, facts));

      var notes = [];
      (obs.given || []).forEach(function (gift) {
        notes.push(format(L.gaveCard, { card: cardShort(gift.card), name: nameOf(gift.to) }));
      });
      if (obs.received) {
        notes.push(format(L.gotCard, { card: cardShort(obs.received) }));
      }
      (obs.marriages || []).forEach(function (marriage) {
        notes.push(
          format(L.marriageDeclared, {
            name: nameOf(marriage.seat),
            suit: suitLabel(marriage.suit),
            value: MARRIAGE_VALUE[marriage.suit],
          })
        );
      });
      if (view.seat === null || view.seat === undefined) {
        notes.push(L.spectating);
      }
      if (notes.length) {
        rows.push(el("p", { className: "deal-notes muted", text: notes.join(" ") }));
      }
    }
    var previous = lastFinishedDeal();
    if (previous) {
      rows.push(
        el("p", { className: "previous-deal" }, [
          format(L.previousDeal, { number: previous.number, summary: dealSummary(previous) }),
          " ",
          el("a", { href: replayUrl(previous.number), text: L.replay }),
        ])
      );
    }
    parts.dealInfo.replaceChildren.apply(parts.dealInfo, rows);
  }

  function currentTrick(obs) {
    var tricks = obs.tricks || [];
    var last = tricks[tricks.length - 1];
    return last && (last.winner === null || last.winner === undefined) ? last : null;
  }

  function lastTrick(obs) {
    var tricks = obs.tricks || [];
    for (var i = tricks.length - 1; i >= 0; i -= 1) {
      if (tricks[i].winner !== null && tricks[i].winner !== undefined) {
        return tricks[i];
      }
    }
    return null;
  }

  function trickNodes(obs, trick) {
    return trick.cards.map(function (card, index) {
      var seat = seatOfPlay(obs, trick.leader, index);
      var won = trick.winner === seat;
      return el("figure", { className: "played" + (won ? " winner" : "") }, [
        cardFace(card, "span"),
        el("figcaption", { text: player(seat).name }),
      ]);
    });
  }

  function renderTricks(obs) {
    // Before the play there is no trick to show; the talon has the table to itself.
    var playing = Boolean(obs) && obs.phase === "play";
    parts.currentTrickBox.hidden = !playing;
    var current = obs ? currentTrick(obs) : null;
    var nodes = current
      ? trickNodes(obs, current)
      : [el("p", { className: "muted trick-empty", text: L.noTrick })];
    parts.currentTrick.replaceChildren.apply(parts.currentTrick, nodes);

    var last = obs ? lastTrick(obs) : null;
    parts.lastTrickBox.hidden = !last;
    if (last) {
      var lastNodes = trickNodes(obs, last);
      lastNodes.push(
        el("p", { className: "trick-winner", text: format(L.wonBy, { name: nameOf(last.winner) }) })
      );
      parts.lastTrick.replaceChildren.apply(parts.lastTrick, lastNodes);
    } else {
      parts.lastTrick.replaceChildren();
    }
  }

  function renderTalon(obs) {
    var show = obs && (obs.phase === "bidding" || obs.phase === "giving" || obs.phase === "contract");
    parts.talonBox.hidden = !show;
    if (!show) {
      parts.talon.replaceChildren();
      return;
    }
    var nodes;
    if (obs.talon) {
      nodes = sortCards(obs.talon).map(function (card) {
        return cardFace(card, "span");
      });
    } else {
      nodes = [cardBack(), cardBack(), cardBack()];
      nodes.push(el("span", { className: "visually-hidden", text: L.talonHidden }));
    }
    parts.talon.replaceChildren.apply(parts.talon, nodes);
  }

  function valueSelect(id, label, values, chosen, onChange) {
    var select = el("select", { id: id, "data-key": id, onchange: onChange });
    values.forEach(function (value) {
      var option = el("option", { value: String(value), text: String(value) });
      if (value === chosen) {
        option.selected = true;
      }
      select.appendChild(option);
    });
    return el("div", { className: "control-field" }, [
      el("label", { for: id, text: label }),
      select,
    ]);
  }

  function button(key, text, onClick, extraClass) {
    return el("button", {
      type: "button",
      className: extraClass || null,
      "data-key": key,
      "aria-disabled": pending ? "true" : null,
      onclick: function (event) {
        event.preventDefault();
        if (!pending) {
          onClick();
        }
      },
      text: text,
    });
  }

  function concedeButton() {
    var concede = legalOf("concede")[0];
    if (!concede) {
      return null;
    }
    return button(
      "concede",
      L.concede,
      function () {
        if (window.confirm(view.concede_confirm)) {
          send(concede);
        }
      },
      "secondary concede"
    );
  }

  function renderControls(obs) {
    var nodes = [];
    if (obs && myTurn()) {
      if (obs.phase === "bidding") {
        nodes = biddingControls();
      } else if (obs.phase === "giving") {
        nodes = givingControls();
      } else if (obs.phase === "contract") {
        nodes = contractControls();
      } else if (obs.phase === "play") {
        nodes = playControls();
      }
    }
    parts.controls.hidden = nodes.length === 0;
    parts.controls.replaceChildren.apply(parts.controls, nodes);
  }

  function biddingControls() {
    var bids = legalOf("bid");
    var pass = legalOf("pass")[0];
    var values = bids.map(function (action) {
      return action.value;
    });
    if (values.indexOf(choice.bid) < 0) {
      choice.bid = values.length ? values[0] : null;
    }
    var row = [];
    if (values.length) {
      row.push(
        valueSelect("bid-value", L.yourBid, values, choice.bid, function (event) {
          choice.bid = +event.target.value;
          var bidButton = parts.controls.querySelector('[data-key="bid"]');
          bidButton.textContent = format(L.bidValue, { value: choice.bid });
        })
      );
      row.push(
        button("bid", format(L.bidValue, { value: choice.bid }), function () {
          var action = bids.filter(function (candidate) {
            return candidate.value === choice.bid;
          })[0];
          if (action) {
            send(action);
          }
        })
      );
    }
    if (pass) {
      row.push(
        button(
          "pass",
          L.pass,
          function () {
            send(pass);
          },
          "secondary"
        )
      );
    }
    return [el("div", { className: "control-row" }, row)];
  }

  function givingControls() {
    var gives = legalOf("give");
    var recipients = [];
    gives.forEach(function (action) {
      if (recipients.indexOf(action.to) < 0) {
        recipients.push(action.to);
      }
    });
    var givable = gives.map(function (action) {
      return action.card;
    });
    if (givable.indexOf(choice.giveCard) < 0) {
      choice.giveCard = null;
    }
    var row = recipients.map(function (to) {
      var text = choice.giveCard
        ? format(L.giveCardTo, { card: cardShort(choice.giveCard), name: player(to).name })
        : format(L.giveTo, { name: player(to).name });
      var give = button("give-" + to, text, function () {
        if (!choice.giveCard) {
          showError(L.chooseCard);
          focusHand();
          return;
        }
        var action = gives.filter(function (candidate) {
          return candidate.to === to && candidate.card === choice.giveCard;
        })[0];
        if (action) {
          choice.giveCard = null;
          send(action);
        }
      });
      if (!choice.giveCard) {
        give.classList.add("waiting");
      }
      return give;
    });
    var concede = concedeButton();
    if (concede) {
      row.push(concede);
    }
    return [el("div", { className: "control-row" }, row)];
  }

  function contractControls() {
    var contracts = legalOf("contract");
    var values = contracts.map(function (action) {
      return action.value;
    });
    if (values.indexOf(choice.contract) < 0) {
      choice.contract = values.length ? values[0] : null;
    }
    var row = [];
    if (values.length) {
      row.push(
        valueSelect("contract-value", L.contract, values, choice.contract, function (event) {
          choice.contract = +event.target.value;
          var nameButton = parts.controls.querySelector('[data-key="contract"]');
          nameButton.textContent = format(L.nameContract, { value: choice.contract });
        })
      );
      row.push(
        button("contract", format(L.nameContract, { value: choice.contract }), function () {
          var action = contracts.filter(function (candidate) {
            return candidate.value === choice.contract;
          })[0];
          if (action) {
            send(action);
          }
        })
      );
    }
    var concede = concedeButton();
    if (concede) {
      row.push(concede);
    }
    return [el("div", { className: "control-row" }, row)];
  }

  function playControls() {
    var withMarriage = legalOf("play").filter(function (action) {
      return action.marriage;
    });
    if (!withMarriage.length) {
      return [];
    }
    var box = el("input", {
      type: "checkbox",
      id: "declare-marriage",
      "data-key": "declare-marriage",
      onchange: function (event) {
        choice.marriage = event.target.checked;
      },
    });
    box.checked = choice.marriage;
    var suits = withMarriage
      .map(function (action) {
        return action.card[1];
      })
      .filter(function (suit, index, all) {
        return all.indexOf(suit) === index;
      })
      .map(function (suit) {
        return suitLabel(suit) + " " + MARRIAGE_VALUE[suit];
      });
    return [
      el("div", { className: "control-row marriage-choice" }, [
        box,
        el("label", { for: "declare-marriage", text: L.declareMarriage + " (" + suits.join(", ") + ")" }),
      ]),
    ];
  }

  // The legal play of `card`, with the marriage declared if the viewer wants that and may.
  function playOf(card) {
    var plays = legalOf("play").filter(function (action) {
      return action.card === card;
    });
    if (!plays.length) {
      return null;
    }
    var preferred = plays.filter(function (action) {
      return Boolean(action.marriage) === choice.marriage;
    })[0];
    return preferred || plays[0];
  }

  function renderHand(obs) {
    var seated = view.seat !== null && view.seat !== undefined;
    var holding = seated && obs && obs.hand && obs.hand.length > 0;
    parts.handArea.hidden = !holding;
    if (!holding) {
      parts.hand.replaceChildren();
      return;
    }
    var cards = sortCards(obs.hand);
    var turn = myTurn();
    var playable = {};
    var givable = {};
    if (turn && obs.phase === "play") {
      legalOf("play").forEach(function (action) {
        playable[action.card] = true;
      });
    }
    if (turn && obs.phase === "giving") {
      legalOf("give").forEach(function (action) {
        givable[action.card] = true;
      });
    }
    if (cards.indexOf(choice.handCard) < 0) {
      var firstUsable = cards.filter(function (card) {
        return playable[card] || givable[card];
      })[0];
      choice.handCard = firstUsable || cards[0] || null;
    }
    var nodes = cards.map(function (card, index) {
      var usable = Boolean(playable[card] || givable[card]) && !pending;
      var classes = [];
      if (playable[card]) {
        classes.push("playable");
      }
      if (givable[card]) {
        classes.push("givable");
      }
      if (card === obs.received && obs.phase !== "play") {
        classes.push("received");
      }
      var attributes = {
        type: "button",
        className: classes.join(" "),
        "data-card": card,
        "data-key": "card-" + card,
        "data-index": String(index),
        tabindex: card === choice.handCard ? "0" : "-1",
        "aria-disabled": usable ? null : "true",
      };
      if (obs.phase === "giving" && turn) {
        attributes["aria-pressed"] = choice.giveCard === card ? "true" : "false";
      }
      return cardFace(card, "button", attributes);
    });
    parts.hand.replaceChildren.apply(parts.hand, nodes);
  }

  function renderAuction(obs) {
    var items = [];
    if (obs) {
      (obs.bids || []).forEach(function (bid) {
        items.push(
          el("li", { className: bid.value === null ? "muted" : null }, [
            el("span", { text: player(bid.seat).name + ": " }),
            el("strong", { text: bid.value === null ? L.passed : String(bid.value) }),
          ])
        );
      });
      if (obs.forced && obs.declarer !== null) {
        items.push(
          el("li", { text: nameOf(obs.declarer) + ": " + obs.bid + " (" + L.forced + ")" })
        );
      }
    }
    if (!items.length) {
      items.push(el("li", { className: "muted", text: "\u2014" }));
    }
    parts.auction.replaceChildren.apply(parts.auction, items);
  }

  function renderSheet() {
    var seats = view.players.map(function (info) {
      return info.position;
    });
    var head = el("thead", {}, [
      el(
        "tr",
        {},
        [el("th", { scope: "col", text: "#" })].concat(
          seats.map(function (seat) {
            return el("th", { scope: "col", className: "num", text: player(seat).name });
          })
        )
      ),
    ]);
    var rows = (view.deals || []).map(function (deal) {
      var cells = [
        el("th", { scope: "row" }, [
          el("a", {
            href: replayUrl(deal.number),
            title: L.replay + ": " + dealSummary(deal),
            text: String(deal.number),
          }),
        ]),
      ];
      seats.forEach(function (seat) {
        var score = deal.scores ? deal.scores[seat] : null;
        var classes = ["num"];
        if (deal.declarer === seat) {
          classes.push("declarer-score", deal.outcome === "made" ? "made" : "failed");
        }
        cells.push(
          el("td", { className: classes.join(" "), text: score === null ? "" : signed(score) })
        );
      });
      return el("tr", {}, cells);
    });
    if (!rows.length) {
      rows.push(
        el("tr", {}, [
          el("td", { colspan: String(seats.length + 1), className: "muted", text: L.noScores }),
        ])
      );
    }
    var body = el("tbody", {}, rows);
    var foot = el("tfoot", {}, [
      el(
        "tr",
        {},
        [el("th", { scope: "row", text: L.total })].concat(
          seats.map(function (seat) {
            var winner = view.winner === seat;
            return el("td", {
              className: "num" + (winner ? " winner" : ""),
              text: total(view.totals[seat]),
            });
          })
        )
      ),
    ]);
    var caption = parts.sheet.querySelector("caption");
    parts.sheet.replaceChildren(caption, head, body, foot);
  }

  // ------------------------------------------------------------ hand keyboard and clicks

  function handButtons() {
    return Array.prototype.slice.call(parts.hand.querySelectorAll("button.card"));
  }

  function focusHand() {
    var target =
      parts.hand.querySelector('button.card[tabindex="0"]') || parts.hand.querySelector("button.card");
    if (target) {
      target.focus();
    }
  }

  function moveFocus(to) {
    var buttons = handButtons();
    if (!buttons.length) {
      return;
    }
    var index = Math.max(0, Math.min(to, buttons.length - 1));
    buttons.forEach(function (candidate, position) {
      candidate.tabIndex = position === index ? 0 : -1;
    });
    choice.handCard = buttons[index].getAttribute("data-card");
    buttons[index].focus();
  }

  parts.hand.addEventListener("keydown", function (event) {
    var current = event.target.closest("button.card");
    if (!current) {
      return;
    }
    var buttons = handButtons();
    var index = buttons.indexOf(current);
    var moves = {
      ArrowRight: index + 1,
      ArrowDown: index + 1,
      ArrowLeft: index - 1,
      ArrowUp: index - 1,
      Home: 0,
      End: buttons.length - 1,
    };
    if (Object.prototype.hasOwnProperty.call(moves, event.key)) {
      event.preventDefault();
      moveFocus(moves[event.key]);
    }
  });

  parts.hand.addEventListener("click", function (event) {
    var target = event.target.closest("button.card");
    if (!target) {
      return;
    }
    var card = target.getAttribute("data-card");
    choice.handCard = card;
    var obs = observation();
    if (pending || !obs || !myTurn()) {
      return;
    }
    if (obs.phase === "play") {
      var action = playOf(card);
      if (action) {
        send(action);
      } else {
        showError(L.notLegal);
      }
    } else if (obs.phase === "giving" && target.classList.contains("givable")) {
      choice.giveCard = choice.giveCard === card ? null : card;
      hideError();
      render();
    }
  });

  // ------------------------------------------------------------ errors

  function showError(message) {
    parts.error.textContent = message;
    parts.error.hidden = false;
  }

  function hideError() {
    parts.error.hidden = true;
    parts.error.textContent = "";
  }

  // ------------------------------------------------------------ talking to the server

  var socket = null;
  var socketOpen = false;
  var reconnectDelay = 500;
  var pollTimer = null;

  function setConnection(state) {
    parts.connection.setAttribute("data-state", state);
    parts.connectionText.textContent = L.connection[state] || state;
  }

  function applyView(next) {
    if (!next || typeof next.sequence !== "number") {
      return;
    }
    if (next.sequence < view.sequence) {
      return; // an older view that arrived late
    }
    if (next.sequence > view.sequence) {
      hideError();
    }
    view = next;
    setPending(false);
    render();
  }

  function setPending(value) {
    pending = value;
    clearTimeout(pendingTimer);
    if (value) {
      // A move whose answer never came: ask for the table as it is now.
      pendingTimer = setTimeout(function () {
        setPending(false);
        refresh();
        render();
      }, PENDING_TIMEOUT_MS);
    }
  }

  function send(action) {
    if (pending) {
      return;
    }
    hideError();
    setPending(true);
    render();
    var message = { action: action, sequence: view.sequence };
    if (socketOpen) {
      message.type = "act";
      socket.send(JSON.stringify(message));
      return;
    }
    fetch(config.actUrl, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": config.csrfToken },
      body: JSON.stringify(message),
    })
      .then(function (response) {
        return response.json();
      })
      .then(function (body) {
        if (body.error) {
          showError(body.error);
        }
        if (body.view) {
          applyView(body.view);
        } else {
          setPending(false);
          render();
        }
      })
      .catch(function () {
        setPending(false);
        showError(L.sendFailed);
        render();
      });
  }

  function refresh() {
    if (socketOpen) {
      socket.send(JSON.stringify({ type: "sync", since: view.sequence }));
      return;
    }
    fetch(config.stateUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) {
        return response.ok ? response.json() : null;
      })
      .then(function (body) {
        if (body && !pending) {
          applyView(body);
        }
      })
      .catch(function () {
        /* the next poll tries again */
      });
  }

  function startPolling() {
    if (pollTimer === null) {
      pollTimer = setInterval(refresh, POLL_MS);
      setConnection("polling");
    }
  }

  function stopPolling() {
    if (pollTimer !== null) {
      clearInterval(pollTimer);
      pollTimer = null;
    }
  }

  function connect() {
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    var opened = false;
    try {
      socket = new WebSocket(scheme + window.location.host + config.socketPath);
    } catch (error) {
      startPolling();
      return;
    }
    // A socket that neither opens nor fails (a proxy that swallows it): poll meanwhile.
    var openTimer = setTimeout(function () {
      if (!opened) {
        startPolling();
      }
    }, OPEN_TIMEOUT_MS);
    socket.addEventListener("open", function () {
      opened = true;
      socketOpen = true;
      reconnectDelay = 500;
      clearTimeout(openTimer);
      stopPolling();
      setConnection("live");
    });
    socket.addEventListener("message", function (event) {
      var message;
      try {
        message = JSON.parse(event.data);
      } catch (error) {
        return;
      }
      if (message.type === "view") {
        applyView(message.view);
      } else if (message.type === "error") {
        showError(message.message);
      }
    });
    socket.addEventListener("close", function () {
      clearTimeout(openTimer);
      socketOpen = false;
      socket = null;
      if (pending) {
        // The answer to a move is lost with the socket; the poll below shows what happened.
        setPending(false);
        render();
      }
      startPolling();
      setConnection(opened ? "reconnecting" : "polling");
      refresh();
      setTimeout(connect, reconnectDelay);
      reconnectDelay = Math.min(reconnectDelay * 2, 30000);
    });
  }

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") {
      refresh();
    }
  });

  render();
  setConnection("connecting");
  connect();
})();
