"""Issue 47 part 5 (keizer-variants.md §5): moving in from KeizerForClubs. A tournament file is
converted to a competition file, imported as any other, recomputed, and checked against the
scores and places the file stores."""

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from competitions.interchange import FileError
from competitions.models import RoundEntry, Season
from competitions.systems.keizer.kfc import read_kfc
from competitions.systems.keizer.models import Withdrawal
from rankings.selectors import standings_document
from rankings.systems.keizer.kfc import import_kfc
from tests.kfc_builder import CONFIG, SAMPLE_PLAYERS, build, sample

pytestmark = pytest.mark.django_db


def run(path, *args) -> str:
    out = io.StringIO()
    call_command("import_competition", str(path), *args, stdout=out)
    return out.getvalue()


def test_the_sample_tournament_is_reproduced_exactly(tmp_path):
    """§3.6: every stored score and place of KFC's sample tournament."""
    path = tmp_path / "Test-Tournament.s3db"
    sample(path)
    out = run(path, "--series", "kfc-club", "--season", "2024")
    assert "Imported kfc-club 2024." in out
    assert "all 8 players equal" in out, out
    season = Season.objects.get(series__slug="kfc-club", label="2024")
    assert season.settings["preset"] == "kfc"
    assert season.settings["points_absent"] == "7/20"
    assert season.settings["withdrawn_credit"] == "3/4"
    # Players in rating order; Verdandi withdrawn and on no list.
    assert [e.player.name for e in season.entries.order_by("position")][:3] == [
        "Amurru", "Helena", "Ninedena",
    ]  # fmt: skip
    assert Withdrawal.objects.get().entry.player.name == "Verdandi"
    standings = standings_document(season=season)["standings"]
    got = [(r["player"], r["rank"], r["score"]) for r in standings]
    keys = {e.player.name: e.player.key for e in season.entries.select_related("player")}
    expected = sorted(
        (p for p in SAMPLE_PLAYERS if p[2] != 9), key=lambda p: p[4]
    )  # by stored place
    assert got == [(keys[n], rank, pytest.approx(s)) for n, _r, _st, s, rank in expected]


def test_the_example_of_the_spec_becomes_the_worked_season(tmp_path):
    """§5.5: §3.4's season as a KFC file becomes §3.1's rounds."""
    players = [
        (n, r, 1, 0, 1) for n, r in zip("ABCDE", (1900, 1800, 1700, 1600, 1500), strict=True)
    ]
    pairings = [
        (1, 1, "A", "B", 3), (1, 2, "C", "D", 2), (1, 100, "E", None, 4),
        (2, 1, "B", "E", 3), (2, 2, "A", "C", 1), (2, 100, "D", None, 6),
        (3, 1, "E", "A", 2), (3, 2, "B", "D", 1), (3, 100, "C", None, 5),
    ]  # fmt: skip
    config = {**CONFIG, "BONUS.Freilos": 50, "BONUS.Verlust": 0}
    kfc = read_kfc(build(tmp_path / "w.s3db", players, pairings, config), series="s", season="1")
    ids = {p["name"]: p["id"] for p in kfc.document["players"]}
    second, third = kfc.document["rounds"][1], kfc.document["rounds"][2]
    assert second["absent"] == [ids["D"]] and third["external"] == [ids["C"]]
    assert kfc.document["rounds"][0]["bye"] == [ids["E"]]
    assert second["games"][0] == {"white": ids["B"], "black": ids["E"], "result": "0-1"}
    # The file's stored numbers are all 0 here: a stale file, reported, imported all the same.
    done = import_kfc(build(tmp_path / "x.s3db", players, pairings, config), series="s", season="1")
    assert len(done.differences) == 5
    scores = {
        r["player"]: r["score"] for r in standings_document(season=done.result.season)["standings"]
    }
    assert scores == pytest.approx(
        {ids["E"]: 14.5, ids["B"]: 14, ids["A"]: 9, ids["D"]: 101 / 20, ids["C"]: 4.9}
    )


def test_a_stale_file_is_reported_not_refused(tmp_path):
    stale = [("Amurru", 1891, 1, 30.0, 2) if p[0] == "Amurru" else p for p in SAMPLE_PLAYERS]
    path = tmp_path / "stale.s3db"
    sample(path, players=stale)
    out = run(path, "--series", "kfc-club", "--season", "2024")
    assert "Imported kfc-club 2024." in out
    assert "1 of 8 players differ" in out
    assert "Amurru" in out and "score 37.5, place 1; the file has 30.0, place 2" in out
    assert "may be stale" in out
    assert Season.objects.filter(label="2024").exists()


def test_a_file_without_a_required_setting_is_refused_naming_it(tmp_path):
    config = {k: v for k, v in CONFIG.items() if k != "BONUS.Retired"}
    path = tmp_path / "old.s3db"
    sample(path, config=config)
    with pytest.raises(CommandError, match=r"BONUS\.Retired is missing"):
        run(path, "--series", "kfc-club", "--season", "2024")
    assert not Season.objects.exists()


def test_a_dry_run_checks_and_stores_nothing(tmp_path):
    path = tmp_path / "t.s3db"
    sample(path)
    out = run(path, "--series", "kfc-club", "--season", "2024", "--dry-run")
    assert "Dry run: would import kfc-club 2024." in out and "Nothing was stored." in out
    assert "all 8 players equal" in out
    assert not Season.objects.exists() and not RoundEntry.objects.exists()
    run(path, "--series", "kfc-club", "--season", "2024")
    with pytest.raises(CommandError, match="has a season 2024 already"):
        run(path, "--series", "kfc-club", "--season", "2024")
    out = run(path, "--series", "kfc-club", "--season", "2024", "--replace")
    assert "Replaced kfc-club 2024." in out and "all 8 players equal" in out


@pytest.mark.parametrize(
    "row,message",
    [
        ((5, 4, "Achill", "Hermes", 10), "forfeit for both players"),
        ((2, 9, "Achill", "Hermes", -1), "no result, in a round before the last"),
        ((5, 1, "Achill", "Hermes", 1), "occur twice"),
    ],
)
def test_rows_that_cannot_be_mapped_are_refused_naming_them(tmp_path, row, message):
    from tests.kfc_builder import SAMPLE_PAIRINGS

    path = tmp_path / "bad.s3db"
    build(path, SAMPLE_PLAYERS, [*SAMPLE_PAIRINGS, row])
    with pytest.raises(FileError) as caught:
        read_kfc(path.read_bytes(), series="s", season="1")
    assert message in str(caught.value)
    assert f"round {row[0]} board {row[1]}" in str(caught.value)


def test_not_a_kfc_file(tmp_path):
    with pytest.raises(FileError, match="not a KeizerForClubs file"):
        read_kfc(b"{}", series="s", season="1")
    import sqlite3

    path = tmp_path / "other.s3db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE Player (id INTEGER)")
    db.commit()
    db.close()
    with pytest.raises(FileError, match="no table Pairing"):
        read_kfc(path.read_bytes(), series="s", season="1")
    with pytest.raises(CommandError, match="--series SLUG and --season LABEL"):
        run(path)


def test_the_settings_mapping(tmp_path):
    config = {
        **CONFIG,
        "BONUS.Verlust": 5,
        "OPTION.RatioFirst2Last": 1.2,
        "OPTION.DecayPrevRound": 1,
        "OPTION.DecayBonus": 1,
        "OPTION.GameRepeat": 3,
    }
    path = tmp_path / "s.s3db"
    sample(path, config=config, text_config={"OPTION.RoundsSameColor": "--", "NiceName": "Club"})
    kfc = read_kfc(path.read_bytes(), series="s", season="1")
    settings = kfc.document["settings"]
    assert settings["points_loss"] == "1/20" and settings["points_bye"] == "1/2"
    assert settings["value_ratio"] == "6/5" and settings["own_value_fade_rounds"] == 5
    assert settings["absence_halving"] is True and settings["rematch_gap"] == 3
    assert settings["colour_run"] == 100 and kfc.document["name"] == "Club"
