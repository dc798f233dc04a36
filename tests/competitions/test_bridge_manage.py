"""Bridge ladder manager pages: set-up, the IMP grid, the CSV upload, manual moves with a kept
reason, and "start next round" (idempotent), with leavers and late joiners."""

from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from competitions.edits import Edit
from competitions.models import Player, Round, Season, SeasonPlayer, Series
from competitions.systems.bridge import services
from competitions.systems.bridge.models import Challenge, ChallengeScore, Pool, PoolMember
from competitions.systems.bridge.selectors import ladder_data
from competitions.views import manage_url
from rankings.imports import import_competition
from rankings.selectors import standings_document
from tests.bridge_files import CLUB, big_ladder, ladder_file
from tests.competitions.test_manage import LOGGED_IN, MANAGER, SEASON
from tests.helpers import fresh

pytestmark = pytest.mark.django_db

OTHERS = ["a1", "a2", "a3", "a4", "a5"]


@pytest.fixture
def commit(django_capture_on_commit_callbacks):
    """Run after-commit work (the recompute) as a real commit would."""

    def run(function, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return function(*args, **kwargs)

    return run


@pytest.fixture
def ladder(commit) -> Season:
    """Two pools, round 1 started, nothing played yet."""
    return commit(import_competition, ladder_file(pools=[OTHERS, CLUB], rounds=[{"number": 1}]))


@pytest.fixture
def empty(commit) -> Season:
    """A ladder season not set up yet, its series with the club's players."""
    return commit(
        import_competition,
        ladder_file(extra_players=[{"id": p, "name": p} for p in CLUB + OTHERS]),
    )


@pytest.fixture
def manager(django_user_model):
    return django_user_model.objects.create_user("secretary", password="pw-secretary-1")


def client_for(user, season: Season) -> Client:
    season.series.managers.add(user)
    client = Client()
    client.force_login(user)
    return client


def pool(season: Season, round_: int, number: int) -> Pool:
    return Pool.objects.get(round__season=season, round__number=round_, number=number)


def cell(season: Season, key: str, challenge: int) -> str:
    player = Player.objects.get(series=season.series, key=key)
    return f"imps_{player.pk}_{challenge}"


def scores(season: Season) -> dict[tuple[str, int, int], Decimal]:
    return {
        (s.player.key, s.challenge.round.number, s.challenge.number): s.imps
        for s in ChallengeScore.objects.filter(challenge__round__season=season).select_related(
            "player", "challenge__round"
        )
    }


# --- who may ------------------------------------------------------------------------------------


def test_only_the_series_managers_enter_results(client, ladder, django_user_model):
    url = manage_url(ladder, "pool", 1, 2)
    assert client.get(url).status_code == 302  # to the login page
    other = Series.objects.create(slug="other", name="Other", system="bridge-ladder")
    stranger = django_user_model.objects.create_user("other", password="pw-other-123")
    other.managers.add(stranger)
    client.force_login(stranger)
    assert client.get(url).status_code == 403
    assert client.post(url, {cell(ladder, "Tolie", 1): "3"}).status_code == 403
    assert not ChallengeScore.objects.exists()


# --- set-up -------------------------------------------------------------------------------------


def test_setup_cuts_the_list_into_pools_with_start_elo_and_new_players(manager, empty, commit):
    client = client_for(manager, empty)
    page = client.get(manage_url(empty, "setup"))
    assert page.status_code == 200
    lines = "\n".join([*OTHERS, "djchili74 | 1310", "Tolie", "HanLaporte", "Rudolf101",
                       "Coolerb", "Zoë Newcomer | 1180.5"])  # fmt: skip
    response = commit(
        client.post, manage_url(empty, "setup"), {"players": lines, "create_missing": "on"}
    )
    assert response.status_code == 302
    assert response["Location"] == manage_url(empty, "round", 1)
    data = ladder_data(empty)
    newcomer = Player.objects.get(series=empty.series, name="Zoë Newcomer")
    assert data.rounds[0].pools == [OTHERS, CLUB, [newcomer.key]]
    assert data.start_elo == {"djchili74": Decimal("1310"), newcomer.key: Decimal("1180.5")}
    assert Challenge.objects.filter(round__season=empty).count() == 3
    assert SeasonPlayer.objects.filter(season=empty).count() == 11
    doc = standings_document(season=fresh(empty))
    assert doc["rounds"][0]["pools"][2]["rows"][0]["elo"] == 1180.5


def test_setup_with_blank_lines_makes_those_pools(manager, empty):
    client = client_for(manager, empty)
    text = "a1\na2\n\na3\na4\na5\n\n" + "\n".join(CLUB)
    client.post(manage_url(empty, "setup"), {"players": text})
    assert ladder_data(empty).rounds[0].pools == [["a1", "a2"], ["a3", "a4", "a5"], CLUB]


@pytest.mark.parametrize(
    "text,error",
    [
        ("a1\nNobody Known", "Line 2: no player “Nobody Known” in this series."),
        ("a1\na2\na1", "Line 3: a1 is listed on line 1 already."),
        ("a1 | lots", "Line 1: “lots” is not a rating."),
        ("a1\n\n" + "\n".join(CLUB + ["a2"]), "has 6 players; at most 5"),
    ],
)
def test_setup_refuses_a_bad_list_and_stores_nothing(manager, empty, text, error):
    client = client_for(manager, empty)
    response = client.post(manage_url(empty, "setup"), {"players": text})
    assert response.status_code == 400
    assert error in response.content.decode()
    assert not Round.objects.exists()
    assert not Player.objects.filter(name="Nobody Known").exists()


def test_a_setup_list_with_cr_only_line_endings_is_read_line_by_line(manager, empty):
    client = client_for(manager, empty)
    text = "a1\ra2\r\ra3\ra4\ra5\r\r" + "\r".join(CLUB)
    assert client.post(manage_url(empty, "setup"), {"players": text}).status_code == 302
    assert ladder_data(empty).rounds[0].pools == [["a1", "a2"], ["a3", "a4", "a5"], CLUB]


def test_a_setup_list_with_a_control_character_is_refused_naming_its_line(manager, empty):
    client = client_for(manager, empty)
    response = client.post(manage_url(empty, "setup"), {"players": "a1\na\x002\n"})
    assert response.status_code == 400
    assert "Line 2: the control character U+0000" in response.content.decode()
    assert not Round.objects.exists()


def test_a_ladder_is_set_up_once(manager, ladder):
    client = client_for(manager, ladder)
    response = client.post(manage_url(ladder, "setup"), {"players": "a1"})
    assert response.status_code == 302
    assert Round.objects.filter(season=ladder).count() == 1


# --- the IMP grid -------------------------------------------------------------------------------


def test_the_grid_stores_decimals_negatives_and_blanks_and_the_standings_follow(
    manager, ladder, commit
):
    client = client_for(manager, ladder)
    url = manage_url(ladder, "pool", 1, 2)
    page = client.get(url)
    assert page.status_code == 200
    assert 'data-row="0" data-col="0"' in page.content.decode()
    posted = {
        cell(ladder, "djchili74", 1): "9,5",
        cell(ladder, "Tolie", 1): "4",
        cell(ladder, "HanLaporte", 1): "+0.30",
        cell(ladder, "Rudolf101", 1): "\u22123",
        cell(ladder, "Coolerb", 1): "-10.25",
        cell(ladder, "HanLaporte", 2): "12",
        "next": "1",
    }
    response = commit(client.post, url, posted)
    assert response.status_code == 302
    assert response["Location"] == manage_url(ladder, "round", 1)  # pool 2 is the last one
    assert scores(ladder) == {
        ("djchili74", 1, 1): Decimal("9.5"),
        ("Tolie", 1, 1): Decimal(4),
        ("HanLaporte", 1, 1): Decimal("0.3"),
        ("Rudolf101", 1, 1): Decimal(-3),
        ("Coolerb", 1, 1): Decimal("-10.25"),
        ("HanLaporte", 1, 2): Decimal(12),
    }
    doc = standings_document(season=fresh(ladder))
    after = doc["rounds"][0]["elo_after"][0]
    assert [after[p] for p in CLUB] == [1300.0, 1275.0, 1250.0, 1225.0, 1200.0]
    # Emptying a cell removes the score: the player did not play.
    posted[cell(ladder, "Tolie", 1)] = ""
    commit(client.post, url, posted)
    assert ("Tolie", 1, 1) not in scores(ladder)


def test_the_grid_refuses_what_is_not_an_imp_score_and_stores_nothing(manager, ladder):
    client = client_for(manager, ladder)
    response = client.post(
        manage_url(ladder, "pool", 1, 2),
        {cell(ladder, "Tolie", 1): "twelve", cell(ladder, "Coolerb", 1): "1.234"},
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "“twelve” is not an IMP score" in html and "“1.234” is not an IMP score" in html
    assert not ChallengeScore.objects.exists()


def test_saving_one_score_says_one_score(manager, ladder):
    """The message read "1 scores changed": it counts in the language's plural forms."""
    client = client_for(manager, ladder)
    response = client.post(
        manage_url(ladder, "pool", 1, 2), {cell(ladder, "Tolie", 1): "4"}, follow=True
    )
    said = [str(m) for m in response.context["messages"]]
    assert said == ["Pool 2 saved (1 score changed)."], said


def test_saving_a_pool_goes_on_to_the_next_pool(manager, ladder):
    client = client_for(manager, ladder)
    response = client.post(manage_url(ladder, "pool", 1, 1), {"next": "1"})
    assert response["Location"] == manage_url(ladder, "pool", 1, 2)


# --- the CSV upload -----------------------------------------------------------------------------


def upload(client, season, pool_number, challenge, text, name="result.csv"):
    return client.post(
        manage_url(season, "challenge_upload", 1, pool_number),
        {"challenge": str(challenge), "file": SimpleUploadedFile(name, text.encode())},
    )


def test_a_challenge_result_is_read_from_csv_and_replaces_that_challenge_of_the_pool(
    manager, ladder
):
    client = client_for(manager, ladder)
    services.pool_scores_save(
        pool=pool(ladder, 1, 2),
        rows=[Edit.sent((Player.objects.get(key="Coolerb").pk, 2), 5)],
        challenges=3,
    )
    text = "Player;IMPs\nHanLaporte;12,5\ndjchili74;-3\nTolie ; 0\n"
    response = upload(client, ladder, 2, 2, text)
    assert response.status_code == 302
    assert scores(ladder) == {
        ("HanLaporte", 1, 2): Decimal("12.5"),
        ("djchili74", 1, 2): Decimal(-3),
        ("Tolie", 1, 2): Decimal(0),
    }  # Coolerb is not in the file: he did not play challenge 2


@pytest.mark.parametrize(
    "text,error",
    [
        ("HanLaporte,12.5\na1,3\n", "Not in pool 2 of this round: a1."),
        ("HanLaporte,12.5\nGhost,3\n", "Line 2: no player “Ghost” in this series."),
        ("HanLaporte,12.5\nTolie,many\n", "Line 2: “many” is not an IMP score."),
        ("HanLaporte,12.5\nHanLaporte,3\n", "Line 2: HanLaporte is on line 1 already."),
        ("Player,IMPs\n", "The file holds no result."),
    ],
)
def test_a_bad_csv_is_refused_with_its_line_and_nothing_is_stored(manager, ladder, text, error):
    client = client_for(manager, ladder)
    response = upload(client, ladder, 2, 1, text)
    assert response.status_code == 400
    assert error in response.content.decode()
    assert not ChallengeScore.objects.exists()


@pytest.mark.parametrize("newline", ["\r", "\r\n"], ids=["cr-only", "crlf"])
def test_a_csv_with_any_line_ending_is_read_line_by_line(manager, ladder, newline):
    """CR-only line endings answered 500 (csv.Error)."""
    client = client_for(manager, ladder)
    text = "Player;IMPs\nHanLaporte;12,5\ndjchili74;-3\nTolie ; 0\n".replace("\n", newline)
    assert upload(client, ladder, 2, 2, text).status_code == 302
    assert scores(ladder) == {
        ("HanLaporte", 1, 2): Decimal("12.5"),
        ("djchili74", 1, 2): Decimal(-3),
        ("Tolie", 1, 2): Decimal(0),
    }


@pytest.mark.parametrize(
    "content,error",
    [
        (b"HanLaporte,12.5\nTo\x00lie,3\n", "Line 2: the control character U+0000"),
        (bytes(range(256)) * 4, "Line 3: the file is not UTF-8 text (byte 128)"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "Line 2: the control character U+001A"),
        (b'"' + (b"x" * 9000 + b"\n") * 15 + b'",1\n', "Line 15: a field longer than 131072"),
        (b"HanLaporte," + b"1" * 200_000 + b"\n", "The file is larger than 200 KB"),
    ],
    ids=["nul", "binary", "png", "field-over-the-csv-limit", "oversized"],
)
def test_a_file_that_is_no_text_is_refused_naming_its_line(manager, ladder, content, error):
    """A binary file or a field over 128 KB answered 500 (csv.Error)."""
    client = client_for(manager, ladder)
    response = client.post(
        manage_url(ladder, "challenge_upload", 1, 2),
        {"challenge": "1", "file": SimpleUploadedFile("result.csv", content)},
    )
    assert response.status_code == 400
    assert error in response.content.decode()
    assert not ChallengeScore.objects.exists()


# --- manual moves -------------------------------------------------------------------------------


def test_a_manual_move_swaps_two_players_and_keeps_the_reason(manager, ladder, commit):
    client = client_for(manager, ladder)
    a5 = PoolMember.objects.get(round__season=ladder, player__key="a5")
    tolie = PoolMember.objects.get(round__season=ladder, player__key="Tolie")
    url = manage_url(ladder, "swap", 1)
    refused = client.post(url, {"first": a5.pk, "second": tolie.pk, "reason": " "})
    assert refused.status_code == 400
    response = commit(
        client.post, url, {"first": a5.pk, "second": tolie.pk, "reason": "Holiday in pool 1"}
    )
    assert response.status_code == 302
    pools = ladder_data(ladder).rounds[0].pools
    assert pools == [["a1", "a2", "a3", "a4", "Tolie"], ["djchili74", "a5", *CLUB[2:]]]
    assert ladder_data(ladder).rounds[0].reasons == {
        "a5": "Holiday in pool 1",
        "Tolie": "Holiday in pool 1",
    }
    assert a5.history.count() == 2  # the move is in the history of corrections
    doc = standings_document(season=fresh(ladder))
    assert doc["rounds"][0]["pools"][0]["rows"][-1]["player"] in OTHERS + ["Tolie"]


def test_players_of_the_same_pool_cannot_be_swapped(manager, ladder):
    client = client_for(manager, ladder)
    a1, a2 = PoolMember.objects.filter(round__season=ladder, player__key__in=["a1", "a2"])
    response = client.post(
        manage_url(ladder, "swap", 1), {"first": a1.pk, "second": a2.pk, "reason": "why"}
    )
    assert response.status_code == 400
    assert "same pool" in response.content.decode()


# --- the next round -----------------------------------------------------------------------------


def play_round_one(season: Season) -> None:
    """Round 1 played: pool 1 in order a1..a5, pool 2 in the club's order."""
    ids = dict(Player.objects.filter(series=season.series).values_list("key", "pk"))
    for number, keys in ((1, OTHERS), (2, CLUB)):
        services.pool_scores_save(
            pool=pool(season, 1, number),
            rows=[
                Edit.sent((ids[k], c), Decimal(10 - 3 * i))
                for i, k in enumerate(keys)
                for c in (1, 2, 3)
            ],
            challenges=3,
        )


def test_starting_the_next_round_builds_its_pools_from_the_moves_and_twice_is_once(
    manager, ladder, commit
):
    commit(play_round_one, ladder)
    announced = standings_document(season=fresh(ladder))["next_pools"]
    client = client_for(manager, ladder)
    url = manage_url(ladder, "next_round")
    page = client.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert "Start round 2" in html and "from pool 2" in html
    form = page.context["form"]
    posted = {"number": "2", "fingerprint": form.initial["fingerprint"], "start": "1"}
    response = commit(client.post, url, posted)
    assert response.status_code == 302
    assert response["Location"] == manage_url(ladder, "round", 2)
    pools = ladder_data(ladder).rounds[1].pools
    assert pools == [["a1", "a2", "a3", "djchili74", "Tolie"], ["a4", "a5", *CLUB[2:]]]
    assert pools == announced  # what the public ladder announced as the next pools
    assert Challenge.objects.filter(round__season=ladder, round__number=2).count() == 3
    # Pressed again (or by a second manager): nobody moves twice.
    again = commit(client.post, url, posted)
    assert again.status_code == 302
    assert Round.objects.filter(season=ladder).count() == 2
    assert PoolMember.objects.filter(round__season=ladder, round__number=2).count() == 10
    assert "was started already" in client.get(again["Location"]).content.decode()


def test_the_next_round_page_shows_the_stored_pools_when_current_and_runs_the_engine_when_not(
    manager, ladder, commit, monkeypatch
):
    """The page takes the pools the moves give from the stored standings when those are of the
    current results (no engine run over the season), else runs the engine; both give the same
    pools, and starting the round (the engine again) finds those shown."""
    from django.db.models import F

    from competitions.systems.bridge import ladder as rules

    commit(play_round_one, ladder)
    expected = rules.state(ladder_data(ladder)).next_pools
    client = client_for(manager, ladder)
    url = manage_url(ladder, "next_round")
    runs = []
    real_state = rules.state
    monkeypatch.setattr(rules, "state", lambda data: runs.append(1) or real_state(data))

    current = client.get(url)
    assert runs == []
    assert current.context["form"].initial["fingerprint"] == services.fingerprint(expected)
    # Results changed and the standings not recomputed yet (a worker still busy): the engine.
    Season.objects.filter(pk=ladder.pk).update(data_version=F("data_version") + 1)
    assert fresh(ladder).stale
    stale = client.get(url)
    assert runs == [1]
    assert stale.context["form"].initial["fingerprint"] == services.fingerprint(expected)
    assert stale.content.decode().count("from pool 2") == current.content.decode().count(
        "from pool 2"
    )
    posted = {"number": "2", "fingerprint": current.context["form"].initial["fingerprint"]}
    response = commit(client.post, url, {**posted, "start": "1"})
    assert response.status_code == 302
    assert ladder_data(ladder).rounds[1].pools == [list(pool) for pool in expected]


def test_the_next_round_is_refused_when_the_results_changed_since_they_were_shown(
    manager, ladder, commit
):
    commit(play_round_one, ladder)
    client = client_for(manager, ladder)
    shown = client.get(manage_url(ladder, "next_round")).context["form"].initial["fingerprint"]
    ids = dict(Player.objects.filter(series=ladder.series).values_list("key", "pk"))
    services.pool_scores_save(
        pool=pool(ladder, 1, 1), rows=[Edit.sent((ids["a5"], 1), Decimal(99))], challenges=3
    )
    response = client.post(
        manage_url(ladder, "next_round"), {"number": "2", "fingerprint": shown, "start": "1"}
    )
    assert response.status_code == 400
    assert "The results changed" in response.content.decode()
    assert Round.objects.filter(season=ladder).count() == 1


def test_a_leavers_place_is_filled_from_below_and_joiners_start_at_the_bottom(
    manager, ladder, commit
):
    commit(play_round_one, ladder)
    client = client_for(manager, ladder)
    url = manage_url(ladder, "next_round")
    preview = client.post(
        url,
        {
            "number": "2",
            "leaving": ["a2"],
            "joining": "Zoë New | 1190",
            "create_missing": "on",
            "preview": "1",
        },  # fmt: skip
    )
    assert preview.status_code == 200
    assert "Zoë New" in preview.content.decode()
    assert not Player.objects.filter(name="Zoë New").exists()  # a preview stores nothing
    posted = {
        "number": "2",
        "leaving": ["a2"],
        "joining": "Zoë New | 1190",
        "create_missing": "on",
        "fingerprint": preview.context["form"].data["fingerprint"],
        "start": "1",
    }
    commit(client.post, url, posted)
    new = Player.objects.get(name="Zoë New")
    data = ladder_data(ladder)
    # moves: [a1 a2 a3 djchili74 Tolie] [a4 a5 HanLaporte Rudolf101 Coolerb]; a2 leaves, a4
    # fills his place from pool 2, and the newcomer starts at the bottom.
    assert data.rounds[1].pools == [
        ["a1", "a3", "djchili74", "Tolie", "a4"],
        ["a5", "HanLaporte", "Rudolf101", "Coolerb", new.key],
    ]
    assert data.start_elo[new.key] == Decimal(1190)
    assert data.rounds[1].reasons == {
        "a4": "Moved up a pool to fill the place of a2, who left.",
        new.key: "Joined the ladder.",
    }


def test_a_joiner_already_on_the_ladder_is_refused(manager, ladder):
    client = client_for(manager, ladder)
    response = client.post(
        manage_url(ladder, "next_round"), {"number": "2", "joining": "Tolie", "start": "1"}
    )
    assert response.status_code == 400
    assert "Tolie is on the ladder already" in response.content.decode()


# --- query counts -------------------------------------------------------------------------------

# The shared queries of every manager page (LOGGED_IN, MANAGER, SEASON) are counted as the
# circuit's manager tests count them.
EXPECTED_QUERIES = {
    "season": [
        *LOGGED_IN,
        *MANAGER,
        SEASON,
        "pools and players per round",
        "scores entered per round and challenge",
        "the rounds",
    ],
    "round": [
        *LOGGED_IN,
        *MANAGER,
        SEASON,
        "the round",
        "its members with players and pools",
        "the rounds (navigation)",
        "scores entered per pool and challenge",
    ],
    "pool": [
        *LOGGED_IN,
        *MANAGER,
        SEASON,
        "the round",
        "the pool",
        "its members with players",
        "their scores of the round",
        "the number of pools (navigation)",
    ],
    "next round": [
        *LOGGED_IN,
        *MANAGER,
        SEASON,
        "the rounds",
        "the last round's members",
        "the series' players (joiners)",
        "the challenges of the last round with IMPs",
        "the last round's number",
        "the pools its moves give, stored (the standings are current)",
    ],
}


def test_manager_page_query_counts_do_not_grow_with_the_ladder(manager, commit):
    def counts(season: Season) -> list[int]:
        client = client_for(manager, season)
        result = []
        for url in [
            manage_url(season),
            manage_url(season, "round", 2),
            manage_url(season, "pool", 2, 1),
            manage_url(season, "next_round"),
        ]:
            with CaptureQueriesContext(connection) as ctx:
                assert client.get(url).status_code == 200
            result.append(len(ctx.captured_queries))
        return result

    small = commit(import_competition, big_ladder(2, 2, series="small"))
    large = commit(import_competition, big_ladder(12, 2, series="large"))
    assert counts(small) == counts(large) == [len(q) for q in EXPECTED_QUERIES.values()]


def test_the_next_round_page_warns_of_challenges_without_imps(manager, ladder):
    client = client_for(manager, ladder)
    page = client.get(manage_url(ladder, "next_round")).content.decode()
    assert "Round 1 has no IMPs yet for challenges 1, 2, 3." in page


# --- settings -----------------------------------------------------------------------------------


def test_settings_store_what_differs_and_check_each_other(manager, ladder, commit):
    client = client_for(manager, ladder)
    url = f"/manage/bbo/{ladder.slug}/settings/"
    page = client.get(url)
    assert page.status_code == 200 and "Pool names" in page.content.decode()
    base = {
        "pool_size": 5, "challenges_per_round": 3, "start_elo": 1250, "k": 25, "moves": 2,
        "k_low": 40, "k_low_below": 1200, "k_high": 15, "k_high_above": 1400,
    }  # fmt: skip
    refused = client.post(url, {**base, "pool_size": 3})
    assert refused.status_code == 400
    assert "moves must be at most half the pool size" in refused.content.decode()
    response = commit(
        client.post, url, {**base, "dynamic_k": "on", "pool_names": "As de Pique\nRoi de Cœur\n"}
    )
    assert response.status_code == 302
    assert fresh(ladder).settings == {
        "dynamic_k": True,
        "pool_names": ["As de Pique", "Roi de Cœur"],
    }
    assert "Roi de Cœur" in Client().get(f"/bbo/{ladder.slug}/").content.decode()


def test_the_setup_of_a_new_season_continues_the_ladder_of_the_last_one(manager, commit):
    old = commit(
        import_competition,
        ladder_file(
            pools=[OTHERS, CLUB],
            rounds=[{"number": 1, "challenges": [{"imps": {"HanLaporte": 5, "a5": -5}}]}],
        ),
    )
    new = Season.objects.create(series=old.series, label="2027", name="BBO ladder 2027")
    client = client_for(manager, new)
    initial = client.get(manage_url(new, "setup")).context["form"].initial["players"]
    blocks = [block.splitlines() for block in initial.split("\n\n")]
    # The moves of 2026's last round, each player with his last rating.
    next_pools = standings_document(season=fresh(old))["next_pools"]
    assert [[line.split(" (")[0] for line in block] for block in blocks] == next_pools
    han = next(line for block in blocks for line in block if line.startswith("HanLaporte"))
    assert han == "HanLaporte (HanLaporte) | 1300"  # 1250 + 4 duels won against no-shows
    commit(client.post, manage_url(new, "setup"), {"players": initial})
    assert ladder_data(new).rounds[0].pools == next_pools
    assert ladder_data(new).start_elo["HanLaporte"] == Decimal(han.split("| ")[1])


def test_two_managers_saving_the_same_cells_at_once_get_a_clear_answer(
    manager, ladder, monkeypatch
):
    from django.db import IntegrityError

    def clash(*args, **kwargs):
        raise IntegrityError("duplicate key value violates unique constraint")

    client = client_for(manager, ladder)
    monkeypatch.setattr(ChallengeScore.objects, "create", clash)
    response = client.post(manage_url(ladder, "pool", 1, 2), {cell(ladder, "Tolie", 1): "4"})
    assert response.status_code == 400
    assert "Somebody else changed this pool meanwhile" in response.content.decode()
    assert not ChallengeScore.objects.exists()
