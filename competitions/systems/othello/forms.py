"""Forms of the Othello GP manager pages: tournaments and their final standings."""

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from competitions.edits import ShownForm
from competitions.forms import TournamentForm
from competitions.models import Player
from competitions.uploads import WINDOWS_1252, TypedTextField, read_upload

from .entry import EntryRow, StandingsText

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
