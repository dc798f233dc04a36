"""Pages are sent compressed to a browser that asks for it (GZipMiddleware): a Keizer club's
season page carries every line's explanation and is several hundred kB of HTML."""

import gzip

import pytest

from rankings.imports import import_competition
from rankings.urls_helpers import season_url
from tests.helpers import without_csrf
from tests.keizer_data import generated_file

pytestmark = pytest.mark.django_db


def test_a_standings_page_is_compressed_for_a_browser_that_asks(client):
    season = import_competition(generated_file(40, 20, series="club"))
    url = season_url(season)
    plain = client.get(url)
    packed = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert plain.status_code == packed.status_code == 200
    assert not plain.has_header("Content-Encoding")
    assert packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed["Vary"]
    unpacked = gzip.decompress(packed.content)
    assert without_csrf(unpacked) == without_csrf(plain.content)
    assert len(plain.content) > 100_000  # every line with its explanation
    assert len(packed.content) * 5 < len(plain.content)


def test_a_download_is_the_same_file_once_unpacked(client):
    season = import_competition(generated_file(12, 3, series="small"))
    url = season_url(season) + "?_export=csv"
    plain = client.get(url)
    packed = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert packed["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.content) == plain.content
    assert plain["Content-Type"] == packed["Content-Type"]
