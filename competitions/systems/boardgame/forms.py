"""Forms of the board-game manager pages: season settings, tournaments, a table's result."""

import re

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _l

from competitions.forms import TournamentForm
from competitions.models import Player

from .settings import (
    CAP_AUTO,
    CAP_MANUAL,
    CAP_MAX,
    CAP_OFF,
    DEFAULTS,
    FINAL_TABLE_SIZE_MAX,
    SPEC,
    parse_settings,
)

SEATS = 6  # tables have 2 to 6 players in the circuit; rows left empty are ignored


class CircuitTournamentForm(TournamentForm):
    final = forms.BooleanField(label=_l("Final tournament"), required=False)


def _bounded(name: str) -> forms.IntegerField:
    setting = SPEC.field(name)
    return forms.IntegerField(
        label=setting.label, min_value=setting.minimum, max_value=setting.maximum
    )


class CircuitSettingsForm(forms.Form):
    """Season settings of rules.md §1; only values that differ from the defaults are stored."""

    rounds_per_tournament = _bounded("rounds_per_tournament")
    best_n = _bounded("best_n")
    interclub_counted = _bounded("interclub_counted")
    cap_mode = forms.ChoiceField(
        label=_l("Tournament bonus cap"),
        choices=[
            (CAP_AUTO, _l("Automatic: from the previous season's participants")),
            (CAP_MANUAL, _l("Set by hand")),
            (CAP_OFF, _l("No cap")),
        ],
        widget=forms.RadioSelect,
    )
    cap = forms.IntegerField(
        label=_l("Cap (when set by hand)"), min_value=0, max_value=CAP_MAX, required=False
    )
    final_table_size = forms.IntegerField(
        label=_l("Final table size"), min_value=1, max_value=FINAL_TABLE_SIZE_MAX
    )
    final_table_sizes = forms.CharField(
        label=_l("Final table size per game"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3, "placeholder": "Catan = 6"}),
        help_text=_l("One game per line as “Game = size”, only where it differs."),
    )

    @classmethod
    def initial_for(cls, raw: dict) -> dict:
        s = parse_settings(raw)
        return {
            "rounds_per_tournament": s.rounds_per_tournament,
            "best_n": s.best_n,
            "interclub_counted": s.interclub_counted,
            "cap_mode": s.cap_mode,
            "cap": s.cap,
            "final_table_size": s.final_table_size,
            "final_table_sizes": "\n".join(f"{g} = {n}" for g, n in s.final_table_sizes.items()),
        }

    def clean_final_table_sizes(self) -> dict[str, int]:
        sizes: dict[str, int] = {}
        for number, line in enumerate(self.cleaned_data["final_table_sizes"].splitlines(), 1):
            if not line.strip():
                continue
            game, sep, size = line.rpartition("=")
            # ASCII digits only: "²".isdigit() is true, but int("²") fails.
            if not sep or not game.strip() or not re.fullmatch(r"[0-9]{1,4}", size.strip()):
                raise ValidationError(
                    _("Line %(n)s: write “Game = size”, e.g. “Catan = 6”.") % {"n": number}
                )
            sizes[game.strip()] = int(size)
        return sizes

    def clean(self):
        data = super().clean()
        if data.get("cap_mode") == CAP_MANUAL and data.get("cap") is None:
            self.add_error("cap", _("Enter the cap, or choose automatic or no cap."))
        if not self.errors:
            for path, message in SPEC.validate(self.to_settings()):
                self.add_error(None, f"{path}: {message}" if path else message)
        return data

    def to_settings(self) -> dict:
        """Only what differs from rules.md's defaults, as interchange.md stores it."""
        data = self.cleaned_data
        settings: dict = {
            key: data[key]
            for key in DEFAULTS
            if key != "final_table_size" and data[key] != DEFAULTS[key]
        }
        if data["final_table_sizes"]:
            sizes = dict(data["final_table_sizes"])
            if data["final_table_size"] != DEFAULTS["final_table_size"]:
                sizes["*"] = data["final_table_size"]  # the size of the games not listed
            settings["final_table_size"] = sizes
        elif data["final_table_size"] != DEFAULTS["final_table_size"]:
            settings["final_table_size"] = data["final_table_size"]
        if data["cap_mode"] == CAP_MANUAL:
            settings["cap"] = data["cap"]
        elif data["cap_mode"] == CAP_OFF:
            settings["cap"] = None
        return settings


def player_label(player: Player) -> str:
    """How the round page's suggestion list names a player (unique even for equal names)."""
    return f"{player.name} ({player.key})"


class TableForm(forms.Form):
    """One table: the game and up to six players in finishing order, ranks only for ties."""

    game = forms.CharField(
        label=_l("Game"),
        max_length=100,
        widget=forms.TextInput(attrs={"list": "games", "autocomplete": "off"}),
    )
    # The table's state when the correction form was opened (services.table_fingerprint).
    loaded = forms.CharField(required=False, widget=forms.HiddenInput, max_length=64)

    def __init__(self, *args, players: list[Player], **kwargs):
        super().__init__(*args, **kwargs)
        self.players = players
        self.by_label: dict[str, Player] = {}
        names: dict[str, list[Player]] = {}
        for p in players:
            names.setdefault(p.name.casefold(), []).append(p)
        for p in players:
            self.by_label[player_label(p).casefold()] = p
            self.by_label[p.key.casefold()] = p
        self.ambiguous = {name for name, group in names.items() if len(group) > 1}
        for name, group in names.items():
            if len(group) == 1:
                self.by_label.setdefault(name, group[0])
        for i in range(1, SEATS + 1):
            self.fields[f"player_{i}"] = forms.CharField(
                label=_("Player %(n)s") % {"n": i},
                required=False,
                max_length=200,
                widget=forms.TextInput(
                    attrs={"list": "players", "autocomplete": "off", "class": "player"}
                ),
            )
            self.fields[f"rank_{i}"] = forms.IntegerField(
                label=_("Rank"),
                required=False,
                min_value=1,
                max_value=SEATS,
                widget=forms.NumberInput(attrs={"class": "rank", "inputmode": "numeric"}),
            )

    def seat_rows(self):
        return [(self[f"player_{i}"], self[f"rank_{i}"]) for i in range(1, SEATS + 1)]

    def clean(self):
        data = super().clean()
        seats: list[tuple[Player, int]] = []
        filled = 0
        for i in range(1, SEATS + 1):
            text = (data.get(f"player_{i}") or "").strip()
            rank = data.get(f"rank_{i}")
            if not text:
                if rank is not None:
                    self.add_error(f"player_{i}", _("A rank without a player."))
                continue
            filled += 1
            player = self.by_label.get(text.casefold())
            if player is None:
                if text.casefold() in self.ambiguous:
                    self.add_error(
                        f"player_{i}",
                        _("Several players are called “%(name)s”: pick one from the list.")
                        % {"name": text},
                    )
                else:
                    self.add_error(
                        f"player_{i}",
                        _("No player “%(name)s” in this series. Add the player first.")
                        % {"name": text},
                    )
                continue
            seats.append((player, rank if rank is not None else filled))
        if filled < 2 and not self.errors:
            raise ValidationError(_("A table needs at least 2 players."))
        for i, (player, rank) in enumerate(seats):
            if rank > filled:
                raise ValidationError(
                    _("%(player)s: rank %(rank)s at a table of %(n)s.")
                    % {"player": player.name, "rank": rank, "n": filled}
                )
            if any(other.pk == player.pk for other, _r in seats[:i]):
                raise ValidationError(_("%(player)s is listed twice.") % {"player": player.name})
        data["seats"] = seats
        return data

    @classmethod
    def initial_for(cls, table) -> dict:
        initial = {"game": table.game}
        for i, seat in enumerate(table.seats.select_related("player").order_by("rank", "id"), 1):
            initial[f"player_{i}"] = player_label(seat.player)
            initial[f"rank_{i}"] = seat.rank
        return initial
