"""KeizerForClubs tournament files (keizer-variants.md §5.1) built with sqlite3, for tests:
the tables and columns KFC creates, with the rows given."""

import sqlite3
from pathlib import Path

SCHEMA = """
CREATE TABLE Player (id INTEGER PRIMARY KEY AUTOINCREMENT, name VARCHAR(30) NOT NULL,
  rating INTEGER NOT NULL, rank INTEGER NOT NULL, state INTEGER, Keizer_StartPts FLOAT,
  Keizer_SumPts FLOAT, RatingWDelta INTEGER NOT NULL DEFAULT 0, Keizer_PrevPts FLOAT,
  Categories VARCHAR(90));
CREATE TABLE Pairing (Rnd INTEGER NOT NULL, board INTEGER NOT NULL, PID_W INTEGER NOT NULL,
  PID_B INTEGER NOT NULL, Result INTEGER, Pts_W FLOAT, Pts_B FLOAT);
CREATE TABLE ConfigTab (CfgKey VARCHAR(20) PRIMARY KEY, CfgText VARCHAR(5), CfgValue FLOAT);
"""

# KFC's shipped per-tournament settings (§2.4 "KFC shipped config"; the loss share by default).
CONFIG = {
    "BONUS.Clubgame": 70,
    "BONUS.Excused": 35,
    "BONUS.Unexcused": 5,
    "BONUS.Retired": 75,
    "OPTION.RatioFirst2Last": 3.0,
}


def build(
    path: Path,
    players: list[tuple],
    pairings: list[tuple],
    config: dict | None = None,
    text_config: dict | None = None,
) -> bytes:
    """A KFC file at `path`, its bytes returned. `players`: (name, rating, state, SumPts, rank),
    ids 1, 2, ... in this order; `pairings`: (Rnd, board, white name, black name or None,
    Result); `config`: CfgKey -> CfgValue (default `CONFIG`), `text_config`: CfgKey -> CfgText."""
    db = sqlite3.connect(path)
    db.executescript(SCHEMA)
    ids = {}
    for name, rating, state, sum_pts, rank in players:
        cur = db.execute(
            "INSERT INTO Player (name, rating, rank, state, Keizer_SumPts) VALUES (?, ?, ?, ?, ?)",
            (name, rating, rank, state, sum_pts),
        )
        ids[name] = cur.lastrowid
    for rnd, board, white, black, result in pairings:
        db.execute(
            "INSERT INTO Pairing (Rnd, board, PID_W, PID_B, Result) VALUES (?, ?, ?, ?, ?)",
            (rnd, board, ids[white], ids[black] if black else -1, result),
        )
    for key, value in (CONFIG if config is None else config).items():
        db.execute("INSERT INTO ConfigTab (CfgKey, CfgValue) VALUES (?, ?)", (key, value))
    for key, text in (text_config or {}).items():
        db.execute("INSERT INTO ConfigTab (CfgKey, CfgText) VALUES (?, ?)", (key, text))
    db.commit()
    db.close()
    return path.read_bytes()


# §3.6: KFC's sample tournament (cfg/Test-Tournament.s3db), with the scores and places KFC
# stores after round 5.
SAMPLE_PLAYERS = [
    ("Amurru", 1891, 1, 37.5, 1),
    ("Helena", 1816, 1, 22.45, 5),
    ("Ninedena", 1786, 1, 23.15, 4),
    ("Inanna", 1668, 1, 18.5, 6),
    ("Hermes", 1430, 1, 23.2, 3),
    ("Isenbrink", 1261, 1, 9.0, 8),
    ("Achill", 1154, 1, 23.5, 2),
    ("Verdandi", 1100, 9, 0.0, 99),
    ("Ajax", 1026, 1, 10.3, 7),
]
WIN_W, DRAW, WIN_B, BYE, CLUB, EXCUSED, UNEXCUSED, FORFEIT_W, FORFEIT_B = 1, 2, 3, 4, 5, 6, 7, 8, 9
SAMPLE_PAIRINGS = [
    (1, 1, "Helena", "Amurru", DRAW), (1, 2, "Inanna", "Ninedena", WIN_W),
    (1, 3, "Achill", "Isenbrink", WIN_W), (1, 100, "Hermes", None, EXCUSED),
    (1, 101, "Ajax", None, EXCUSED), (1, 102, "Verdandi", None, BYE),
    (2, 1, "Amurru", "Inanna", WIN_W), (2, 2, "Achill", "Helena", WIN_W),
    (2, 3, "Ninedena", "Verdandi", WIN_W), (2, 4, "Isenbrink", "Ajax", WIN_W),
    (2, 100, "Hermes", None, EXCUSED),
    (3, 1, "Amurru", "Achill", WIN_W), (3, 2, "Helena", "Inanna", WIN_W),
    (3, 3, "Ninedena", "Hermes", WIN_W), (3, 4, "Ajax", "Verdandi", WIN_W),
    (3, 100, "Isenbrink", None, BYE),
    (4, 1, "Ninedena", "Amurru", WIN_B), (4, 2, "Hermes", "Achill", WIN_W),
    (4, 3, "Ajax", "Helena", WIN_B), (4, 4, "Verdandi", "Isenbrink", WIN_W),
    (4, 100, "Inanna", None, BYE),
    (5, 1, "Hermes", "Amurru", DRAW), (5, 2, "Inanna", "Achill", DRAW),
    (5, 3, "Isenbrink", "Ajax", FORFEIT_B), (5, 100, "Helena", None, UNEXCUSED),
    (5, 101, "Ninedena", None, CLUB),
]  # fmt: skip


def sample(path: Path, **changes) -> bytes:
    return build(path, changes.pop("players", SAMPLE_PLAYERS), SAMPLE_PAIRINGS, **changes)
