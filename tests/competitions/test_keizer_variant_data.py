"""Issue 47 part 4 (keizer-variants.md §5.7): withdrawn players, long-term absence and the
results of external games stored, in the competition file both ways, on the attendance page,
and withdrawn players kept out of the pairing."""

import copy
import re

import pytest
from django.test import Client

from competitions.interchange import FileError, export_competition
from competitions.models import Player, Round, RoundEntry, SeasonPlayer
from competitions.systems.keizer import services
from competitions.systems.keizer.models import ExternalResult, Withdrawal
from competitions.views import manage_url
from pairings.systems.keizer.pairing import propose
from rankings.imports import import_competition
from rankings.selectors import standings_document

pytestmark = pytest.mark.django_db


def worked_file(settings=None, **players) -> dict:
    """keizer-variants.md §3.1: five players, three rounds."""
    return copy.deepcopy(
        {
            "format": "competition/1",
            "system": "keizer",
            "series": "variants",
            "season": "2026",
            "settings": settings if settings is not None else {"preset": "kfc"},
            "players": [
                {"id": key, "name": key, **players.get(key, {})}
                for key in ("A", "B", "C", "D", "E")
            ],
            "rounds": [
                {
                    "number": 1,
                    "games": [
                        {"white": "A", "black": "B", "result": "0-1"},
                        {"white": "C", "black": "D", "result": "1/2-1/2"},
                    ],
                    "bye": ["E"],
                },
                {
                    "number": 2,
                    "games": [
                        {"white": "B", "black": "E", "result": "0-1"},
                        {"white": "A", "black": "C", "result": "1-0"},
                    ],
                    "absent": ["D"],
                },
                {
                    "number": 3,
                    "games": [
                        {"white": "E", "black": "A", "result": "1/2-1/2"},
                        {"white": "B", "black": "D", "result": "1-0"},
                    ],
                    "external": ["C"],
                },
            ],
            "closed": False,
        }
    )


def final(season) -> dict[str, float]:
    return {r["player"]: r["score"] for r in standings_document(season=season)["standings"]}


def test_a_withdrawn_player_is_stored_and_counted_as_in_the_worked_example():
    """§3.4 (d): D withdrawn under `kfc` (withdrawn credit 3/4)."""
    season = import_competition(worked_file(D={"withdrawn": True}))
    assert list(Withdrawal.objects.values_list("entry__player__key", flat=True)) == ["D"]
    assert final(season) == pytest.approx({"E": 9.5, "B": 9, "A": 4.5, "C": 83 / 40})
    exported = export_competition(season)
    assert exported["players"][3] == {"id": "D", "name": "D", "withdrawn": True}
    assert "withdrawn" not in exported["players"][0]
    # Replacing without the flag takes the withdrawal back: D is on the lists again.
    again = import_competition(worked_file(), replace=True)
    assert not Withdrawal.objects.exists()
    assert final(again) == pytest.approx({"E": 29 / 2, "B": 14, "A": 9, "D": 101 / 20, "C": 4.9})


def test_long_absent_and_external_results_round_trip_and_count():
    data = worked_file(
        {"preset": "bornse-dv", "external_by_result": True, "points_external_loss": "1/2"}
    )
    data["rounds"][1]["long_absent"] = data["rounds"][1].pop("absent")
    data["rounds"][2]["external_results"] = {"C": "0"}
    season = import_competition(data)
    second = Round.objects.get(season=season, number=2)
    assert second.entries.get(player__key="D").status == RoundEntry.Status.LONG_ABSENT
    assert ExternalResult.objects.get().entry.player.key == "C"
    exported = export_competition(season)
    assert exported["rounds"][1]["long_absent"] == ["D"]
    assert "long_absent" not in exported["rounds"][0]  # written only where set
    assert exported["rounds"][2]["external_results"] == {"C": "0"}
    assert export_competition(import_competition(copy.deepcopy(exported), replace=True)) == exported
    # The engine scores them: the external loss pays half the own value, not nothing.
    lost = final(season)["C"]
    data["rounds"][2]["external_results"] = {"C": "1"}
    won = final(import_competition(data, replace=True))["C"]
    assert won > lost
    # A replace without them removes the stored results.
    del data["rounds"][2]["external_results"]
    import_competition(data, replace=True)
    assert not ExternalResult.objects.exists()


@pytest.mark.parametrize(
    "results,message",
    [
        ({"D": "1"}, "not in this round's external"),
        ({"C": "2"}, "unknown external result"),
        ({"Z": "1"}, "unknown player"),
    ],
)
def test_a_bad_external_result_is_refused_at_its_path(results, message):
    data = worked_file()
    data["rounds"][2]["external_results"] = results
    with pytest.raises(FileError) as caught:
        import_competition(data)
    assert "rounds[2].external_results" in str(caught.value) and message in str(caught.value)
    assert not SeasonPlayer.objects.exists()


def test_a_withdrawn_flag_must_be_true_or_false():
    with pytest.raises(FileError) as caught:
        import_competition(worked_file(D={"withdrawn": "yes"}))
    assert "players[3].withdrawn" in str(caught.value)


@pytest.fixture
def leader(django_user_model):
    user = django_user_model.objects.create_user("leader", password="pw-leader-1")
    client = Client()
    client.force_login(user)
    return user, client


def buttons(html: str, player: Player) -> list[str]:
    return re.findall(rf'name="p{player.pk}" id="id_p{player.pk}_\d" value="(\w+)"', html)


def test_the_attendance_page_offers_long_absent_where_the_rules_name_it(leader):
    user, client = leader
    season = import_competition(worked_file({}))
    season.series.managers.add(user)
    a = Player.objects.get(key="A")
    html = client.get(manage_url(season, "attendance", 4)).content.decode()
    assert "long_absent" not in buttons(html, a)  # rules.md: four buttons
    season = import_competition(worked_file({"preset": "bornse-dv"}), replace=True)
    html = client.get(manage_url(season, "attendance", 4)).content.decode()
    assert buttons(html, a) == ["present", "absent", "long_absent", "external", "unexcused"]
    assert "Long absent:" in html
    form = {f"p{p.pk}": "present" for p in Player.objects.all()}
    form[f"p{a.pk}"] = "long_absent"
    form["date"] = ""
    response = client.post(manage_url(season, "attendance", 4), form)
    assert response.status_code == 302
    fourth = Round.objects.get(season=season, number=4)
    assert fourth.entries.get(player=a).status == RoundEntry.Status.LONG_ABSENT
    client.post(manage_url(season, "pair", 4))
    for page in ("print", "results"):
        html = client.get(manage_url(season, page, 4)).content.decode()
        assert re.search(r"Long absent:</strong> (<bdi>)?A\b", html), page


def test_a_withdrawn_player_is_not_on_the_attendance_page_nor_paired(leader):
    user, client = leader
    # Without the credit the flag only stops pairing (§2.8).
    season = import_competition(
        worked_file(
            {},
        ),
    )
    import_competition(worked_file({}, D={"withdrawn": True}), replace=True)
    season.series.managers.add(user)
    d = Player.objects.get(key="D")
    html = client.get(manage_url(season, "attendance", 4)).content.decode()
    assert not buttons(html, d) and buttons(html, Player.objects.get(key="A"))
    entries = {e.player.key: e for e in season.entries.select_related("player")}
    with pytest.raises(Exception, match="has withdrawn"):
        services.attendance_save(
            season=season,
            number=4,
            date=None,
            statuses={e: "present" for e in entries.values()},
            volunteer=None,
        )
    assert not Round.objects.filter(season=season, number=4).exists()
    # Marked present anyway (a script, the admin): the pairing leaves him out.
    fourth = Round.objects.create(season=season, number=4)
    RoundEntry.objects.bulk_create(
        RoundEntry(round=fourth, player=e.player, status="present") for e in entries.values()
    )
    proposal = propose(season)
    assert "D" not in proposal.present and len(proposal.present) == 4


def test_the_results_page_takes_the_results_of_external_games(
    leader, django_capture_on_commit_callbacks
):
    user, client = leader
    settings = {"preset": "bornse-dv"}  # external_by_result
    season = import_competition(worked_file(settings))
    season.series.managers.add(user)
    url = manage_url(season, "results", 3)
    html = client.get(url).content.decode()
    c = Player.objects.get(key="C")
    assert f'name="ext{c.pk}"' in html and "Save the external results" in html
    before = final(season)["C"]
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"external": "1", f"ext{c.pk}": "1"})
    assert response.status_code == 302
    assert ExternalResult.objects.get().result == "1"
    after = final(season)["C"]
    assert after > before  # recomputed: the external win counts
    assert 'value="1" selected' in client.get(url).content.decode()
    client.post(url, {"external": "1", f"ext{c.pk}": "2"})  # refused, nothing stored
    assert ExternalResult.objects.get().result == "1"
    client.post(url, {"external": "1", f"ext{c.pk}": ""})
    assert not ExternalResult.objects.exists()
    # Under rules.md the result of an external game changes nothing: not asked.
    season = import_competition(worked_file({}), replace=True)
    assert 'name="ext' not in client.get(url).content.decode()


def test_the_list_page_marks_a_player_withdrawn_and_back(
    leader, django_capture_on_commit_callbacks
):
    user, client = leader
    season = import_competition(worked_file())  # kfc: withdrawn credit 3/4
    season.series.managers.add(user)
    url = manage_url(season, "keizer_list")
    d = SeasonPlayer.objects.get(season=season, player__key="D")
    assert 'form="withdraw" name="entry"' in client.get(url).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"action": "withdraw", "entry": d.pk, "withdrawn": "1"})
    assert response.status_code == 302
    assert Withdrawal.objects.get().entry == d
    assert final(season) == pytest.approx({"E": 9.5, "B": 9, "A": 4.5, "C": 83 / 40})  # §3.4 (d)
    assert ">Withdrawn<" in client.get(url).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url, {"action": "withdraw", "entry": d.pk, "withdrawn": "0"})
    assert not Withdrawal.objects.exists()
    assert final(season)["D"] == pytest.approx(101 / 20)
