"""Forms of the bridge ladder's manager pages: settings, set-up, IMP grid, CSV upload, manual
moves, the next round."""

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from competitions.edits import NOT_SHOWN, Edit, ShownForm
from competitions.models import Player
from competitions.text import isolated_text, plain_number, player_label
from competitions.uploads import WINDOWS_1252, TypedTextField, csv_rows, lines, read_upload

from .settings import DEFAULTS, ELO_MAX, FIELDS, POOL_NAME_MAX_LENGTH, SPEC, parse_settings

IMPS_LIMIT = Decimal(10) ** 8
CSV_MAX_BYTES = 200_000
LINES_MAX = 2000
NUMBER_RE = re.compile(r"^[+-]?(\d+([.,]\d*)?|[.,]\d+)$")


# --- settings -----------------------------------------------------------------------------------


def _field(setting) -> forms.Field:
    if setting.kind == "bool":
        return forms.BooleanField(label=setting.label, help_text=setting.help_text, required=False)
    return forms.IntegerField(
        label=setting.label,
        help_text=setting.help_text,
        min_value=setting.minimum,
        max_value=setting.maximum,
    )


class LadderSettingsForm(forms.Form):
    """Season settings of rules.md §5; only values that differ from the defaults are stored."""

    pool_names = TypedTextField(
        label=gettext_lazy("Pool names"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4, "placeholder": "As de Pique\nRoi de Cœur"}),
        help_text=gettext_lazy("Optional: one name per line, pool 1 first."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        names = self.fields.pop("pool_names")
        for setting in FIELDS:
            self.fields[setting.name] = _field(setting)
        self.fields["pool_names"] = names

    @classmethod
    def initial_for(cls, raw: dict) -> dict:
        s = parse_settings(raw)
        initial = {setting.name: getattr(s, setting.name) for setting in FIELDS}
        initial["pool_names"] = "\n".join(s.pool_names)
        return initial

    def clean_pool_names(self) -> list[str]:
        names = [line.strip() for line in lines(self.cleaned_data["pool_names"])]
        while names and not names[-1]:
            names.pop()
        for number, name in enumerate(names, 1):
            if len(name) > POOL_NAME_MAX_LENGTH:
                raise ValidationError(
                    _("Line %(n)s: a pool name has at most %(max)s characters.")
                    % {"n": number, "max": POOL_NAME_MAX_LENGTH}
                )
        return names

    def clean(self):
        data = super().clean()
        if not self.errors:
            for path, message in SPEC.validate(self.to_settings()):
                self.add_error(path if path in self.fields else None, message)
        return data

    def to_settings(self) -> dict:
        data = self.cleaned_data
        settings = {
            name: data[name]
            for name in DEFAULTS
            if name in data and data[name] is not None and data[name] != DEFAULTS[name]
        }
        if data.get("pool_names"):
            settings["pool_names"] = data["pool_names"]
        return settings


# --- people by name -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """A line of a player list: a known player, or the name of a new one, with a start Elo."""

    player: Player | None
    new_name: str
    start_elo: Decimal | None
    line: int

    @property
    def name(self) -> str:
        return self.player.name if self.player else self.new_name


class PlayerLookup:
    """Finds a series' players by id, by "name (id)" or by a name that only one player has."""

    def __init__(self, players: list[Player]) -> None:
        self.by_text: dict[str, Player] = {}
        names: dict[str, list[Player]] = {}
        for p in players:
            names.setdefault(p.name.casefold(), []).append(p)
            self.by_text[player_label(p).casefold()] = p
        for p in players:
            self.by_text.setdefault(p.key.casefold(), p)
        self.ambiguous = {name for name, group in names.items() if len(group) > 1}
        for name, group in names.items():
            if len(group) == 1:
                self.by_text.setdefault(name, group[0])

    def find(self, text: str) -> Player | None:
        return self.by_text.get(text.strip().casefold())


def parse_number(text: str) -> Decimal:
    """A typed number: "12", "-3.5", "−3,5", "+4" (a decimal comma and the minus sign too)."""
    cleaned = text.strip().replace("\u2212", "-").replace(" ", "")
    if not NUMBER_RE.match(cleaned):
        raise ValueError(text)
    try:
        return Decimal(cleaned.replace(",", "."))
    except InvalidOperation:  # pragma: no cover - the pattern admits only numbers
        raise ValueError(text) from None


def parse_imps(text: str) -> Decimal:
    """IMPs as typed in the grid or a CSV file: decimals and negatives, at most 2 decimals."""
    value = parse_number(text)
    if abs(value) >= IMPS_LIMIT:
        raise ValueError(text)
    if value != value.quantize(Decimal("0.01")):
        raise ValueError(text)
    return value.quantize(Decimal("0.01"))


def parse_player_lines(
    text: str, lookup: PlayerLookup, *, allow_new: bool, groups: bool
) -> list[list[Entry]]:
    """One player per line, by id, name or "name (id)", optionally followed by "| start Elo".
    With `groups`, a blank line starts a new group (a pool). Errors name the line."""
    groups_found: list[list[Entry]] = [[]]
    errors: list[str] = []
    typed = lines(text)
    if len(typed) > LINES_MAX:
        raise ValidationError(_("At most %(n)s lines.") % {"n": LINES_MAX})
    for number, raw in enumerate(typed, 1):
        line = raw.strip()
        if not line:
            if groups and groups_found[-1]:
                groups_found.append([])
            continue
        name, elo = line, None
        player = lookup.find(line)
        if player is None and "|" in line:
            name, _sep, elo_text = line.rpartition("|")
            try:
                elo = parse_number(elo_text)
            except ValueError:
                errors.append(
                    _("Line %(n)s: “%(elo)s” is not a rating.")
                    % {"n": number, "elo": elo_text.strip()}
                )
                continue
            if not 0 <= elo <= ELO_MAX or elo != elo.quantize(Decimal("0.0001")):
                errors.append(
                    _("Line %(n)s: a start Elo from 0 to %(max)s, with at most 4 decimals.")
                    % {"n": number, "max": ELO_MAX}
                )
                continue
            name = name.strip()
            player = lookup.find(name)
        if player is None:
            if name.casefold() in lookup.ambiguous:
                errors.append(
                    _("Line %(n)s: several players are called “%(name)s”; write “name (id)”.")
                    % {"n": number, "name": name}
                )
                continue
            if not allow_new:
                errors.append(
                    _("Line %(n)s: no player “%(name)s” in this series.")
                    % {"n": number, "name": name}
                )
                continue
            if len(name) > Player._meta.get_field("name").max_length:
                errors.append(_("Line %(n)s: the name is too long.") % {"n": number})
                continue
        groups_found[-1].append(
            Entry(player=player, new_name="" if player else name, start_elo=elo, line=number)
        )
    if errors:
        raise ValidationError(errors)
    seen: dict[str, int] = {}
    for group in groups_found:
        for entry in group:
            key = entry.player.key if entry.player else "new:" + entry.new_name.casefold()
            if key in seen:
                raise ValidationError(
                    _("Line %(n)s: %(name)s is listed on line %(first)s already.")
                    % {"n": entry.line, "name": entry.name, "first": seen[key]}
                )
            seen[key] = entry.line
    return [group for group in groups_found if group]


# --- set-up -------------------------------------------------------------------------------------


class LadderSetupForm(forms.Form):
    players = TypedTextField(
        label=gettext_lazy("Players, top of the ladder first"),
        widget=forms.Textarea(attrs={"rows": 14, "class": "font-monospace", "spellcheck": "false"}),
        help_text=gettext_lazy(
            "One player per line: id, name, or “name (id)”. Add “| 1310” for a start Elo other "
            "than the season's. The list is cut into pools in order; a blank line starts a new "
            "pool yourself."
        ),
    )
    create_missing = forms.BooleanField(
        label=gettext_lazy("Add names that are not in the series yet as new players"),
        required=False,
    )

    def __init__(self, *args, players: list[Player], pool_size: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.lookup = PlayerLookup(players)
        self.pool_size = pool_size

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        groups = parse_player_lines(
            data["players"], self.lookup, allow_new=data["create_missing"], groups=True
        )
        if not groups:
            raise ValidationError(_("List at least one player."))
        pools: list[list[Entry]] = []
        for group in groups:
            if len(groups) > 1 and len(group) > self.pool_size:
                raise ValidationError(
                    _("The pool starting on line %(n)s has %(count)s players; at most %(max)s.")
                    % {"n": group[0].line, "count": len(group), "max": self.pool_size}
                )
            for start in range(0, len(group), self.pool_size):
                pools.append(group[start : start + self.pool_size])
        data["pools"] = pools
        return data


# --- result entry -------------------------------------------------------------------------------


class PoolScoresForm(ShownForm):
    """The IMP grid of one pool: a cell per player and challenge; blank = did not play."""

    def __init__(self, *args, members: list, challenges: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.members = members
        self.challenges = challenges
        for member in members:
            for c in range(1, challenges + 1):
                self.fields[self.cell(member, c)] = forms.CharField(
                    label=_("%(player)s, challenge %(n)s")
                    % {"player": isolated_text(member.player.name), "n": c},
                    required=False,
                    max_length=20,
                )

    @staticmethod
    def cell(member, challenge: int) -> str:
        return f"imps_{member.player_id}_{challenge}"

    def rows(self):
        """Per member, its cells in challenge order (for the template)."""
        return [
            (member, [self[self.cell(member, c)] for c in range(1, self.challenges + 1)])
            for member in self.members
        ]

    def clean(self):
        """`scores`: per cell, (player id, challenge) with the IMPs the form showed and those
        sent (None: did not play)."""
        data = super().clean()
        scores: list[Edit[tuple[int, int], Decimal | str | None]] = []
        for member in self.members:
            for c in range(1, self.challenges + 1):
                name = self.cell(member, c)
                text = (data.get(name) or "").strip()
                try:
                    new = parse_imps(text) if text else None
                except ValueError:
                    self.add_error(
                        name,
                        _("“%(text)s” is not an IMP score (e.g. 12, -3.5; at most 2 decimals).")
                        % {"text": text},
                    )
                    continue
                shown = self[name].shown.strip()
                try:
                    shown = parse_imps(shown) if shown else None
                except ValueError:
                    shown = NOT_SHOWN  # not a score: the cell is written whatever was sent
                scores.append(Edit((member.player_id, c), shown, new))
        data["scores"] = scores
        return data

    @staticmethod
    def initial_for(members: list, scores: dict[tuple[int, int], Decimal]) -> dict:
        return {
            f"imps_{player_id}_{c}": plain_number(value) for (player_id, c), value in scores.items()
        }


class ChallengeUploadForm(forms.Form):
    """A challenge's result as CSV: one line per player, "player, IMPs" (a header line is fine;
    with ";" or tab between the fields, a decimal comma is too)."""

    challenge = forms.TypedChoiceField(label=gettext_lazy("Challenge"), coerce=int)
    file = forms.FileField(label=gettext_lazy("CSV file (player, IMPs)"))

    def __init__(self, *args, challenges: int, lookup: PlayerLookup, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["challenge"].choices = [(c, str(c)) for c in range(1, challenges + 1)]
        self.lookup = lookup

    def clean_file(self):
        """The file's rows (UTF-8, or Windows-1252 as a spreadsheet on Windows saves a CSV)."""
        text = read_upload(self.cleaned_data["file"], limit=CSV_MAX_BYTES, legacy=WINDOWS_1252)
        return parse_csv_result(text, self.lookup)


def parse_csv_result(text: str, lookup: PlayerLookup) -> list[tuple[Player, Decimal]]:
    """Lines of "player, IMPs"; the first line may be a header. Errors name the line."""
    sample = text[:2000]
    delimiter = ";" if sample.count(";") > sample.count(",") else ","
    if "\t" in sample:
        delimiter = "\t"
    rows: list[tuple[Player, Decimal]] = []
    errors: list[str] = []
    seen: dict[int, int] = {}
    for number, fields in csv_rows(text, delimiter=delimiter):
        fields = [f.strip() for f in fields]
        if not any(fields):
            continue
        if len(fields) < 2:
            errors.append(_("Line %(n)s: expected “player, IMPs”.") % {"n": number})
            continue
        name, value = fields[0], fields[1]
        try:
            imps = parse_imps(value)
        except ValueError:
            if number == 1 and not rows:
                continue  # a header line
            errors.append(
                _("Line %(n)s: “%(value)s” is not an IMP score.") % {"n": number, "value": value}
            )
            continue
        player = lookup.find(name)
        if player is None:
            errors.append(
                _("Line %(n)s: no player “%(name)s” in this series.") % {"n": number, "name": name}
            )
            continue
        if player.pk in seen:
            errors.append(
                _("Line %(n)s: %(name)s is on line %(first)s already.")
                % {"n": number, "name": player.name, "first": seen[player.pk]}
            )
            continue
        seen[player.pk] = number
        rows.append((player, imps))
    if errors:
        raise ValidationError(errors[:20])
    if not rows:
        raise ValidationError(_("The file holds no result."))
    return rows


# --- moves --------------------------------------------------------------------------------------


class SwapForm(forms.Form):
    """A manual move: two players of different pools change places, with a kept reason."""

    first = forms.TypedChoiceField(label=gettext_lazy("Player"), coerce=int)
    second = forms.TypedChoiceField(label=gettext_lazy("changes places with"), coerce=int)
    reason = forms.CharField(
        label=gettext_lazy("Reason"),
        max_length=300,
        widget=forms.TextInput(
            attrs={"placeholder": gettext_lazy("e.g. on holiday during pool 1's dates")}
        ),
    )

    def __init__(self, *args, members: list, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [
            (m.pk, _("Pool %(pool)s: %(name)s") % {"pool": m.pool.number, "name": m.player.name})
            for m in members
        ]
        self.fields["first"].choices = choices
        self.fields["second"].choices = choices
        self.members = {m.pk: m for m in members}

    def clean(self):
        data = super().clean()
        first, second = self.members.get(data.get("first")), self.members.get(data.get("second"))
        if first is not None and second is not None and first.pool_id == second.pool_id:
            raise ValidationError(
                _("Both players are in the same pool; pick players of two pools.")
            )
        data["first_member"], data["second_member"] = first, second
        return data


class NextRoundForm(forms.Form):
    """Start the next round: leavers and late joiners, then the pools the moves give."""

    number = forms.IntegerField(widget=forms.HiddenInput)
    fingerprint = forms.CharField(widget=forms.HiddenInput, required=False)
    leaving = forms.TypedMultipleChoiceField(
        label=gettext_lazy("Leave the ladder"),
        coerce=str,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    joining = TypedTextField(
        label=gettext_lazy("Late joiners, in order"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3, "spellcheck": "false"}),
        help_text=gettext_lazy(
            "One per line: id, name, or “name (id)”; add “| 1180” for a start Elo other than "
            "the season's. They start in the bottom pool."
        ),
    )
    create_missing = forms.BooleanField(
        label=gettext_lazy("Add names that are not in the series yet as new players"),
        required=False,
    )

    def __init__(self, *args, players: list[Player], current: list[tuple[str, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.lookup = PlayerLookup(players)
        self.fields["leaving"].choices = [(key, isolated_text(label)) for key, label in current]
        self.in_ladder = {key for key, _label in current}

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        (joining,) = parse_player_lines(
            data["joining"], self.lookup, allow_new=data["create_missing"], groups=False
        ) or [[]]
        for entry in joining:
            if entry.player is not None and entry.player.key in self.in_ladder:
                raise ValidationError(
                    _("Line %(n)s: %(name)s is on the ladder already.")
                    % {"n": entry.line, "name": entry.name}
                )
        data["joiners"] = joining
        return data
