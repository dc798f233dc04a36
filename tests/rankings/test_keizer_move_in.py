"""Moving in from KeizerForClubs on the manager's pages (issue 47 item 5, keizer-variants.md §5):
upload, dry-run preview, confirm. Only the series' managers; nothing stored before the confirm;
the confirm imports what was previewed and nothing else, recomputes and checks."""

import io
import re
from html import unescape

import pytest
from django.core import signing
from django.core.management import call_command
from django.test import Client

from competitions.interchange import FileError
from competitions.models import Round, RoundEntry, Season, Series
from competitions.systems.keizer.kfc import read_kfc
from competitions.views import manage_url
from rankings.selectors import standings_document
from rankings.systems.keizer import move_in
from tests.helpers import count_writes
from tests.kfc_builder import CONFIG, SAMPLE_PAIRINGS, SAMPLE_PLAYERS, build, sample

pytestmark = pytest.mark.django_db

URL = "/manage/kfc-club/2023/move-in/keizerforclubs/"


@pytest.fixture
def club(django_user_model):
    """A Keizer series with an empty season 2023, and its manager."""
    series = Series.objects.create(slug="kfc-club", name="KFC Club", system="keizer")
    season = Season.objects.create(series=series, label="2023", name="KFC Club 2023")
    user = django_user_model.objects.create_user("leader", password="pw-leader-1")
    series.managers.add(user)
    return season, user


@pytest.fixture
def leader(club):
    client = Client()
    client.force_login(club[1])
    return client


def upload(path, name="Test-Tournament.s3db"):
    handle = io.BytesIO(path.read_bytes())
    handle.name = name
    return handle


def preview(client, path, label="2024", **fields):
    data = {"action": "preview", "file": upload(path), "label": label, **fields}
    return client.post(URL, data)


def hidden(response) -> dict[str, str]:
    html = response.content.decode()
    return {
        name: unescape(re.search(rf'name="{name}" value="([^"]*)"', html).group(1))
        for name in ("ticket", "data")
    }


def confirm(client, fields: dict[str, str], **extra):
    return client.post(URL, {"action": "confirm", **fields, **extra})


def text(response) -> str:
    return re.sub(r"\s+", " ", unescape(response.content.decode()))


def scores_of(season: Season) -> dict[str, tuple[int, float]]:
    names = {e.player.key: e.player.name for e in season.entries.select_related("player")}
    return {
        names[row["player"]]: (row["rank"], row["score"])
        for row in standings_document(season=season)["standings"]
    }


def expected_scores() -> dict[str, tuple[int, float]]:
    return {name: (rank, pytest.approx(s)) for name, _r, st, s, rank in SAMPLE_PLAYERS if st != 9}


# --- who -----------------------------------------------------------------------------------------


def test_only_the_series_managers_reach_the_page(club, django_user_model, tmp_path):
    path = tmp_path / "t.s3db"
    sample(path)
    anonymous = Client()
    response = anonymous.get(URL)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    stranger = django_user_model.objects.create_user("stranger", password="pw-stranger-1")
    Series.objects.create(slug="other", name="Other", system="keizer").managers.add(stranger)
    other = Client()
    other.force_login(stranger)
    assert other.get(URL).status_code == 403
    assert preview(other, path).status_code == 403
    assert Season.objects.count() == 1


def test_only_a_keizer_season_has_the_page(season, manager_client):
    """Another system's season (the circuit of tests/conftest.py) has no such page."""
    url = manage_url(season) + "move-in/keizerforclubs/"
    assert manager_client.get(url).status_code == 404


def test_csrf_is_checked(club, tmp_path):
    path = tmp_path / "t.s3db"
    sample(path)
    client = Client(enforce_csrf_checks=True)
    client.force_login(club[1])
    assert preview(client, path).status_code == 403
    page = client.get(URL)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode())
    response = preview(client, path, csrfmiddlewaretoken=token.group(1))
    assert response.status_code == 200
    assert Season.objects.count() == 1


def test_the_season_manager_page_links_to_it(club, leader):
    season, _user = club
    page = leader.get(manage_url(season)).content.decode()
    assert f'href="{URL}"' in page
    form = leader.get(URL)
    assert form.status_code == 200
    # An empty season: its label is proposed; "replace" is never ticked beforehand.
    assert 'name="label" value="2023"' in form.content.decode()
    assert 'name="replace" checked' not in form.content.decode()


# --- preview and confirm -------------------------------------------------------------------------


def test_the_preview_shows_what_would_be_stored_and_stores_nothing(club, leader, tmp_path):
    path = tmp_path / "t.s3db"
    sample(path, text_config={"NiceName": "Schaakclub Test"})
    response = preview(leader, path)
    assert response.status_code == 200
    page, html = text(response), response.content.decode()
    assert "Preview: nothing is stored yet" in page
    assert "Storing creates season 2024." in page
    assert "the score and place of all 8 players equal" in page
    assert "Schaakclub Test" in page and "Test-Tournament.s3db" in page
    # The players in the initial list's order (by rating), the withdrawn one marked.
    names = [p[0] for p in SAMPLE_PLAYERS]
    assert [page.index(n) for n in names] == sorted(page.index(n) for n in names)
    assert re.search(r"Verdandi</bdi>[^<]*</td>\s*<td colspan=\"4\"[^>]*>Withdrawn<", html)
    # The settings taken from the file: the kfc preset, then the file's shares.
    assert "KeizerForClubs" in page and "7/20" in page and "3/4" in page
    # Five evenings, the third with Isenbrink's bye.
    rounds = re.findall(r'<th scope="row">(\d+)</th>', response.content.decode())
    assert rounds == ["1", "2", "3", "4", "5"]
    assert Season.objects.count() == 1
    assert not Round.objects.exists() and not RoundEntry.objects.exists()


@pytest.mark.django_db(transaction=True)  # the write contract counts commits
def test_the_confirm_stores_recomputes_and_checks_in_one_transaction(club, tmp_path):
    season, user = club
    client = Client()
    client.force_login(user)
    path = tmp_path / "t.s3db"
    sample(path)
    fields = hidden(preview(client, path))
    with count_writes() as writes:
        response = confirm(client, fields)
    stored = Season.objects.get(series=season.series, label="2024")
    assert response.status_code == 302 and response["Location"] == manage_url(stored)
    # One import (one transaction, one results_changed), then the recompute: run by the queue
    # at commit here (eager), so the importer's own call of it (rankings.imports), its second
    # transaction, finds the standings current.
    assert writes.signals == [(frozenset({stored.pk}), None)]
    assert writes.recomputes == 1 and writes.transactions == 2
    assert stored.standings_version == stored.data_version and stored.stale_since is None
    assert scores_of(stored) == expected_scores()
    assert stored.settings["preset"] == "kfc" and stored.settings["points_absent"] == "7/20"
    landing = text(client.get(response["Location"]))
    assert "was moved in from KeizerForClubs (players: 9, evenings: 5)" in landing
    assert "the score and place of all 8 players equal" in landing


def test_a_stale_file_is_previewed_and_stored_with_its_differences(club, leader, tmp_path):
    stale = [("Amurru", 1891, 1, 30.0, 2) if p[0] == "Amurru" else p for p in SAMPLE_PLAYERS]
    path = tmp_path / "stale.s3db"
    sample(path, players=stale)
    response = preview(leader, path)
    page = text(response)
    assert response.status_code == 200
    assert "1 of 8 players differ" in page
    assert "score 37.5, place 1; the file has 30.0, place 2" in page
    assert "may be stale" in page
    assert response.content.decode().count("data-differs") == 1
    done = confirm(leader, hidden(response))
    assert done.status_code == 302
    assert "1 of 8 players differ" in text(leader.get(done["Location"]))
    assert Season.objects.filter(label="2024").exists()


def test_replacing_needs_the_explicit_choice(club, leader, tmp_path):
    season, _user = club
    path = tmp_path / "t.s3db"
    sample(path)
    confirm(leader, hidden(preview(leader, path)))
    stored = Season.objects.get(label="2024")
    # The same label again without "replace": refused on the form, nothing changes.
    refused = preview(leader, path)
    assert refused.status_code == 400
    assert "Season 2024 exists already. Tick “Replace”" in text(refused)
    # With it: the preview says it replaces; the confirm replaces the stored season (its row
    # kept), here by a file whose last evening has a draw instead of a forfeit.
    pairings = [
        (5, 3, "Isenbrink", "Ajax", 2) if row[:2] == (5, 3) else row for row in SAMPLE_PAIRINGS
    ]
    changed = tmp_path / "changed.s3db"
    build(changed, SAMPLE_PLAYERS, pairings)
    response = preview(leader, changed, replace="on")
    assert response.status_code == 200
    assert "Storing replaces season 2024 with the file." in text(response)
    assert "What changes in the stored season" in text(response)
    assert Season.objects.get(label="2024").data_version == stored.data_version  # nothing yet
    done = confirm(leader, hidden(response))
    assert done.status_code == 302
    replaced = Season.objects.get(label="2024")
    assert replaced.pk == stored.pk
    assert "was replaced by the KeizerForClubs file" in text(leader.get(done["Location"]))
    ranks = scores_of(replaced)
    assert ranks["Isenbrink"][1] != expected_scores()["Isenbrink"][1]
    # The page's own season, empty (created for the move), is filled without the tick.
    response = preview(leader, path, label="2023")
    assert response.status_code == 200
    assert "Storing fills the empty season 2023." in text(response)
    confirm(leader, hidden(response))
    assert scores_of(Season.objects.get(pk=season.pk)) == expected_scores()


def test_an_empty_season_that_got_players_since_the_preview_is_not_overwritten(
    club, leader, tmp_path
):
    season, _user = club
    path = tmp_path / "t.s3db"
    sample(path)
    fields = hidden(preview(leader, path, label="2023"))
    # Meanwhile someone starts the season by hand: the preview's "fill" is not a "replace".
    Round.objects.create(season=season, number=1)
    response = confirm(leader, fields)
    assert response.status_code == 400
    assert "Season 2023 has players or evenings since the preview" in text(response)
    assert not season.entries.exists() and season.rounds.count() == 1


# --- what is refused -----------------------------------------------------------------------------


def _sqlite_without_kfc_tables(path):
    import sqlite3

    db = sqlite3.connect(path)
    db.execute("CREATE TABLE Player (id INTEGER)")
    db.commit()
    db.close()


@pytest.mark.parametrize(
    "make,message",
    [
        (lambda p: p.write_bytes(b'{"format": "competition/1"}'), "it is not an SQLite database"),
        (_sqlite_without_kfc_tables, "it has no table Pairing"),
        (
            lambda p: sample(p, config={k: v for k, v in CONFIG.items() if k != "BONUS.Retired"}),
            "the setting BONUS.Retired is missing",
        ),
        (
            lambda p: p.write_bytes(b"SQLite format 3\x00" + b"\x00" * 200),
            "KeizerForClubs file",
        ),
        (
            lambda p: build(p, SAMPLE_PLAYERS, [*SAMPLE_PAIRINGS, (5, 4, "Achill", "Hermes", 10)]),
            "Pairing round 5 board 4: a forfeit for both players",
        ),
    ],
    ids=["json", "other-sqlite", "missing-key", "broken-sqlite", "double-forfeit"],
)
def test_a_bad_file_is_a_form_error_naming_the_fault(club, leader, tmp_path, make, message):
    path = tmp_path / "bad.s3db"
    make(path)
    response = preview(leader, path)
    assert response.status_code == 400
    assert message in text(response)
    assert 'name="ticket"' not in response.content.decode()
    assert Season.objects.count() == 1 and not RoundEntry.objects.exists()


def test_a_file_over_the_limit_is_refused_before_it_is_read(club, leader, tmp_path, settings):
    settings.IMPORT_MAX_MB = 1
    path = tmp_path / "big.s3db"
    path.write_bytes(b"SQLite format 3\x00" + b"\x00" * 1_000_000)
    response = preview(leader, path)
    assert response.status_code == 400
    assert "The file is larger than 1 MB" in text(response)
    assert Season.objects.count() == 1


def test_a_file_too_large_for_the_confirm_page_names_the_command(club, leader, tmp_path, settings):
    path = tmp_path / "t.s3db"
    sample(path)
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = move_in.FORM_ROOM + 10  # the sample packs to more
    response = preview(leader, path)
    assert response.status_code == 400
    assert "too large to be confirmed on this page" in text(response)
    assert "import_competition" in text(response)


# --- a changed confirm ---------------------------------------------------------------------------


def changed_ticket(ticket: str, **choices) -> str:
    """The ticket with other choices, signed without the site's key and salt."""
    payload = signing.loads(ticket, salt=move_in.SALT)
    payload["choices"].update(choices)
    return signing.dumps(payload, key="not-the-site-key", salt=move_in.SALT)


def test_a_changed_confirm_imports_nothing(club, leader, tmp_path, django_user_model):
    season, _user = club
    path, other = tmp_path / "t.s3db", tmp_path / "other.s3db"
    sample(path)
    build(other, SAMPLE_PLAYERS[:4], [(1, 1, "Amurru", "Helena", 1)])
    fields = hidden(preview(leader, path))
    other_fields = hidden(preview(leader, other, label="2030"))
    attempts = [
        # another file under the previewed ticket
        {**fields, "data": other_fields["data"]},
        # the ticket changed: another label or "replace", or signed otherwise
        {**fields, "ticket": changed_ticket(fields["ticket"], label="2023", replace=True)},
        {**fields, "ticket": fields["ticket"][:-2] + "xx"},
        {**fields, "data": "not base64!"},
        {"ticket": "", "data": ""},
    ]
    for attempt in attempts:
        response = confirm(leader, attempt)
        assert response.status_code == 400
        assert "Nothing was stored: upload the file again." in text(response)
    # Fields of the form posted along are ignored: the choices are the ticket's.
    response = confirm(leader, fields, label="2023", replace="on")
    assert response.status_code == 302
    assert Season.objects.get(pk=season.pk).rounds.count() == 0
    assert Season.objects.filter(label="2024").exists()
    assert not Season.objects.filter(label="2030").exists()
    # Another manager of the series cannot confirm this manager's preview.
    colleague = django_user_model.objects.create_user("colleague", password="pw-colleague-1")
    season.series.managers.add(colleague)
    client = Client()
    client.force_login(colleague)
    fields = hidden(preview(leader, path, label="2025"))
    response = confirm(client, fields)
    assert response.status_code == 400 and "another manager" in text(response)
    assert not Season.objects.filter(label="2025").exists()


def test_an_old_preview_cannot_be_confirmed(club, leader, tmp_path, monkeypatch):
    path = tmp_path / "t.s3db"
    sample(path)
    fields = hidden(preview(leader, path))
    monkeypatch.setattr(move_in, "MAX_AGE", -1)
    response = confirm(leader, fields)
    assert response.status_code == 400 and "more than an hour old" in text(response)
    assert not Season.objects.filter(label="2024").exists()


def test_a_season_created_meanwhile_is_not_overwritten(club, leader, tmp_path):
    path = tmp_path / "t.s3db"
    sample(path)
    fields = hidden(preview(leader, path))
    confirm(leader, hidden(preview(leader, path)))
    stored = Season.objects.get(label="2024")
    response = confirm(leader, fields)
    assert response.status_code == 400
    assert "Season 2024 exists already: stored meanwhile" in text(response)
    assert Season.objects.get(label="2024").data_version == stored.data_version


# --- the next round (§5.4 item 3) ----------------------------------------------------------------


def _with_states(states: dict[str, int]) -> list[tuple]:
    return [(n, r, states.get(n, st), s, rank) for n, r, st, s, rank in SAMPLE_PLAYERS]


def test_the_next_round_is_taken_from_the_states_on_request(club, leader, tmp_path):
    path = tmp_path / "t.s3db"
    sample(path, players=_with_states({"Helena": 6, "Hermes": 5, "Ajax": 7, "Inanna": 11}))
    plain = read_kfc(path.read_bytes(), series="s", season="1")
    assert len(plain.document["rounds"]) == 5
    kfc = read_kfc(path.read_bytes(), series="s", season="1", next_round=True)
    ids = {p["name"]: p["id"] for p in kfc.document["players"]}
    nxt = kfc.document["rounds"][-1]
    assert nxt["number"] == 6 and nxt["games"] == []
    assert nxt["absent"] == [ids["Helena"]] and nxt["external"] == [ids["Hermes"]]
    assert nxt["unexcused"] == [ids["Ajax"]]
    present = {n for n, _r, st, _s, _k in SAMPLE_PLAYERS if st == 1} - {
        "Helena", "Hermes", "Ajax", "Inanna",
    }  # fmt: skip
    assert set(nxt["present"]) == {ids[n] for n in present}
    assert ids["Verdandi"] not in nxt["present"]  # withdrawn
    # Through the page: the sixth evening waits for its pairing; the check is unchanged.
    response = preview(leader, path, next_round="on")
    assert "the score and place of all 8 players equal" in text(response)
    assert re.findall(r'<th scope="row">(\d+)</th>', response.content.decode())[-1] == "6"
    confirm(leader, hidden(response))
    stored = Season.objects.get(label="2024")
    waiting = RoundEntry.objects.filter(round__season=stored, round__number=6)
    assert waiting.filter(status=RoundEntry.Status.PRESENT).count() == len(present)
    assert scores_of(stored) == expected_scores()


def test_the_command_takes_the_next_round_too(club, tmp_path):
    path = tmp_path / "t.s3db"
    sample(path)
    out = io.StringIO()
    call_command(
        "import_competition", str(path), "--series", "kfc-club", "--season", "2024",
        "--next-round", stdout=out,
    )  # fmt: skip
    assert "all 8 players equal" in out.getvalue()
    stored = Season.objects.get(label="2024")
    assert stored.rounds.count() == 6
    assert RoundEntry.objects.filter(round__season=stored, round__number=6).count() == 8


def test_no_next_round_after_an_unfinished_round_or_without_anyone_available(tmp_path):
    path = tmp_path / "t.s3db"
    build(path, SAMPLE_PLAYERS, [*SAMPLE_PAIRINGS, (6, 1, "Amurru", "Helena", -1)])
    with pytest.raises(FileError, match="every result of round 6 is entered"):
        read_kfc(path.read_bytes(), series="s", season="1", next_round=True)
    nobody = tmp_path / "n.s3db"
    sample(nobody, players=_with_states({p[0]: 6 for p in SAMPLE_PLAYERS if p[2] == 1}))
    kfc = read_kfc(nobody.read_bytes(), series="s", season="1", next_round=True)
    assert len(kfc.document["rounds"]) == 5
    assert any("no next round was added" in note for note in kfc.notes)
