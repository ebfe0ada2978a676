// The live table: the viewer's own view of the game as the server sent it, drawn, and kept
// current over the websocket (or by polling when there is none). Moves that came together are
// shown one by one (pacing.js), a finished deal ends with its summary until "Continue", and only
// the actions the server lists as legal are offered; the server checks every move again anyway.
import { drawBoard } from "./board.js";
import { CardBook } from "./cards.js";
import { Connection } from "./connection.js";
import { drawControls } from "./controls.js";
import { bindHand, drawHand, focusHand } from "./hand.js";
import { pauseBefore, sceneAt, stepsOf } from "./pacing.js";
import { drawSidebar } from "./sidebar.js";
import { drawSummary } from "./summary.js";
import { format } from "./text.js";

// A move whose answer never came: after this long the table is asked for as it is now.
const PENDING_TIMEOUT_MS = 8000;
// Without the server's pauses (gameplay.pacing) moves are shown as they come, and a summary
// waits for "Continue" only.
const NO_PACE = { bid: 0, card: 0, trick: 0, talon: 0, give: 0, contract: 0, summary: 0 };

const PART_IDS = {
  status: "table-status",
  playAgain: "play-again",
  connection: "connection",
  connectionText: "connection-text",
  stage: "table-stage",
  seats: "seats",
  dealInfo: "deal-info",
  board: "board",
  auctionBox: "auction-box",
  auction: "auction",
  currentTrick: "current-trick",
  currentTrickBox: "current-trick-box",
  lastTrick: "last-trick",
  lastTrickBox: "last-trick-box",
  lastTrickToggle: "last-trick-toggle",
  replayLink: "replay-link",
  talon: "talon",
  talonBox: "talon-box",
  talonNote: "talon-note",
  summary: "deal-summary",
  summaryTitle: "deal-summary-title",
  summaryOutcome: "deal-summary-outcome",
  summaryRows: "deal-summary-rows",
  summaryNotes: "deal-summary-notes",
  summaryContinue: "deal-summary-continue",
  summaryReplay: "deal-summary-replay",
  controls: "controls",
  error: "table-error",
  handArea: "hand-area",
  hand: "hand",
  sheet: "score-sheet",
};

export class LiveTable {
  // `view`: gameplay.selectors.live_game_view for this viewer; `labels` and `cards`: the words
  // and the facts of the cards (web.presenters.table); `config`: the URLs, the CSRF token and
  // the pauses between moves.
  constructor(root, { view, labels, cards, config }) {
    this.root = root;
    this.view = view;
    this.labels = labels;
    this.cards = new CardBook(cards);
    this.config = config;
    this.pace = { ...NO_PACE, ...(config.pace ?? {}) };
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
      lastTrick: false, // the last trick shown on request
    };
    this.pending = false;
    this.pendingTimer = null;
    // What the table shows: the deal `deal` after its first `count` steps (pacing.js).
    const target = this.targetDeal();
    this.cursor = { deal: target, count: stepsOf(this.sourceOf(target)).length };
    this.shownAt = 0; // when the last step was shown (performance.now())
    this.stepTimer = null;
    // The end-of-deal summary on screen: {number, timer}, or null.
    this.summary = null;
    this.connection = new Connection(this);
  }

  start() {
    bindHand(this);
    this.parts.summaryContinue.addEventListener("click", () => this.closeSummary());
    this.parts.lastTrickToggle.addEventListener("click", () => {
      this.choice.lastTrick = !this.choice.lastTrick;
      this.render();
    });
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") {
        this.connection.refresh();
      }
    });
    if (this.view.status === "finished" && (this.view.deals ?? []).length) {
      // A finished game opens on its last deal's summary, which stays until closed.
      this.openSummary(this.view.deals.at(-1).number, { timeout: false });
    }
    this.render();
    this.connection.start();
  }

  // ---------------------------------------------------------------- reading the view

  // The number of the deal the view is at: the one in progress, else the last one played.
  targetDeal() {
    const current = this.view.current_deal;
    if (current) {
      return current.number;
    }
    const last = (this.view.deals ?? []).at(-1);
    return last ? last.number : null;
  }

  // A deal's public facts as the view holds them: the observation of the deal in progress (or
  // of the game's last deal), or the end of the latest finished deal; null when the view no
  // longer has them.
  sourceOf(number) {
    if (number === null) {
      return this.view.observation ?? null;
    }
    if (this.view.current_deal && this.view.current_deal.number === number) {
      return this.view.observation ?? null;
    }
    const finished = this.finishedDeal(number);
    if (finished && finished.final) {
      return finished.final;
    }
    if (!this.view.current_deal && number === this.targetDeal()) {
      return this.view.observation ?? null;
    }
    return null;
  }

  finishedDeal(number) {
    return (this.view.deals ?? []).find((deal) => deal.number === number) ?? null;
  }

  // What is on the table now: the observation as far as it has been shown.
  scene() {
    const source = this.sourceOf(this.cursor.deal);
    const obs = sceneAt(source, this.cursor.count, {
      seat: this.seated ? this.view.seat : null,
      talonSize: this.cards.talonSize,
    });
    const caughtUp =
      !this.summary && this.cursor.deal === this.targetDeal() && obs !== null && !obs.behind;
    return {
      obs,
      number: this.cursor.deal,
      caughtUp,
      toAct: caughtUp || !obs ? this.view.to_act : obs.to_act,
      // The finished deals the table has shown the end of, and the totals after them.
      deals: this.shownDeals(),
    };
  }

  shownDeals() {
    const ended = this.summary !== null || this.cursorAtEnd();
    return (this.view.deals ?? []).filter(
      (deal) =>
        this.cursor.deal === null ||
        deal.number < this.cursor.deal ||
        (deal.number === this.cursor.deal && ended),
    );
  }

  cursorAtEnd() {
    const source = this.sourceOf(this.cursor.deal);
    return (
      Boolean(source) && source.phase === "done" && this.cursor.count >= stepsOf(source).length
    );
  }

  shownTotals() {
    const last = this.shownDeals().at(-1);
    if (last && last.totals) {
      return last.totals;
    }
    return this.view.totals.map(() => 0);
  }

  get observation() {
    return this.scene().obs;
  }

  get seated() {
    return this.view.seat !== null && this.view.seat !== undefined;
  }

  myTurn() {
    return this.seated && (this.view.legal ?? []).length > 0 && this.scene().caughtUp;
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

  // ---------------------------------------------------------------- showing steps in turn

  // Show the next step when its pause is over, and so on until the table has caught up with
  // the view (or a summary waits).
  advance() {
    clearTimeout(this.stepTimer);
    this.stepTimer = null;
    if (this.summary) {
      return;
    }
    const target = this.targetDeal();
    let source = this.sourceOf(this.cursor.deal);
    if (source === null) {
      // The deal shown is no longer in the view (the page was away so long): show the end of
      // the first deal the view still has, else the table as it is.
      const kept = (this.view.deals ?? []).find(
        (deal) => deal.final && deal.number > (this.cursor.deal ?? 0),
      );
      if (kept) {
        source = kept.final;
        this.cursor = { deal: kept.number, count: Math.max(0, stepsOf(source).length - 1) };
      } else {
        source = this.sourceOf(target);
        this.cursor = { deal: target, count: stepsOf(source).length };
      }
    }
    const steps = stepsOf(source);
    if (this.cursor.count >= steps.length) {
      if (this.cursor.deal !== target && source && source.phase === "done") {
        this.cursor = { deal: this.cursor.deal + 1, count: 0 };
        this.advance();
      }
      return;
    }
    const step = steps[this.cursor.count];
    const previous = steps[this.cursor.count - 1] ?? null;
    const seat = this.seated ? this.view.seat : null;
    const wait = pauseBefore(step, previous, seat, this.pace) - (performance.now() - this.shownAt);
    if (wait > 0) {
      this.stepTimer = setTimeout(() => this.advance(), wait);
      return;
    }
    this.cursor = { deal: this.cursor.deal, count: this.cursor.count + 1 };
    this.shownAt = performance.now();
    if (step.kind === "end") {
      this.openSummary(this.cursor.deal, { timeout: true });
    }
    if (step.kind === "play" && previous && previous.ends) {
      this.choice.lastTrick = false;
    }
    this.render();
    this.advance();
  }

  openSummary(number, { timeout }) {
    clearTimeout(this.summary?.timer);
    const timer =
      timeout && this.pace.summary > 0 && this.view.status !== "finished"
        ? setTimeout(() => this.closeSummary(), this.pace.summary)
        : null;
    this.summary = { number, timer };
  }

  closeSummary() {
    if (!this.summary) {
      return;
    }
    clearTimeout(this.summary.timer);
    this.summary = null;
    this.choice.lastTrick = false;
    if (this.cursor.deal !== this.targetDeal() && this.cursor.deal !== null) {
      this.cursor = { deal: this.cursor.deal + 1, count: 0 };
    }
    this.shownAt = performance.now();
    this.render();
    this.advance();
    if (this.myTurn()) {
      this.focusHand();
    }
  }

  // ---------------------------------------------------------------- drawing

  render() {
    const focused = document.activeElement;
    const focusKey =
      focused && this.root.contains(focused) ? focused.getAttribute("data-key") : null;
    const focusIndex = focused?.hasAttribute("data-index") ? Number(focused.dataset.index) : -1;

    const scene = this.scene();
    const obs = scene.obs;
    if (this.choice.turn !== this.view.sequence) {
      // A new turn starts from the lowest bid or contract, not from a value chosen before.
      this.choice.turn = this.view.sequence;
      this.choice.bid = null;
      this.choice.contract = null;
    }
    this.root.dataset.phase = obs ? obs.phase : "";
    this.root.dataset.myTurn = String(this.myTurn());
    this.root.dataset.sequence = String(this.view.sequence);
    this.root.dataset.shown = scene.caughtUp ? "all" : "catching-up";
    this.root.dataset.summary = this.summary ? String(this.summary.number) : "";
    this.root.setAttribute("aria-busy", String(this.pending));
    drawBoard(this, scene);
    drawSummary(this, scene);
    drawControls(this, obs);
    drawHand(this, obs);
    drawSidebar(this, scene);

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
    this.advance();
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
