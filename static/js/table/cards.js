// The cards as the server describes them (web.presenters.table.card_facts, made from the
// engine's rules.cards): the suits and the ranks in the engine's order, each with its letter,
// symbol or face and name, and the suits' marriage values. A card is written as in the records,
// rank letter then suit letter ("TH"); this module knows nothing else of the cards.
import { el } from "./dom.js";
import { format } from "./text.js";

export class CardBook {
  constructor(facts) {
    this.suits = new Map(facts.suits.map((suit, order) => [suit.letter, { ...suit, order }]));
    this.ranks = new Map(facts.ranks.map((rank, order) => [rank.letter, { ...rank, order }]));
    this.template = facts.card;
    this.talonSize = facts.talon;
  }

  suitOf(card) {
    return this.suits.get(card[1]);
  }

  rankOf(card) {
    return this.ranks.get(card[0]);
  }

  // By suit, then by rank, in the engine's order.
  sorted(cards) {
    const order = (card) => this.suitOf(card).order * this.ranks.size + this.rankOf(card).order;
    return [...(cards ?? [])].sort((a, b) => order(a) - order(b));
  }

  // For running text: the rank's face and the suit's symbol.
  short(card) {
    return this.rankOf(card).face + this.suitOf(card).symbol;
  }

  // What a screen reader says ("ten of hearts").
  label(card) {
    return format(this.template, { rank: this.rankOf(card).name, suit: this.suitOf(card).name });
  }

  suitLabel(letter) {
    const suit = this.suits.get(letter);
    return `${suit.symbol}\u00a0${suit.name}`;
  }

  marriageValue(letter) {
    return this.suits.get(letter).marriage;
  }

  // The face of a card: rank over suit (table.css colours the suits by their letter).
  face(card, tag = "span", { className = "", ...attributes } = {}) {
    const suit = this.suitOf(card);
    const base = {
      className: ["card", `suit-${suit.letter}`, className].filter(Boolean).join(" "),
      role: tag === "button" ? null : "img",
      "aria-label": this.label(card),
    };
    return el(tag, { ...base, ...attributes }, [
      el("span", { className: "card-rank", "aria-hidden": "true", text: this.rankOf(card).face }),
      el("span", { className: "card-suit", "aria-hidden": "true", text: suit.symbol }),
    ]);
  }

  back() {
    return el("span", { className: "card card-back", "aria-hidden": "true" });
  }
}
