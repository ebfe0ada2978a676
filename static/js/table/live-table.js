// The live table: the viewer's own view of the game as the server sent it, drawn, and kept
// current over the websocket (or by polling when there is none). Only the actions the server
// lists as legal are offered; the server checks every move again anyway.
import { drawBoard } from "./board.js";
import { CardBook } from "./cards.js";
import { Connection } from "./connection.js";
import { drawControls } from "./controls.js";
import { bindHand, drawHand, focusHand } from "./hand.js";
import { drawSidebar } from "./sidebar.js";
import { format } from "./text.js";

// A move whose answer never came: after this long the table is asked for as it is now.
const PENDING_TIMEOUT_MS = 8000;

const PART_IDS = {
  status: "table-status",
  playAgain: "play-again",
  connection: "connection",
  connectionText: "connection-text",
  seats: "seats",
  dealInfo: "deal-info",
  currentTrick: "current-trick",
  currentTrickBox: "current-trick-box",
  lastTrick: "last-trick",
  lastTrickBox: "last-trick-box",
  talon: "talon",
  talonBox: "talon-box",
  controls: "controls",
  error: "table-error",
  handArea: "hand-area",
  hand: "hand",
  auction: "auction",
  sheet: "score-sheet",
};

export class LiveTable {
  // `view`: gameplay.selectors.live_game_view for this viewer; `labels` and `cards`: the words
  // and the facts of the cards (web.presenters.table); `config`: the URLs and the CSRF token.
  constructor(root, { view, labels, cards, config }) {
    this.root = root;
    this.view = view;
    this.labels = labels;
    this.cards = new CardBook(cards);
    this.config = config;
    this.parts = Object.fromEntries(
      Object.entries(PART_IDS).map(([part, id]) => [part, document.getElementById(id)]),
    );
    // What the viewer chose on this page; kept across redraws.
    this.choice = {
      turn: null, // the sequence number the choices below were made at
      giveCard: null, // the card picked to give, in the giving phase
      bid: null,
      contract: null,
      marriage: true, // declare a marriage when leading its king or queen
      handCard: null, // the card that takes the hand's single tab stop
    };
    this.pending = false;
    this.pendingTimer = null;
    this.connection = new Connection(this);
  }

  start() {
    bindHand(this);
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") {
        this.connection.refresh();
      }
    });
    this.render();
    this.connection.start();
  }

  // ---------------------------------------------------------------- reading the view

  get observation() {
    return this.view.observation ?? null;
  }

  get seated() {
    return this.view.seat !== null && this.view.seat !== undefined;
  }

  myTurn() {
    return this.seated && (this.view.legal ?? []).length > 0;
  }

  legalOf(type) {
    return (this.view.legal ?? []).filter((action) => action.type === type);
  }

  player(seat) {
    return (
      this.view.players.find((info) => info.position === seat) ?? {
        position: seat,
        name: `#${seat}`,
        bot_level: "",
      }
    );
  }

  nameOf(seat) {
    const name = this.player(seat).name;
    return seat === this.view.seat ? `${name} (${this.labels.you})` : name;
  }

  replayUrl(number) {
    return this.config.replayUrl.replace("__number__", String(number));
  }

  dealSummary(deal) {
    const L = this.labels;
    if (deal.declarer === null || deal.declarer === undefined) {
      return L.outcomes[deal.outcome] ?? "";
    }
    return format(L.dealSummary, {
      name: this.nameOf(deal.declarer),
      contract: deal.contract || deal.bid || "",
      outcome: L.outcomes[deal.outcome] ?? deal.outcome ?? "",
    });
  }

  // ---------------------------------------------------------------- drawing

  render() {
    const focused = document.activeElement;
    const focusKey = focused && this.root.contains(focused) ? focused.getAttribute("data-key") : null;
    const focusIndex = focused?.hasAttribute("data-index") ? Number(focused.dataset.index) : -1;

    const obs = this.observation;
    if (this.choice.turn !== this.view.sequence) {
      // A new turn starts from the lowest bid or contract, not from a value chosen before.
      this.choice.turn = this.view.sequence;
      this.choice.bid = null;
      this.choice.contract = null;
    }
    this.root.dataset.phase = obs ? obs.phase : "";
    this.root.dataset.myTurn = String(this.myTurn());
    this.root.dataset.sequence = String(this.view.sequence);
    this.root.setAttribute("aria-busy", String(this.pending));
    drawBoard(this, obs);
    drawControls(this, obs);
    drawHand(this, obs);
    drawSidebar(this, obs);

    if (focusKey) {
      let again = this.root.querySelector(`[data-key="${focusKey}"]`);
      if (!again && focusIndex >= 0) {
        // The focused card was played or given: stay in the hand, next to where it was.
        const cards = this.parts.hand.querySelectorAll("button.card");
        again = cards[Math.min(focusIndex, cards.length - 1)] ?? null;
      }
      if (again && document.activeElement !== again) {
        again.focus();
      }
    }
  }

  focusHand() {
    focusHand(this);
  }

  showError(message) {
    this.parts.error.textContent = message;
    this.parts.error.hidden = false;
  }

  hideError() {
    this.parts.error.hidden = true;
    this.parts.error.textContent = "";
  }

  // ---------------------------------------------------------------- moves and answers

  send(action) {
    if (this.pending) {
      return;
    }
    this.hideError();
    this.setPending(true);
    this.render();
    this.connection.send(action, this.view.sequence);
  }

  applyView(next) {
    if (!next || typeof next.sequence !== "number") {
      return;
    }
    if (next.sequence < this.view.sequence) {
      return; // an older view that arrived late
    }
    if (next.sequence > this.view.sequence) {
      this.hideError();
    }
    this.view = next;
    this.setPending(false);
    this.render();
  }

  setPending(value) {
    this.pending = value;
    clearTimeout(this.pendingTimer);
    if (value) {
      this.pendingTimer = setTimeout(() => {
        this.setPending(false);
        this.connection.refresh();
        this.render();
      }, PENDING_TIMEOUT_MS);
    }
  }
}
