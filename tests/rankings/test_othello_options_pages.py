"""The Othello GP season options of chess-othello-options.md §3 through the site: the
settings (validation, the form's tie-break data lines), the file, the stored standings, the
pages' explanations and the what-if pages."""

from fractions import Fraction
from urllib.parse import urlencode

import pytest
from django.core.exceptions import ValidationError

from competitions import services
from competitions.interchange import export_competition
from competitions.models import Season
from competitions.systems.othello.forms import GPSettingsForm
from competitions.systems.othello.settings import SPEC, parse_settings
from rankings.engines import othello as engine
from rankings.imports import import_competition
from rankings.models import StandingsTable
from rankings.systems.othello.standings import engine_settings, season_outs
from rankings.urls_helpers import season_url
from tests.othello_files import gp_file

pytestmark = pytest.mark.django_db


def standings(season: Season) -> list[tuple[str, int, int]]:
    table = StandingsTable.objects.get(season=season, kind="standings")
    return [
        (r.detail["player"], r.detail["rank"], r.detail["points"])
        for r in table.rows.order_by("position")
    ]


def html(client, url) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def test_the_settings_refuse_unknown_keys_and_bad_tiebreak_data():
    def problems(raw):
        return [message for _path, message in SPEC.validate(raw)]

    assert problems({"series_rule": "direct", "season_tiebreaks": "SM WOF WORLD LOT"}) == []
    assert "must be one of chained, direct" in problems({"series_rule": "geometric"})[0]
    assert "unknown key FIDE" in problems({"season_tiebreaks": "SM FIDE"})[0]
    assert "names a key twice" in problems({"season_tiebreaks": "SM SM"})[0]
    assert "tiebreak_data.p1.wof" in problems({"tiebreak_data": {"p1": {"wof": 1893.123}}})[0]
    assert "tiebreak_data.p1.world" in problems({"tiebreak_data": {"p1": {"world": 0}}})[0]
    assert "tiebreak_data.p1" in problems({"tiebreak_data": {"p1": {"elo": 3}}})[0]
    assert problems({"tiebreak_data": {"p1": {"wof": 1893.5, "world": 312}, "p2": {}}}) == []


def test_the_service_stores_nothing_on_bad_settings():
    season = import_competition(gp_file())
    with pytest.raises(ValidationError, match="season_tiebreaks"):
        services.season_settings_update(season=season, settings={"season_tiebreaks": "XX"})
    season.refresh_from_db()
    assert season.settings == {}


def test_the_form_reads_tiebreak_data_lines_and_names_a_bad_line():
    base = {"best_n": 5, "country": "SE", "max_factor": 0.004, "max_base": 7}
    base |= {"nr_factor": 0.539, "nr_offset": 172, "provisional_floor": 1600}
    base |= {"debutant_rating": 1000, "rating_floor": 900}
    form = GPSettingsForm(
        {
            **base,
            "season_tiebreaks": "SM WOF WORLD LOT",
            "tiebreak_data": "p1 1893,5 312\np2 - 40\n",
        }
    )
    assert form.is_valid(), form.errors
    assert form.to_settings() == {
        "season_tiebreaks": "SM WOF WORLD LOT",
        "tiebreak_data": {"p1": {"wof": 1893.5, "world": 312}, "p2": {"world": 40}},
    }
    bad = GPSettingsForm({**base, "tiebreak_data": "p1 1893 312\np2 x 40"})
    assert not bad.is_valid()
    assert "Line 2: the WOF rating “x” is not a number." in bad.errors["tiebreak_data"][0]
    twice = GPSettingsForm({**base, "tiebreak_data": "p1 1\np1 2"})
    assert not twice.is_valid() and "p1 is listed twice" in str(twice.errors)
    shown = GPSettingsForm.initial_for({"tiebreak_data": {"p2": {"world": 40}, "p1": {"wof": 1}}})
    assert shown["tiebreak_data"] == "p1 1 -\np2 - 40"


def test_the_direct_reading_from_the_file_and_back():
    season = import_competition(gp_file(settings={"series_rule": "direct"}))
    t1 = StandingsTable.objects.get(season=season, kind="tournament", key="t1")
    assert t1.data["series"] == [15, 8, 5, 2, 1, 1] and t1.data["series_rule"] == "direct"
    assert standings(season) == [
        ("p2", 1, 24),
        ("p1", 2, 19),
        ("p4", 3, 2),
        ("p3", 4, 1),
        ("p5", 4, 1),
        ("p6", 4, 1),
    ]
    assert export_competition(season)["settings"] == {"series_rule": "direct"}


def test_the_tiebreak_chain_from_the_file_orders_equal_totals_and_explains_them(client):
    chain = {
        "season_tiebreaks": "WOF WORLD",
        "tiebreak_data": {"p6": {"wof": 1500}, "p5": {"world": 12}},
    }
    season = import_competition(gp_file(settings=chain))
    # Today p3 and p6 share rank 5 with 0 points; p6 has a WOF rating, p3 none.
    assert standings(season)[-2:] == [("p6", 5, 0), ("p3", 6, 0)]
    assert export_competition(season)["settings"] == chain
    page = html(client, season_url(season, "standings"))
    assert "Equal totals are separated by, in turn: WOF, WORLD" in page
    assert "Tie-breaks in turn: WOF rating 1500 · world ranking –." in page
    assert "Tie-breaks in turn: WOF rating – · world ranking 12." in page
    tournament = html(client, season_url(season, "tournament", "t1"))
    assert "Equal season points are separated by, in turn: WOF, WORLD" in tournament


def test_the_default_stores_what_it_stored_before():
    season = import_competition(gp_file())
    data = StandingsTable.objects.get(season=season, kind="standings").data
    assert set(data) == {"best_n", "sm_tiebreak", "lines"}
    assert standings(season)[-2:] == [("p3", 5, 0), ("p6", 5, 0)]
    for table in StandingsTable.objects.filter(season=season, kind="standings"):
        assert all("tiebreaks" not in r.detail and "wof" not in r.detail for r in table.rows.all())


def test_the_coefficients_what_if_uses_the_season_s_reading(client):
    season = import_competition(gp_file(settings={"series_rule": "direct"}))
    settings = engine_settings(parse_settings(season.settings))
    outs = dict(season_outs(season, settings))
    assert outs["Stockholm Open"].series == (15, 8, 5, 2, 1, 1)
    page = html(client, season_url(season, "whatif") + "?a=0.01&b=7")
    m = Fraction("0.01") * Fraction("2088.3") + 7
    direct = engine.direct_series(m, 6)
    assert direct != engine.points_series(m, 6)
    assert ", ".join(map(str, direct)) in page


def test_the_next_gp_what_if_uses_the_season_s_reading(client):
    """The players' what-if (place 6 of 6): the direct reading's last place gets 1."""
    season = import_competition(gp_file(settings={"series_rule": "direct"}))
    params = {"player": "p6", "place": 6, "participants": 6, "field": 1500}
    page = html(client, season_url(season, "next") + "?" + urlencode(params))
    nxt = engine.next_tournament("p6", 6, "SE", engine.Rating(nordic=Fraction(1400)), 6, 1500)
    direct = engine.compute_tournament(nxt, engine.Settings(series_rule=engine.DIRECT))
    chained = engine.compute_tournament(nxt)
    assert direct.series[-1] == 1 and chained.series[-1] == 0
    assert 'next-gp-points"><details class="explain"><summary>1<' in page


def test_a_file_s_tiebreak_data_names_players_of_the_file():
    from competitions.interchange import FileError

    bad = gp_file(settings={"tiebreak_data": {"p1": {"wof": 1800}, "nobody": {"world": 3}}})
    with pytest.raises(FileError) as refused:
        import_competition(bad)
    assert "settings.tiebreak_data.nobody" in str(refused.value)
    assert "unknown player" in str(refused.value)
    assert not Season.objects.filter(series__slug="swedish-gp").exists()


def test_the_wof_list_date_is_a_season_setting_named_where_the_chain_is_explained(client):
    """§3.3: "Also the list's date". One WOF list per season: its date is the setting
    `wof_list_date`, written back as stored, and the standings, their totals' explanation and
    the tournament page name it beside the chain. It orders nothing."""
    chain = {
        "season_tiebreaks": "WOF WORLD",
        "tiebreak_data": {"p6": {"wof": 1500}, "p5": {"world": 12}},
    }
    season = import_competition(gp_file(settings={**chain, "wof_list_date": "2025-03-01"}))
    assert export_competition(season)["settings"]["wof_list_date"] == "2025-03-01"
    assert standings(season)[-2:] == [("p6", 5, 0), ("p3", 6, 0)]  # as without the date
    assert parse_settings(season.settings).wof_list_date.isoformat() == "2025-03-01"
    page = html(client, season_url(season, "standings"))
    assert "The WOF ratings are those of the WOF list of 1 Mar 2025." in page
    assert "Tie-breaks in turn: WOF rating (list of 1 Mar 2025) 1500 · world ranking –." in page
    tournament = html(client, season_url(season, "tournament", "t1"))
    assert "The WOF ratings are those of the WOF list of 1 Mar 2025." in tournament

    # Without WOF in the chain, the date is not named: it explains nothing there.
    plain = import_competition(
        gp_file(settings={"season_tiebreaks": "WORLD", "wof_list_date": "2025-03-01"}),
        replace=True,
    )
    assert "WOF list of" not in html(client, season_url(plain, "standings"))
    assert "WOF list of" not in html(client, season_url(plain, "tournament", "t1"))


def test_the_wof_list_date_must_be_a_date():
    def problems(raw):
        return [message for _path, message in SPEC.validate(raw)]

    assert problems({"wof_list_date": "2025-03-01"}) == problems({"wof_list_date": ""}) == []
    for bad in ("2025-02-30", "1-3-2025", "2025-3-1"):
        assert (
            "wof_list_date must be a date written YYYY-MM-DD" in problems({"wof_list_date": bad})[0]
        ), bad
    base = {"best_n": 5, "country": "SE", "max_factor": 0.004, "max_base": 7}
    base |= {"nr_factor": 0.539, "nr_offset": 172, "provisional_floor": 1600}
    base |= {"debutant_rating": 1000, "rating_floor": 900}
    form = GPSettingsForm({**base, "wof_list_date": "2025-03-01"})
    assert form.is_valid(), form.errors
    assert form.to_settings() == {"wof_list_date": "2025-03-01"}
    assert 'type="date"' in str(form["wof_list_date"])
    bad = GPSettingsForm({**base, "wof_list_date": "2025-13-01"})
    assert not bad.is_valid()
    assert "wof_list_date" in bad.errors
