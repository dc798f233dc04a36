"""keizer-variants.md §7 item 8: values that reach 0 or less (a fixed top value with more than
top / step + 1 players) are warned about, never refused: on the season's settings page, after
saving there, and in the import report (also of a dry run)."""

import copy
import io
import json

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from competitions.models import Season
from competitions.systems.keizer.forms import KeizerSettingsForm
from competitions.systems.keizer.settings import parse_settings, value_warnings
from competitions.systems.keizer.values import place_values
from competitions.views import manage_url

pytestmark = pytest.mark.django_db


def last_value(players: int, raw: dict) -> int:
    s = parse_settings(raw)
    return place_values(
        players,
        top_value=s.top_value,
        step=s.step,
        ratio=s.value_ratio,
        normalised_values=s.normalised_values,
        rounding=s.top_value_rounding,
    )[-1]


@pytest.mark.parametrize(
    ("top", "step"), [(10, 1), (10, 2), (40, 1), (80, 3), (7, 7)], ids=lambda v: str(v)
)
def test_a_fixed_top_warns_from_the_first_player_whose_place_is_worth_nothing(top, step):
    raw = {"top_value": top, "step": step}
    # The largest list whose last place is still worth something: top − step·(n − 1) > 0.
    fits = (top - 1) // step + 1
    assert last_value(fits, raw) > 0 and last_value(fits + 1, raw) <= 0
    for n in range(2, fits + 1):
        assert value_warnings(n, parse_settings(raw)) == [], n
    for n in (fits + 1, fits + 5):
        (warning,) = value_warnings(n, parse_settings(raw))
        # Names the number of players and the values: the top, the step, the first place worth
        # 0 or less, the last place's value and the top that would do.
        assert f"With {n} players on the list" in warning
        assert f"the top value {top} and a step of {step}" in warning
        assert f"give place {fits + 1} and every place below it" in warning
        assert f"(the last place: {top - step * (n - 1)})" in warning
        assert f"at least {step * (n - 1) + 1}" in warning


def test_an_automatic_top_warns_only_where_rounding_takes_the_last_value_to_0():
    # Ratio 100, two players: T = round_half_even(100/99) = 1, so the last place is worth 0.
    raw = {"value_ratio": "100", "top_value_rounding": "half-even"}
    assert last_value(2, raw) == 0
    (warning,) = value_warnings(2, parse_settings(raw))
    assert "the automatic top value 1" in warning and "lower ratio" in warning
    # The rules' automatic top and the normalised scale keep every value above 0.
    for n in range(2, 300, 7):
        assert value_warnings(n, parse_settings({})) == []
        assert value_warnings(n, parse_settings({"preset": "kfc"})) == []
        assert value_warnings(n, parse_settings({"normalised_values": True})) == []
    assert value_warnings(1, parse_settings({"top_value": 1})) == []  # one player: no list


def club_file(players: int, settings: dict, withdrawn: int = 0) -> dict:
    return copy.deepcopy(
        {
            "format": "competition/1",
            "system": "keizer",
            "series": "de-pijp",
            "season": "2026",
            "settings": settings,
            "players": [
                {
                    "id": f"p{i}",
                    "name": f"Player {i}",
                    **({"withdrawn": True} if i < withdrawn else {}),
                }
                for i in range(players)
            ],
            "rounds": [],
            "closed": False,
        }
    )


def imported_report(tmp_path, data: dict, *args: str) -> str:
    path = tmp_path / "club.json"
    path.write_text(json.dumps(data))
    out = io.StringIO()
    call_command("import_competition", str(path), *args, stdout=out)
    return out.getvalue()


def test_the_import_report_warns_and_imports(tmp_path):
    # De Pijp's fixed top of 40 with 45 players: places 41 to 45 are worth 0 or less.
    data = club_file(45, {"preset": "de-pijp-2005"})
    dry = imported_report(tmp_path, data, "--dry-run")
    assert "Nothing was stored." in dry
    assert "Warning: With 45 players on the list, the top value 40" in dry
    assert not Season.objects.exists()
    out = imported_report(tmp_path, data)
    assert "Imported de-pijp 2026." in out
    assert "Warning: With 45 players on the list" in out and "(the last place: -4)" in out
    assert Season.objects.get(series__slug="de-pijp").settings == {"preset": "de-pijp-2005"}
    # 40 players fit: no warning.
    out = imported_report(tmp_path, club_file(40, {"preset": "de-pijp-2005"}), "--replace")
    assert "Replaced de-pijp 2026." in out and "Warning" not in out


def test_withdrawn_players_count_only_where_they_stay_on_the_list(tmp_path):
    # 42 players, 2 of them withdrawn, top 40 (§2.8: with a credit they are on no list).
    out = imported_report(tmp_path, club_file(42, {"top_value": 40, "withdrawn_credit": "3/4"}, 2))
    assert "Imported" in out and "Warning" not in out
    out = imported_report(tmp_path, club_file(42, {"top_value": 40}, 2), "--replace")
    assert "Warning: With 42 players on the list" in out


def form_data(season: Season, **changes) -> dict:
    data = {}
    for name, value in {**KeizerSettingsForm.initial_for(season.settings), **changes}.items():
        if isinstance(value, bool):
            if value:
                data[name] = "on"
        else:
            data[name] = value
    return data


def test_the_settings_page_warns_and_saves(tmp_path, django_user_model):
    imported_report(tmp_path, club_file(12, {}))
    season = Season.objects.get(series__slug="de-pijp")
    user = django_user_model.objects.create_user("leader", password="pw-leader-1")
    season.series.managers.add(user)
    client = Client()
    client.force_login(user)
    url = reverse("manage:season_settings", args=[season.series.slug, season.slug])
    html = client.get(url).content.decode()
    assert 'id="settings-warnings"' not in html  # the automatic top fits every list
    # A fixed top of 10 for 12 players: saved (not refused), and the warning follows.
    response = client.post(url, form_data(season, top_value=10), follow=True)
    assert response.redirect_chain and response.redirect_chain[-1][0] == manage_url(season)
    season.refresh_from_db()
    assert season.settings == {"top_value": 10}
    html = response.content.decode()
    assert "Settings saved" in html
    assert "With 12 players on the list, the top value 10 and a step of 1" in html
    assert "give place 11 and every place below it" in html
    # The settings page says it as long as the settings stay so.
    html = client.get(url).content.decode()
    assert 'id="settings-warnings"' in html and "With 12 players on the list" in html
    # Set right: the warning is gone.
    client.post(url, form_data(season, top_value=12))
    season.refresh_from_db()
    assert season.settings == {"top_value": 12}
    assert 'id="settings-warnings"' not in client.get(url).content.decode()
