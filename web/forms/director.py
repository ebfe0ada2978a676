"""Forms of the director's pages: they read and convert input; the services judge it."""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal
from typing import Any

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from core.i18n import translate
from rules import DEFAULT_RULES
from rules.options import BID_CAPS
from seasons.models import Season
from standings.ranking import MAX_PLACEMENT_POINTS, METRIC_REGISTRY, RANDOM_DRAW
from tournaments.models import (
    Club,
    Player,
    Seat,
    Tournament,
    default_placement_points,
    default_precedence,
)
from tournaments.services import (
    BULK_NAMES_LIMIT,
    EVENT_NOTE_LIMIT,
    FORMAT_FIELDS,
    SEED_LIMIT,
    tournament_options_clean,
)


class DirectorForm(forms.Form):
    """Labels without a colon: the pages set them above or beside their fields."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)

    def has_field_errors(self) -> bool:
        return any(name != NON_FIELD_ERRORS for name in self.errors)


# The metrics a tournament may rank by, in the registry's order (standings.ranking).
RANKING_METRICS = [metric for metric in METRIC_REGISTRY.values() if metric.ranks]
PRECEDENCE_SLOTS = len(RANKING_METRICS)
# The bid_cap values (rules.options.BID_CAPS) in words, for the form and the public rules (the
# values themselves, held_marriages and none, are the API's and RULES.md's).
BID_CAP_LABELS = {
    "held_marriages": _("Up to 120, plus the marriages held"),
    "none": _("No cap"),
}
TABLE_SIZES = (3, 4)

# Every RuleSet option with its RULES.md name, a short title and what it changes.
RULE_OPTIONS: dict[str, dict[str, Any]] = {
    "min_bid": {
        "label": _("Lowest bid"),
        "help": _(
            "The lowest bid of an auction, and the bid a forced declarer plays for "
            "(a multiple of 5)."
        ),
    },
    "bid_step": {
        "label": _("Bid step"),
        "help": _("Every bid is at least this much above the highest bid so far."),
    },
    "bid_jumps": {
        "label": _("Jump bids"),
        "help": _(
            "On: a player may raise by more than one step, as from 45 to 60. "
            "Off: every raise is exactly one step."
        ),
    },
    "bid_cap": {
        "label": _("Bid cap"),
        "help": _(
            "Without a marriage nobody bids above 120; with marriages, up to 120 plus their "
            "values. Or no cap at all."
        ),
    },
    "concede_bonus": {
        "label": _("Points for the defenders when the declarer concedes"),
        "help": _("What every other active player scores when the declarer throws his cards."),
    },
    "must_beat": {
        "label": _("Must beat"),
        "help": _(
            "On: a player must beat the winning card, trumping if he cannot follow suit "
            "(the Polish variant). Off: following suit is enough."
        ),
    },
    "marriage_on_first_trick": {
        "label": _("Marriage on the first trick"),
        "help": _("On: the declarer may declare a marriage when he leads to the first trick."),
    },
    "round_declarer_points": {
        "label": _("Round the declarer's points"),
        "help": _(
            "On: the declarer's deal points are rounded before they are compared with the "
            "contract. Off: they are compared as they are."
        ),
    },
    "rounding": {
        "label": _("Rounding"),
        "help": _(
            "The defenders' points are rounded to the nearest multiple of 5 (3 and 4 round up) "
            "or of 10 (5 rounds up)."
        ),
    },
    "target": {
        "label": _("Target"),
        "help": _("The game ends after the deal in which a player's total reaches this number."),
    },
}


def _number(value: Decimal) -> int | float:
    return int(value) if value == value.to_integral_value() else float(value)


# The settings that are one field each (the rules, ranking and points are spread over several).
PLAIN_FIELDS = (
    "name",
    "date",
    "is_public",
    "rated",
    "rounds_planned",
    "table_size",
    "bots_allowed",
    "round_format",
    "deals_per_round",
    "seating_mode",
    "quick_results_allowed",
)


def check_criteria(form: forms.Form, registry: dict[str, Any], slots: int) -> None:
    """The ranking criteria of a form's `precedence_<n>` fields (a tournament's standings, a
    season's table), checked as the form names them, each error at its criterion: at least one
    chosen, each once (named by its label, not its key), a random draw only as the last."""
    fields = [f"precedence_{slot}" for slot in range(1, slots + 1)]
    chosen = [
        (slot, form.cleaned_data[field])
        for slot, field in enumerate(fields, start=1)
        if form.cleaned_data.get(field)
    ]
    if not chosen and not any(field in form.errors for field in fields):
        form.add_error(fields[0], _("Choose at least one criterion."))
    first_slot: dict[str, int] = {}
    for slot, key in chosen:
        if key in first_slot:
            form.add_error(
                f"precedence_{slot}",
                _("%(criterion)s is criterion %(n)d already: choose each criterion once.")
                % {"criterion": translate(registry[key].name), "n": first_slot[key]},
            )
        else:
            first_slot[key] = slot
        if key == RANDOM_DRAW.key and (slot, key) != chosen[-1]:
            form.add_error(
                f"precedence_{slot}",
                _("A random draw settles every tie, so it can only be the last criterion."),
            )


class TournamentForm(DirectorForm):
    """A tournament's settings; `options()` gives the keyword arguments of the services."""

    club = forms.ModelChoiceField(queryset=Club.objects.none(), label=_("Club"))
    name = forms.CharField(label=pgettext_lazy("tournament", "Name"), max_length=160)
    date = forms.DateField(
        label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    is_public = forms.BooleanField(
        label=_("Public: everyone can see the draw, the results and the standings"),
        required=False,
        initial=True,
    )
    rated = forms.BooleanField(
        label=_("Rated: its results change the players' ratings"),
        help_text=_("Leave it unticked for practice or handicap events."),
        required=False,
        initial=True,
    )
    season = forms.ModelChoiceField(
        queryset=Season.objects.none(),
        required=False,
        label=_("Season"),
        empty_label=pgettext_lazy("no season", "—"),
        help_text=_("The club's season this tournament counts in, if any."),
    )
    rounds_planned = forms.IntegerField(label=_("Number of rounds"), initial=5)
    table_size = forms.ChoiceField(
        label=_("Table size"), choices=Tournament.TableSize.choices, initial="4"
    )
    bots_allowed = forms.BooleanField(
        label=_("Bots fill the empty seats"),
        required=False,
        help_text=_(
            "When the players do not fill the tables, bots take the empty seats instead of "
            "mixing tables of 3 and 4."
        ),
    )
    round_format = forms.ChoiceField(
        label=_("Round format"), choices=Tournament.RoundFormat.choices, initial="game"
    )
    deals_per_round = forms.IntegerField(
        label=_("Deals per round"),
        required=False,
        help_text=_("Only for a round of a fixed number of deals."),
    )
    seating_mode = forms.ChoiceField(
        label=_("Seating mode"), choices=Tournament.SeatingMode.choices, initial="balanced"
    )
    quick_results_allowed = forms.BooleanField(
        label=_("A result may be entered as final totals alone"), required=False
    )

    def __init__(self, *args, clubs=None, tournament: Tournament | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        # Errors of a whole group of fields (rules, precedence, placement points).
        self.section_errors: dict[str, list[str]] = {}
        if tournament is not None or clubs is None:
            del self.fields["club"]
        else:
            self.fields["club"].queryset = clubs
            if len(clubs) == 1:
                # Directors of one club are not asked which club.
                self.fields["club"].initial = clubs[0]
                self.fields["club"].disabled = True
                self.fields["club"].widget = forms.HiddenInput()
        season_clubs = [tournament.club_id] if tournament is not None else list(clubs or [])
        self.fields["season"].queryset = Season.objects.filter(club__in=season_clubs)
        if tournament is not None:
            self.initial["season"] = tournament.season_id
        metrics = [("", pgettext_lazy("no metric", "—"))] + [
            (metric.key, translate(metric.name)) for metric in RANKING_METRICS
        ]
        for slot in range(1, PRECEDENCE_SLOTS + 1):
            self.fields[f"precedence_{slot}"] = forms.ChoiceField(
                label=_("Criterion %(n)d") % {"n": slot}, choices=metrics, required=False
            )
        for size in TABLE_SIZES:
            for place in range(1, size + 1):
                self.fields[f"points_{size}_{place}"] = forms.DecimalField(
                    label=_("Place %(n)d") % {"n": place},
                    max_digits=7,
                    decimal_places=2,
                    min_value=-MAX_PLACEMENT_POINTS,
                    max_value=MAX_PLACEMENT_POINTS,
                    localize=True,
                )
        for name, option in RULE_OPTIONS.items():
            default = getattr(DEFAULT_RULES, name)
            if isinstance(default, bool):
                field = forms.BooleanField(required=False)
            elif name == "bid_cap":
                field = forms.ChoiceField(choices=[(cap, BID_CAP_LABELS[cap]) for cap in BID_CAPS])
            elif name == "rounding":
                field = forms.TypedChoiceField(coerce=int, choices=[(5, "5"), (10, "10")])
            else:
                field = forms.IntegerField()
            field.label = option["label"]
            field.help_text = option["help"]
            field.initial = default
            field.rule_name = name
            field.rule_default = default
            self.fields[f"rule_{name}"] = field
        self._set_initial()
        if tournament is not None and tournament.rounds.exists():
            # The services fix the format once a round is drawn; show it, do not offer it.
            for name in self.format_fields():
                self.fields[name].disabled = True

    def _set_initial(self) -> None:
        source = self.tournament
        precedence = list(source.standings_precedence) if source else None
        points = dict(source.placement_points) if source else None
        rules = dict(source.rules) if source else {}
        if source is not None:
            for name in PLAIN_FIELDS:
                self.initial[name] = getattr(source, name)
        if precedence is None:
            precedence = default_precedence()
        for slot, metric in enumerate(precedence[:PRECEDENCE_SLOTS], start=1):
            self.initial[f"precedence_{slot}"] = metric
        if points is None:
            points = default_placement_points()
        for size in TABLE_SIZES:
            for place, value in enumerate(points.get(str(size), []), start=1):
                self.initial[f"points_{size}_{place}"] = value
        for name in RULE_OPTIONS:
            self.initial[f"rule_{name}"] = rules.get(name, getattr(DEFAULT_RULES, name))

    def format_fields(self) -> list[str]:
        names = [f for f in FORMAT_FIELDS if f not in ("rules", "rounds_planned")]
        return names + [f"rule_{name}" for name in RULE_OPTIONS]

    # ------------------------------------------------------------------ groups for the template
    def general_fields(self):
        names = ("name", "date", "is_public", "rated", "season")
        return [self[name] for name in names if name in self.fields]

    def format_bound_fields(self):
        names = (
            "rounds_planned",
            "table_size",
            "bots_allowed",
            "round_format",
            "deals_per_round",
            "seating_mode",
            "quick_results_allowed",
        )
        return [self[name] for name in names]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        check_criteria(self, METRIC_REGISTRY, PRECEDENCE_SLOTS)
        criteria = {f"precedence_{slot}" for slot in range(1, PRECEDENCE_SLOTS + 1)}
        if self.errors and set(self.errors) <= criteria:
            # Refused for its criteria alone: the service's other checks (rule options, points
            # by place) are shown with them now, not once the criteria are mended.
            options = self.options()
            del options["standings_precedence"]
            try:
                tournament_options_clean(options)
            except ValidationError as error:
                self.add_service_error(error)
        return cleaned

    def precedence_fields(self):
        return [self[f"precedence_{slot}"] for slot in range(1, PRECEDENCE_SLOTS + 1)]

    def points_rows(self):
        return [
            (size, [self[f"points_{size}_{place}"] for place in range(1, size + 1)])
            for size in TABLE_SIZES
        ]

    def rule_fields(self):
        return [self[f"rule_{name}"] for name in RULE_OPTIONS]

    # ------------------------------------------------------------------ what the services get
    def options(self) -> dict[str, Any]:
        """Everything but the club, as keyword arguments of tournament_create/_update."""
        data = self.cleaned_data
        options = {name: data[name] for name in PLAIN_FIELDS}
        options["standings_precedence"] = [
            data[f"precedence_{slot}"]
            for slot in range(1, PRECEDENCE_SLOTS + 1)
            if data.get(f"precedence_{slot}")
        ]
        options["placement_points"] = {
            str(size): [_number(data[f"points_{size}_{place}"]) for place in range(1, size + 1)]
            for size in TABLE_SIZES
        }
        # A tournament stores only the options that differ from RULES.md, as a record does.
        options["rules"] = {
            name: data[f"rule_{name}"]
            for name in RULE_OPTIONS
            if data[f"rule_{name}"] != getattr(DEFAULT_RULES, name)
        }
        return options

    def changes(self) -> dict[str, Any]:
        """The options that differ from the tournament's, for tournament_update."""
        options = self.options()
        if self.fields["table_size"].disabled:
            # The rules are shown read-only; send the stored ones, untouched.
            options.pop("rules")
        return {
            name: value
            for name, value in options.items()
            if value != getattr(self.tournament, name)
            and not (name in self.fields and self.fields[name].disabled)
        }

    def add_service_error(self, error: ValidationError) -> None:
        """Show a service's ValidationError next to the fields or groups it names."""
        if not hasattr(error, "error_dict"):
            self.add_error(None, error)
            return
        for field, messages in error.message_dict.items():
            if field == "rules":
                # The service names the option the engine refuses in the error's params.
                for refused in error.error_dict[field]:
                    message = next(iter(refused))
                    option = (refused.params or {}).get("option")
                    if option and f"rule_{option}" in self.fields:
                        self.add_error(f"rule_{option}", message)
                    else:
                        self.section_errors.setdefault(field, []).append(message)
                        self.add_error(None, message)
            elif field in ("standings_precedence", "placement_points"):
                self.section_errors.setdefault(field, []).extend(messages)
                self.add_error(None, messages)
            elif field in self.fields:
                self.add_error(field, messages)
            else:
                self.add_error(None, messages)


class SeedForm(DirectorForm):
    seed = forms.IntegerField(
        label=_("Seed"),
        required=False,
        min_value=0,
        max_value=SEED_LIMIT - 1,
        help_text=_("Leave it empty for a random seed; the same seed gives the same draw."),
    )


class SwapForm(DirectorForm):
    first = forms.ModelChoiceField(
        queryset=Seat.objects.none(), label=_("First seat"), empty_label=_("Choose a seat")
    )
    second = forms.ModelChoiceField(
        queryset=Seat.objects.none(), label=_("Second seat"), empty_label=_("Choose a seat")
    )

    def __init__(self, *args, round_, **kwargs):
        super().__init__(*args, **kwargs)
        seats = (
            Seat.objects.filter(round=round_)
            .select_related("table", "registration__player")
            .order_by("table__number", "position")
        )
        for name in ("first", "second"):
            self.fields[name].queryset = seats
            self.fields[name].label_from_instance = seat_label


def seat_label(seat: Seat) -> str:
    who = seat.display_name
    return _("Table %(table)d, seat %(seat)d: %(who)s") % {
        "table": seat.table.number,
        "seat": seat.number,
        "who": who,
    }


# --------------------------------------------------------------------------- registrations
_NUMBERING = re.compile(r"^\s*\d{1,4}\s*[.)]\s+")
# The longest list the services take: its most lines, each a name of at most 120 characters
# with its number in front.
NAMES_MAX_LENGTH = BULK_NAMES_LIMIT * 128


class NamesForm(DirectorForm):
    names = forms.CharField(
        label=_("Names, one per line"),
        max_length=NAMES_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 8, "autocomplete": "off", "spellcheck": "false"}),
        help_text=_(
            "A name of a club player registers that player; a new name creates a player. "
            "Numbers in front of the names (1. or 1)) are ignored."
        ),
        strip=False,
        error_messages={"required": _("Paste at least one name, one name per line.")},
    )

    def lines(self) -> list[str]:
        return [_NUMBERING.sub("", line) for line in self.cleaned_data["names"].splitlines()]


class PlayerNameForm(DirectorForm):
    name = forms.CharField(
        label=_("Player's name"),
        max_length=200,
        widget=forms.TextInput(attrs={"autocomplete": "off", "list": "club-players"}),
        error_messages={"required": _("Enter the player's name.")},
    )
    # Set by the "did you mean" page: the name is new, although close to a club player's.
    new_name_confirmed = forms.BooleanField(required=False, widget=forms.HiddenInput)


CSV_MAX_BYTES = 512 * 1024
_NAME_HEADERS = {"name", "player", "names", "ім'я", "імʼя", "імя", "гравець", "прізвище та ім'я"}


class CsvForm(DirectorForm):
    file = forms.FileField(
        label=_("CSV file"),
        help_text=_(
            "One player per row. A column headed “name” is used if there is one, otherwise the "
            "first column. Commas, semicolons and tabs all work; UTF-8 or Windows-1251."
        ),
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,text/csv,text/plain"}),
        error_messages={
            "required": _("Choose a CSV file to upload."),
            "empty": _("The file is empty."),
        },
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > CSV_MAX_BYTES:
            raise ValidationError(
                _("The file is larger than %(kb)d KB; a list of players is much smaller.")
                % {"kb": CSV_MAX_BYTES // 1024}
            )
        raw = upload.read()
        if b"\x00" in raw:
            raise ValidationError(_("This is not a CSV text file."))
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            # Excel in a Ukrainian Windows saves CSV in this code page.
            text = raw.decode("cp1251", errors="replace")
        self.cleaned_data["lines"] = self._names(text)
        return upload

    @staticmethod
    def _names(text: str) -> list[str]:
        if not text.strip():
            raise ValidationError(_("The file is empty."))
        try:
            dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
        except csv.Error:
            dialect = csv.excel
        try:
            rows = list(csv.reader(io.StringIO(text), dialect))
        except csv.Error as error:
            raise ValidationError(
                _("The file is not valid CSV: %(error)s") % {"error": error}
            ) from None
        header = [cell.strip().casefold() for cell in rows[0]] if rows else []
        column = next((i for i, cell in enumerate(header) if cell in _NAME_HEADERS), None)
        names = []
        for index, row in enumerate(rows):
            if column is not None and index == 0:
                names.append("")  # keeps the line numbers of the messages those of the file
                continue
            where = column or 0
            names.append(row[where] if len(row) > where else "")
        if not any(name.strip() for name in names):
            raise ValidationError(_("The file has no names."))
        return names

    def lines(self) -> list[str]:
        return self.cleaned_data["lines"]


# --------------------------------------------------------------------------- results
# The score sheet's forms are the player's page's too: web/forms/sheet.py.
class VersionForm(DirectorForm):
    """The version of a table's result that the director confirms (one that is not the current
    one is a conflict, which the service explains)."""

    version = forms.IntegerField(
        min_value=1,
        error_messages={
            key: _("Choose the version to confirm.") for key in ("required", "invalid", "min_value")
        },
    )


# --------------------------------------------------------------------------- finish, reopen, fix
class EventNoteForm(DirectorForm):
    """The director's reason for finishing early or reopening (the services judge whether one
    is needed)."""

    note = forms.CharField(
        label=_("Reason"),
        required=False,
        max_length=EVENT_NOTE_LIMIT,
        widget=forms.Textarea(attrs={"rows": 3, "maxlength": EVENT_NOTE_LIMIT}),
        help_text=_("Kept in the tournament's history with your name and the time."),
    )


class RenameForm(DirectorForm):
    name = forms.CharField(
        label=_("Correct name"),
        max_length=200,
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
        help_text=_(
            "This player is a player of the club: the new name shows in every tournament "
            "he plays in, past ones too."
        ),
        error_messages={"required": _("Enter the player's name.")},
    )


class MergeForm(DirectorForm):
    """The other club player who is the same person, and which of the two records stays."""

    KEEP_OTHER = "other"
    KEEP_THIS = "this"

    other = forms.ModelChoiceField(
        queryset=Player.objects.none(),
        label=_("The same person as"),
        empty_label=_("Choose a club player"),
    )
    keep = forms.ChoiceField(
        label=_("Keep the name"),
        choices=(
            (KEEP_OTHER, _("of the player chosen above")),
            (KEEP_THIS, _("of this registration")),
        ),
        initial=KEEP_OTHER,
        widget=forms.RadioSelect,
    )

    def __init__(self, *args, player: Player, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["other"].queryset = (
            Player.objects.filter(club_id=player.club_id).exclude(pk=player.pk).order_by("name")
        )


class PlayerPickForm(DirectorForm):
    """The club player a director picked among the close names ("did you mean")."""

    player = forms.ModelChoiceField(queryset=Player.objects.none())

    def __init__(self, *args, club_id: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = Player.objects.filter(club_id=club_id)
