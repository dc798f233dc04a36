"""Manager forms render through Django's widgets and crispy-forms: the ladder's player lists
(a move's two selects, the next round's leavers as checkboxes) show every player with the
labels the pages promise, and a date field shows its date as a browser reads it."""

import datetime

import pytest
from django.test.html import parse_html
from django.utils import translation

from competitions.forms import TournamentForm
from competitions.systems.bridge.models import PoolMember
from competitions.views import manage_url
from tests.competitions.test_bridge_manage import (  # noqa: F401 (fixtures)
    OTHERS,
    client_for,
    commit,
    ladder,
    manager,
    play_round_one,
)

pytestmark = pytest.mark.django_db


def test_a_move_offers_every_player_by_pool_in_both_selects(manager, ladder):  # noqa: F811
    page = client_for(manager, ladder).get(manage_url(ladder, "swap", 1).rsplit("swap/", 1)[0])
    html = page.content.decode()
    a5 = PoolMember.objects.get(round__season=ladder, player__key="a5")
    option = parse_html(f'<option value="{a5.pk}">Pool 1: {a5.player.name}</option>')
    document = parse_html(html)
    assert document.count(option) == 2  # "Player" and "changes places with"
    assert 'name="first"' in html and 'name="second"' in html
    assert 'class="select form-select"' in html


def test_the_next_round_lists_every_player_as_a_leaver_to_tick(manager, ladder, commit):  # noqa: F811
    commit(play_round_one, ladder)
    client = client_for(manager, ladder)
    url = manage_url(ladder, "next_round")
    html = client.get(url).content.decode()
    members = PoolMember.objects.filter(round__season=ladder).select_related("player")
    assert html.count('name="leaving"') == len(members) == 10
    assert html.count('class="form-check-input"') >= len(members)
    for member in members:
        assert f'value="{member.player.key}"' in html
        assert member.player.name in html
    # A previewed leaver stays ticked, and the list opens to show it.
    preview = client.post(url, {"number": "2", "leaving": [OTHERS[1]], "preview": "1"})
    shown = preview.content.decode()
    box = parse_html(
        f'<input type="checkbox" name="leaving" value="{OTHERS[1]}" class="form-check-input"'
        ' id="id_leaving_1" checked>'
    )
    assert parse_html(shown).count(box) == 1
    assert "<details" in shown and " open>" in shown


@pytest.mark.parametrize("language", ["en", "nl", "sv", "nb"])
def test_a_date_field_shows_its_date_as_the_browser_reads_it_in_every_language(
    ladder,  # noqa: F811
    language,
):
    """Django writes a date in the page language's format ("30-11-2025" in Dutch), which a
    browser's date field refuses: the field showed empty and a saved form lost the date."""
    with translation.override(language):
        form = TournamentForm(season=ladder, initial={"date": datetime.date(2025, 11, 30)})
        html = str(form["date"])
        posted = form.fields["date"].clean("2025-11-30")  # what the browser sends back is read
    assert 'type="date"' in html and 'value="2025-11-30"' in html
    assert posted == datetime.date(2025, 11, 30)
