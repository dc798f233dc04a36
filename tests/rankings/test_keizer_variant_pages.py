"""Keizer variants (keizer-variants.md) through the whole site: a file's `"settings": {"preset":
..., ...}`, the stored lists and their explanations, the settings page (preset values, what a
club changed, a preset switch keeping the club's changes), and the pairing rules a preset
feeds to the pairer."""

from fractions import Fraction

import pytest
from django.test import Client

from competitions.models import Season
from competitions.systems.keizer import settings as keizer_settings
from competitions.systems.keizer.forms import KeizerSettingsForm
from pairings.systems.keizer.pairing import rules_of
from rankings.engines import keizer as engine
from rankings.imports import import_competition
from rankings.models import StandingsTable
from rankings.selectors import standings_document
from rankings.systems.keizer import standings
from rankings.urls_helpers import season_url
from tests.keizer_data import generated_file, small_file

pytestmark = pytest.mark.django_db


def imported(settings: dict, data: dict | None = None) -> Season:
    data = data or small_file()
    data["settings"] = settings
    return import_competition(data)


def stored_lists(season: Season) -> list[dict]:
    return [
        t.data
        for t in StandingsTable.objects.filter(season=season, kind="list").order_by("position")
    ]


# --- settings: presets, validation, what is stored ----------------------------------------------


def test_every_preset_is_valid_and_a_preset_is_applied_before_the_keys_given():
    for name, values in keizer_settings.PRESETS.items():
        assert keizer_settings.SPEC.validate({"preset": name, **values}) == [], name
    kfc = keizer_settings.parse_settings({"preset": "kfc", "points_loss": "1/20"})
    assert kfc.own_value_once and kfc.start_points == "none"
    assert kfc.top_value_rounding == "half-even" and kfc.withdrawn_credit == Fraction(3, 4)
    assert kfc.shares["loss"] == Fraction(1, 20)  # the key given wins over the preset's 0
    assert kfc.shares["bye"] == Fraction(1, 2)
    assert keizer_settings.parse_settings({}) == keizer_settings.parse_settings(
        {"preset": "seed-club"}
    )


def test_bad_variant_settings_are_refused_naming_the_setting():
    problems = dict(
        keizer_settings.SPEC.validate(
            {
                "preset": "nope",
                "valuation": "sideways",
                "value_ratio": "1",
                "points_external_win": "7/3",
                "withdrawn_credit": "2",
                "fixed_point_max_passes": 0,
            }
        )
    )
    assert set(problems) == {
        "preset", "valuation", "value_ratio", "points_external_win", "withdrawn_credit",
        "fixed_point_max_passes",
    }  # fmt: skip
    # De Pijp's 7/6 is allowed: the shares go up to 2.
    assert keizer_settings.SPEC.validate({"points_external_win": "7/6"}) == []


def test_the_engine_settings_of_a_season_without_settings_are_the_engines_defaults():
    assert standings.engine_settings({}) == engine.Settings()
    assert not standings.has_variants(standings.engine_settings({}))
    assert standings.has_variants(standings.engine_settings({"preset": "kfc"}))


def test_a_season_without_variants_stores_its_lists_as_before(client):
    plain = import_competition(small_file())
    html = client.get(season_url(plain)).content.decode()
    assert "The rules in the help, with their default numbers." in html
    assert all("passes" not in r for r in standings_document(season=plain)["rounds"])
    assert all("variant" not in data for data in stored_lists(plain))
    assert all(set(data["factors"]) == set(standings.FACTOR_NAMES) for data in stored_lists(plain))


# --- the lists and their explanations -----------------------------------------------------------


def test_a_file_with_a_preset_computes_the_variant_and_every_score_explains_itself(client):
    season = imported({"preset": "kfc"})
    season_in, _rounds = standings.load_season(season)
    assert season_in.settings.own_value_once and season_in.settings.start_points == "none"
    out = engine.compute_season(season_in)
    last = stored_lists(season)[-1]
    assert [line[0] for line in last["ranking"]] == [row.player for row in out.lists[-1].rows]
    assert last["variant"]["own_weight"] == "1"
    html = client.get(season_url(season)).content.decode()
    assert "own value, counted once" in html
    # the season's own rules, each explained
    assert "This season's rules" in html and "KeizerForClubs (program defaults)" in html
    assert 'data-option="own_value_once"' in html
    assert "as if they had beaten themselves once" in html
    assert 'data-option="points_win"' not in html
    # the list after round 2 is valued with the list after round 1 (previous valuation)
    assert "the list after round 1, the list round 2 was paired from" in html


def test_classic_explains_the_fixed_point_and_each_breakdown_sums_to_its_score(client):
    season = imported({"preset": "classic"}, generated_file(players=8, rounds=4, seed=3))
    lists = stored_lists(season)
    assert all(data["variant"]["end"] in ("fixed-point", "cycle") for data in lists)
    html = client.get(season_url(season)).content.decode()
    doc = standings_document(season=season)
    assert [(r["passes"], r["end"]) for r in doc["rounds"]] == [
        (data["variant"]["passes"], data["variant"]["end"]) for data in lists
    ]
    if lists[-1]["variant"]["end"] == "fixed-point":
        assert "every result is a share of a value in this list itself" in html
        assert f"after {lists[-1]['variant']['passes']} computations" in html
    from rankings.people import People
    from rankings.systems.keizer import selectors

    listed = StandingsTable.objects.get(season=season, kind="list", position=len(lists) - 1)
    evenings = selectors.evenings_of(season, [line[0] for line in listed.data["ranking"]])
    rows = selectors.explained_rows(listed, None, evenings, People(season, set()))
    season_in, _rounds = standings.load_season(season)
    out = engine.compute_season(season_in).lists[-1]
    exact = {row.player: row.score for row in out.rows}
    for row in rows:
        valued = standings.variant_of(listed.data)
        lines = standings.breakdown(
            row["player"], row["after"], standings.breakdown_rounds(evenings), {},
            engine.Factors(), valued,
        )  # fmt: skip
        assert sum((x.points for x in lines), Fraction(0)) == exact[row["player"]]
        assert lines[0].outcome.kind == engine.OWN


def test_caps_and_halving_are_named_in_the_breakdown(client):
    data = small_file()
    data["rounds"][2] = {
        **data["rounds"][2],
        "present": [],
        "absent": ["p1", "p3", "p4", "p5", "p6"],
        "volunteer": None,
    }
    data["rounds"][1]["absent"] = ["p5"]
    season = imported({"absent_max": 1, "absence_halving": True}, data)
    html = client.get(season_url(season)).content.decode()
    assert "over the limit: scores nothing" in html  # p5's second absence
    assert "halved to" in html


def test_normalised_values_are_shown_with_decimals(client):
    season = imported({"preset": "kfc", "normalised_values": True})
    doc_values = [line["value"] for line in standings.ranking_of(stored_lists(season)[-1])]
    assert doc_values == [3, 2.6, 2.2, 1.8, 1.4, 1]
    html = client.get(season_url(season)).content.decode()
    assert "normalised scale" in html


# --- the settings page --------------------------------------------------------------------------


@pytest.fixture
def leader(django_user_model):
    season = import_competition(small_file())
    user = django_user_model.objects.create_user("leader", password="pw-leader-1")
    season.series.managers.add(user)
    client = Client()
    client.force_login(user)
    return season, client


def settings_url(season: Season) -> str:
    return f"/manage/{season.series.slug}/{season.slug}/settings/"


def form_data(season: Season, **changes) -> dict:
    initial = KeizerSettingsForm.initial_for(season.settings)
    data = {}
    for name, value in initial.items():
        if isinstance(value, bool):
            if value:
                data[name] = "on"
        else:
            data[name] = value
    for name, value in changes.items():
        if value is False:
            data.pop(name, None)
        else:
            data[name] = value
    return data


def test_the_settings_page_shows_the_presets_values_and_marks_what_the_club_changed(leader):
    season, client = leader
    season.settings = {"preset": "kfc", "points_loss": "1/20"}
    season.save()
    html = client.get(settings_url(season)).content.decode()
    assert 'data-setting="points_loss"' in html
    loss = html[html.index('data-setting="points_loss"') :]
    loss = loss[: loss.index("data-setting=", 30)]
    assert "data-changed" in loss and "data-preset-value>0<" in loss
    bye = html[html.index('data-setting="points_bye"') :]
    bye = bye[: bye.index("data-setting=", 30)]
    assert "data-changed" not in bye and "data-preset-value>1/2<" in bye
    assert "scores this share of the opponent" in html  # each option explained


def test_switching_presets_keeps_what_the_club_changed_and_follows_the_rest(leader):
    season, client = leader
    season.settings = {"preset": "kfc", "points_loss": "1/20"}
    season.save()
    response = client.post(settings_url(season), form_data(season, preset="classic"))
    assert response.status_code == 302, response.content.decode()[-3000:]
    season.refresh_from_db()
    assert season.settings == {"preset": "classic", "points_loss": "1/20"}
    # back to the seed club, with one factor changed: stores only that
    response = client.post(
        settings_url(season), form_data(season, preset="seed-club", points_bye="0.5")
    )
    assert response.status_code == 302
    season.refresh_from_db()
    assert season.settings == {"points_loss": "1/20", "points_bye": "0.5"}


def test_a_season_without_settings_saves_without_settings(leader):
    season, client = leader
    response = client.post(settings_url(season), form_data(season))
    assert response.status_code == 302
    season.refresh_from_db()
    assert season.settings == {}


# --- part 6: the preset's pairing rules feed the pairer -----------------------------------------


def test_a_presets_pairing_rules_feed_the_pairer():
    season = imported({"preset": "kfc"})
    rules = rules_of(season)
    assert (rules.rematch_gap, rules.max_meetings, rules.colour_run) == (4, 100, 100)
    assert (rules.bye_gap, rules.colour_balance) == (7, 2)
    season.settings = {"preset": "bornse-dv", "max_meetings": 3}
    assert (rules_of(season).rematch_gap, rules_of(season).max_meetings) == (8, 3)
    season.settings = {}
    assert (rules_of(season).rematch_gap, rules_of(season).max_meetings) == (7, 4)
