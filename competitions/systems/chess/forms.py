"""Forms of the chess manager pages: tournaments, groups, a group's players, a round's games and
results (typed fast: 1, 0, =, +, -)."""

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from competitions.edits import NOT_SHOWN, Edit, ShownForm
from competitions.forms import TournamentForm
from competitions.models import Group, Player
from competitions.text import player_label
from competitions.uploads import WINDOWS_1252, read_upload

from .interchange import BORN_MAX, BORN_MIN, CLASS_MAX_LENGTH
from .models import RATING_MAX
from .settings import GROUP_FORMAT_CHOICES, GROUP_PLAYERS_MAX, TIEBREAKS_MAX_LENGTH
from .start_numbers import CHOICES as START_NUMBER_CHOICES

# What a result box accepts, and what it stores.
RESULT_INPUTS = {
    "1-0": "1-0",
    "1": "1-0",
    "0-1": "0-1",
    "0": "0-1",
    "1/2-1/2": "1/2-1/2",
    "½-½": "1/2-1/2",
    "=": "1/2-1/2",
    "r": "1/2-1/2",
    "½": "1/2-1/2",
    "+-": "+-",
    "+": "+-",
    "-+": "-+",
    "-": "-+",
    "": "",
}


def parse_result(text: str) -> str:
    value = RESULT_INPUTS.get(text.strip().lower().replace(" ", ""))
    if value is None:
        raise ValidationError(
            _("“%(value)s” is no result: type 1, 0, = (draw), + or - (forfeits).") % {"value": text}
        )
    return value


class ChessTournamentForm(TournamentForm):
    county = forms.BooleanField(
        label=gettext_lazy("County championship (Kretsmesterskap)"),
        required=False,
        help_text=gettext_lazy("BGP points: 20 to each class winner, 10 to everyone else."),
    )
    tiebreaks = forms.CharField(
        label=gettext_lazy("Tie-breaks"),
        max_length=TIEBREAKS_MAX_LENGTH,
        required=False,
        help_text=gettext_lazy("Empty: the season's list. E.g. FIDE-SWISS, or BH/C1 BH DE WON."),
    )
    dense_scale = forms.BooleanField(
        label=gettext_lazy("BGP dense scale granted"),
        required=False,
        help_text=gettext_lazy(
            "The long BGP scale whatever the participants, granted on application (BGP rules "
            "1996 and 1998)."
        ),
    )


class GroupForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Group"),
        max_length=100,
        widget=forms.TextInput(attrs={"placeholder": "Gruppe A"}),
    )
    scale = forms.ChoiceField(label=gettext_lazy("Points scale"), choices=Group.Scale.choices)


class GroupDetailsForm(GroupForm):
    """A group's details with its own tie-break list and format (chess-othello-options.md
    §1.1; empty: the tournament's or the season's)."""

    tiebreaks = forms.CharField(
        label=gettext_lazy("Tie-breaks"),
        max_length=TIEBREAKS_MAX_LENGTH,
        required=False,
        help_text=gettext_lazy(
            "Empty: the tournament's or season's list. E.g. NSF, FIDE-SWISS, FIDE-RR, or codes "
            "such as BH/C1 BH DE WON."
        ),
    )
    group_format = forms.ChoiceField(
        label=gettext_lazy("Group format"),
        required=False,
        choices=(("", gettext_lazy("the season's")), *GROUP_FORMAT_CHOICES),
    )


class StartNumbersForm(forms.Form):
    """A group's start numbers (start_numbers.py): by rating, or as the organiser sets them,
    then with a number box for each player (`n-<id>`) of the list the page showed (`shown`:
    their ids in its order, so a list changed meanwhile is refused)."""

    start_numbers = forms.ChoiceField(
        label=gettext_lazy("Start numbers"),
        choices=START_NUMBER_CHOICES,
        required=False,
        widget=forms.RadioSelect,
    )
    shown = forms.CharField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, members=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.members = list(members)
        for m in self.members:
            self.fields[f"n-{m.pk}"] = forms.IntegerField(
                min_value=1, max_value=GROUP_PLAYERS_MAX, required=False
            )

    def clean(self):
        data = super().clean()
        try:
            data["shown"] = [int(pk) for pk in (data.get("shown") or "").split(",") if pk]
        except ValueError:
            data["shown"] = []  # not a list the page wrote: refused as changed meanwhile
        data["numbers"] = {
            m.pk: data[f"n-{m.pk}"] for m in self.members if data.get(f"n-{m.pk}") is not None
        }
        return data


class MemberFields(forms.Form):
    player_class = forms.CharField(
        label=gettext_lazy("Class"),
        max_length=CLASS_MAX_LENGTH,
        required=False,
        widget=forms.TextInput(attrs={"list": "classes", "autocomplete": "off"}),
    )
    born = forms.IntegerField(
        label=gettext_lazy("Born"), min_value=BORN_MIN, max_value=BORN_MAX, required=False
    )
    rating = forms.IntegerField(
        label=gettext_lazy("Rating"), min_value=0, max_value=RATING_MAX, required=False
    )
    beginner = forms.BooleanField(
        label=gettext_lazy("Beginner"),
        required=False,
        help_text=gettext_lazy(
            "Plays in a beginners' class (give their age class as class): with the season's "
            "setting, placed after their age class for BGP points."
        ),
    )


class MemberAddForm(MemberFields):
    """A player of the series (picked from the list) or, ticked, a new one."""

    player = forms.CharField(
        label=gettext_lazy("Player"),
        max_length=200,
        widget=forms.TextInput(attrs={"list": "players", "autocomplete": "off"}),
    )
    new = forms.BooleanField(label=gettext_lazy("A new player: add to the series"), required=False)
    field_order = ["player", "new", "player_class", "born", "rating", "beginner"]

    def __init__(self, *args, players: list[Player], **kwargs):
        super().__init__(*args, **kwargs)
        self.by_label: dict[str, Player] = {}
        names: dict[str, list[Player]] = {}
        for p in players:
            names.setdefault(p.name.casefold(), []).append(p)
            self.by_label[player_label(p).casefold()] = p
            self.by_label[p.key.casefold()] = p
        for name, found in names.items():
            if len(found) == 1:
                self.by_label.setdefault(name, found[0])
        self.ambiguous = {name for name, found in names.items() if len(found) > 1}

    def clean(self):
        data = super().clean()
        text = (data.get("player") or "").strip()
        if not text:
            return data
        found = self.by_label.get(text.casefold())
        if data.get("new"):
            data["player_obj"] = None
            data["name"] = text
        elif found is not None:
            data["player_obj"] = found
        elif text.casefold() in self.ambiguous:
            self.add_error(
                "player",
                _("Several players are called “%(name)s”: pick one from the list.")
                % {"name": text},
            )
        else:
            self.add_error(
                "player",
                _("No player “%(name)s” in this series. Tick “a new player” to add them.")
                % {"name": text},
            )
        return data


class GameForm(forms.Form):
    """A game of a pairing made elsewhere (or a correction): white, black, the result if known."""

    white = forms.ChoiceField(label=gettext_lazy("White"))
    black = forms.ChoiceField(label=gettext_lazy("Black"))
    result = forms.CharField(
        label=gettext_lazy("Result"),
        required=False,
        max_length=8,
        widget=forms.TextInput(attrs={"placeholder": "1, 0, =, +, -", "autocomplete": "off"}),
    )

    def __init__(self, *args, members: list[Player], **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", "—")] + [(str(p.pk), p.name) for p in members]
        self.fields["white"].choices = choices
        self.fields["black"].choices = choices
        self.players = {str(p.pk): p for p in members}

    def clean_result(self):
        return parse_result(self.cleaned_data["result"])

    def clean(self):
        data = super().clean()
        if data.get("white") and data.get("white") == data.get("black"):
            raise ValidationError(_("A player cannot play against themselves."))
        return data


class WalkoverForm(forms.Form):
    player = forms.ChoiceField(label=gettext_lazy("Walkover (WO) for"))

    def __init__(self, *args, members: list[Player], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [("", "—")] + [(str(p.pk), p.name) for p in members]
        self.players = {str(p.pk): p for p in members}


class ResultsForm(ShownForm):
    """Every game of a round: one result box each, in board order."""

    def __init__(self, *args, games, **kwargs):
        super().__init__(*args, **kwargs)
        self.games = games
        for game in games:
            self.fields[f"result_{game.pk}"] = forms.CharField(
                label=_("Board %(n)s") % {"n": game.board},
                required=False,
                max_length=8,
                initial=game.result,
                widget=forms.TextInput(
                    attrs={
                        "class": "form-control form-control-sm result-input",
                        "autocomplete": "off",
                    }
                ),
            )

    def rows(self):
        return [(game, self[f"result_{game.pk}"]) for game in self.games]

    def clean(self):
        data = super().clean()
        results = []
        for game in self.games:
            name = f"result_{game.pk}"
            if name in data:
                try:
                    new = parse_result(data[name] or "")
                except ValidationError as exc:
                    self.add_error(name, exc)
                    continue
                try:
                    shown = parse_result(self[name].shown)
                except ValidationError:
                    shown = NOT_SHOWN  # not a result: the box is written whatever was sent
                results.append(Edit(game.pk, shown, new))
        data["results"] = results
        return data


TRF_MAX_BYTES = 2_000_000


class TrfImportForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("TRF16 file"),
        help_text=gettext_lazy(
            "A group played elsewhere: its players, ratings, birth years and results."
        ),
    )

    def clean_file(self) -> str:
        """The file's text: UTF-8, or Windows-1252 as older pairing programs write it."""
        return read_upload(self.cleaned_data["file"], limit=TRF_MAX_BYTES, legacy=WINDOWS_1252)
