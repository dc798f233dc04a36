"""Forms of the manager pages (crispy-forms, Bootstrap 5)."""

import re

from django import forms
from django.utils.module_loading import import_string
from django.utils.translation import gettext_lazy as _

from .models import Club, Player, Season, Series, Tournament
from .registry import BOOL, CHOICE, INT, NUMBER, SettingsSpec
from .text import fold


class ConfirmableForm(forms.Form):
    """A form that shows likely typos back once before saving them: `check_warnings` adds
    `warn(...)` messages; the page shows them with a "Save anyway" button (confirmed=1)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.warnings: list[str] = []

    @property
    def confirmed(self) -> bool:
        return self.data.get("confirmed") == "1"

    def warn(self, message: str) -> None:
        self.warnings.append(message)

    def check_warnings(self) -> None:
        """Subclasses call `warn` for what looks like a mistake but may be right."""

    def is_valid(self) -> bool:
        if not super().is_valid():
            return False
        self.warnings = []
        self.check_warnings()
        return not self.warnings or self.confirmed


class SeasonForm(forms.Form):
    label = forms.CharField(
        label=_("Season"),
        max_length=32,
        help_text=_("A year (2026) or a label (2026/27); it names the season on every page."),
    )
    name = forms.CharField(
        label=_("Name"),
        max_length=200,
        required=False,
        help_text=_("Left empty: the series' name and the season."),
    )


def season_years(label: str) -> set[int]:
    """The calendar years a season label names: "2025" -> {2025}; "2025/26", "2025-2026" ->
    {2025, 2026}; a label without a year -> empty (nothing to check)."""
    match = re.match(r"^\s*(\d{4})(?:\s*[/-]\s*(\d{2}|\d{4}))?", label)
    if not match:
        return set()
    first = int(match.group(1))
    second = match.group(2)
    if not second:
        return {first}
    last = int(second) if len(second) == 4 else first // 100 * 100 + int(second)
    return {first, last} if last == first + 1 else {first}


def date_input() -> forms.DateInput:
    """A browser's date field, its value always written as 2025-11-30: in the page language's
    format ("30-11-2025" in Dutch) the browser shows it empty, and a saved form lost the date.
    (A posted ISO date is read in every language.)"""
    return forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


class TournamentForm(ConfirmableForm):
    name = forms.CharField(
        label=_("Name"),
        max_length=200,
        widget=forms.TextInput(attrs={"placeholder": _("e.g. Mechelen")}),
    )
    date = forms.DateField(label=_("Date"), required=False, widget=date_input())

    def __init__(self, *args, season: Season, tournament: Tournament | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.season = season
        self.tournament = tournament

    def check_warnings(self) -> None:
        name, day = self.cleaned_data["name"], self.cleaned_data.get("date")
        others = self.season.tournaments.all()
        if self.tournament is not None:
            others = others.exclude(pk=self.tournament.pk)
        if any(fold(t.name) == fold(name) and t.date == day for t in others):
            self.warn(
                _("This season has a tournament “%(name)s” on that date already.") % {"name": name}
            )
        years = season_years(self.season.label)
        if day is not None and years and day.year not in years:
            self.warn(
                _("The date is in %(year)s, but this is season %(season)s.")
                % {"year": day.year, "season": self.season.label}
            )


class ClubForm(forms.Form):
    name = forms.CharField(label=_("Club name"), max_length=200)


class PlayerForm(ConfirmableForm):
    name = forms.CharField(label=_("Name"), max_length=200)
    club = forms.ModelChoiceField(label=_("Club"), queryset=Club.objects.none(), required=False)

    def __init__(self, *args, series: Series, player: Player | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.series = series
        self.player = player
        self.fields["club"].queryset = series.clubs.order_by("name")

    def check_warnings(self) -> None:
        name = fold(self.cleaned_data["name"])
        others = self.series.players.select_related("club")
        if self.player is not None:
            others = others.exclude(pk=self.player.pk)
        for other in others:
            if fold(other.name) == name:
                self.warn(
                    _("A player called “%(name)s” exists already%(club)s. Add another one?")
                    % {
                        "name": other.name,
                        "club": f" ({other.club.name})" if other.club else "",
                    }
                )
                return


class SettingsForm(forms.Form):
    """A season's settings; stores only the values that differ from the defaults."""

    spec: SettingsSpec

    @classmethod
    def initial_for(cls, raw: dict) -> dict:
        return cls.spec.resolved(raw)

    def clean(self):
        data = super().clean()
        if not self.errors:
            for path, message in self.spec.validate(self.to_settings()):
                self.add_error(path if path in self.fields else None, message)
        return data

    def to_settings(self) -> dict:
        return {
            s.name: self.cleaned_data[s.name]
            for s in self.spec.fields
            if s.name in self.cleaned_data and self.cleaned_data[s.name] != s.default
        }


def _setting_field(setting) -> forms.Field:
    common = {"label": setting.label, "help_text": setting.help_text}
    if setting.kind == INT:
        return forms.IntegerField(min_value=setting.minimum, max_value=setting.maximum, **common)
    if setting.kind == NUMBER:
        return forms.FloatField(min_value=setting.minimum, max_value=setting.maximum, **common)
    if setting.kind == BOOL:
        return forms.BooleanField(required=False, **common)
    if setting.kind == CHOICE:
        return forms.ChoiceField(choices=setting.choices, **common)
    return forms.CharField(max_length=setting.max_length, required=False, **common)


def settings_form_for(spec: SettingsSpec) -> type[SettingsForm]:
    """The settings form of a system: its own (`spec.form`), or one built from its plain
    settings, with their bounds."""
    if spec.form:
        return import_string(spec.form)
    fields = {s.name: _setting_field(s) for s in spec.fields}
    return type("SystemSettingsForm", (SettingsForm,), {"spec": spec, **fields})
