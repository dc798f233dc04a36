"""Reading a tournament's final standings as a manager types or uploads them (rules.md §2).

One participant per line, fields separated by a tab, a semicolon or a comma (the first of those
the text uses), in one of these shapes:

    place; player; country; rating        3; Anna Lindqvist (p1); SE; N2150
    player; country; rating               Julien Lefèvre; FR; P1900/350   (place = line order)
    player; rating                        Elsa Norén; debutant            (country = the series')

or with a header line naming the columns (place, player, country, rating) in any order, as a
spreadsheet exports them. A player is given as "Name (id)", as the id, or by a name only one
player of the series has. Every fault is reported with its line, and nothing is stored while
there is one.
"""

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from competitions.models import Player
from competitions.text import player_label
from competitions.uploads import TextError, csv_rows

from .ratings import RatingEntry, RatingError, parse_typed, typed
from .settings import COUNTRY_RE, PARTICIPANTS_MAX

HEADER_NAMES = {
    "place": "place",
    "plats": "place",
    "player": "player",
    "spelare": "player",
    "name": "player",
    "namn": "player",
    "country": "country",
    "land": "country",
    "rating": "rating",
}
# The columns of a line without a header, by its number of fields.
SHAPES = {
    4: ("place", "player", "country", "rating"),
    3: ("player", "country", "rating"),
    2: ("player", "rating"),
}


@dataclass(frozen=True)
class EntryRow:
    """A line read: the player found (or the name of a new player), place, country, rating."""

    line: int = field(compare=False)  # where it was read, not what it says
    place: int
    player: Player | None
    new_name: str
    country: str
    rating: RatingEntry

    @property
    def label(self) -> str:
        return self.player.name if self.player is not None else self.new_name


def _delimiter(text: str) -> str:
    for candidate in ("\t", ";"):
        if candidate in text:
            return candidate
    return ","


def split_lines(text: str) -> list[tuple[int, list[str]]]:
    """(line number, cells) of every non-empty line (competitions.uploads' rules: a `TextError`
    names the line of a control character or of a field too long to read)."""
    rows = []
    for number, cells in csv_rows(text, delimiter=_delimiter(text), skipinitialspace=True):
        cells = [cell.strip() for cell in cells]
        if any(cells):
            rows.append((number, cells))
    return rows


class PlayerLookup:
    """The series' players by "Name (id)", id and unique name (case-insensitive)."""

    def __init__(self, players: list[Player]) -> None:
        self.by_label: dict[str, Player] = {}
        self.by_name: dict[str, list[Player]] = {}
        for p in players:
            self.by_label[player_label(p).casefold()] = p
            self.by_label[p.key.casefold()] = p
            self.by_name.setdefault(p.name.casefold(), []).append(p)

    def find(self, text: str) -> tuple[Player | None, str | None]:
        """(the player, None); (None, why not) for a name several players have; (None, None)
        for a name nobody has."""
        found = self.by_label.get(text.casefold())
        if found is not None:
            return found, None
        named = self.by_name.get(text.casefold(), [])
        if len(named) == 1:
            return named[0], None
        if named:
            return None, _("%(n)s players are called %(name)s: write %(options)s") % {
                "n": len(named),
                "name": text,
                "options": _(" or ").join(player_label(p) for p in named),
            }
        return None, None


class StandingsText:
    """The typed or uploaded standings of one tournament, read and checked line by line."""

    def __init__(
        self, text: str, *, players: list[Player], country: str, create_players: bool
    ) -> None:
        self.lookup = PlayerLookup(players)
        self.country = country
        self.create_players = create_players
        self._faults: list[tuple[int, str]] = []
        self.rows: list[EntryRow] = []
        self._read(text)
        self.errors = [message for _line, message in sorted(self._faults, key=lambda f: f[0])]

    def _error(self, line: int, who: str, message: str) -> None:
        where = (
            _("Line %(line)s (%(who)s)") % {"line": line, "who": who}
            if who
            else _("Line %(line)s") % {"line": line}
        )
        self._faults.append((line, f"{where}: {message}"))

    def _columns(self, lines: list[tuple[int, list[str]]]):
        first = [cell.casefold() for cell in lines[0][1]] if lines else []
        if first and all(cell in HEADER_NAMES for cell in first):
            columns = tuple(HEADER_NAMES[cell] for cell in first)
            missing = {"player", "rating"} - set(columns)
            if missing or len(set(columns)) != len(columns):
                self._error(
                    lines[0][0],
                    "",
                    _("the header needs the columns player and rating, each once"),
                )
            return columns, lines[1:]
        return None, lines

    def _read(self, text: str) -> None:
        try:
            split = split_lines(text)
        except TextError as exc:
            self._faults.append((exc.line or 0, exc.message))
            return
        columns, lines = self._columns(split)
        if not lines:
            if not self._faults:
                self._faults.append((0, _("No participants: type one line per participant.")))
            return
        if len(lines) > PARTICIPANTS_MAX:
            self._faults.append((0, _("At most %(n)s participants.") % {"n": PARTICIPANTS_MAX}))
            return
        seen: dict[int, int] = {}  # player pk -> line
        new_names: dict[str, int] = {}
        for order, (line, cells) in enumerate(lines, start=1):
            shape = columns or SHAPES.get(len(cells))
            if shape is None or len(cells) != len(shape):
                self._error(
                    line,
                    "",
                    _(
                        "expected “place; player; country; rating”, “player; country; rating” "
                        "or “player; rating”, got %(n)s fields"
                    )
                    % {"n": len(cells)},
                )
                continue
            values = dict(zip(shape, cells, strict=True))
            self._row(line, order, values, seen, new_names)
        self._check_places(len(lines))

    def _row(self, line: int, order: int, values: dict, seen: dict, new_names: dict) -> None:
        name = values.get("player", "")
        if not name:
            self._error(line, "", _("no player"))
            return
        player, ambiguous = self.lookup.find(name)
        new_name = ""
        if ambiguous:
            self._error(line, name, ambiguous)
            return
        if player is None:
            if not self.create_players:
                self._error(
                    line,
                    name,
                    _(
                        "unknown player (tick “add unknown names as new players”, or add the "
                        "player first)"
                    ),
                )
                return
            if len(name) > 200:
                self._error(line, name[:40], _("a name of at most 200 characters"))
                return
            new_name = name
            if new_name.casefold() in new_names:
                self._error(
                    line,
                    name,
                    _("listed twice (also on line %(other)s)")
                    % {"other": new_names[new_name.casefold()]},
                )
                return
            new_names[new_name.casefold()] = line
        elif player.pk in seen:
            self._error(
                line, name, _("listed twice (also on line %(other)s)") % {"other": seen[player.pk]}
            )
            return
        else:
            seen[player.pk] = line
        who = player.name if player is not None else new_name
        place_text = values.get("place", "")
        if place_text:
            if not place_text.isascii() or not place_text.isdigit() or int(place_text) < 1:
                self._error(
                    line,
                    who,
                    _("the place %(value)r is not a whole number from 1") % {"value": place_text},
                )
                return
            place = int(place_text)
        else:
            place = order
        country = (values.get("country") or self.country).upper()
        if not COUNTRY_RE.match(country):
            self._error(
                line,
                who,
                _("a country is two letters, e.g. SE; got %(value)r") % {"value": country},
            )
            return
        try:
            rating = parse_typed(values.get("rating", ""))
        except RatingError as exc:
            self._error(line, who, exc.message)
            return
        self.rows.append(EntryRow(line, place, player, new_name, country, rating))

    def _check_places(self, n: int) -> None:
        """rules.md §2: places 1..n, each once; a duplicate place is an input error."""
        taken: dict[int, EntryRow] = {}
        for row in self.rows:
            if row.place > n:
                self._error(
                    row.line,
                    row.label,
                    _("place %(place)s, but there are %(n)s participants (places 1 to %(n)s)")
                    % {"place": row.place, "n": n},
                )
            elif row.place in taken:
                self._error(
                    row.line,
                    row.label,
                    _("place %(place)s again (line %(other)s has place %(place)s)")
                    % {"place": row.place, "other": taken[row.place].line},
                )
            else:
                taken[row.place] = row


def standings_as_text(placements) -> str:
    """Stored placements in the typed form (place; player; country; rating), for corrections."""
    return "\n".join(
        f"{p.place}; {player_label(p.player)}; {p.country}; {typed(RatingEntry.of(p))}"
        for p in placements
    )
