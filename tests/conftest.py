"""Shared fixtures. Tests run against DATABASE_URL (PostgreSQL in CI), SQLite otherwise."""

import os

import pytest
from django.test import Client

from clubsite.celery import app as celery_app

REQUIRE_SERVICES = os.getenv("CLUBSITE_REQUIRE_SERVICES") == "1"


def skip_or_fail(reason: str) -> None:
    """Skip on a machine without the service; fail in CI, where it must be there."""
    if REQUIRE_SERVICES:
        pytest.fail(f"required service missing: {reason}")
    pytest.skip(reason)


@pytest.fixture
def circuit_file():
    """A small but complete board-game competition file (interchange.md)."""
    return {
        "format": "competition/1",
        "system": "boardgame-circuit",
        "series": "belgian-circuit",
        "season": "2025",
        "name": "Belgian board game circuit 2025",
        "clubs": [{"id": "c1", "name": "Spelclub Mechelen"}, {"id": "c2", "name": "Gent Speelt"}],
        "players": [
            {"id": "p1", "name": "An Peeters", "club": "c1"},
            {"id": "p2", "name": "Bert Claes", "club": "c1"},
            {"id": "p3", "name": "Cis Janssens", "club": "c2"},
            {"id": "p4", "name": "Dirk Maes", "club": "c2"},
            {"id": "p5", "name": "Els Wouters", "club": "c2"},
        ],
        "history": [{"season": "2024", "yearly": {"p1": 812.4, "p2": 640}}],
        "previous_participants": [64, 70, 81],
        "tournaments": [
            {
                "id": "t1",
                "name": "Mechelen",
                "date": "2025-02-09",
                "final": False,
                "draw_seed": 12345,
                "rounds": [
                    {
                        "tables": [
                            {
                                "game": "Catan",
                                "results": [
                                    {"player": "p1", "rank": 1},
                                    {"player": "p2", "rank": 2},
                                    {"player": "p3", "rank": 2},
                                    {"player": "p4", "rank": 4},
                                ],
                            }
                        ]
                    },
                    {
                        "tables": [
                            {
                                "game": "Carcassonne",
                                "results": [
                                    {"player": "p5", "rank": 1},
                                    {"player": "p1", "rank": 2},
                                ],
                            }
                        ]
                    },
                ],
            },
            {
                "id": "t2",
                "name": "Gent",
                "date": "2025-03-16",
                "final": False,
                "draw_seed": 777,
                "rounds": [
                    {
                        "tables": [
                            {
                                "game": "Catan",
                                "results": [
                                    {"player": "p3", "rank": 1},
                                    {"player": "p1", "rank": 1},
                                    {"player": "p5", "rank": 3},
                                ],
                            },
                            {
                                "game": "Carcassonne",
                                "results": [
                                    {"player": "p2", "rank": 1},
                                    {"player": "p4", "rank": 2},
                                ],
                            },
                        ]
                    },
                ],
            },
            {
                "id": "final",
                "name": "Final",
                "date": "2025-11-30",
                "final": True,
                "draw_seed": 1,
                "rounds": [
                    {
                        "tables": [
                            {
                                "game": "Catan",
                                "results": [
                                    {"player": "p1", "rank": 2},
                                    {"player": "p3", "rank": 1},
                                ],
                            }
                        ]
                    },
                ],
            },
        ],
    }


@pytest.fixture(autouse=True)
def eager_celery(request):
    """The default without CELERY_BROKER_URL, forced so a developer's broker cannot leak in
    (the tests with a real worker configure their own)."""
    if "worker" in request.fixturenames:
        yield
        return
    saved = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = saved


@pytest.fixture(autouse=True)
def default_language():
    """Each test starts in the site's default language: a request through LocaleMiddleware
    leaves the language it chose active in the thread, and a command run by a later test
    would print in it (load_demo's output in Norwegian after a page in Norwegian)."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def empty_page_cache():
    """Each test starts with no cached page: a rolled-back test's rows may come back with the
    same ids and versions in the next (SQLite reuses ids), and its pages must not."""
    from django.core.cache import caches

    caches["pages"].clear()
    yield


@pytest.fixture
def season(circuit_file, django_capture_on_commit_callbacks):
    """The circuit file imported, its after-commit work run as a real commit would."""
    from rankings.imports import import_competition

    with django_capture_on_commit_callbacks(execute=True):
        return import_competition(circuit_file)


@pytest.fixture
def manager(django_user_model, season):
    """A competition manager of the circuit's series (not staff)."""
    user = django_user_model.objects.create_user("secretary", password="pw-secretary-1")
    season.series.managers.add(user)
    return user


@pytest.fixture
def manager_client(manager):
    client = Client()
    client.force_login(manager)
    return client
