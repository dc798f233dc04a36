"""Forms of the board-game manager pages: season settings, tournaments, a table's result."""

import re
from functools import cached_property
from itertools import pairwise

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from competitions.forms import ConfirmableForm, TournamentForm
from competitions.models import Player
from competitions.text import fold, isolated_text, local_date, near_miss, player_label
from competitions.uploads import TypedTextField, lines

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
    final = forms.BooleanField(label=_("Final tournament"), required=False)

    def check_warnings(self) -> None:
        """The final is the season's last tournament: a regular one dated after it would feed
        the finalists after the final was played (issue 46). Asked, not refused: a club may
        catch up a tournament late."""
        super().check_warnings()
        day = self.cleaned_data.get("date")
        if day is None:
            return
        others = self.season.tournaments.exclude(date=None)
        if self.tournament is not None:
            others = others.exclude(pk=self.tournament.pk)
        if self.cleaned_data.get("final"):
            later = others.filter(date__gt=day).order_by("date").first()
            if later is not None:
                self.warn(
                    _(
                        "%(name)s (%(date)s) is after this final: the final is the season's last "
                        "tournament, and a later tournament counts for the finalists."
                    )
                    % {"name": isolated_text(later.name), "date": local_date(later.date)}
                )
            return
        final = others.filter(circuit_final__isnull=False, date__lt=day).first()
        if final is not None:
            self.warn(
                _(
                    "The final %(name)s is on %(date)s, before this date: the final is the "
                    "season's last tournament, and this one would count for its finalists."
                )
                % {"name": isolated_text(final.name), "date": local_date(final.date)}
            )


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
        label=_("Tournament bonus cap"),
        choices=[
            (CAP_AUTO, _("Automatic: from the previous season's participants")),
            (CAP_MANUAL, _("Set by hand")),
            (CAP_OFF, _("No cap")),
        ],
        widget=forms.RadioSelect,
    )
    cap = forms.IntegerField(
        label=_("Cap (when set by hand)"), min_value=0, max_value=CAP_MAX, required=False
    )
    final_table_size = forms.IntegerField(
        label=_("Final table size"), min_value=1, max_value=FINAL_TABLE_SIZE_MAX
    )
    final_table_sizes = TypedTextField(
        label=_("Final table size per game"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3, "placeholder": "Catan = 6"}),
        help_text=_("One game per line as “Game = size”, only where it differs."),
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
        for number, line in enumerate(lines(self.cleaned_data["final_table_sizes"]), 1):
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


def unusual_ranks(ranks: list[int]) -> bool:
    """Neither competition ranking (1, 2, 2, 4) nor dense ranking (1, 2, 2, 3): rules.md §1.1
    takes both, anything else (2, 2, 3 or 1, 3, 3) is most likely a typo."""
    ordered = sorted(ranks)
    if not ordered or ordered[0] != 1:
        return True
    competition = all(r == prev or r == i + 1 for i, (prev, r) in enumerate(pairwise(ordered), 1))
    dense = all(r - prev in (0, 1) for prev, r in pairwise(ordered))
    return not (competition or dense)


class NewPlayer(str):
    """A name typed at a table that the secretary confirmed as a new player of the series."""


class TableForm(ConfirmableForm):
    """One table: the game and up to six players in finishing order, ranks only for ties.

    Names are found whatever their accents, case and spacing; a name that is nobody yet can
    be added as a new player without losing what was typed; unusual ranks and a game title
    close to a known one are shown back once for confirmation."""

    game = forms.CharField(
        label=_("Game"),
        max_length=100,
        widget=forms.TextInput(attrs={"list": "games", "autocomplete": "off"}),
    )
    # The table's state when the correction form was opened (services.table_fingerprint).
    loaded = forms.CharField(required=False, widget=forms.HiddenInput, max_length=64)

    def __init__(self, *args, players: list[Player], games: list[str] = (), **kwargs):
        super().__init__(*args, **kwargs)
        self.players = players
        self.games = list(games)
        self.unknown: set[int] = set()  # rows whose name is nobody yet
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
            self.fields[f"new_{i}"] = forms.BooleanField(
                label=_("Add as a new player"), required=False
            )

    @cached_property
    def _names(self) -> tuple[dict[str, Player], set[str]]:
        """What a typed name may be, folded: "name (key)", a key, or a name only one player
        has; and the names several players have. Made when a table is checked, not when the
        form is shown (a series of 2000 players)."""
        by_label: dict[str, Player] = {}
        names: dict[str, list[Player]] = {}
        for p in self.players:
            names.setdefault(fold(p.name), []).append(p)
        for p in self.players:
            by_label[fold(player_label(p))] = p
            by_label[fold(p.key)] = p
        ambiguous = {name for name, group in names.items() if len(group) > 1}
        for name, group in names.items():
            if len(group) == 1:
                by_label.setdefault(name, group[0])
        return by_label, ambiguous

    def seat_rows(self):
        return [
            (self[f"player_{i}"], self[f"rank_{i}"], self[f"new_{i}"], i in self.unknown)
            for i in range(1, SEATS + 1)
        ]

    def clean(self):
        data = super().clean()
        seats: list[tuple[Player | NewPlayer, int]] = []
        by_label, ambiguous = self._names
        filled = 0
        for i in range(1, SEATS + 1):
            text = " ".join((data.get(f"player_{i}") or "").split())
            rank = data.get(f"rank_{i}")
            if not text:
                if rank is not None:
                    self.add_error(f"player_{i}", _("A rank without a player."))
                continue
            filled += 1
            player = by_label.get(fold(text))
            if player is None:
                if fold(text) in ambiguous:
                    self.add_error(
                        f"player_{i}",
                        _("Several players are called “%(name)s”: pick one from the list.")
                        % {"name": text},
                    )
                    continue
                if not data.get(f"new_{i}"):
                    self.unknown.add(i)
                    self.add_error(
                        f"player_{i}",
                        _(
                            "No player “%(name)s” in this series. Pick one from the list, or "
                            "tick “Add as a new player” and save again: the table stays as "
                            "typed."
                        )
                        % {"name": text},
                    )
                    continue
                self.unknown.add(i)
                player = NewPlayer(text)
            seats.append((player, rank if rank is not None else filled))
        if filled < 2 and not self.errors:
            raise ValidationError(_("A table needs at least 2 players."))
        for i, (player, rank) in enumerate(seats):
            if rank > filled:
                raise ValidationError(
                    _("%(player)s: rank %(rank)s at a table of %(n)s.")
                    % {"player": _name(player), "rank": rank, "n": filled}
                )
            if any(_same(other, player) for other, _r in seats[:i]):
                raise ValidationError(_("%(player)s is listed twice.") % {"player": _name(player)})
        data["seats"] = seats
        return data

    def check_warnings(self) -> None:
        ranks = [rank for _player, rank in self.cleaned_data["seats"]]
        if unusual_ranks(ranks):
            self.warn(
                _(
                    "Ranks %(ranks)s are unusual (nobody first, or a rank skipped after a tie). "
                    "Ties are written 1, 2, 2, 4 or 1, 2, 2, 3."
                )
                % {"ranks": ", ".join(str(r) for r in ranks)}
            )
        near = near_miss(self.cleaned_data["game"], self.games)
        if near is not None:
            self.warn(
                _("“%(game)s” is a new game title. Did you mean “%(known)s”?")
                % {"game": self.cleaned_data["game"], "known": near}
            )

    @classmethod
    def initial_for(cls, table) -> dict:
        initial = {"game": table.game}
        for i, seat in enumerate(table.seats.select_related("player").order_by("rank", "id"), 1):
            initial[f"player_{i}"] = player_label(seat.player)
            initial[f"rank_{i}"] = seat.rank
        return initial


def _name(player) -> str:
    return player if isinstance(player, NewPlayer) else player.name


def _same(a, b) -> bool:
    if isinstance(a, NewPlayer) or isinstance(b, NewPlayer):
        return isinstance(a, NewPlayer) and isinstance(b, NewPlayer) and fold(a) == fold(b)
    return a.pk == b.pk


class GameRenameForm(forms.Form):
    """Rename one of the season's games, or merge it into another (its title typed)."""

    title = forms.ChoiceField(label=_("Game"))
    new = forms.CharField(
        label=_("New title"),
        max_length=100,
        help_text=_("Type another game's title to merge the two into one game."),
        widget=forms.TextInput(attrs={"list": "games", "autocomplete": "off"}),
    )

    def __init__(self, *args, games: list[tuple[str, int]], **kwargs):
        super().__init__(*args, **kwargs)
        self.games = [game for game, _n in games]
        self.fields["title"].choices = [
            (
                game,
                ngettext("%(game)s (%(n)s table)", "%(game)s (%(n)s tables)", n)
                % {"game": game, "n": n},
            )
            for game, n in games
        ]
