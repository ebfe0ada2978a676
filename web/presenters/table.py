"""What the live table's pages show: the facts of the cards and the words the table's script is
given, and the replay of a finished deal.

The facts of the cards (suit order, symbols, marriage values, rank order, card points) are the
engine's own, from `rules.cards`; only the names and faces people read are translated here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from gameplay import selectors
from gameplay.models import LiveGame
from rules import Card, DealState, Marriage, Rank, Suit, Trick
from rules.cards import RANK_POINTS
from rules.deal import TALON_POSITIONS

CardFace = dict[str, str]


# ---------------------------------------------------------------- cards


def _suit_names() -> dict[Suit, str]:
    return {
        Suit.SPADES: _("spades"),
        Suit.CLUBS: _("clubs"),
        Suit.DIAMONDS: _("diamonds"),
        Suit.HEARTS: _("hearts"),
    }


def _rank_names() -> dict[Rank, str]:
    return {
        Rank.NINE: pgettext("card", "nine"),
        Rank.JACK: pgettext("card", "jack"),
        Rank.QUEEN: pgettext("card", "queen"),
        Rank.KING: pgettext("card", "king"),
        Rank.TEN: pgettext("card", "ten"),
        Rank.ACE: pgettext("card", "ace"),
    }


def _rank_faces() -> dict[Rank, str]:
    """What a card's corner shows: 9 and 10 as numbers, the picture cards and the ace by their
    initials in the reader's language (Ukrainian В, Д, К, Т)."""
    return {
        Rank.NINE: "9",
        Rank.JACK: pgettext("card face", "J"),
        Rank.QUEEN: pgettext("card face", "Q"),
        Rank.KING: pgettext("card face", "K"),
        Rank.TEN: "10",
        Rank.ACE: pgettext("card face", "A"),
    }


def card_facts() -> dict[str, Any]:
    """The cards as the table's script knows them, once per page: the suits and the ranks in the
    engine's order (low to high), each with its letter of the record notation, what it shows and
    its name, the suits' marriage values and the ranks' card points; `card` names a card and
    `talon` is how many cards lie face down in the talon."""
    suit_names, rank_names, faces = _suit_names(), _rank_names(), _rank_faces()
    return {
        "suits": [
            {
                "letter": suit.letter,
                "symbol": suit.symbol,
                "name": suit_names[suit],
                "marriage": suit.marriage_value,
            }
            for suit in Suit
        ],
        "ranks": [
            {
                "letter": rank.letter,
                "face": faces[rank],
                "name": rank_names[rank],
                "points": RANK_POINTS[rank],
            }
            for rank in Rank
        ],
        "card": _("%(rank)s of %(suit)s"),
        "talon": len(TALON_POSITIONS),
    }


def card_faces() -> Callable[[Card], CardFace]:
    """A function from a card to what templates/gameplay/_card.html draws of it."""
    suit_names, rank_names, faces = _suit_names(), _rank_names(), _rank_faces()
    template = _("%(rank)s of %(suit)s")

    def face(card: Card) -> CardFace:
        return {
            "name": str(card),
            "suit": card.suit.letter,
            "symbol": card.suit.symbol,
            "rank": faces[card.rank],
            "label": template % {"rank": rank_names[card.rank], "suit": suit_names[card.suit]},
        }

    return face


# ---------------------------------------------------------------- the replay of a finished deal


def live_deal_replay(
    game: LiveGame, *, user: selectors.AnyUser | None, number: int, step: int | None
) -> dict[str, Any] | None:
    """The replay page of deal `number` as `user` may see it: `deal` (its public record: deck,
    salt, commitment) and `replay` (see `deal_replay`); None unless that deal is over."""
    view = selectors.live_game_view(game, user=user)
    finished = next((deal for deal in view["deals"] if deal.get("number") == number), None)
    if finished is None:
        # Deals in progress are not replayed: that would show the hidden cards.
        return None
    # Deal numbers count from 1 in the order the engine game holds them.
    finished_state = selectors.live_game_state(game).deals[number - 1]
    seats = {player["position"]: player["name"] for player in view["players"]}
    names = [seats.get(seat, str(seat)) for seat in range(game.players)]
    return {"deal": finished, "replay": deal_replay(finished_state, names=names, step=step)}


def deal_replay(finished: DealState, *, names: list[str], step: int | None) -> dict[str, Any]:
    """A finished deal replayed from its deck and actions, everything shown: the hands as dealt,
    the auction, the gifts, and each trick with the hands left after it. `step` picks the trick
    shown on the table (0: the hands as the play began)."""
    card = card_faces()
    state = DealState.deal(
        finished.deck, players=finished.players, dealer=finished.dealer, rules=finished.rules
    )
    active = list(state.active)

    def hands() -> list[dict[str, Any]]:
        return [
            {"seat": seat, "name": names[seat], "cards": [card(c) for c in state.hand(seat)]}
            for seat in active
        ]

    dealt = hands()
    auction: list[dict[str, Any]] = []
    gifts: list[dict[str, Any]] = []
    hands_before_play = None
    hands_after_trick: list[list[dict[str, Any]]] = []
    conceded_by = None
    for action in finished.history():
        if action.type == "play" and hands_before_play is None:
            hands_before_play = hands()
        state.apply(action)
        if action.type in ("bid", "pass"):
            auction.append({"name": names[action.seat], "value": action.value})
        elif action.type == "give":
            gifts.append(
                {"from": names[action.seat], "to": names[action.to], "card": card(action.card)}
            )
        elif action.type == "concede":
            conceded_by = names[action.seat]
        elif action.type == "play" and state.tricks()[-1].winner is not None:
            hands_after_trick.append(hands())

    marriages = {marriage.trick: marriage for marriage in state.marriages()}
    tricks = [
        _trick_row(index, trick, marriages.get(index), state.active, names, card)
        for index, trick in enumerate(state.tricks())
    ]
    last = len(tricks)
    if step is None or not 0 <= step <= last:
        step = 0
    points = state.deal_points()
    scores = list(state.scores) if state.scores else [None] * state.players
    return {
        "active": [{"seat": seat, "name": names[seat]} for seat in active],
        "dealer": names[state.dealer],
        "dealt": dealt,
        "talon": [card(c) for c in state.talon_cards],
        "declarer": names[state.declarer] if state.declarer >= 0 else None,
        "bid": state.bid or None,
        "forced": state.forced,
        "contract": state.contract or None,
        "outcome": state.outcome,
        "auction": auction,
        "gifts": gifts,
        "conceded_by": conceded_by,
        "tricks": tricks,
        "step": step,
        "steps": list(range(last + 1)),
        "previous_step": step - 1 if step > 0 else None,
        "next_step": step + 1 if step < last else None,
        "shown_trick": tricks[step - 1] if step else None,
        "hands_now": hands_after_trick[step - 1] if step else (hands_before_play or hands()),
        "results": [
            {"name": names[seat], "points": points[seat], "score": scores[seat]}
            for seat in range(state.players)
        ],
        "deck": [card(c) for c in state.deck],
    }


def _trick_row(
    index: int,
    trick: Trick,
    marriage: Marriage | None,
    active: tuple[int, ...],
    names: list[str],
    card: Callable[[Card], CardFace],
) -> dict[str, Any]:
    """One row of the replay's table of tricks: who played what, who won, the trump, and the
    marriage declared on it."""
    seats = selectors.trick_seats(active, trick.leader, len(trick.cards))
    by_seat = dict(zip(seats, trick.cards, strict=True))
    return {
        "number": index + 1,
        "leader": names[trick.leader],
        "cells": [
            {
                "seat": seat,
                "name": names[seat],
                "card": card(by_seat[seat]),
                "won": seat == trick.winner,
            }
            for seat in active
            if seat in by_seat
        ],
        "winner": names[trick.winner],
        "points": sum(played.points for played in trick.cards),
        "trump": None if trick.trump is None else Suit(trick.trump).symbol,
        "marriage": None
        if marriage is None
        else {
            "name": names[marriage.seat],
            "symbol": Suit(marriage.suit).symbol,
            "value": Suit(marriage.suit).marriage_value,
        },
    }


# ---------------------------------------------------------------- the words of the table page


def table_labels() -> dict[str, Any]:
    """Every text static/js/table/ shows, translated; placeholders in %(name)s form. The names
    of the cards are in `card_facts`."""
    return {
        "phases": {
            "bidding": _("Bidding"),
            "giving": _("Giving cards"),
            "contract": _("Naming the contract"),
            "play": _("Playing"),
            "done": _("Deal over"),
        },
        "you": _("you"),
        "yourTurn": _("Your turn"),
        "toActBadge": _("to act"),
        "waitingFor": _("Waiting for %(name)s…"),
        "stopped": _("The tournament is finished, so its tables are no longer played."),
        "prompt": {
            "bidding": _("Bid or pass."),
            "giving": _("Give one card to each opponent: choose a card, then the player."),
            "contract": _("Name the contract, or concede."),
            "play": _("Play a card."),
            "lead": _("Lead a card."),
        },
        "bid": _("Bid"),
        "bidValue": _("Bid %(value)s"),
        "pass": _("Pass"),
        "passed": _("pass"),
        "yourBid": _("Your bid"),
        "giveTo": _("Give to %(name)s"),
        "giveCardTo": _("Give %(card)s to %(name)s"),
        "chooseCard": _("First choose a card in your hand."),
        "gotCard": _("You received %(card)s."),
        "gaveCard": _("You gave %(card)s to %(name)s."),
        "contract": _("Contract"),
        "nameContract": _("Name contract %(value)s"),
        "concede": _("Concede the deal"),
        "declareMarriage": _("Declare a marriage when I lead its king or queen"),
        "marriageDeclared": _("%(name)s declared the %(suit)s marriage (%(value)s)."),
        "trump": _("Trump"),
        "noTrump": _("no trump yet"),
        "declarer": _("Declarer"),
        "forced": _("forced"),
        "talon": _("Talon"),
        "talonHidden": _("face down"),
        "noTrick": _("No cards played yet."),
        "wonBy": _("won by %(name)s"),
        # A label, not a sentence: no plural to agree with the number ("cards: 1").
        "cardsLeft": _("cards: %(count)s"),
        "dealer": _("dealer"),
        "sitsOut": _("sits out"),
        "bot": _("bot, %(level)s"),
        "botLevels": {"easy": _("easy"), "normal": _("normal"), "hard": _("hard")},
        "cardPoints": _("card points: %(points)s"),
        "deal": _("Deal %(number)s"),
        "total": _("Total"),
        "replay": _("Replay"),
        "outcomes": {
            "made": _("made"),
            "failed": _("failed"),
            "conceded": _("conceded"),
        },
        "dealSummary": _("%(name)s, contract %(contract)s, %(outcome)s"),
        "gameOver": _("The game is over. %(name)s wins."),
        "gameOverNoWinner": _("The game is over."),
        "connection": {
            "live": _("Live"),
            "connecting": _("Connecting…"),
            "reconnecting": _("Reconnecting…"),
            "polling": _("Updating every few seconds"),
        },
        "sendFailed": _("The move could not be sent; check the connection and try again."),
        "notLegal": _("That card cannot be played now."),
        "spectating": _("You are watching: only public information is shown."),
        "noScores": _("No deal finished yet."),
        # The talon turned up for everyone, the gifts, and the summary at the end of a deal.
        "talonTaken": _("The talon is turned up for everyone; %(name)s takes it."),
        "cardsGiven": _("Cards given: %(count)s"),
        "receivedBadge": _("got a card"),
        "replayDeal": _("Replay of deal %(number)s"),
        "summaryTitle": _("Deal %(number)s is over"),
        "summaryOutcome": {
            "made": _("%(name)s made the contract of %(contract)s."),
            "failed": _("%(name)s did not make the contract of %(contract)s."),
            "conceded": _("%(name)s conceded the deal (%(contract)s)."),
        },
        "dealerTalon": _("%(name)s, the dealer, scores the talon."),
        "nextDealSoon": _("The next deal is shown when you continue."),
    }
