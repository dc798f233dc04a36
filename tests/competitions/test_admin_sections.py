"""The admin by system: the index has a section per system, and every result list shows its
context, filters from the series down to the system's unit, finds a player by name, and runs the
same queries whatever the number of rows. Stored names of any shape render."""

from decimal import Decimal

import pytest
from django.contrib.admin.templatetags.admin_list import result_headers
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from competitions.models import (
    Game,
    Group,
    Player,
    Round,
    RoundEntry,
    Season,
    SeasonPlayer,
    Series,
    Tournament,
)
from competitions.registry import all_systems, get_system
from competitions.systems.boardgame.models import HistoricTotal, Seat, Table
from competitions.systems.bridge.models import Challenge, ChallengeScore, Pool, PoolMember
from competitions.systems.chess.models import GroupPlayer
from competitions.systems.othello.models import Placement

pytestmark = pytest.mark.django_db

GREEK = "Αλέξανδρος"


def player_name(tag: str, i: int) -> str:
    """Names a page must show as they are: a formula, a slash, Greek, 200 characters."""
    if i == 0:
        return f"{GREEK} {tag}"
    if i == 1:
        return f'=HYPERLINK("x")/{tag}'
    if i == 2:
        return (f"{tag} " + "Ω" * 200)[:200]
    return f"a/b = {tag} {i}"


def players(series: Series, tag: str, n: int) -> list[Player]:
    return [
        Player.objects.create(series=series, key=f"p{i}", name=player_name(tag, i))
        for i in range(n)
    ]


def series_and_season(system: str, tag: str) -> tuple[Series, Season]:
    series = Series.objects.create(slug=f"{system}-{tag}", name=f"={system}/{tag} Σ", system=system)
    return series, Season.objects.create(series=series, label="2025", name=f"{series.name} 2025")


def build(tag: str, n: int) -> dict[str, dict]:
    """A series of every system holding `n` rows in each list, each name an awkward one; the
    filters that select exactly those rows, by list."""
    found: dict[str, dict] = {}

    series, season = series_and_season("boardgame-circuit", tag)
    people = players(series, tag, n)
    day = Tournament.objects.create(season=season, key="d1", name=f"Dag/={tag} " + "Δ" * 150)
    day_round = Round.objects.create(season=season, tournament=day, number=1)
    table = Table.objects.create(round=day_round, number=1, game=f"=SUM(1)/Catan {tag}")
    for rank, player in enumerate(people, start=1):
        Seat.objects.create(table=table, player=player, rank=rank)
        HistoricTotal.objects.create(season=season, label="2024", player=player, points=rank)
    unit = {"series": series.pk, "season": season.pk, "tournament": day.pk, "round": 1}
    found["seat"] = {"params": unit, "rows": n}
    found["table"] = {"params": unit, "rows": 1}
    found["historictotal"] = {"params": {"series": series.pk, "season": season.pk}, "rows": n}

    series, season = series_and_season("othello-gp", tag)
    gp = Tournament.objects.create(season=season, key="gp", name=f"GP/{tag} = Ωμέγα")
    for place, player in enumerate(players(series, tag, n), start=1):
        Placement.objects.create(tournament=gp, player=player, place=place, country="SE")
    found["placement"] = {
        "params": {"series": series.pk, "season": season.pk, "tournament": gp.pk},
        "rows": n,
    }

    series, season = series_and_season("chess-bgp", tag)
    open_ = Tournament.objects.create(season=season, key="open", name=f"Open/{tag}=")
    group = Group.objects.create(tournament=open_, name=f"A/={tag} Γ")
    chess_round = Round.objects.create(season=season, tournament=open_, group=group, number=1)
    people = players(series, tag, 2 * n)
    for position, player in enumerate(people, start=1):
        GroupPlayer.objects.create(group=group, player=player, position=position)
    games(chess_round, people)
    unit = {
        "system": "chess-bgp",
        "series": series.pk,
        "season": season.pk,
        "tournament": open_.pk,
        "group": group.pk,
        "round": 1,
    }
    found["game chess"] = {"params": unit, "rows": n}
    found["roundentry chess"] = {"params": unit, "rows": 2 * n}
    found["groupplayer"] = {
        "params": {k: v for k, v in unit.items() if k not in ("system", "round")},
        "rows": 2 * n,
    }

    series, season = series_and_season("keizer", tag)
    evening = Round.objects.create(season=season, number=3)
    people = players(series, tag, 2 * n)
    for player in people:
        SeasonPlayer.objects.create(season=season, player=player)
    games(evening, people)
    unit = {"system": "keizer", "series": series.pk, "season": season.pk, "round": 3}
    found["game keizer"] = {"params": unit, "rows": n}
    found["roundentry keizer"] = {"params": unit, "rows": 2 * n}

    series, season = series_and_season("bridge-ladder", tag)
    ladder_round = Round.objects.create(season=season, number=2)
    pool = Pool.objects.create(round=ladder_round, number=1)
    challenge = Challenge.objects.create(round=ladder_round, number=1)
    for position, player in enumerate(players(series, tag, n), start=1):
        PoolMember.objects.create(pool=pool, player=player, position=position)
        ChallengeScore.objects.create(challenge=challenge, player=player, imps=Decimal("1.5"))
    unit = {"series": series.pk, "season": season.pk, "round": 2}
    found["pool"] = {"params": unit, "rows": 1}
    found["challenge"] = {"params": unit, "rows": 1}
    found["poolmember"] = {"params": {**unit, "pool": 1}, "rows": n}
    found["challengescore"] = {"params": {**unit, "challenge": 1}, "rows": n}
    return found


def games(round_: Round, people: list[Player]) -> None:
    for board, (white, black) in enumerate(zip(people[::2], people[1::2], strict=True), start=1):
        game = Game.objects.create(round=round_, board=board, result=Game.Result.DRAW)
        for player, colour in ((white, "white"), (black, "black")):
            RoundEntry.objects.create(
                round=round_, player=player, status="played", game=game, colour=colour
            )


MODELS = {
    "seat": Seat,
    "table": Table,
    "historictotal": HistoricTotal,
    "placement": Placement,
    "game chess": Game,
    "roundentry chess": RoundEntry,
    "groupplayer": GroupPlayer,
    "game keizer": Game,
    "roundentry keizer": RoundEntry,
    "pool": Pool,
    "challenge": Challenge,
    "poolmember": PoolMember,
    "challengescore": ChallengeScore,
}


def changelist(model) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")


@pytest.fixture
def two_sizes():
    """The same lists in a small series (2 rows) and a large one (7 rows), side by side."""
    return build("small", 2), build("large", 7)


# --- the index -----------------------------------------------------------------------------------


def test_admin_index_has_the_shared_section_then_one_per_system_in_the_registry_order(
    admin_client,
):
    sections = admin_client.get(reverse("admin:index")).context["app_list"]
    names = [str(section["name"]) for section in sections]

    systems = [str(spec.name) for spec in all_systems()]
    assert names[: 1 + len(systems)] == ["Series and players", *systems]
    models = {str(s["name"]): {str(m["name"]): m for m in s["models"]} for s in sections}
    assert set(models["Series and players"]) >= {"Series", "Seasons", "Players", "Rounds"}
    # Games and round entries are shared by chess and Keizer: each section lists its own.
    assert "Games" not in models["Series and players"]
    chess, keizer = (str(get_system(key).name) for key in ("chess-bgp", "keizer"))
    assert set(models[chess]) == {"Games", "Groups", "Group players", "Round entries"}
    assert set(models[keizer]) == {"Games", "Attendance"}
    assert models[chess]["Games"]["admin_url"] == changelist(Game) + "?system=chess-bgp"
    assert models[keizer]["Attendance"]["admin_url"] == changelist(RoundEntry) + "?system=keizer"
    assert set(models[str(get_system("othello-gp").name)]) == {"Placements"}
    assert {"Tables", "Seats"} <= set(models[str(get_system("boardgame-circuit").name)])


def test_admin_index_names_the_systems_in_the_visitors_language(admin_client):
    response = admin_client.get(reverse("admin:index"), HTTP_ACCEPT_LANGUAGE="nl")
    names = [str(section["name"]) for section in response.context["app_list"]]
    with translation.override("nl"):
        dutch = [str(spec.name) for spec in all_systems()]
    with translation.override("en"):
        assert dutch != [str(spec.name) for spec in all_systems()]
    assert names[1 : 1 + len(dutch)] == dutch
    html = response.content.decode()
    assert all(name in html for name in dutch)


def test_a_shared_list_opened_from_a_system_section_is_titled_and_filtered_by_it(admin_client):
    build("t", 2)
    response = admin_client.get(changelist(Game) + "?system=keizer")
    assert response.status_code == 200
    assert response.context["title"] == f"{get_system('keizer').name}: Games"
    assert response.context["cl"].result_count == 2
    assert {g.round.season.series.system for g in response.context["cl"].result_list} == {"keizer"}
    # A club evening is a round of the season: no empty tournament and group columns there,
    # while the chess section's list keeps them.
    headers = [str(h["text"]).lower() for h in response.context["result_headers"]]
    assert "board" in headers and not {"tournament", "group"} & set(headers), headers
    chess = admin_client.get(changelist(Game) + "?system=chess-bgp")
    shown = {str(h["text"]).lower() for h in chess.context["result_headers"]}
    assert {"tournament", "group"} <= shown, shown


# --- the lists -----------------------------------------------------------------------------------


@pytest.mark.parametrize("case", list(MODELS))
def test_every_result_list_filters_down_to_the_unit_and_finds_a_player(
    admin_client, two_sizes, case
):
    small, large = two_sizes
    model = MODELS[case]
    for found in (small, large):
        response = admin_client.get(changelist(model), found[case]["params"])
        assert response.status_code == 200, response.get("Location")
        assert response.context["cl"].result_count == found[case]["rows"]
        # Every filter of the chain is offered (it has choices) and holds its value.
        shown = {
            getattr(f, "parameter_name", None)
            for f in response.context["cl"].filter_specs
            if f.has_output()
        }
        assert set(found[case]["params"]) <= shown

    # One player of the large series has that name (the small series has one too).
    response = admin_client.get(changelist(model), {**large[case]["params"], "q": GREEK})
    assert response.status_code == 200
    assert response.context["cl"].result_count == 1
    if case not in ("table", "pool", "challenge"):  # these show their players on their page
        assert f"{GREEK} large" in response.content.decode()


@pytest.mark.parametrize("case", list(MODELS))
def test_every_result_list_runs_the_same_queries_for_2_or_7_rows(
    admin_client, two_sizes, case, django_assert_max_num_queries
):
    small, large = two_sizes
    model = MODELS[case]
    counts = []
    for found in (small, large):
        # Session, user, the choices of at most six filters, two counts, the page and the
        # entries and players of its games: nothing per row.
        with django_assert_max_num_queries(13):
            with CaptureQueriesContext(connection) as queries:
                response = admin_client.get(changelist(model), found[case]["params"])
        assert response.status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_chess_games_list_their_tournament_group_round_board_and_players(admin_client):
    found = build("t", 2)
    response = admin_client.get(changelist(Game), found["game chess"]["params"])
    columns = [h["text"] for h in result_headers(response.context["cl"])][1:]  # after the box
    assert [str(c).lower() for c in columns] == [
        "tournament",
        "group",
        "round",
        "board",
        "white",
        "black",
        "result",
        "manual pair",
        "season",
    ]
    html = response.content.decode()
    for text in ("Open/t=", "A/=t Γ", f"{GREEK} t", "=HYPERLINK(&quot;x&quot;)/t"):
        assert text in html


def test_choosing_a_wider_filter_drops_the_narrower_ones(admin_client):
    found = build("t", 2)
    response = admin_client.get(changelist(Game), found["game chess"]["params"])
    season_filter = next(
        f
        for f in response.context["cl"].filter_specs
        if getattr(f, "parameter_name", None) == "season"
    )
    links = [c["query_string"] for c in season_filter.choices(response.context["cl"])]
    assert all("tournament=" not in link and "group=" not in link for link in links)
    assert all("series=" in link for link in links)


def test_a_filter_value_that_is_not_a_number_is_refused_not_an_error(admin_client):
    response = admin_client.get(changelist(Game), {"season": "1/="})
    assert response.status_code == 302
    assert response["Location"].endswith("?e=1")


def test_narrow_filters_wait_for_a_wider_choice(admin_client):
    build("t", 2)
    response = admin_client.get(changelist(Game))
    shown = {
        getattr(f, "parameter_name", None)
        for f in response.context["cl"].filter_specs
        if f.has_output()
    }
    assert {"system", "series", "season"} <= shown
    assert not shown & {"tournament", "group", "round"}
