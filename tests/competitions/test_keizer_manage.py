"""Keizer manager pages: the list set-up, attendance, pairing (preview, manual pairs, publish),
the printable list, results and corrections; permissions and flat query counts."""

import re
from decimal import Decimal

import pytest
from django.test import Client

from competitions.models import Game, Player, Round, RoundEntry, Season
from competitions.selectors import series_players
from competitions.systems.keizer.models import StartPoints
from competitions.systems.keizer.selectors import round_lists
from competitions.text import plain_number
from competitions.views import manage_url
from rankings.imports import import_competition
from rankings.selectors import standings_document
from tests.helpers import count_queries
from tests.keizer_data import generated_file, small_file

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        return import_competition(small_file())


@pytest.fixture
def leader(django_user_model, season):
    user = django_user_model.objects.create_user("leader", password="pw-leader-1")
    season.series.managers.add(user)
    client = Client()
    client.force_login(user)
    return client


def fresh(season) -> Season:
    return Season.objects.select_related("series").get(pk=season.pk)


def test_only_the_series_managers_get_in(client, django_user_model, season):
    url = manage_url(season, "attendance", 3)
    assert client.get(url).status_code == 302  # to the login
    stranger = django_user_model.objects.create_user("stranger", password="pw-stranger-1")
    client.force_login(stranger)
    assert client.get(url).status_code == 403
    assert client.get(manage_url(season, "pair", 3)).status_code == 403


def test_the_season_page_shows_the_evenings_and_what_to_do_next(leader, season):
    html = leader.get(manage_url(season)).content.decode()
    assert "Pair evening 3" in html and "to be paired" in html
    assert html.count(">complete<") == 2


def test_pair_preview_publish_and_print(leader, season, django_capture_on_commit_callbacks):
    url = manage_url(season, "pair", 3)
    html = leader.get(url).content.decode()
    assert "Every rule is kept." in html
    assert "Eva Smit" in html and "Late Entrant" in html and "volunteered" in html
    assert not Game.objects.filter(round__number=3).exists()  # a preview stores nothing
    with django_capture_on_commit_callbacks(execute=True):
        response = leader.post(url)
    assert response.status_code == 302 and response.url == manage_url(season, "print", 3)
    third = Round.objects.get(season=season, number=3)
    assert third.games.count() == 2 and third.entries.get(status="bye").player.key == "p5"
    printed = leader.get(manage_url(season, "print", 3)).content.decode()
    assert "pairing-list" in printed and "Eva Smit" in printed and "Late Entrant" in printed
    # Paired: the pair page sends the leader on to the printable list.
    assert leader.get(url).status_code == 302


def test_a_manual_pair_goes_first_and_the_page_says_which_rule_it_breaks(leader, season):
    p3, p4 = (Player.objects.get(key=k) for k in ("p3", "p4"))
    url = manage_url(season, "pair", 3)
    response = leader.get(url, {"a": p3.pk, "b": p4.pk, "add": "1"})
    assert response.status_code == 302 and f"m={p3.pk}-{p4.pk}" in response.url
    html = leader.get(response.url).content.decode()
    assert "they met in round 1, too recently" in html and ">manual<" in html
    leader.post(url, {"m": f"{p3.pk}-{p4.pk}"})
    manual = Game.objects.get(round__number=3, manual=True)
    assert set(manual.entries.values_list("player__key", flat=True)) == {"p3", "p4"}


def checked(html: str, player: Player) -> str:
    """The status an attendance page has checked for the player."""
    found = re.search(
        rf'name="p{player.pk}" id="id_p{player.pk}_\d" value="(\w+)" autocomplete="off" checked',
        html,
    )
    assert found, player
    return found.group(1)


def test_attendance_of_the_next_evening_starts_from_its_regulars(leader, season):
    """Issue 46: the statuses of the last evening were copied ("External", "Absent"), and a
    hurried "Save and pair" repeated them. Who played or was present starts as present, the
    others as no notice; the last evening's choices are one click away."""
    leader.post(manage_url(season, "pair", 3))
    url = manage_url(season, "attendance", 4)
    html = leader.get(url).content.decode()
    p1, p2 = Player.objects.get(key="p1"), Player.objects.get(key="p2")
    assert checked(html, p1) == "present"  # played on evening 3
    assert checked(html, p2) == "unexcused"  # played externally on evening 3
    assert 'href="?from=last"' in html
    copied = leader.get(url, {"from": "last"}).content.decode()
    assert checked(copied, p2) == "external" and checked(copied, p1) == "present"
    assert 'value="2025-09-25"' in html  # a week after evening 3
    assert leader.get(manage_url(season, "attendance", 9)).status_code == 404


def test_attendance_saves_one_status_per_player_and_a_present_volunteer(leader, season):
    leader.post(manage_url(season, "pair", 3))
    players = {p.key: p for p in Player.objects.all()}
    form = {f"p{p.pk}": "present" for p in players.values()}
    form[f"p{players['p2'].pk}"] = "absent"
    form[f"p{players['p6'].pk}"] = "unexcused"
    form["volunteer"] = str(players["p2"].pk)  # not present: refused
    form["date"] = "2025-09-25"
    response = leader.post(manage_url(season, "attendance", 4), form)
    assert response.status_code == 400 and "must be present" in response.content.decode()
    assert not Round.objects.filter(number=4).exists()
    form["volunteer"] = str(players["p1"].pk)
    response = leader.post(manage_url(season, "attendance", 4), {**form, "pair": "1"})
    assert response.status_code == 302 and response.url == manage_url(season, "pair", 4)
    fourth = Round.objects.get(season=season, number=4)
    statuses = dict(fourth.entries.values_list("player__key", "status"))
    assert statuses == {
        "p1": "present",
        "p2": "absent",
        "p3": "present",
        "p4": "present",
        "p5": "present",
        "p6": "unexcused",
    }
    assert fourth.entries.get(volunteer_bye=True).player.key == "p1"
    assert str(fourth.date) == "2025-09-25"
    # Evening 5 waits until 4 is paired.
    response = leader.post(manage_url(season, "attendance", 5), form)
    assert response.status_code == 400 and "not paired yet" in response.content.decode()


def test_attendance_buttons_one_checked_per_player_in_name_order_kept_when_refused(leader, season):
    leader.post(manage_url(season, "pair", 3))
    url = manage_url(season, "attendance", 4)
    players = {p.key: p for p in Player.objects.all()}
    Player.objects.filter(pk=players["p6"].pk).update(name="Émile Zola")

    def buttons(html):
        found = re.findall(
            r'name="p(\d+)" id="id_p\1_(\d)" value="(\w+)" autocomplete="off"( checked)?', html
        )
        by_player = {}
        for pid, index, value, checked in found:
            by_player.setdefault(int(pid), []).append((int(index), value, bool(checked)))
        return by_player

    html = leader.get(url).content.decode()
    shown = buttons(html)
    assert set(shown) == {p.pk for p in players.values()}
    for lines in shown.values():
        assert [(i, v) for i, v, _ in lines] == list(
            enumerate(["present", "absent", "external", "unexcused"])
        )
        assert sum(checked for *_, checked in lines) == 1
    names = re.findall(r'<span class="attendance-name"><bdi>([^<]+)</bdi></span>', html)
    assert names.index("Émile Zola") < names.index("Eva Smit")  # as a list of people reads
    form = {f"p{p.pk}": "present" for p in players.values()}
    form[f"p{players['p6'].pk}"] = "unexcused"
    form["volunteer"] = str(players["p6"].pk)  # not present: refused
    refused = leader.post(url, form)
    assert refused.status_code == 400
    typed = buttons(refused.content.decode())[players["p6"].pk]
    assert [v for _, v, checked in typed if checked] == ["unexcused"]


def test_after_the_pairing_only_the_absentees_can_change(leader, season):
    leader.post(manage_url(season, "pair", 3))
    players = {p.key: p for p in Player.objects.all()}
    form = {f"p{p.pk}": "present" for p in players.values()}
    form[f"p{players['p2'].pk}"] = "unexcused"  # was external
    assert leader.post(manage_url(season, "attendance", 3), form).status_code == 302
    assert RoundEntry.objects.get(round__number=3, player__key="p2").status == "unexcused"
    form[f"p{players['p1'].pk}"] = "absent"  # plays tonight
    response = leader.post(manage_url(season, "attendance", 3), form)
    assert response.status_code == 400 and "Undo the pairing first" in response.content.decode()


def test_quick_result_entry_and_corrections_recompute_the_lists(
    leader, season, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        leader.post(manage_url(season, "pair", 3))
    url = manage_url(season, "results", 3)
    assert "2 results missing" in leader.get(url).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        leader.post(url, {"quick": "1", "board": "1", "result": "1"})
        leader.post(url, {"quick": "1", "board": "2", "result": "="})
    assert list(
        Game.objects.filter(round__number=3).order_by("board").values_list("result", flat=True)
    ) == [
        "1-0",
        "1/2-1/2",
    ]
    doc = standings_document(season=fresh(season))
    assert len(doc["rounds"]) == 4  # evening 3 complete: the list after it exists
    response = leader.post(url, {"quick": "1", "board": "7", "result": "1"})
    assert "There is no board 7" in response.content.decode()
    response = leader.post(url, {"quick": "1", "board": "1", "result": "2-0"})
    assert "Type 1 (white wins)" in response.content.decode()
    # A correction of an earlier evening recomputes everything after it.
    before = doc["standings"]
    game = Game.objects.get(round__number=1, board=1)
    with django_capture_on_commit_callbacks(execute=True):
        response = leader.post(
            manage_url(season, "results", 1), {"all": "1", "board1": "0-1", "board2": "1/2-1/2"}
        )
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.result == "0-1"
    assert standings_document(season=fresh(season))["standings"] != before


def test_undo_a_pairing_before_any_result(leader, season):
    leader.post(manage_url(season, "pair", 3))
    response = leader.post(manage_url(season, "unpair", 3))
    assert response.url == manage_url(season, "pair", 3)
    assert not Game.objects.filter(round__number=3).exists()
    assert RoundEntry.objects.filter(round__number=3, status="present").count() == 5
    leader.post(manage_url(season, "pair", 3))
    game = Game.objects.filter(round__number=3).first()
    game.result = "1-0"
    game.save()
    leader.post(manage_url(season, "unpair", 3))
    assert Game.objects.filter(round__number=3).count() == 2  # results are in: it stays


def test_the_list_set_up_orders_sets_start_points_and_adds_a_late_entrant(
    leader, season, django_capture_on_commit_callbacks
):
    url = manage_url(season, "keizer_list")
    html = leader.get(url).content.decode()
    assert 'placeholder="7"' in html  # p2 without start points of his own: the place's value
    entries = list(season.entries.order_by("position"))
    form = {"action": "save_list", "list-TOTAL_FORMS": "6", "list-INITIAL_FORMS": "6"}
    for i, entry in enumerate(entries):
        form[f"list-{i}-entry"] = entry.pk
        form[f"list-{i}-position"] = i + 1
        form[f"list-{i}-start_points"] = ""
    form["list-0-position"] = 3  # p1 moves below p2 and p3
    form["list-5-start_points"] = "1.5"
    with django_capture_on_commit_callbacks(execute=True):
        assert leader.post(url, form).status_code == 302
    assert list(season.entries.order_by("position").values_list("player__key", flat=True)) == [
        "p2",
        "p3",
        "p1",
        "p4",
        "p5",
        "p6",
    ]
    assert start_points(season, player__key="p6") == 1.5
    assert start_points(season, player__key="p4") is None
    response = leader.post(url, {"action": "add", "add-name": "Nieuw Lid", "add-start_points": "3"})
    assert response.status_code == 302
    assert start_points(season, player__name="Nieuw Lid") == 3
    # p1 has games this season: he stays on the list.
    p1 = season.entries.get(player__key="p1")
    leader.post(url, {"action": "remove", "entry": p1.pk})
    assert season.entries.filter(pk=p1.pk).exists()
    newcomer = season.entries.get(player__name="Nieuw Lid")
    leader.post(url, {"action": "remove", "entry": newcomer.pk})
    assert not season.entries.filter(pk=newcomer.pk).exists()


def start_points(season, **entry) -> Decimal | None:
    """The start points set by hand for the season's entry (None: the value of the place)."""
    return season.entries.values_list("keizer_start__start_points", flat=True).get(**entry)


def list_form(entries, **changes) -> dict:
    """The list form as the page sends it: each entry's place and start points, `changes` by
    field name ("list-5-start_points": "1.5")."""
    form = {
        "action": "save_list",
        "list-TOTAL_FORMS": str(len(entries)),
        "list-INITIAL_FORMS": str(len(entries)),
    }
    for i, entry in enumerate(entries):
        form[f"list-{i}-entry"] = entry.pk
        form[f"list-{i}-position"] = i + 1
        form[f"list-{i}-start_points"] = plain_number(start_points(entry.season, pk=entry.pk))
    return form | changes


@pytest.mark.parametrize("language", ["en", "nl", "sv", "nb"])
def test_start_points_show_as_a_number_field_reads_them_in_every_language(
    leader, season, language, django_capture_on_commit_callbacks
):
    """A Dutch page wrote 12.5 start points as "12,5000", which a number field refuses: it
    showed an empty field, and saving the list then dropped the late entrant's points."""
    entry = season.entries.order_by("position").last()
    StartPoints.objects.update_or_create(entry=entry, defaults={"start_points": Decimal("12.5")})
    url = manage_url(season, "keizer_list")
    html = leader.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f'<html lang="{language}"' in html
    field = re.search(r'<input type="number"[^>]*name="list-5-start_points"[^>]*>', html)
    assert 'value="12.5"' in field.group()
    values = dict(re.findall(r'name="(list-\d+-\w+)"[^>]*value="([^"]*)"', html))
    assert values["list-5-entry"] == str(entry.pk)
    assert values["list-0-position"] == "1"
    assert 'name="list-TOTAL_FORMS" value="6"' in html
    # The form as the browser sends it back keeps the points.
    entries = list(season.entries.order_by("position"))
    with django_capture_on_commit_callbacks(execute=True):
        response = leader.post(
            url, {**list_form(entries), "list-5-start_points": values["list-5-start_points"]}
        )
    assert response.status_code == 302
    assert start_points(season, pk=entry.pk) == Decimal("12.5")


def test_a_rejected_list_shows_what_was_typed_beside_the_player_it_was_typed_for(leader, season):
    entries = list(season.entries.order_by("position").select_related("player"))
    url = manage_url(season, "keizer_list")
    # The first line comes back last, as if the list had changed meanwhile; its place is wrong.
    form = list_form(entries)
    for name in ("entry", "position", "start_points"):
        form[f"list-0-{name}"], form[f"list-5-{name}"] = (
            form[f"list-5-{name}"],
            form[f"list-0-{name}"],
        )
    form["list-5-position"] = "0"
    form["list-2-start_points"] = "lots"
    response = leader.post(url, form)
    assert response.status_code == 400
    html = response.content.decode()
    rows = re.findall(r"<tr>(.*?)</tr>", html, re.S)[1:]
    assert len(rows) == 6
    first, third = rows[0], rows[2]
    assert entries[0].player.name in first and 'name="list-0-position"' in first
    assert 'value="0"' in first and "is-invalid" in first and "greater than or equal to 1" in first
    assert 'value="lots"' in third and "Enter a number." in third
    assert entries[5].player.name in rows[5] and 'value="6"' in rows[5]
    assert "is-invalid" not in rows[5]
    assert list(season.entries.order_by("position")) == entries  # nothing stored


def test_the_players_to_add_and_the_absentees_are_in_name_order_whatever_the_database(
    leader, season
):
    """A byte order (SQLite, PostgreSQL's C collation) put "Émile" after "Zoë"."""
    for key, name in [("z", "Zoë Wouters"), ("em", "Émile Brel"), ("e2", "emma Aerts")]:
        Player.objects.create(series=season.series, key=key, name=name)
    html = leader.get(manage_url(season, "keizer_list")).content.decode()
    select = re.search(r'<select name="add-player".*?</select>', html, re.S).group()
    shown = re.findall(r"<option value=\"\d+\">([^<]*)</option>", select)
    assert shown == ["Émile Brel", "emma Aerts", "Zoë Wouters"]
    everyone = [p.name for p in series_players(season.series_id)]
    assert (
        everyone.index("Émile Brel") < everyone.index("emma Aerts") < everyone.index("Zoë Wouters")
    )
    evening = Round.objects.get(season=season, number=3)
    absent = list(evening.entries.order_by("id")[:2])
    RoundEntry.objects.filter(pk__in=[e.pk for e in absent]).update(status=RoundEntry.Status.ABSENT)
    Player.objects.filter(pk=absent[0].player_id).update(name="Zoë Peeters")
    Player.objects.filter(pk=absent[1].player_id).update(name="Élise Maes")
    names = [e.player.name for e in round_lists(evening)[RoundEntry.Status.ABSENT]]
    assert names.index("Élise Maes") < names.index("Zoë Peeters")


def test_closing_the_season_waits_for_the_last_evening(leader, season):
    url = manage_url(season, "keizer_list")
    leader.post(url, {"action": "close", "closed": "1"})
    assert not fresh(season).closed
    Round.objects.get(season=season, number=3).delete()
    leader.post(url, {"action": "close", "closed": "1"})
    assert fresh(season).closed
    assert "Season closed" in leader.get(manage_url(season)).content.decode()


def test_manager_page_queries_do_not_grow_with_players(django_user_model):
    user = django_user_model.objects.create_user("many", password="pw-many-1")
    client = Client()
    client.force_login(user)
    counts = []
    for size, series in ((8, "small"), (40, "large")):
        data = generated_file(size, 5, series=series)
        data["rounds"][-1]["games"] = []
        data["rounds"][-1]["bye"] = []
        season = import_competition(data)
        season.series.managers.add(user)
        counts.append(
            [
                count_queries(client, manage_url(season)),
                count_queries(client, manage_url(season, "attendance", 5)),
                count_queries(client, manage_url(season, "pair", 5)),
                count_queries(client, manage_url(season, "results", 4)),
                count_queries(client, manage_url(season, "print", 4)),
                count_queries(client, manage_url(season, "keizer_list")),
            ]
        )
    assert counts[0] == counts[1]


def test_a_new_season_from_scratch(leader, season, client, django_capture_on_commit_callbacks):
    """A second season of the series: set up the list, take attendance, pair, enter results."""
    response = leader.post(
        f"/manage/{season.series.slug}/seasons/new/", {"label": "2026-2027", "name": ""}
    )
    new = Season.objects.select_related("series").get(label="2026-2027")
    assert response.status_code == 302
    assert leader.get(manage_url(new)).status_code == 200
    assert client.get(f"/{new.series.slug}/{new.slug}/").status_code == 200  # nobody yet
    url = manage_url(new, "keizer_list")
    for key in ("p3", "p1", "p2"):
        player = Player.objects.get(key=key)
        assert leader.post(url, {"action": "add", "add-player": player.pk}).status_code == 302
    leader.post(url, {"action": "add", "add-name": "Nieuw <b>Lid</b>"})
    assert list(new.entries.order_by("position").values_list("player__key", flat=True))[:3] == [
        "p3",
        "p1",
        "p2",
    ]
    form = {f"p{e.player_id}": "present" for e in new.entries.all()}
    with django_capture_on_commit_callbacks(execute=True):
        assert leader.post(manage_url(new, "attendance", 1), form).status_code == 302
        assert leader.post(manage_url(new, "pair", 1)).status_code == 302
        for board in (1, 2):
            leader.post(
                manage_url(new, "results", 1), {"quick": "1", "board": board, "result": "1"}
            )
    first = Round.objects.get(season=new, number=1)
    assert first.games.count() == 2 and not first.games.filter(result="").exists()
    html = client.get(f"/{new.series.slug}/{new.slug}/").content.decode()
    assert "Ranking list after round 1" in html and "Nieuw &lt;b&gt;Lid&lt;/b&gt;" in html


def test_the_admin_shows_an_evenings_games_and_entries(admin_client, season):
    evening = Round.objects.get(season=season, number=2)
    html = admin_client.get(f"/admin/competitions/round/{evening.pk}/change/").content.decode()
    assert 'name="games-0-result"' in html and 'name="entries-0-status"' in html
