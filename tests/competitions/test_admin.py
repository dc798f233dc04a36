"""The Django admin: every model is there, list pages are cheap, and corrections keep a history
and move the stored standings."""

from decimal import Decimal

import pytest
from django import forms as django_forms
from django.contrib import admin
from django.contrib.auth.models import Group as AuthGroup
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from competitions import admin as competitions_admin
from competitions import services as competitions_services
from competitions.merging import player_merge
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
from competitions.systems.boardgame.models import Seat, Table
from competitions.systems.bridge.models import Challenge, ChallengeScore, Pool, PoolMember
from competitions.systems.chess.models import GroupPlayer
from competitions.systems.keizer.models import StartPoints
from competitions.systems.othello.models import Placement
from rankings.engines.boardgame import draw_order
from rankings.models import StandingsTable
from tests.helpers import document as standings_document
from tests.helpers import import_circuit

COMPETITION_MODELS = {
    "Series",
    "Club",
    "Player",
    "Season",
    "SeasonPlayer",
    "HistoricTotal",
    "Tournament",
    "Group",
    "GroupPlayer",
    "Round",
    "Table",
    "Seat",
    "Placement",
    "Game",
    "RoundEntry",
    "Pool",
    "PoolMember",
    "Challenge",
    "ChallengeScore",
    "PlayerMerge",
}


def admin_url(model, view: str, *args) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}", args=args)


def build_other_systems(tag: str) -> None:
    """A few rows of every model the board-game file does not fill (chess, Keizer, Othello,
    bridge), so every changelist has rows to show."""
    chess = Series.objects.create(slug=f"chess-{tag}", name=f"Chess {tag}", system="chess-bgp")
    season = Season.objects.create(series=chess, label="2025", name=f"Chess {tag} 2025")
    white, black = (
        Player.objects.create(series=chess, key=key, name=f"{key} {tag}") for key in ("w", "b")
    )
    entry = SeasonPlayer.objects.create(season=season, player=white)
    StartPoints.objects.create(entry=entry, start_points=Decimal("10"))
    tournament = Tournament.objects.create(season=season, key="open", name=f"Open {tag}")
    group = Group.objects.create(tournament=tournament, name="A")
    GroupPlayer.objects.create(group=group, player=white, position=1)
    GroupPlayer.objects.create(group=group, player=black, position=2)
    round_ = Round.objects.create(season=season, tournament=tournament, group=group, number=1)
    game = Game.objects.create(round=round_, result=Game.Result.DRAW)
    for player, colour in ((white, "white"), (black, "black")):
        RoundEntry.objects.create(
            round=round_, player=player, status="played", game=game, colour=colour
        )
    othello = Series.objects.create(slug=f"gp-{tag}", name=f"GP {tag}", system="othello-gp")
    othello_season = Season.objects.create(series=othello, label="2025", name=f"GP {tag} 2025")
    othello_player = Player.objects.create(series=othello, key="o", name=f"Othello {tag}")
    gp = Tournament.objects.create(season=othello_season, key="gp", name=f"GP {tag}")
    Placement.objects.create(tournament=gp, player=othello_player, place=1, country="BE")

    bridge = Series.objects.create(
        slug=f"bridge-{tag}", name=f"Bridge {tag}", system="bridge-ladder"
    )
    bridge_season = Season.objects.create(series=bridge, label="2025", name=f"Bridge {tag} 2025")
    north = Player.objects.create(series=bridge, key="n", name=f"North {tag}")
    bridge_round = Round.objects.create(season=bridge_season, number=1)
    pool = Pool.objects.create(round=bridge_round, number=1)
    PoolMember.objects.create(pool=pool, player=north, position=1)
    challenge = Challenge.objects.create(round=bridge_round, number=1)
    ChallengeScore.objects.create(challenge=challenge, player=north, imps=Decimal("3.50"))
    typo = Player.objects.create(series=bridge, key="n-typo", name=f"Nort {tag}")
    player_merge(duplicate=typo, kept=north)


def changelist_query_counts(client) -> dict[str, int]:
    counts = {}
    for model in admin.site._registry:
        with CaptureQueriesContext(connection) as queries:
            response = client.get(admin_url(model, "changelist"))
        assert response.status_code == 200, model
        counts[model.__name__] = len(queries)
    return counts


def form_payload(response) -> dict:
    """The POST data of an admin change page as it was rendered (main form and inlines)."""
    forms = [response.context["adminform"].form]
    for inline in response.context["inline_admin_formsets"]:
        forms.append(inline.formset.management_form)
        forms.extend(inline.formset.forms)
    data: dict = {}
    for form in forms:
        for bound in form:
            value = bound.value()  # a JSON field's value is its JSON text already
            if not isinstance(bound.field, django_forms.JSONField):
                value = bound.field.prepare_value(value)
            if value is None or value is False:
                continue
            if value is True:
                data[bound.html_name] = "on"
            elif isinstance(value, list | tuple):
                data[bound.html_name] = [str(v) for v in value]
            else:
                data[bound.html_name] = str(value)
    return data


def tournament_doc(document: dict, key: str) -> dict:
    return next(t for t in document["tournaments"] if t["id"] == key)


def daily(document: dict, tournament: str, player: str):
    rows = tournament_doc(document, tournament)["standings"]
    return next(r["daily"] for r in rows if r["player"] == player)


def newest_history(obj):
    return obj.history.order_by("-history_date", "-history_id").first()


# --- 1. every admin page, cheap list pages --------------------------------------------------------


def test_every_competition_model_is_registered_with_history():
    registered = {
        model.__name__: model_admin
        for model, model_admin in admin.site._registry.items()
        if model._meta.app_label == "competitions"
    }
    assert set(registered) == COMPETITION_MODELS
    for name, model_admin in registered.items():
        assert isinstance(model_admin, competitions_admin.SimpleHistoryAdmin), name
    assert StandingsTable in admin.site._registry


def test_every_changelist_add_and_change_page_renders_for_a_superuser(
    admin_client, admin_user, circuit_file
):
    import_circuit(circuit_file)
    build_other_systems("a")
    AuthGroup.objects.create(name="Secretaries")
    request = type("Request", (), {"user": admin_user})()
    for model, model_admin in admin.site._registry.items():
        if model._meta.app_label not in ("competitions", "rankings"):
            continue
        assert admin_client.get(admin_url(model, "changelist")).status_code == 200, model
        expected_add = 200 if model_admin.has_add_permission(request) else 403
        assert admin_client.get(admin_url(model, "add")).status_code == expected_add, model
        obj = model._default_manager.first()
        assert obj is not None, model
        assert admin_client.get(admin_url(model, "change", obj.pk)).status_code == 200, model
        assert admin_client.get(admin_url(model, "history", obj.pk)).status_code == 200, model


def test_changelists_run_the_same_number_of_queries_whatever_the_number_of_rows(
    admin_client, circuit_file
):
    import_circuit(circuit_file)
    build_other_systems("a")
    admin_client.get("/admin/")  # session and user are loaded the same way on every page
    few = changelist_query_counts(admin_client)

    import_circuit(circuit_file, series="second-circuit")
    import_circuit(circuit_file, series="third-circuit")
    for tag in ("b", "c", "d"):
        build_other_systems(tag)
    assert Seat.objects.count() == 3 * 13
    many = changelist_query_counts(admin_client)

    assert many == few


def test_seat_and_player_changelists_stay_within_a_fixed_query_budget(
    admin_client, circuit_file, django_assert_max_num_queries
):
    for series in ("first", "second", "third", "fourth"):
        import_circuit(circuit_file, series=series)
    assert Seat.objects.count() == 4 * 13
    # Session, user, the series and the season filters' choices, the filtered and the total
    # count, the page (seats with their player, table, round, tournament and season): nothing
    # per row.
    with django_assert_max_num_queries(7):
        response = admin_client.get(admin_url(Seat, "changelist"))
    assert response.status_code == 200
    assert response.context["cl"].result_count == 52
    # Session, user, the series and the country filters, two counts, the page.
    with django_assert_max_num_queries(7):
        response = admin_client.get(admin_url(Player, "changelist"))
    assert response.status_code == 200
    assert response.context["cl"].result_count == 20


# --- 2. a correction: history and standings ------------------------------------------------------

# These tests need the recompute that a save sends on commit. Under the plain `db` fixture the
# import's own on-commit callback is never run nor cleared, so season_recompute_request takes any
# later request of the test as already scheduled: hence real transactions here.


@pytest.mark.django_db(transaction=True)
def test_seat_rank_correction_is_recorded_with_its_author_and_moves_the_standings(
    admin_client, admin_user, circuit_file
):
    season = import_circuit(circuit_file)
    before = standings_document(season=season)
    seat = Seat.objects.get(round__tournament__key="t1", player__key="p2")
    assert seat.rank == 2

    # p2 shared second place with p3 at the 4-player Catan table of t1; now p2 ties p1 for 1st.
    response = admin_client.post(
        admin_url(Seat, "change", seat.pk),
        {"table": seat.table_id, "player": seat.player_id, "rank": "1", "_save": "Save"},
    )
    assert response.status_code == 302, response.context and response.context["errors"]

    seat.refresh_from_db()
    assert seat.rank == 1
    record = newest_history(seat)
    assert record.history_type == "~"
    assert record.history_user == admin_user
    previous = record.prev_record
    assert previous is not None, "no record of the rank before the correction"
    delta = record.diff_against(previous)
    assert [(c.field, c.old, c.new) for c in delta.changes] == [("rank", 2, 1)]

    version_before = season.data_version
    season.refresh_from_db()
    assert season.data_version > version_before
    assert season.standings_version == season.data_version
    after = standings_document(season=season)
    assert StandingsTable.objects.filter(season=season, kind="tournament", key="t1").exists()
    # rules.md §1.1 at a table of 4: before, p2 placed 2.5 (tied with p3): 50 + 0 + 50/200;
    # after, p1 and p2 share 1.5: 250/3 placement + 4 win bonus + (250/3)/200 each.
    assert daily(before, "t1", "p2") == 50.25
    assert daily(after, "t1", "p2") == 87.75
    # p1 had 1st alone (100 + 4 + 0.5) and 0 at the 2-player Carcassonne table.
    assert daily(before, "t1", "p1") == 104.5
    assert daily(after, "t1", "p1") == 87.75
    # p3, tied with p2 for 2nd before, is now 3rd alone: 100/3 + (100/3)/200; p4 stays last.
    assert daily(after, "t1", "p3") == 33.5
    assert daily(after, "t1", "p4") == daily(before, "t1", "p4") == 0


@pytest.mark.django_db(transaction=True)
def test_table_page_corrects_a_seat_through_the_inline_and_records_it(
    admin_client, admin_user, circuit_file
):
    season = import_circuit(circuit_file)
    before = standings_document(season=season)
    table = Table.objects.get(round__tournament__key="t2", game="Catan")
    seat = table.seats.get(player__key="p5")
    url = admin_url(Table, "change", table.pk)

    payload = form_payload(admin_client.get(url))
    index = next(
        i
        for i in range(int(payload["seats-TOTAL_FORMS"]))
        if payload[f"seats-{i}-id"] == str(seat.pk)
    )
    assert payload[f"seats-{index}-rank"] == "3"
    payload[f"seats-{index}-rank"] = "1"
    payload["_save"] = "Save"
    response = admin_client.post(url, payload)
    assert response.status_code == 302, response.context and response.context["errors"]

    record = newest_history(seat)
    assert record.history_user == admin_user
    delta = record.diff_against(record.prev_record)
    assert [(c.field, c.old, c.new) for c in delta.changes] == [("rank", 3, 1)]
    # The other seats were not touched, so they have no new change record.
    others = table.seats.exclude(pk=seat.pk).values_list("pk", flat=True)
    assert not Seat.history.filter(id__in=list(others), history_type="~").exists()
    # The table's own history says what changed at it, not only "Changed".
    table_record = newest_history(table)
    assert table_record.history_user == admin_user
    assert "Els Wouters: 3: Rank 3 → 1" in table_record.history_change_reason

    after = standings_document(season=season)
    # A three-way tie for 1st at a table of 3: place 2, 50 + 3 + 1/3 each.
    assert daily(before, "t2", "p5") == 0
    assert daily(after, "t2", "p5") == pytest.approx(53 + 1 / 3)
    assert daily(after, "t2", "p1") == daily(after, "t2", "p5")


def test_a_round_added_on_the_tournament_page_takes_the_tournaments_season(
    admin_client, admin_user, circuit_file
):
    season = import_circuit(circuit_file)
    tournament = Tournament.objects.get(season=season, key="t2")
    url = admin_url(Tournament, "change", tournament.pk)
    payload = form_payload(admin_client.get(url))
    n = int(payload["rounds-TOTAL_FORMS"])
    assert n == 1
    payload.update({"rounds-TOTAL_FORMS": str(n + 1), f"rounds-{n}-number": "2", "_save": "Save"})
    response = admin_client.post(url, payload)
    assert response.status_code == 302, response.context and response.context["errors"]

    added = Round.objects.get(tournament=tournament, number=2)
    assert added.season_id == season.pk
    assert added.group_id is None
    assert newest_history(added).history_user == admin_user


def test_a_player_cannot_be_seated_twice_in_a_round_through_the_admin(admin_client, circuit_file):
    import_circuit(circuit_file)
    # Round 1 of t2 has two tables: Catan (p3, p1, p5) and Carcassonne (p2, p4).
    seat = Seat.objects.get(round__tournament__key="t2", player__key="p2")
    p1 = Player.objects.get(key="p1")
    response = admin_client.post(
        admin_url(Seat, "change", seat.pk),
        {"table": seat.table_id, "player": p1.pk, "rank": "1", "_save": "Save"},
    )
    assert response.status_code == 200
    assert "already plays elsewhere in this round" in response.content.decode()
    seat.refresh_from_db()
    assert seat.player.key == "p2"


def test_season_form_keeps_the_recompute_bookkeeping_written_meanwhile(admin_user, circuit_file):
    season = import_circuit(circuit_file)
    loaded = Season.objects.get(pk=season.pk)
    # A result is entered while the season form is open.
    Season.objects.filter(pk=season.pk).update(data_version=F("data_version") + 5)
    bumped = Season.objects.get(pk=season.pk).data_version

    loaded.name = "Corrected name"
    request = type("Request", (), {"user": admin_user})()
    admin.site._registry[Season].save_model(request, loaded, form=None, change=True)

    stored = Season.objects.get(pk=season.pk)
    assert stored.name == "Corrected name"
    assert stored.data_version >= bumped
    assert newest_history(stored).history_user == admin_user


def test_season_form_rejects_settings_the_recompute_cannot_read(admin_client, circuit_file):
    season = import_circuit(circuit_file)
    url = admin_url(Season, "change", season.pk)
    payload = form_payload(admin_client.get(url))
    payload["settings"] = '{"best_n": 0}'
    payload["_save"] = "Save"
    response = admin_client.post(url, payload)
    assert response.status_code == 200
    assert "best_n" in str(response.context["adminform"].form.errors["settings"])
    season.refresh_from_db()
    assert season.settings == {}


# --- 3. re-drawing the prize ceremony lot -------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_redraw_action_records_a_new_seed_and_the_stored_ceremony_follows(
    admin_client, admin_user, circuit_file, monkeypatch
):
    season = import_circuit(circuit_file)
    t1 = Tournament.objects.get(season=season, key="t1")
    t2 = Tournament.objects.get(season=season, key="t2")
    ceremony = tournament_doc(standings_document(season=season), "t1")["ceremony"]
    drawn_before = [c["player"] for c in ceremony if c["step"] == "draw"]
    # 5 participants: P10 = 1, so the winner is called and the 4 others are drawn.
    assert len(drawn_before) == 4
    new_seed = next(s for s in range(1, 1000) if draw_order(drawn_before, s) != drawn_before)
    seeds = iter([t1.draw_seed, new_seed])  # the same seed again must not count as a re-draw
    monkeypatch.setattr(competitions_services, "new_draw_seed", lambda: next(seeds))

    response = admin_client.post(
        admin_url(Tournament, "changelist"),
        {"action": "redraw_lot", "_selected_action": [str(t1.pk)]},
    )
    assert response.status_code == 302

    t1.refresh_from_db()
    assert t1.draw_seed == new_seed
    assert Tournament.objects.get(pk=t2.pk).draw_seed == 777
    record = newest_history(t1)
    assert record.history_user == admin_user
    assert record.history_change_reason == competitions_admin.REDRAW_REASON
    delta = record.diff_against(record.prev_record)
    assert [(c.field, c.old, c.new) for c in delta.changes] == [("draw_seed", 12345, new_seed)]

    version_before = season.data_version
    season.refresh_from_db()
    assert season.data_version > version_before
    assert season.standings_version == season.data_version
    ceremony = tournament_doc(standings_document(season=season), "t1")["ceremony"]
    drawn_after = [c["player"] for c in ceremony if c["step"] == "draw"]
    assert drawn_after == draw_order(drawn_before, new_seed)
    assert drawn_after != drawn_before


# --- 4. who gets in -----------------------------------------------------------------------------


def test_anonymous_visitor_is_sent_to_the_admin_login(client):
    response = client.get("/admin/")
    assert response.status_code == 302
    assert response.url.startswith(reverse("admin:login"))


def test_member_without_staff_status_is_sent_to_the_admin_login(client, django_user_model):
    member = django_user_model.objects.create_user(username="member", password="x")
    client.force_login(member)
    for url in ("/admin/", admin_url(Seat, "changelist")):
        response = client.get(url)
        assert response.status_code == 302, url
        assert response.url.startswith(reverse("admin:login")), url


def test_staff_can_look_at_the_stored_standings_but_not_change_them(
    client, django_user_model, circuit_file
):
    season = import_circuit(circuit_file)
    staff = django_user_model.objects.create_user(username="staff", password="x", is_staff=True)
    client.force_login(staff)
    table = StandingsTable.objects.filter(season=season).first()

    assert client.get(admin_url(StandingsTable, "changelist")).status_code == 200
    assert client.get(admin_url(StandingsTable, "change", table.pk)).status_code == 200
    assert client.get(admin_url(StandingsTable, "add")).status_code == 403
    response = client.post(admin_url(StandingsTable, "change", table.pk), {"key": "x"})
    assert response.status_code == 403
    assert client.get(admin_url(StandingsTable, "delete", table.pk)).status_code == 403
    table.refresh_from_db()
    assert table.key != "x"
    # Results stay behind the ordinary permissions.
    assert client.get(admin_url(Seat, "changelist")).status_code == 403
