"""The circuit's per-line explanations look their phrases and number writer up once per
language, and look them up again when a setting changes (as Django's own translation and format
caches do)."""

from django.test import override_settings
from django.utils import translation

from rankings.systems.boardgame import explain


def points(language: str) -> str:
    with translation.override(language):
        return explain.tournament_points(1234.56, 7, 1241.56)


def test_explanations_follow_the_language_and_the_settings():
    dutch = points("nl")
    assert "Dagtotaal 1234,56 + bonus 7 = 1241,56" in dutch
    assert "Daily total 1234.56 + bonus 7 = 1241.56" in points("en")
    with override_settings(LOCALE_PATHS=[]):  # the project's catalogs gone: its own msgids
        untranslated = points("nl")
    assert "Daily total" in untranslated and "Dagtotaal" not in untranslated
    assert points("nl") == dutch  # the catalogs back
