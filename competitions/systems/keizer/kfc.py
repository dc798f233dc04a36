"""A KeizerForClubs tournament file (`*.s3db`, keizer-variants.md §5) as a competition file of
interchange.md, so that it is imported, checked and recomputed as any other (`rankings.imports`).

The file is an SQLite database: it is read from a temporary copy, opened read-only. What cannot
be mapped (§5.6) is refused, naming the row, or mapped and reported (`KfcFile.notes`).
"""

import sqlite3
import tempfile
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext as _

from competitions.interchange import FORMAT, FileError

SQLITE_HEADER = b"SQLite format 3\x00"
TABLES = ("Player", "Pairing", "ConfigTab")

# §5.2 PlayerState
WITHDRAWN, DELETED = 9, 10
# §5.4 item 3: the states that say what a player does in the next round (the club's intent).
NEXT_PRESENT = (1, 12)  # Available, PreRegistered
NEXT_LISTS = {5: "external", 6: "absent", 7: "unexcused"}
# §5.2 Results: a game's result, or the list of a row without opponent.
GAME_RESULTS = {1: "1-0", 2: "1/2-1/2", 3: "0-1", 8: "+-", 9: "-+", 11: "1/2-1/2"}
ROW_LISTS = {4: "bye", 5: "external", 6: "absent", 7: "unexcused", 12: "unexcused"}
NOT_ENTERED, FORFEIT_FORFEIT, LATE_START = -1, 10, 12
FIRST_NON_PLAYING_BOARD = 100

# §5.3: percentages (whole numbers 0-100) to result shares; these four have no default.
REQUIRED = {
    "BONUS.Clubgame": "points_external",
    "BONUS.Excused": "points_absent",
    "BONUS.Unexcused": "points_unexcused",
    "BONUS.Retired": "withdrawn_credit",
}
DEFAULTED = {"BONUS.Freilos": ("points_bye", 50), "BONUS.Verlust": ("points_loss", 0)}
FLAGS = {"OPTION.WickerNormalization": "normalised_values", "OPTION.DecayBonus": "absence_halving"}


@dataclass
class KfcFile:
    """The competition file, the numbers KeizerForClubs stored for the check of §5.4 (score and
    place by player id, for the players on the list) and what was mapped inexactly."""

    document: dict[str, Any]
    stored: dict[str, tuple[float, int]] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def is_kfc(raw: bytes) -> bool:
    return raw.startswith(SQLITE_HEADER)


def _share(value: float, key: str) -> str:
    if value is None or not 0 <= value <= 100:
        raise FileError(
            f"ConfigTab.{key}", _("expected a percentage from 0 to 100, got %(v)r") % {"v": value}
        )
    return str(Fraction(round(value), 100))


def _config(rows: list[tuple[str, Any, Any]]) -> dict[str, tuple[Any, Any]]:
    return {key: (text, value) for key, text, value in rows if key}


def _number(entry: tuple[Any, Any]) -> float | None:
    text, value = entry
    if value is not None:
        return float(value)
    try:
        return float(str(text).strip())
    except (TypeError, ValueError):
        return None


def _flag(entry: tuple[Any, Any]) -> bool:
    text, value = entry
    if value is not None:
        return bool(value)
    return str(text or "").strip().lower() in ("1", "true", "j", "y", "yes", "ja")


def settings_of(config: dict[str, tuple[Any, Any]]) -> dict[str, Any]:
    """§5.3: the `kfc` preset and the file's ConfigTab."""
    settings: dict[str, Any] = {"preset": "kfc"}
    for key, name in REQUIRED.items():
        if key not in config:
            raise FileError(
                "ConfigTab",
                _("the setting %(key)s is missing; KeizerForClubs needs it too") % {"key": key},
            )
        settings[name] = _share(_number(config[key]), key)
    for key, (name, default) in DEFAULTED.items():
        settings[name] = (
            _share(_number(config[key]), key) if key in config else str(Fraction(default, 100))
        )
    for key, name in FLAGS.items():
        settings[name] = _flag(config[key]) if key in config else False
    decay = config.get("OPTION.DecayPrevRound")
    settings["own_value_fade_rounds"] = 5 if decay is not None and _flag(decay) else 0
    if "OPTION.RatioFirst2Last" in config:
        ratio = _number(config["OPTION.RatioFirst2Last"])
        if ratio is None or not 1 < ratio <= 100:
            raise FileError(
                "ConfigTab.OPTION.RatioFirst2Last",
                _("expected a ratio above 1, at most 100, got %(v)r") % {"v": ratio},
            )
        settings["value_ratio"] = str(Fraction(repr(ratio)))  # shortest decimal: 1.2 -> 6/5
    if "OPTION.GameRepeat" in config:
        gap = _number(config["OPTION.GameRepeat"])
        if gap is None or gap < 0 or gap != int(gap):
            raise FileError(
                "ConfigTab.OPTION.GameRepeat",
                _("expected a whole number, got %(v)r") % {"v": gap},
            )
        settings["rematch_gap"] = int(gap)
    if "OPTION.RoundsSameColor" in config:
        text, value = config["OPTION.RoundsSameColor"]
        run = str(text if text not in (None, "") else value).strip()
        settings["colour_run"] = 100 if run.startswith("--") else int(float(run))
    return settings


def _read(path: str) -> tuple[list, list, list, bool]:
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise FileError("", _("not a readable SQLite file: %(e)s") % {"e": exc}) from None
    try:
        db.execute("PRAGMA query_only = ON")
        # An uploaded file is not trusted: no function of its schema runs beyond the harmless.
        db.execute("PRAGMA trusted_schema = OFF")
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        for table in TABLES:
            if table not in tables:
                raise FileError(
                    "",
                    _("not a KeizerForClubs tournament file: it has no table %(t)s") % {"t": table},
                )
        columns = {row[1] for row in db.execute("PRAGMA table_info(Player)")}
        players = db.execute(
            "SELECT id, name, rating, rank, state, Keizer_SumPts FROM Player "
            "ORDER BY rating DESC, id ASC"
        ).fetchall()
        categories = "Categories" in columns and bool(
            db.execute(
                "SELECT 1 FROM Player WHERE Categories IS NOT NULL AND Categories != '' LIMIT 1"
            ).fetchall()
        )
        pairings = db.execute(
            "SELECT Rnd, board, PID_W, PID_B, Result FROM Pairing ORDER BY Rnd, board"
        ).fetchall()
        config = db.execute("SELECT CfgKey, CfgText, CfgValue FROM ConfigTab").fetchall()
    except sqlite3.Error as exc:
        raise FileError("", _("cannot read the KeizerForClubs file: %(e)s") % {"e": exc}) from None
    finally:
        db.close()
    return players, pairings, config, categories


def _player(keys: dict[int, str], pid: int, where: str) -> str:
    if pid not in keys:
        raise FileError(where, _("unknown or deleted player %(id)s") % {"id": pid})
    return keys[pid]


def _next_round(rounds: dict[int, dict[str, Any]], states: list[tuple[str, int]], out: KfcFile):
    """§5.4 item 3: the round after the last one, its attendance taken from the players'
    states (`present` waiting for the pairing, and the lists of who does not play). None, with
    a note, when no player is available: such a round would count as played."""
    last = max(rounds, default=0)
    if last and any("result" not in game for game in rounds[last]["games"]):
        raise FileError(
            _("Pairing round %(r)s") % {"r": last},
            _(
                "games without a result: the next round can be taken from the file only once "
                "every result of round %(r)s is entered"
            )
            % {"r": last},
        )
    found: dict[str, Any] = {"number": last + 1, "games": []}
    for key, state in states:
        if state in NEXT_PRESENT:
            found.setdefault("present", []).append(key)
        elif state in NEXT_LISTS:
            found.setdefault(NEXT_LISTS[state], []).append(key)
    if not found.get("present"):
        out.notes.append(
            _("No player is available for the next round in the file; no next round was added.")
        )
        return None
    return found


def read_kfc(raw: bytes, *, series: str, season: str, next_round: bool = False) -> KfcFile:
    """The competition file of a KeizerForClubs tournament (§5.4), for season `season` of the
    series `series`, with KFC's stored numbers for the check. With `next_round` (§5.4 item 3)
    the round after the last one holds the attendance of the players' states."""
    if not is_kfc(raw):
        raise FileError("", _("not a KeizerForClubs file (an SQLite database)"))
    with tempfile.NamedTemporaryFile(suffix=".s3db") as copy:
        copy.write(raw)
        copy.flush()
        players, pairings, config_rows, categories = _read(copy.name)
    config = _config(config_rows)
    out = KfcFile(document={})
    keys: dict[int, str] = {}
    listed = []
    states: list[tuple[str, int]] = []
    for pid, name, _rating, rank, state, sum_pts in players:
        if state == DELETED:
            continue
        key = f"kfc-{pid}"
        name = str(name or "").strip()
        if not name:
            raise FileError(f"Player {pid}", _("a player without a name"))
        keys[pid] = key
        entry: dict[str, Any] = {"id": key, "name": name}
        if state == WITHDRAWN:
            entry["withdrawn"] = True
        else:
            out.stored[key] = (float(sum_pts or 0), int(rank) if rank is not None else 0)
        out.names[key] = name
        listed.append(entry)
        if state != WITHDRAWN:
            states.append((key, state))
    rounds: dict[int, dict[str, Any]] = {}
    seen: set[tuple[int, int]] = set()
    last = max((row[0] for row in pairings), default=0)
    late = 0
    for rnd, board, white, black, result in pairings:
        where = _("Pairing round %(r)s board %(b)s") % {"r": rnd, "b": board}
        if (rnd, board) in seen:
            raise FileError(where, _("this round and board occur twice"))
        seen.add((rnd, board))
        if rnd is None or rnd < 1:
            raise FileError(where, _("a round number below 1"))
        info = rounds.setdefault(rnd, {"number": rnd, "games": []})

        if board < FIRST_NON_PLAYING_BOARD and black not in (None, -1):
            game = {"white": _player(keys, white, where), "black": _player(keys, black, where)}
            if result == NOT_ENTERED:
                if rnd != last:
                    raise FileError(
                        where,
                        _(
                            "no result, in a round before the last: enter it in "
                            "KeizerForClubs first (KeizerForClubs counts 0 for both)"
                        ),
                    )
            elif result == FORFEIT_FORFEIT:
                raise FileError(
                    where, _("a forfeit for both players has no equivalent here (§5.6)")
                )
            elif result in GAME_RESULTS:
                game["result"] = GAME_RESULTS[result]
            else:
                raise FileError(where, _("unknown result %(v)r for a game") % {"v": result})
            info["games"].append(game)
            continue
        if result not in ROW_LISTS:
            raise FileError(
                where, _("unknown result %(v)r for a row without opponent") % {"v": result}
            )
        if result == LATE_START:
            late += 1
        info.setdefault(ROW_LISTS[result], []).append(_player(keys, white, where))
    settings = settings_of(config)
    numbered = [
        rounds.get(n, {"number": n, "games": []}) for n in range(1, max(rounds, default=0) + 1)
    ]
    if next_round:
        added = _next_round(rounds, states, out)
        if added is not None:
            numbered.append(added)
    if late:
        note = _("%(n)s late start(s) scored as absent without notice.") % {"n": late}
        if settings.get("absence_halving"):
            note += " " + _("With halving on they count for it here, not in KeizerForClubs.")
        out.notes.append(note)
    if categories:
        out.notes.append(_("The players' categories are not imported (no equivalent)."))
    name = config.get("NiceName", (None, None))[0]
    out.document = {
        "format": FORMAT,
        "system": "keizer",
        "series": series,
        "season": season,
        "name": str(name or "").strip(),
        "settings": settings,
        "players": listed,
        "rounds": numbered,
        "closed": False,
    }
    return out
