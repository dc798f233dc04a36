"""Forms of the Keizer manager pages: the season's list, an evening's attendance, results."""

import html
import json
from collections.abc import Sequence
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction

from django import forms
from django.core.exceptions import ValidationError
from django.utils.safestring import mark_safe

# Lazy everywhere: labels are made at import, messages when they are shown; `_` so that
# makemessages finds them all.
from django.utils.translation import gettext_lazy as _

from competitions.edits import NOT_SHOWN, Edit, ShownForm
from competitions.forms import SettingsForm, date_input, settings_form_for
from competitions.models import Game, Player, RoundEntry, SeasonPlayer
from competitions.registry import TEXT
from competitions.text import name_order

from . import settings as keizer_settings
from .services import ATTENDANCE, AttendanceShown

START_POINTS = {"max_digits": 12, "decimal_places": 4, "max_value": Decimal(10**7 - 1)}
# Short, for one row of buttons per player on a phone; the page explains them once.
ATTENDANCE_LABELS = {
    RoundEntry.Status.PRESENT: _("Present"),
    RoundEntry.Status.ABSENT: _("Absent"),
    RoundEntry.Status.LONG_ABSENT: _("Long absent"),
    RoundEntry.Status.EXTERNAL: _("External"),
    RoundEntry.Status.UNEXCUSED: _("No notice"),
}

# Keyboard shortcuts of the quick result entry: what a leader types for each result.
RESULT_SHORTCUTS = {
    "1-0": ("1-0", "1", "10", "w"),
    "0-1": ("0-1", "0", "01", "b"),
    "1/2-1/2": ("1/2-1/2", "1/2", "½", "=", "5", "r", "d", "0.5", "½-½"),
    "+-": ("+-", "+"),
    "-+": ("-+", "-"),
    "": ("x", "?", "del"),
}
SHORTCUT_RESULT = {typed: result for result, keys in RESULT_SHORTCUTS.items() for typed in keys}


def parse_result(typed: str) -> str | None:
    """A result from what was typed ("1", "=", "0-1", ...): a Game.Result value, "" to take a
    result back, or None when it means nothing."""
    return SHORTCUT_RESULT.get(typed.strip().lower().replace(" ", ""))


class ListRowForm(forms.Form):
    """One line of the initial list: its place and the start points set by hand. Read only: the
    list page writes its fields itself (views._list_rows), 2000 widgets rendered one by one were
    most of its time."""

    entry = forms.IntegerField()
    position = forms.IntegerField(label=_("Place"), min_value=1, max_value=10000)
    start_points = forms.DecimalField(
        label=_("Start points"),
        required=False,
        min_value=Decimal(-(10**7) + 1),
        **START_POINTS,
    )


ListFormSet = forms.formset_factory(ListRowForm, extra=0)


class AddPlayerForm(forms.Form):
    """A player for the list: one of the series, or a new one; a late entrant's start points."""

    player = forms.ModelChoiceField(
        label=_("Player of the club"),
        queryset=Player.objects.none(),
        required=False,
    )
    name = forms.CharField(label=_("or a new player"), max_length=200, required=False)
    start_points = forms.DecimalField(
        label=_("Start points"),
        required=False,
        min_value=Decimal(-(10**7) + 1),
        help_text=_("Empty: the value of the place at the bottom of the list."),
        **START_POINTS,
    )

    def __init__(self, *args, season, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["player"]
        field.queryset = Player.objects.filter(series_id=season.series_id).exclude(
            entries__season=season
        )
        # In name order, the same on every database (the queryset checks the choice).
        players = sorted(field.queryset, key=lambda p: name_order(p.name, p.key))
        field.choices = [("", field.empty_label)] + [
            (p.pk, field.label_from_instance(p)) for p in players
        ]

    def clean(self):
        data = super().clean()
        if not data.get("player") and not (data.get("name") or "").strip():
            raise ValidationError(_("Choose a player of the club or give a new name."))
        if data.get("player") and (data.get("name") or "").strip():
            raise ValidationError(_("Choose a player of the club or give a new name, not both."))
        return data


class AttendanceForm(ShownForm):
    """An evening's attendance: one status per player of the list, a volunteer for the bye. The
    page sends back what it showed (`shown`), so what someone else changed meanwhile is not
    overwritten."""

    date = forms.DateField(label=_("Date"), required=False, widget=date_input())
    volunteer = forms.TypedChoiceField(
        label=_("Volunteer for the bye"),
        required=False,
        coerce=int,
        empty_value=None,
    )

    def __init__(
        self,
        *args,
        entries: list[SeasonPlayer],
        locked: set[int],
        statuses: Sequence[str] = ATTENDANCE,
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        self.entries = entries
        self.locked = locked  # players paired already: their status cannot change here
        self.offered = tuple(statuses)  # the season's statuses (services.attendance_choices)
        choices = [(status, ATTENDANCE_LABELS[status]) for status in self.offered]
        for entry in entries:
            self.fields[f"p{entry.player_id}"] = forms.ChoiceField(
                label=entry.player.name, choices=choices, widget=forms.RadioSelect
            )
        self.fields["volunteer"].choices = [("", _("Nobody"))] + [
            (e.player_id, e.player.name) for e in entries
        ]

    def rows(self):
        """Each player's line: the entry, its bound field (name and errors), whether it is
        paired, and its buttons' HTML, written here in one pass: Django renders a template per
        radio button (8000 for a list of 2000), and a template loop over them costs nearly as
        much."""
        styles = {RoundEntry.Status.PRESENT: "success", RoundEntry.Status.UNEXCUSED: "danger"}
        choices = [
            (
                str(status),
                html.escape(str(ATTENDANCE_LABELS[status])),
                styles.get(status, "secondary"),
            )
            for status in self.offered
        ]
        for entry in self.entries:
            field = self[f"p{entry.player_id}"]
            copy = mark_safe(
                f'<input type="hidden" name="{html.escape(field.html_initial_name)}" '
                f'value="{html.escape(field.shown)}">'
            )
            if entry.player_id in self.locked:  # paired: a badge instead of buttons
                yield entry, field, True, copy
                continue
            chosen = str(field.value())
            name = html.escape(field.html_name)
            buttons = []
            for i, (value, label, style) in enumerate(choices):
                id_ = html.escape(f"{field.auto_id}_{i}")
                checked = " checked" if value == chosen else ""
                buttons.append(
                    f'<input type="radio" class="btn-check" name="{name}" id="{id_}" '
                    f'value="{value}" autocomplete="off"{checked}>\n'
                    f'<label class="btn btn-outline-{style}" for="{id_}">{label}</label>'
                )
            buttons.append(copy)
            yield entry, field, False, mark_safe("\n".join(buttons))

    def clean(self):
        data = super().clean()
        volunteer = data.get("volunteer")
        if volunteer is not None and data.get(f"p{volunteer}") != RoundEntry.Status.PRESENT:
            self.add_error("volunteer", _("The volunteer for the bye must be present."))
        return data

    def statuses(self) -> dict[SeasonPlayer, str]:
        return {e: self.cleaned_data[f"p{e.player_id}"] for e in self.entries}

    def shown(self) -> AttendanceShown:
        """What the page showed, read from its hidden copies (NOT_SHOWN where one cannot be
        read: that row is written whatever is stored)."""

        def read(name: str, convert):
            try:
                return convert(self[name].shown)
            except (ValidationError, ValueError):
                return NOT_SHOWN

        choices = {str(status) for status in ATTENDANCE}
        return AttendanceShown(
            date=read("date", self.fields["date"].to_python),
            statuses={
                e.player_id: read(
                    f"p{e.player_id}", lambda text: text if text in choices else NOT_SHOWN
                )
                for e in self.entries
            },
            volunteer=read("volunteer", lambda text: int(text) if text else None),
        )

    def volunteer_entry(self) -> SeasonPlayer | None:
        volunteer = self.cleaned_data.get("volunteer")
        return next((e for e in self.entries if e.player_id == volunteer), None)


class QuickResultForm(forms.Form):
    """Keyboard-fast result entry: a board number, then the result (1, 0, =, +, -). The page
    sends back every board's result as it showed them (`shown`, by board number), so a board
    someone else changed meanwhile is refused, not overwritten."""

    board = forms.IntegerField(
        label=_("Board"),
        min_value=1,
        max_value=1000,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )
    result = forms.CharField(
        label=_("Result"),
        max_length=10,
        widget=forms.TextInput(attrs={"autocomplete": "off", "placeholder": "1 / 0 / = / + / -"}),
    )

    shown = forms.CharField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, games: dict[int, Game], **kwargs):
        super().__init__(*args, **kwargs)
        self.games = games
        self.fields["shown"].initial = json.dumps(
            {board: game.result for board, game in sorted(games.items())}, separators=(",", ":")
        )

    def shown_result(self) -> str:
        """The result the page showed for the board sent (NOT_SHOWN: a post without it)."""
        try:
            shown = json.loads(self.cleaned_data.get("shown") or "null")
        except ValueError:
            return NOT_SHOWN
        result = shown.get(str(self.cleaned_data["board"])) if isinstance(shown, dict) else None
        return result if isinstance(result, str) else NOT_SHOWN

    def clean_board(self):
        board = self.cleaned_data["board"]
        if board not in self.games:
            raise ValidationError(_("There is no board %(n)s this evening.") % {"n": board})
        return board

    def clean_result(self):
        result = parse_result(self.cleaned_data["result"])
        if result is None:
            raise ValidationError(
                _("Type 1 (white wins), 0 (black wins), = (draw), + or − (a forfeit).")
            )
        return result


class ResultsForm(ShownForm):
    """Every board's result of an evening at once (and corrections)."""

    def __init__(self, *args, games: list[Game], **kwargs):
        super().__init__(*args, **kwargs)
        self.games = games
        choices = [("", "–"), *Game.Result.choices]
        for game in games:
            self.fields[f"board{game.board}"] = forms.ChoiceField(
                label=_("Board %(n)s") % {"n": game.board}, choices=choices, required=False
            )
            self.initial.setdefault(f"board{game.board}", game.result)

    def edits(self) -> list[Edit[Game, str]]:
        """Per board: the result the form showed, the one sent back."""
        return [
            Edit(g, self[f"board{g.board}"].shown, self.cleaned_data[f"board{g.board}"])
            for g in self.games
        ]


# --- the season's settings (keizer-variants.md §2 and §4) ---------------------------------------


def _settings_base() -> type[SettingsForm]:
    return settings_form_for(replace(keizer_settings.SPEC, form=None))


class KeizerSettingsForm(_settings_base()):
    """A Keizer season's settings: a preset, then each option, explained. Stores the preset's
    name (unless it is the seed club's) and only the values that differ from the preset's.
    `based_on` is the preset the page was shown with: a value still equal to that preset's
    follows the preset chosen (a club that switches presets keeps only what it changed)."""

    based_on = forms.CharField(widget=forms.HiddenInput, required=False)

    @classmethod
    def initial_for(cls, raw: dict) -> dict:
        values = keizer_settings.resolved(raw)
        return {**values, "based_on": values["preset"]}

    def to_settings(self) -> dict:
        data = self.cleaned_data
        chosen = data.get("preset") or keizer_settings.SEED_CLUB
        based_on = data.get("based_on")
        if based_on not in keizer_settings.PRESETS:
            based_on = chosen
        before = keizer_settings.preset_values(based_on)
        after = keizer_settings.preset_values(chosen)
        found: dict = {} if chosen == keizer_settings.SEED_CLUB else {"preset": chosen}
        for setting in self.spec.fields:
            name = setting.name
            if name == "preset" or name not in data:
                continue
            value = data[name]
            if _same(setting, value, before[name]) or _same(setting, value, after[name]):
                continue  # follows the preset
            found[name] = value
        return found

    def rows(self) -> list[dict]:
        """The options for the page: each field, the chosen preset's value and whether the
        club changed it."""
        preset = self.initial.get("preset", keizer_settings.SEED_CLUB)
        values = keizer_settings.preset_values(preset)
        return [
            {
                "field": self[s.name],
                "preset_value": keizer_settings.shown_value(s, values[s.name]),
                "changed": not _same(s, self.initial.get(s.name, values[s.name]), values[s.name]),
            }
            for s in self.spec.fields
            if s.name != "preset"
        ]


def _same(setting, a, b) -> bool:
    """Two values of a setting are the same; fractions by their value ("0.5" is "1/2")."""
    if a == b:
        return True
    if setting.kind == TEXT and isinstance(a, str) and isinstance(b, str):
        try:
            return Fraction(a.strip()) == Fraction(b.strip())
        except (ValueError, ZeroDivisionError):
            return False
    return False
