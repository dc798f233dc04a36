"""Demo data: the circuit generator (competitions/systems/boardgame/demo.py) and
`manage.py load_demo`."""

import datetime
import hashlib
from collections import Counter
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from competitions.models import Season, Series, Tournament
from competitions.registry import DemoSeries
from competitions.systems.boardgame.demo import SERIES, SERIES_NAME, circuit_files
from competitions.systems.boardgame.models import Seat
from tests.helpers import patch_spec, season_rows, tournament_rows

# sha256 of `export_standings belgian-circuit <season>` of the demo, taken before the standings
# moved from JSON tables to rows (issue "One place where a competition system plugs in"): the
# refactoring, and anything after it, must keep the circuit's downloads byte for byte.
DEMO_STANDINGS_SHA256 = {
    "2023": "217d9b039e04f289ecf15166a9d7fed870d39f4e2e39e6a4b4ec68fb9f2ff533",
    "2024": "1ef30675d2895db414c044356be82c9f4dbc99853745ec03b6fc1ec0d05565d3",
    "2025": "1147ab50da4df83f7028b6779a95c093723ddbfbcb5c8383c7dbf3f5a1764f1d",
}

FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(scope="module")
def files() -> list[dict]:
    return circuit_files()


@pytest.fixture
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = FAST_HASHERS


@pytest.fixture
def only_the_circuit_demo(monkeypatch):
    """The other systems' demos stay out of these circuit tests (each system tests its own)."""
    from competitions.registry import all_systems

    for spec in all_systems():
        if spec.key != "boardgame-circuit" and spec.demo is not None:
            patch_spec(monkeypatch, spec.key, demo=None)


def load_demo(*args: str) -> str:
    out = StringIO()
    call_command("load_demo", *args, stdout=out)
    return out.getvalue()


def played_tables(data: dict):
    for t in data["tournaments"]:
        for number, round_ in enumerate(t["rounds"], start=1):
            for table in round_["tables"]:
                yield t, number, table


# --- the generator ------------------------------------------------------------------------------


def test_generator_is_deterministic(files):
    assert circuit_files(2025) == files
    assert circuit_files(2025) == circuit_files(2025)
    assert circuit_files(7) != files


def test_files_describe_three_seasons_of_one_series(files):
    assert [f["season"] for f in files] == ["2023", "2024", "2025"]
    for data in files:
        assert data["format"] == "competition/1"
        assert data["system"] == "boardgame-circuit"
        assert data["series"] == SERIES
        assert data["name"] == f"{SERIES_NAME} {data['season']}"
        assert "settings" not in data
        assert 6 <= len(data["clubs"]) <= 10
        assert 55 <= len(data["players"]) <= 80
        clubs = {c["id"] for c in data["clubs"]}
        assert all(p["club"] in clubs for p in data["players"])
        finals = [t for t in data["tournaments"] if t["final"]]
        assert len(data["tournaments"]) == 9 and len(finals) == 1
        assert finals[0]["date"][5:7] == "11"
        dates = [datetime.date.fromisoformat(t["date"]) for t in data["tournaments"]]
        assert dates == sorted(dates) and all(d.weekday() == 6 for d in dates)
        assert all(d.year == int(data["season"]) for d in dates)
        assert all(
            isinstance(t["draw_seed"], int) and t["draw_seed"] >= 0 for t in data["tournaments"]
        )
        assert len({t["id"] for t in data["tournaments"]}) == 9
    assert files[0]["previous_participants"] == [52, 47, 61, 58, 44, 50, 49, 55]
    assert all("previous_participants" not in f for f in files[1:])
    # 2025 is in progress: six regular tournaments played, two more and the final still to come.
    played = [bool(t["rounds"]) for t in files[2]["tournaments"]]
    assert played == [True] * 6 + [False] * 3
    assert all(len(t["rounds"]) == 3 for f in files[:2] for t in f["tournaments"])


def test_players_are_the_same_people_across_seasons(files):
    names: dict[str, str] = {}
    for data in files:
        for p in data["players"]:
            assert names.setdefault(p["id"], p["name"]) == p["name"]
    assert 60 <= len(names) <= 80
    assert len(set(names.values())) == len(names)
    rosters = [{p["id"] for p in data["players"]} for data in files]
    assert rosters[0] - rosters[1] and rosters[1] - rosters[0]  # some leave, some join
    assert rosters[1] - rosters[2] and rosters[2] - rosters[1]
    assert len(rosters[0] & rosters[1] & rosters[2]) >= 50


def test_every_table_is_valid(files):
    ties = tables = skipped = 0
    for data in files:
        players = {p["id"] for p in data["players"]}
        for t in data["tournaments"]:
            participants = set()
            for round_ in t["rounds"]:
                seated = Counter(r["player"] for tb in round_["tables"] for r in tb["results"])
                assert max(seated.values()) == 1, "a player twice in one round"
                participants |= set(seated)
            for round_ in t["rounds"]:
                skipped += len(participants) - sum(len(tb["results"]) for tb in round_["tables"])
            if t["rounds"] and not t["final"]:
                assert 30 <= len(participants) <= 60
            assert participants <= players
        for _t, _number, table in played_tables(data):
            tables += 1
            x = len(table["results"])
            assert 3 <= x <= 6
            assert table["game"]
            ranks = sorted(r["rank"] for r in table["results"])
            assert all(1 <= rank <= x for rank in ranks)
            # competition ranking: a rank is its position, or shared with the one above
            assert ranks[0] == 1
            assert all(r == i + 1 or r == ranks[i - 1] for i, r in enumerate(ranks) if i)
            ties += len(set(ranks)) < x
    assert 0.01 < ties / tables < 0.12
    assert skipped > 0
    games = Counter(tb["game"] for data in files for _t, _n, tb in played_tables(data))
    assert 6 <= len(games) <= 10
    sizes = Counter(len(tb["results"]) for data in files for _t, _n, tb in played_tables(data))
    assert sizes.most_common(1)[0][0] == 4


# --- load_demo ----------------------------------------------------------------------------------


def assert_demo_loaded() -> Series:
    series = Series.objects.get(slug=SERIES)
    assert series.name == SERIES_NAME
    assert sorted(series.seasons.values_list("label", flat=True)) == ["2023", "2024", "2025"]
    assert Tournament.objects.filter(season__series=series).count() == 27
    for season in series.seasons.all():
        assert not season.stale
    return series


@pytest.mark.django_db(transaction=True)
def test_load_demo_is_idempotent_and_creates_the_logins(
    files, fast_passwords, monkeypatch, only_the_circuit_demo
):
    monkeypatch.delenv("PORT", raising=False)
    first = load_demo()
    # Every demo file imported, whole.
    assert [line for line in first.splitlines() if line.startswith("Imported")] == [
        f"Imported belgian-circuit {label}." for label in ("2023", "2024", "2025")
    ]
    series = assert_demo_loaded()
    seats = Seat.objects.count()
    assert seats == sum(len(tb["results"]) for f in files for _t, _n, tb in played_tables(f))

    second = load_demo()
    assert "Imported" not in second and "skipped" in second
    assert Series.objects.count() == 1
    assert assert_demo_loaded() == series
    assert Seat.objects.count() == seats
    for out in (first, second):
        assert (
            "Demo admin:    http://127.0.0.1:8000/admin/  user admin  password clubsite-demo" in out
        )
        assert (
            "Demo manager:  user secretary  password clubsite-demo "
            "(manages “Belgian board game circuit”)" in out
        )

    users = get_user_model().objects
    admin = users.get(username="admin")
    assert admin.is_superuser and admin.is_staff and admin.check_password("clubsite-demo")
    secretary = users.get(username="secretary")
    assert not secretary.is_staff and not secretary.is_superuser
    assert secretary.check_password("clubsite-demo")
    assert list(series.managers.all()) == [secretary]
    assert series.is_manager(secretary)

    # LUDO of 2025 reads the stored 2023 and 2024 seasons.
    season = series.seasons.get(label="2025")
    ludo = {r["player"]: r["points"] for r in table_rows(season, "ludo")}
    yearly = {r["player"]: r["points"] for r in table_rows(season, "yearly")}
    yearly_2024 = {r["player"]: r["points"] for r in table_rows(series.seasons.get(label="2024"))}
    assert ludo and yearly and yearly_2024
    regulars = [p for p in yearly if yearly_2024.get(p, 0) > 0]
    assert regulars
    assert all(ludo[p] > yearly[p] for p in regulars)
    # Someone who played 2024 but not (yet) 2025 still has LUDO points.
    assert any(p not in yearly and ludo.get(p, 0) > 0 for p in yearly_2024)
    # Tournaments of 2025 not yet played are there, without results.
    keys = season.tournaments.values_list("key", flat=True)
    unplayed = [key for key in keys if not tournament_rows(season, key)]
    assert len(unplayed) == 3

    # The standings downloads of every demo season, byte for byte as before.
    for label, digest in DEMO_STANDINGS_SHA256.items():
        out = StringIO()
        call_command("export_standings", SERIES, label, stdout=out)
        assert hashlib.sha256(out.getvalue().encode()).hexdigest() == digest, label


def table_rows(season: Season, kind: str = "yearly") -> list[dict]:
    return season_rows(season, kind)


@pytest.mark.django_db(transaction=True)
def test_load_demo_reset_imports_again(
    fast_passwords, monkeypatch, circuit_file, only_the_circuit_demo
):
    # A one-season demo keeps this quick; the mechanics are those of the real one.
    demo = DemoSeries(
        slug=SERIES, name=SERIES_NAME, files=lambda: [circuit_file], last_season="2025"
    )
    patch_spec(monkeypatch, "boardgame-circuit", demo=demo)
    load_demo()
    seats = Seat.objects.count()
    assert "skipped" in load_demo()
    out = load_demo("--reset")
    assert "Imported belgian-circuit 2025." in out
    assert Season.objects.get().tournaments.count() == 3
    assert Seat.objects.count() == seats


@pytest.mark.django_db
def test_load_demo_refuses_in_production(settings):
    settings.PRODUCTION = True
    with pytest.raises(CommandError, match="--force"):
        call_command("load_demo", stdout=StringIO())
    assert not get_user_model().objects.exists()
    assert not Series.objects.exists()


@pytest.mark.django_db
def test_load_demo_forced_in_production_uses_port(settings, fast_passwords, monkeypatch):
    settings.PRODUCTION = True
    monkeypatch.setenv("PORT", "8123")
    patch_spec(monkeypatch, "boardgame-circuit", demo=None)
    out = load_demo("--force")
    assert "http://127.0.0.1:8123/admin/" in out
    assert get_user_model().objects.get(username="admin").is_superuser
