"""A chess group's start numbers, by rating or as the organiser set them (issue 46 item 2,
rules.md §3 Decision, competitions/systems/chess/start_numbers.py): an explicit choice the
pages show, which round 1 pairs by and keeps, which the competition file carries."""

import pytest
from django.test import Client

from competitions.models import Group
from competitions.registry import get_system
from competitions.systems.chess import services
from competitions.systems.chess.interchange import write
from competitions.views import manage_url
from rankings.imports import import_competition
from rankings.urls_helpers import season_url
from tests.chess_files import chess_file

pytestmark = pytest.mark.django_db

# Typed in this order: the lowest rating first.
TYPED = [("o", "Ola", 900), ("k", "Kari", 1100), ("p", "Per", 1300), ("s", "Siri", 1500)]


def seeded_file(**group) -> dict:
    """The chess file with one more tournament, Skien BGP, whose group S has the four players
    of TYPED in typing order and no rounds."""
    data = chess_file()
    data["players"] += [{"id": key, "name": name} for key, name, _r in TYPED]
    data["tournaments"].append(
        {
            "id": "skien",
            "name": "Skien BGP",
            "date": "2026-02-07",
            "county_championship": False,
            "draw_seed": 5,
            "groups": [
                {
                    "name": "Gruppe S",
                    "scale": "1-half-0",
                    "players": [
                        {"player": key, "class": "Kadett", "born": 2012, "rating": rating}
                        for key, _n, rating in TYPED
                    ],
                    "rounds": [],
                    **group,
                }
            ],
        }
    )
    return data


@pytest.fixture
def capture(django_capture_on_commit_callbacks):
    return django_capture_on_commit_callbacks


@pytest.fixture
def season(capture):
    with capture(execute=True):
        return import_competition(seeded_file())


@pytest.fixture
def secretary(django_user_model, season):
    user = django_user_model.objects.create_user("secretary", password="pw-secretary-1")
    season.series.managers.add(user)
    client = Client()
    client.force_login(user)
    return client


def group_s() -> Group:
    return Group.objects.select_related("tournament").get(name="Gruppe S")


def stored_order(group: Group) -> list[str]:
    return list(group.members.order_by("position").values_list("player__key", flat=True))


def pairs_of(season, group) -> list[set[str]]:
    proposal = get_system(season.system).pairing.pair_next_round(season, group=group)
    return [{p["white"], p["black"]} for p in proposal["pairs"]]


def post(client, url, data, capture):
    with capture(execute=True):
        return client.post(url, data)


def shown_ids(group: Group) -> str:
    return ",".join(
        str(pk) for pk in group.members.order_by("position").values_list("pk", flat=True)
    )


def test_by_rating_is_the_default_and_the_page_shows_the_numbers_round_1_will_give(
    secretary, season
):
    group = group_s()
    assert group.options == {}
    page = secretary.get(manage_url(season, "group", "skien", group.pk)).content.decode()
    assert 'id="start-numbers-shown">Start numbers: by rating' in page
    # Listed by rating with the numbers round 1 will give, not in typing order.
    assert page.index("Siri") < page.index("Per") < page.index("Kari") < page.index("Ola")
    assert pairs_of(season, group) == [{"s", "p"}, {"k", "o"}]
    public = secretary.get(season_url(season, "group", "skien", group.pk)).content.decode()
    assert 'id="start-numbers-shown">Start numbers: by rating' in public


def test_the_organisers_order_is_paired_by_kept_by_round_1_and_shown(secretary, season, capture):
    """A seeded list typed in its order: chosen "as set by the organiser", round 1 pairs 1-2
    and 3-4 of that order (not by rating) and saving it keeps the numbers."""
    group = group_s()
    url = manage_url(season, "start_numbers", "skien", group.pk)
    saved = post(secretary, url, {"start_numbers": "organiser", "shown": shown_ids(group)}, capture)
    assert saved.status_code == 302
    group.refresh_from_db()
    assert group.options == {"start_numbers": "organiser"}
    page = secretary.get(manage_url(season, "group", "skien", group.pk)).content.decode()
    assert 'id="start-numbers-shown">Start numbers: as set by the organiser' in page
    assert page.index("Ola") < page.index("Kari") < page.index("Per") < page.index("Siri")
    assert 'aria-label="Start number of Ola"' in page  # a number box per player

    assert pairs_of(season, group) == [{"o", "k"}, {"p", "s"}]
    pair_url = manage_url(season, "pair", "skien", group.pk)
    pair_page = secretary.get(pair_url).content.decode()
    assert "Start numbers: as set by the organiser" in pair_page
    post(secretary, pair_url, {"save": "1"}, capture)
    assert group.rounds.count() == 1
    assert stored_order(group) == ["o", "k", "p", "s"]
    public = secretary.get(season_url(season, "group", "skien", group.pk)).content.decode()
    assert 'id="start-numbers-shown">Start numbers: as set by the organiser' in public

    # Fixed once round 1 is stored: the page shows the choice without the form, and a post
    # is refused.
    page = secretary.get(manage_url(season, "group", "skien", group.pk)).content.decode()
    assert 'id="start-numbers-form"' not in page
    refused = secretary.post(url, {"start_numbers": "", "shown": shown_ids(group)}, follow=True)
    assert "Start numbers are fixed once the group has a round." in refused.content.decode()
    group.refresh_from_db()
    assert group.options == {"start_numbers": "organiser"}


def test_typed_numbers_order_the_players_and_a_changed_one_goes_first(secretary, season, capture):
    group = group_s()
    url = manage_url(season, "start_numbers", "skien", group.pk)
    members = {m.player.key: m for m in group.members.select_related("player")}
    # Siri (4) typed as 1, Ola (1) left as 1: Siri first, everyone else moves down one.
    data = {"start_numbers": "organiser", "shown": shown_ids(group)}
    data.update({f"n-{m.pk}": str(n) for n, m in enumerate(members.values(), start=1)})
    data[f"n-{members['s'].pk}"] = "1"
    post(secretary, url, data, capture)
    assert stored_order(group) == ["s", "o", "k", "p"]
    assert pairs_of(season, group) == [{"s", "o"}, {"k", "p"}]

    # Per (4) typed as 2 and Kari (3) as 9: Siri, Per, Ola, Kari.
    data = {"start_numbers": "organiser", "shown": shown_ids(group)}
    data[f"n-{members['p'].pk}"] = "2"
    data[f"n-{members['k'].pk}"] = "9"
    post(secretary, url, data, capture)
    assert stored_order(group) == ["s", "p", "o", "k"]

    # A number that is no number: refused, nothing changed.
    bad = secretary.post(url, {**data, f"n-{members['o'].pk}": "0"}, follow=True)
    assert "Start numbers are whole numbers from 1 to" in bad.content.decode()
    assert stored_order(group) == ["s", "p", "o", "k"]


def test_a_list_changed_meanwhile_is_refused_whole(secretary, season, capture):
    group = group_s()
    url = manage_url(season, "start_numbers", "skien", group.pk)
    services.start_numbers_set(group=group, choice="organiser")
    shown = shown_ids(group)
    ola = group.members.get(player__key="o")
    services.member_remove(member=group.members.get(player__key="k"))  # someone else, meanwhile
    response = secretary.post(
        url, {"start_numbers": "organiser", "shown": shown, f"n-{ola.pk}": "4"}, follow=True
    )
    assert "Somebody else changed this meanwhile; nothing was saved." in response.content.decode()
    assert stored_order(group) == ["o", "p", "s"]  # closed up after the removal, not moved


def test_back_to_by_rating_keeps_the_organisers_order_for_later(season):
    group = group_s()
    services.start_numbers_set(group=group, choice="organiser")
    services.start_numbers_set(group=group, choice="")
    assert group.options == {}
    assert [m.player.key for m in services.start_order(group)] == ["s", "p", "k", "o"]
    assert stored_order(group) == ["o", "k", "p", "s"]  # kept underneath
    services.start_numbers_set(group=group, choice="organiser")
    assert [m.player.key for m in services.start_order(group)] == ["o", "k", "p", "s"]


@pytest.mark.parametrize(
    ("options", "expected"),
    [({}, ["s", "p", "k", "o"]), ({"start_numbers": "organiser"}, ["o", "k", "p", "s"])],
)
def test_round_1_entered_by_hand_fixes_the_chosen_start_numbers(season, options, expected):
    group = group_s()
    group.options = options
    group.save()
    services.round_create(group=group)
    assert stored_order(group) == expected


def test_the_competition_file_carries_the_organisers_order(capture):
    with capture(execute=True):
        season = import_competition(seeded_file(start_numbers="organiser"))
    group = group_s()
    assert group.options == {"start_numbers": "organiser"}
    assert pairs_of(season, group) == [{"o", "k"}, {"p", "s"}]
    exported = write(season)["tournaments"][2]["groups"][0]
    assert exported["start_numbers"] == "organiser"
    assert [p["player"] for p in exported["players"]] == ["o", "k", "p", "s"]


def test_a_file_without_start_numbers_reads_as_before(season):
    """By rating, and written back without the field (files stay as they were)."""
    group = group_s()
    assert group.options == {}
    exported = write(season)["tournaments"][2]["groups"][0]
    assert "start_numbers" not in exported
    explicit = import_competition(seeded_file(start_numbers="rating"), replace=True)
    assert group_s().options == {}
    assert "start_numbers" not in write(explicit)["tournaments"][2]["groups"][0]


def test_a_file_with_another_start_numbers_value_is_refused_at_its_path():
    from competitions.interchange import FileError

    with pytest.raises(FileError) as refused:
        import_competition(seeded_file(start_numbers="seeded"))
    assert refused.value.path == "tournaments[2].groups[0].start_numbers"
    assert "expected one of rating, organiser" in str(refused.value)


def test_a_group_filled_from_a_trf_file_keeps_its_start_ranks(season):
    """The file's start ranks are the organiser's: Cecilie, made the highest rated, stays
    number 3, as in the file (a played group of Klyve written as TRF)."""
    from rankings.systems.chess.trf import group_trf

    klyve = Group.objects.get(name="Gruppe A")
    klyve.members.filter(player__key="c").update(rating=2000)
    text = group_trf(season, klyve)
    group = services.group_create(
        tournament=group_s().tournament, name="Gruppe T", scale="1-half-0"
    )
    services.group_import_trf(group=group, text=text)
    group.refresh_from_db()
    assert group.options.get("start_numbers") == "organiser"
    assert stored_order(group) == ["a", "b", "c", "d", "e"]
