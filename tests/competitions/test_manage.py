"""Manager pages: who may change what, result entry, corrections, settings and the lot draw."""

import pytest
from django.test import Client
from django.urls import reverse

from competitions.models import Player, Season, Series, Tournament
from competitions.systems.boardgame.models import Seat, Table
from competitions.text import name_order
from competitions.views import manage_url
from rankings.models import StandingsTable
from tests.helpers import daily as daily_of
from tests.helpers import tournament_rows

pytestmark = pytest.mark.django_db


def the_season() -> Season:
    return Season.objects.select_related("series").get(series__slug="belgian-circuit")


def round_url(number=1, tournament="t2"):
    return manage_url(the_season(), "round", tournament, number)


def test_anonymous_visitors_are_sent_to_log_in(client, season):
    response = client.get(round_url())
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_a_user_who_manages_another_series_gets_403(client, django_user_model, season):
    other = Series.objects.create(slug="other", name="Other", system="boardgame-circuit")
    user = django_user_model.objects.create_user("other", password="pw-other-123")
    other.managers.add(user)
    client.force_login(user)
    assert client.get(round_url()).status_code == 403
    response = client.post(round_url(), {"game": "Catan", "player_1": "p1", "player_2": "p2"})
    assert response.status_code == 403
    assert Table.objects.filter(round__tournament__key="t2").count() == 2


def test_a_refused_request_is_one_line_in_the_log(client, django_user_model, season, caplog):
    user = django_user_model.objects.create_user("other", password="pw-other-123")
    client.force_login(user)
    with caplog.at_level("WARNING", logger="django.request"):
        assert client.get(round_url()).status_code == 403
    refused = [r for r in caplog.records if getattr(r, "status_code", None) == 403]
    assert len(refused) == 1
    assert refused[0].exc_info is None and "Forbidden" in refused[0].getMessage()
    assert "Traceback" not in caplog.text


def test_the_dashboard_lists_only_managed_series(manager_client, season):
    Series.objects.create(slug="other", name="Other circuit", system="boardgame-circuit")
    html = manager_client.get(reverse("manage:dashboard")).content.decode()
    assert season.series.name in html
    assert "Other circuit" not in html


def test_entering_a_table_stores_it_and_updates_the_standings(
    manager_client, season, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = manager_client.post(
            round_url(2),
            {
                "game": "Azul",
                "player_1": "An Peeters (p1)",
                "player_2": "Dirk Maes",
                "player_3": "p5",
                "rank_3": "2",
            },
        )
    assert response.status_code == 302
    table = Table.objects.get(round__tournament__key="t2", round__number=2)
    assert table.game == "Azul"
    assert sorted((s.player.key, s.rank) for s in table.seats.all()) == [
        ("p1", 1),
        ("p4", 2),
        ("p5", 2),
    ]
    # p1 in t2: 104.5/3-table tie ... round 1 Catan shared first of 3: place 1.5 -> 75 + 3 + 0.5;
    # round 2 Azul first of 3: 100 + 3 + 100/150.
    season.refresh_from_db()
    assert not season.stale
    assert daily_of(season, "t2", "p1") == pytest.approx(75 + 3 + 0.5 + 100 + 3 + 100 / 150)


@pytest.mark.parametrize(
    "post,message",
    [
        (
            {"game": "Azul", "player_1": "p1", "player_2": "p4", "rank_2": "7"},
            "Ensure this value is less than or equal to 6",
        ),
        (
            {"game": "Azul", "player_1": "p1", "player_2": "p4", "player_3": "p5", "rank_1": "4"},
            "rank 4 at a table of 3",
        ),
        (
            {"game": "Azul", "player_1": "p1", "player_2": "Nobody Known"},
            "No player “Nobody Known” in this series",
        ),
        ({"game": "Azul", "player_1": "p1"}, "A table needs at least 2 players"),
        ({"game": "", "player_1": "p1", "player_2": "p2"}, "This field is required"),
        ({"game": "Azul", "player_1": "p1", "player_2": "p1"}, "is listed twice"),
    ],
)
def test_a_rejected_table_says_why_and_stores_nothing(manager_client, season, post, message):
    before = Seat.objects.count()
    response = manager_client.post(round_url(2), post)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert Seat.objects.count() == before


def test_a_player_cannot_sit_twice_in_one_round(manager_client, season):
    # p3 already sits at table 1 of round 1 of t2
    response = manager_client.post(
        round_url(1), {"game": "Azul", "player_1": "p3", "player_2": "p2"}
    )
    assert response.status_code == 400
    assert "already plays at table 1 in this round" in response.content.decode()
    assert Table.objects.filter(round__tournament__key="t2", round__number=1).count() == 2


def test_correcting_a_table_replaces_its_seats(
    manager_client, manager, season, django_capture_on_commit_callbacks
):
    table = Table.objects.get(round__tournament__key="t2", round__number=1, number=2)
    url = manage_url(season, "table_edit", "t2", 1, table.pk)
    page = manager_client.get(url)
    assert "Bert Claes (p2)" in page.content.decode()
    loaded = page.context["form"]["loaded"].value()
    with django_capture_on_commit_callbacks(execute=True):
        response = manager_client.post(
            url, {"game": "Carcassonne", "player_1": "p4", "player_2": "p2", "loaded": loaded}
        )
    assert response.status_code == 302
    assert sorted((s.player.key, s.rank) for s in table.seats.all()) == [("p2", 2), ("p4", 1)]
    assert daily_of(season, "t2", "p4") == pytest.approx(100 + 2 + 1)  # fraction 100/100
    # the correction is kept in the history: who, when, what
    seat = Seat.objects.get(table=table, player__key="p4")
    latest = seat.history.latest("history_date")
    assert (latest.rank, latest.history_type, latest.history_user) == (1, "~", manager)


def test_a_correction_without_the_tables_loaded_version_is_refused(manager_client, season):
    """The version check cannot be skipped by leaving `loaded` out of the post (issue 45): the
    page always sends it, and a correction without it stores nothing."""
    table = Table.objects.get(round__tournament__key="t2", round__number=1, number=2)
    url = manage_url(season, "table_edit", "t2", 1, table.pk)
    page = manager_client.get(url)
    form = page.context["form"]
    loaded = form["loaded"].value()
    assert loaded and f'name="loaded" value="{loaded}"' in page.content.decode()
    data = {name: form[name].value() or "" for name in form.fields}
    data.update(game="Azul")
    del data["loaded"]
    for sent in (data, {**data, "loaded": ""}):
        refused = manager_client.post(url, sent)
        assert refused.status_code == 400
        assert "does not say which version of the table it corrects" in refused.content.decode()
    table.refresh_from_db()
    assert table.game == "Carcassonne"
    assert manager_client.post(url, {**data, "loaded": loaded}).status_code == 302
    table.refresh_from_db()
    assert table.game == "Azul"


def test_deleting_a_table(manager_client, season, django_capture_on_commit_callbacks):
    table = Table.objects.get(round__tournament__key="t2", round__number=1, number=2)
    url = manage_url(season, "table_delete", "t2", 1, table.pk)
    assert manager_client.get(url).status_code == 405
    with django_capture_on_commit_callbacks(execute=True):
        assert manager_client.post(url).status_code == 302
    assert not Table.objects.filter(pk=table.pk).exists()
    data = StandingsTable.objects.get(season=season, kind="tournament", key="t2").data
    assert data["participants"] == 3


def test_rounds_beyond_the_setting_are_refused(manager_client, season):
    response = manager_client.get(round_url(4))
    assert response.status_code == 302
    assert not Table.objects.filter(round__number=4).exists()


def test_settings_form_stores_only_what_differs(
    manager_client, season, django_capture_on_commit_callbacks
):
    url = reverse("manage:season_settings", args=["belgian-circuit", season.slug])
    form = {
        "rounds_per_tournament": 3,
        "best_n": 4,
        "interclub_counted": 3,
        "cap_mode": "manual",
        "cap": 3,
        "final_table_size": 4,
        "final_table_sizes": "Catan = 6",
    }
    with django_capture_on_commit_callbacks(execute=True):
        assert manager_client.post(url, form).status_code == 302
    season.refresh_from_db()
    assert season.settings == {"best_n": 4, "cap": 3, "final_table_size": {"Catan": 6}}
    data = StandingsTable.objects.get(season=season, kind="tournament", key="t1").data
    assert data["cap"] == 3
    assert [r["bonus"] for r in tournament_rows(season, "t1")] == [3, 2, 1, 1, 0]


def test_settings_form_rejects_a_manual_cap_without_a_value(manager_client, season):
    url = reverse("manage:season_settings", args=["belgian-circuit", season.slug])
    response = manager_client.post(
        url,
        {
            "rounds_per_tournament": 3,
            "best_n": 5,
            "interclub_counted": 3,
            "cap_mode": "manual",
            "final_table_size": 4,
        },
    )
    assert "Enter the cap" in response.content.decode()
    season.refresh_from_db()
    assert season.settings == {}


def test_creating_a_tournament_and_a_second_final_is_refused(manager_client, season):
    url = manage_url(season, "tournament_create")
    response = manager_client.post(url, {"name": "Leuven", "date": "2025-06-01"})
    assert response.status_code == 302
    assert Tournament.objects.filter(season=season, name="Leuven").exists()
    response = manager_client.post(url, {"name": "Second final", "final": "on"})
    assert response.status_code == 400
    assert "already has a final tournament" in response.content.decode()


def test_redraw_changes_the_stored_seed(manager_client, season):
    tournament = Tournament.objects.get(season=season, key="t1")
    url = manage_url(season, "tournament_redraw", "t1")
    assert manager_client.post(url).status_code == 302
    tournament.refresh_from_db()
    assert tournament.draw_seed != 12345


def test_posts_without_csrf_token_are_refused(manager, season):
    client = Client(enforce_csrf_checks=True)
    client.force_login(manager)
    response = client.post(round_url(2), {"game": "Azul", "player_1": "p1", "player_2": "p4"})
    assert response.status_code == 403
    assert not Table.objects.filter(round__number=2, round__tournament__key="t2").exists()


def test_adding_a_player_and_a_club(manager_client, season):
    url = reverse("manage:players", args=["belgian-circuit"])
    manager_client.post(url, {"add_club": "1", "club-name": "Ludiek Leuven"})
    club = season.series.clubs.get(name="Ludiek Leuven")
    response = manager_client.post(
        url,
        {
            "add_player": "1",
            "player-name": "Zoë Lambert",
            "player-club": club.pk,
            "next": "https://evil.example/",
        },
    )
    assert response["Location"] == url  # an outside "next" is ignored
    assert season.series.players.get(name="Zoë Lambert").club == club


def test_the_players_page_is_searched_and_shown_a_hundred_at_a_time(manager_client, season):
    """A federation's 2000 players: the manager's list shows a page of 100, searched by name
    or club with accents and case ignored, as the public players page is."""
    series = season.series
    club = series.clubs.create(name="Ωmega Spelclub")
    Player.objects.bulk_create(
        [Player(series=series, key=f"x{i:03}", name=f"Zeta {i:03}") for i in range(230)]
        + [
            Player(series=series, key="eloise", name="Éloïse Dupré", club=club),
            Player(series=series, key="eq", name="=HYPERLINK(1)"),
        ]
    )
    url = reverse("manage:players", args=["belgian-circuit"])
    total = series.players.count()
    first = manager_client.get(url)
    html = first.content.decode()
    assert f"{total} players" in html
    assert html.count('class="list-group-item') == 100
    assert "=HYPERLINK(1)" in html  # sorted first, shown as text
    rows = series.players.values_list("name", "key")
    in_order = [name for name, _key in sorted(rows, key=lambda row: name_order(*row))]
    last = manager_client.get(url, {"page": 3})
    assert [p["name"] for p in last.context["players"]] == in_order[200:]
    # A page out of range shows the last one instead of an error.
    assert manager_client.get(url, {"page": 99}).context["players"] == last.context["players"]
    found = manager_client.get(url, {"q": "ELOISE"})
    assert [p["name"] for p in found.context["players"]] == ["Éloïse Dupré"]
    assert "1 player found." in found.content.decode()
    by_club = manager_client.get(url, {"q": "ωmega"}).context["players"]
    assert [(p["name"], p["club"]) for p in by_club] == [("Éloïse Dupré", "Ωmega Spelclub")]
    assert by_club[0]["edit_url"] == reverse(
        "manage:player_edit", args=["belgian-circuit", "eloise"]
    )
    # The page links keep the search.
    zetas = manager_client.get(url, {"q": "zeta"}).content.decode()
    assert "230 players found." in zetas and "?q=zeta&amp;page=3" in zetas


# The queries of each manager page, one comment each.
LOGGED_IN = ["the session", "the user"]
MANAGER = [
    "the series named in the URL",
    "the user's own permissions (may manage every series?)",
    "the permissions of the user's groups",
    "is the user one of the series' managers",
]
SEASON = "the season with its series"
EXPECTED_QUERIES = {
    "round": [
        *LOGGED_IN,
        *MANAGER,
        SEASON,
        "the tournament",
        "the round",
        "the series' players with their clubs (suggestions)",
        "the round's tables",
        "their seats with the players' names",
        "the game titles of the series (suggestions)",
    ],
    "season": [
        *LOGGED_IN,
        *MANAGER,
        SEASON,
        "the tournaments with their table counts",
        "the game titles with their table counts (the Games card)",
    ],
    "players": [*LOGGED_IN, *MANAGER, "the clubs (the club choice)", "the players with clubs"],
    "tournament": [*LOGGED_IN, *MANAGER, SEASON, "the tournament", "table counts per round"],
}


def test_manager_page_query_counts_do_not_grow_with_players(manager_client, season):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from competitions.models import Player, Round

    def counts():
        result = []
        for url in [
            round_url(1),
            manage_url(season),
            reverse("manage:players", args=["belgian-circuit"]),
            manage_url(season, "tournament", "t2"),
        ]:
            with CaptureQueriesContext(connection) as ctx:
                assert manager_client.get(url).status_code == 200
            result.append(len(ctx.captured_queries))
        return result

    before = counts()
    # forty more players, seated at ten more tables of round 1 of t2
    series = season.series
    players = Player.objects.bulk_create(
        Player(series=series, key=f"n{i}", name=f"New Player {i}") for i in range(40)
    )
    round_ = Round.objects.get(tournament__key="t2", number=1)
    for n in range(10):
        table = Table.objects.create(round=round_, number=10 + n, game="Azul")
        for rank, player in enumerate(players[4 * n : 4 * n + 4], 1):
            Seat.objects.create(table=table, player=player, rank=rank)
    assert counts() == before == [len(queries) for queries in EXPECTED_QUERIES.values()]


def test_a_table_saved_while_the_round_page_reads_its_tables_does_not_break_it(
    manager_client, season
):
    """The round page reads the tables, then their seats: a table another manager saves
    between the two reads is not listed (its seats are not read), instead of a seat of an
    unknown table answering 500."""
    from django.db import connection

    from competitions.models import Player, Round
    from competitions.systems.boardgame import services

    round_ = Round.objects.get(tournament__key="t2", number=1)
    free = [
        Player.objects.create(series=season.series, key=f"late{i}", name=f"Late Comer {i}")
        for i in (1, 2)
    ]
    saved = []

    def meanwhile(execute, sql, params, many, context):
        if not saved and '"competitions_seat"' in sql and "player" in sql and "SELECT" in sql:
            saved.append(None)
            services.table_save(round_=round_, game="Azul", seats=[(free[0], 1), (free[1], 2)])
        return execute(sql, params, many, context)

    before = Table.objects.filter(round=round_).count()
    with connection.execute_wrapper(meanwhile):
        response = manager_client.get(round_url(1))
    assert saved, "the seats were not read"
    assert response.status_code == 200
    assert Table.objects.filter(round=round_).count() == before + 1
    html = response.content.decode()
    assert f"{before} tables entered" in html
    assert free[0].name not in html.split('id="entered-tables"')[1].split("</ul>")[0]


def test_creating_a_season_takes_the_manager_to_it(manager_client, season):
    url = reverse("manage:season_create", args=["belgian-circuit"])
    assert manager_client.get(url).status_code == 200
    response = manager_client.post(url, {"label": "2026", "name": ""})
    created = Season.objects.get(series=season.series, label="2026")
    assert created.name == "Belgian board game circuit 2026"
    assert response.status_code == 302
    assert response["Location"] == manage_url(created)
    assert manager_client.get(response["Location"]).status_code == 200


def test_a_season_label_is_not_created_twice(manager_client, season):
    url = reverse("manage:season_create", args=["belgian-circuit"])
    response = manager_client.post(url, {"label": "2025", "name": "Again"})
    assert response.status_code == 400
    assert "Season 2025 already exists." in response.content.decode()
    assert Season.objects.filter(series=season.series).count() == 1


def test_a_season_is_created_only_by_its_managers(client, django_user_model, season):
    other = django_user_model.objects.create_user("other", password="pw-other-123")
    client.force_login(other)
    url = reverse("manage:season_create", args=["belgian-circuit"])
    assert client.post(url, {"label": "2026"}).status_code == 403
    assert not Season.objects.filter(label="2026").exists()


def test_the_tournament_page_lists_its_rounds_and_saves_its_details(manager_client, season):
    url = manage_url(season, "tournament", "t1")
    html = manager_client.get(url).content.decode()
    # rounds 1 to 3 (rounds_per_tournament), with their table counts: t1 has 1 and 1 tables
    assert html.count("Enter results") == 3
    assert manage_url(season, "round", "t1", 3) in html
    response = manager_client.post(url, {"name": "Mechelen Spring", "date": "2025-02-10"})
    assert response.status_code == 302
    tournament = Tournament.objects.get(season=season, key="t1")
    assert (tournament.name, tournament.date.isoformat()) == ("Mechelen Spring", "2025-02-10")


def test_the_tournament_page_refuses_a_second_final(manager_client, season):
    url = manage_url(season, "tournament", "t1")
    response = manager_client.post(url, {"name": "Mechelen", "final": "on"})
    assert response.status_code == 400
    assert "already has a final tournament" in response.content.decode()
    assert not Tournament.objects.filter(season=season, key="t1", circuit_final__isnull=False)


def test_an_unknown_tournament_or_page_is_404(manager_client, season):
    assert manager_client.get(manage_url(season) + "tournaments/nope/").status_code == 404
    assert manager_client.get(manage_url(season) + "no/such/page/").status_code == 404


def test_manage_urls_gives_what_manage_url_gives_for_every_pk(season):
    from competitions.views import manage_urls

    odd = Season.objects.create(series=season.series, label="987654321", name="Marker")
    for target in (season, odd):
        url_of = manage_urls(target, "table_edit", "t2", 1)
        for pk in (1, 42, 987654321, 10**12):
            assert url_of(pk) == manage_url(target, "table_edit", "t2", 1, pk)


def test_player_suggestions_are_escaped_and_name_the_club(season):
    from django.template import Context, Template

    from competitions.models import Club, Player

    club = Club.objects.create(series=season.series, name='<b>"Pion" & Co</b>')
    players = [
        Player.objects.create(series=season.series, key="q1", name='Jan "de <Toren>"', club=club),
        Player.objects.create(series=season.series, key="q2", name="=1+1 Ελένη 王"),
    ]
    template = Template(
        "{% load manage %}<datalist>{% player_options players %}</datalist>"
        "<datalist>{% player_options players clubs=False %}</datalist>"
    )
    html = template.render(Context({"players": players}))
    with_clubs, without = html.split("</datalist><datalist>")
    assert (
        '<option value="Jan &quot;de &lt;Toren&gt;&quot; (q1)">'
        "&lt;b&gt;&quot;Pion&quot; &amp; Co&lt;/b&gt;</option>"
        '<option value="=1+1 Ελένη 王 (q2)"></option>'
    ) in with_clubs
    assert "Pion" not in without and '<option value="=1+1 Ελένη 王 (q2)"></option>' in without


@pytest.mark.parametrize("name", ["manage:player_edit", "player"])
def test_key_urls_gives_what_reverse_gives_for_every_key(name):
    from competitions.links import key_urls

    for series in ("belgian-circuit", "a__key__b"):
        url_of = key_urls(name, series)
        for key in ("p1", "Ελένη 王", "a b", "%41", "x?y#z", "=1+1", "ü", "__key__", "a'b\"c"):
            assert url_of(key) == reverse(name, args=[series, key]), key


@pytest.mark.parametrize(
    "lang,asked,done",
    [
        ("en", "Delete season {label}?", "Season {label} deleted."),
        ("nb", "Slette sesong {label}?", "Sesong {label} slettet."),
        ("sv", "Ta bort säsong {label}?", "Säsong {label} borttagen."),
        ("nl", "Seizoen {label} verwijderen?", "Seizoen {label} verwijderd."),
    ],
)
def test_a_deletion_names_what_it_deletes_as_a_sentence_reads(
    manager_client, season, lang, asked, done
):
    """Inside the question the season is a common noun ("Delete season 2025?"); the message
    after the deletion starts with it, capitalised."""
    manager_client.cookies["django_language"] = lang
    url = reverse("manage:season_delete", args=[season.series.slug, season.slug])
    page = manager_client.get(url).content.decode()
    assert asked.format(label=season.label) in page
    response = manager_client.post(url, follow=True)
    assert done.format(label=season.label) in response.content.decode()
    assert not Season.objects.filter(pk=season.pk).exists()


def test_a_tournament_and_a_player_are_named_the_same_way(manager_client, season):
    manager_client.cookies["django_language"] = "nb"
    tournament = season.tournaments.get(key="t1")
    url = manage_url(season, "tournament_delete", "t1")
    assert f"Slette turneringen {tournament.name}?" in manager_client.get(url).content.decode()
    response = manager_client.post(url, follow=True)
    assert f"Turneringen {tournament.name} slettet." in response.content.decode()
    # A name with markup is shown as text in the question and in the message.
    Player.objects.create(series=season.series, key="gone", name="Åse <b>Dubois</b>")
    url = reverse("manage:player_delete", args=[season.series.slug, "gone"])
    page = manager_client.get(url).content.decode()
    assert "Slette spilleren Åse &lt;b&gt;Dubois&lt;/b&gt;?" in page
    assert "<b>Dubois" not in page
    response = manager_client.post(url, follow=True).content.decode()
    assert "Spilleren Åse &lt;b&gt;Dubois&lt;/b&gt; slettet." in response
    assert "<b>Dubois" not in response


def test_a_regular_tournament_after_the_final_is_questioned(manager_client, season):
    """The final (30 Nov 2025) is the season's last tournament: a regular one dated after it
    fed the finalists without a word (issue 46). It is asked, then stored when confirmed."""
    url = manage_url(season, "tournament_create")
    response = manager_client.post(url, {"name": "Late", "date": "2025-12-14"})
    assert response.status_code == 400
    assert "before this date: the final is the season" in response.content.decode()
    assert not Tournament.objects.filter(season=season, name="Late").exists()
    confirmed = {"name": "Late", "date": "2025-12-14", "confirmed": "1"}
    assert manager_client.post(url, confirmed).status_code == 302
    # Moving the final before the regular tournaments is asked too.
    final = Tournament.objects.get(season=season, key="final")
    response = manager_client.post(
        manage_url(season, "tournament", "final"),
        {"name": final.name, "date": "2025-01-05", "final": "on"},
    )
    assert response.status_code == 400
    assert "is after this final" in response.content.decode()
    final.refresh_from_db()
    assert final.date.isoformat() == "2025-11-30"


def test_a_game_title_is_the_same_game_whatever_its_case_and_spaces(manager_client, season):
    """`catan ` and `7 wonders` became games of their own beside "Catan" (their own ranking
    and finalists): a title typed in another case, with other accents or spaces, is stored as
    the season's title (issue 46)."""
    assert Table.objects.filter(game="Catan").exists()
    response = manager_client.post(
        round_url(2), {"game": " catan ", "player_1": "p1", "player_2": "p4"}
    )
    assert response.status_code == 302
    table = Table.objects.get(round__tournament__key="t2", round__number=2)
    assert table.game == "Catan"
    response = manager_client.post(
        round_url(3), {"game": "Ticket  to ride", "player_1": "p1", "player_2": "p4"}
    )
    assert Table.objects.get(round__tournament__key="t2", round__number=3).game == (
        "Ticket to ride"
    )


def test_two_titles_of_one_game_are_merged_from_the_season_page(
    manager_client, season, django_capture_on_commit_callbacks
):
    """A title accepted before (or typed in a file) with a typo is its own game: the season
    page renames it, and giving it another game's title merges the two (issue 46)."""
    table = Table.objects.filter(round__season=season, game="Catan").first()
    Table.objects.filter(pk=table.pk).update(game="Catann")
    page = manager_client.get(manage_url(season)).content.decode()
    assert "Catann (1 table)" in page
    with django_capture_on_commit_callbacks(execute=True):
        response = manager_client.post(
            manage_url(season, "game_rename"), {"title": "Catann", "new": "catan"}, follow=True
        )
    said = [str(m) for m in response.context["messages"]]
    assert said == ["1 table of \u2068Catann\u2069 now has the game \u2068Catan\u2069."], said
    assert not Table.objects.filter(game="Catann").exists()
    table.refresh_from_db()
    assert table.game == "Catan"
    assert table.history.first().history_change_reason == "game Catann -> Catan"
    season.refresh_from_db()
    assert not season.stale
    # A title no table has is refused, and nothing changes.
    response = manager_client.post(
        manage_url(season, "game_rename"), {"title": "Nope", "new": "Azul"}
    )
    assert response.status_code == 400
    assert Table.objects.filter(game="Catan").count() >= 2


def test_a_player_created_at_a_table_is_pointed_to_their_club(manager_client, season):
    """A player created at a table has no club, so the interclub ignored them until someone
    fixed it elsewhere (issue 46): the round page says so, with the link to give the club."""
    response = manager_client.post(
        round_url(2),
        {"game": "Azul", "player_1": "p1", "player_2": "Nieuwe Speler", "new_2": "on"},
        follow=True,
    )
    said = [str(m) for m in response.context["messages"]]
    player = Player.objects.get(series=season.series, name="Nieuwe Speler")
    assert player.club is None
    link = reverse("manage:player_edit", args=[season.series.slug, player.key])
    assert any("is a new player without a club" in m and f'href="{link}"' in m for m in said), said
    assert f'<a href="{link}">give them their club</a>' in response.content.decode()
