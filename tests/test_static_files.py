"""The static files as collectstatic under production settings reads them: the manifest storage
refuses to build when a file names a source map that is not there (Chart.js did, and the image
could not be built), so every sourceMappingURL must name a file beside it. The vendored files are
the upstream packages' own (their VERSION files say which, with checksums). `.ci/run` builds the
static files under production settings and requests every system's pages
(scripts/production_check.py)."""

import hashlib
import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders

STATIC = Path(__file__).resolve().parent.parent / "static"
SOURCE_MAP = re.compile(r"[#@] sourceMappingURL=(\S+?)(?:\s*\*/)?\s*$", re.MULTILINE)


def test_every_source_map_a_static_file_names_is_there():
    named = {}
    for path in STATIC.rglob("*"):
        if path.suffix in (".js", ".css"):
            for target in SOURCE_MAP.findall(path.read_text(encoding="utf-8")):
                named[str(path.relative_to(STATIC))] = (path.parent / target).is_file()
    assert "vendor/chartjs/chart.umd.min.js" in named
    assert {name for name, present in named.items() if not present} == set()


def test_the_vendored_files_are_the_ones_their_version_files_name():
    checked = 0
    for version in STATIC.glob("vendor/*/VERSION"):
        sums = re.findall(r"^([0-9a-f]{64})  (\S+)$", version.read_text(), re.MULTILINE)
        assert sums, f"{version} lists no checksums"
        for digest, name in sums:
            data = (version.parent / name).read_bytes()
            assert hashlib.sha256(data).hexdigest() == digest, name
            checked += 1
        listed = {name for _digest, name in sums}
        present = {p.name for p in version.parent.iterdir() if p.name not in ("VERSION", "LICENSE")}
        assert present - {"LICENSE.md"} == listed, version
    assert checked >= 6


@pytest.mark.django_db
def test_the_site_has_an_icon(client):
    """Browsers ask for /favicon.ico whatever a page names (it answered 404): it leads to the
    site's icon, which every page names."""
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"] == "/static/favicon.svg"
    icon = finders.find("favicon.svg")
    assert icon and "<svg" in Path(icon).read_text(encoding="utf-8")
    assert 'rel="icon" href="/static/favicon.svg"' in client.get("/help/").content.decode()
