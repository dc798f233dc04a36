"""Forms of the Othello GP manager pages: season settings, tournaments and their final
standings."""

from decimal import Decimal, InvalidOperation

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from competitions.edits import ShownForm
from competitions.forms import TournamentForm, date_input, settings_form_for
from competitions.models import Player
from competitions.registry import SettingsSpec
from competitions.uploads import WINDOWS_1252, TypedTextField, lines, read_upload

from .entry import EntryRow, StandingsText
from .settings import FIELDS, SPEC, TIEBREAK_DATA, WOF_LIST_DATE

UPLOAD_MAX_BYTES = 1_000_000


class GPTournamentForm(TournamentForm):
    name = forms.CharField(
        label=gettext_lazy("Name"),
        max_length=200,
        widget=forms.TextInput(attrs={"placeholder": gettext_lazy("e.g. Stockholm Open")}),
    )
    sm = forms.BooleanField(
        label=gettext_lazy("Swedish championship (SM)"),
        required=False,
        help_text=gettext_lazy(
            "Breaks ties in the season standings when the season's SM rule is on."
        ),
    )
    egp = forms.BooleanField(
        label=gettext_lazy("European GP (EGP)"),
        required=False,
        help_text=gettext_lazy(
            "Counts only for players with a Swedish GP this season when the season's EGP rule "
            "is on."
        ),
    )

    def clean(self):
        data = super().clean()
        if data.get("sm") and data.get("egp"):
            self.add_error(
                "egp",
                _("A tournament cannot be both the Swedish championship and a European GP."),
            )
        return data


class _StandingsForm(forms.Form):
    create_players = forms.BooleanField(
        label=gettext_lazy("Add unknown names as new players"),
        required=False,
        help_text=gettext_lazy(
            "Off, an unknown name is refused, so a typo does not create a new person."
        ),
    )

    def __init__(self, *args, players: list[Player], country: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.players = players
        self.country = country
        self.rows = []

    def source_text(self) -> str:
        raise NotImplementedError

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        read = StandingsText(
            self.source_text(),
            players=self.players,
            country=self.country,
            create_players=data.get("create_players", False),
        )
        for message in read.errors:
            self.add_error(None, message)
        self.rows = read.rows
        return data


class StandingsForm(_StandingsForm, ShownForm):
    """The final standings typed: one participant per line. The page sends back the standings
    it showed (`shown_rows`)."""

    text = TypedTextField(
        label=gettext_lazy("Final standings, one participant per line"),
        widget=forms.Textarea(
            attrs={
                "rows": 14,
                "spellcheck": "false",
                "autocomplete": "off",
                "class": "font-monospace standings-text",
                "placeholder": "1; Anna Lindqvist (p1); SE; N2150\n"
                "2; Julien Lefèvre; FR; P1900/350\n3; Elsa Norén; SE; debutant",
            }
        ),
        max_length=200_000,
        strip=False,
    )

    def source_text(self) -> str:
        return self.cleaned_data["text"]

    def shown_rows(self) -> list[EntryRow] | None:
        """The standings the form showed, read as typed ones are; None if they cannot be read
        (then what is typed replaces the stored standings)."""
        text = self["text"].shown
        if not text.strip():
            return []  # no standings yet
        read = StandingsText(text, players=self.players, country=self.country, create_players=False)
        return None if read.errors else read.rows


class UploadForm(_StandingsForm):
    """The final standings as a CSV file with the columns place, player, country, rating."""

    file = forms.FileField(label=gettext_lazy("CSV file"))

    def clean_file(self) -> str:
        """The file's text (UTF-8, or Windows-1252 as a spreadsheet on Windows saves a CSV)."""
        return read_upload(self.cleaned_data["file"], limit=UPLOAD_MAX_BYTES, legacy=WINDOWS_1252)

    def source_text(self) -> str:
        return self.cleaned_data["file"]


# --- season settings ----------------------------------------------------------------------------


def _wof_number(text: str, number: int) -> int | float:
    try:
        value = Decimal(text.replace(",", "."))
    except InvalidOperation:
        value = None
    if value is None or not value.is_finite():
        raise forms.ValidationError(
            _("Line %(line)s: the WOF rating “%(text)s” is not a number.")
            % {"line": number, "text": text}
        )
    return int(value) if value == value.to_integral_value() else float(value)


def _world_number(text: str, number: int) -> int:
    if not text.isdigit():
        raise forms.ValidationError(
            _("Line %(line)s: the world ranking “%(text)s” is not a whole number.")
            % {"line": number, "text": text}
        )
    return int(text)


def tiebreak_data_text(data: dict) -> str:
    """The stored `tiebreak_data` as the form's lines: `id WOF world`, `-` where not given."""

    def shown(value) -> str:
        return "-" if value is None else str(value)

    return "\n".join(
        f"{player} {shown(values.get('wof'))} {shown(values.get('world'))}"
        for player, values in sorted(data.items())
    )


class GPSettingsForm(settings_form_for(SettingsSpec(fields=FIELDS))):
    """The season settings, and each player's tie-break data (§3.3) as lines of text."""

    spec = SPEC

    tiebreak_data = TypedTextField(
        label=gettext_lazy("Tie-break data: WOF rating and world ranking"),
        required=False,
        widget=forms.Textarea(
            attrs={"rows": 5, "placeholder": "anna-svensson 1893 312\nbo 1700 -"}
        ),
        help_text=gettext_lazy(
            "One player a line: the player's id, the WOF rating, the world-ranking position; "
            "“-” where there is none. Used by the WOF and WORLD tie-breaks."
        ),
    )

    # The options of chess-othello-options.md §3 may be left out of a post: their defaults.
    OPTIONAL = ("series_rule", "tiebreak_seed")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in self.OPTIONAL:
            self.fields[name].required = False
        # A browser's date field, which posts the date as YYYY-MM-DD (the setting's form).
        self.fields[WOF_LIST_DATE].widget = date_input()

    def clean_series_rule(self) -> str:
        return self.cleaned_data["series_rule"] or SPEC.field("series_rule").default

    def clean_tiebreak_seed(self) -> int:
        seed = self.cleaned_data["tiebreak_seed"]
        return SPEC.field("tiebreak_seed").default if seed is None else seed

    @classmethod
    def initial_for(cls, raw: dict) -> dict:
        initial = SPEC.resolved(raw or {})
        initial[TIEBREAK_DATA] = tiebreak_data_text((raw or {}).get(TIEBREAK_DATA) or {})
        return initial

    def clean_tiebreak_data(self) -> dict:
        data: dict[str, dict] = {}
        for number, line in enumerate(lines(self.cleaned_data[TIEBREAK_DATA]), start=1):
            parts = line.split()
            if not parts:
                continue
            if len(parts) > 3:
                raise forms.ValidationError(
                    _("Line %(line)s: give the id, the WOF rating and the world ranking only.")
                    % {"line": number}
                )
            player, wof, world = (*parts, "-", "-")[:3]
            if player in data:
                raise forms.ValidationError(
                    _("Line %(line)s: %(player)s is listed twice.")
                    % {"line": number, "player": player}
                )
            values: dict = {}
            if wof != "-":
                values["wof"] = _wof_number(wof, number)
            if world != "-":
                values["world"] = _world_number(world, number)
            data[player] = values
        return data

    def to_settings(self) -> dict:
        settings = super().to_settings()
        if self.cleaned_data.get(TIEBREAK_DATA):
            settings[TIEBREAK_DATA] = self.cleaned_data[TIEBREAK_DATA]
        return settings
