"""Nothing runs back up at run time from a template: the templates of the data layer
(templates/competitions/) load only tag libraries of their own app or of libraries below it, and
name only URLs whose views are not in an app above (architecture.md, "Three apps, one
direction"). A link to a public page comes with the spec's `pages` ({% public_url %})."""

import re
from pathlib import Path

import pytest
from django.template import engines
from django.urls import URLPattern, URLResolver, get_resolver

ROOT = Path(__file__).resolve().parent.parent
ABOVE = {"competitions": ("rankings", "pairings", "clubsite")}
LOAD = re.compile(r"{%\s*load\s+(.*?)\s*%}")
URL = re.compile(r"{%\s*url\s+(\S+)")
# Tags of a library above that need no {% load %} of it to be spotted (a template that uses one
# without loading it fails anyway, but says so only when rendered).
FOREIGN_TAGS = re.compile(r"{%\s*season_url\b")


def url_views() -> dict[str, str]:
    """Every URL name (with its namespaces) and the module of its view."""
    found: dict[str, str] = {}

    def walk(patterns, prefix: str) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                namespace = f"{prefix}{pattern.namespace}:" if pattern.namespace else prefix
                walk(pattern.url_patterns, namespace)
            elif isinstance(pattern, URLPattern) and pattern.name:
                view = getattr(pattern.callback, "view_class", pattern.callback)
                found.setdefault(prefix + pattern.name, view.__module__)

    walk(get_resolver().url_patterns, "")
    return found


def problems(text: str, app: str, libraries: dict[str, str], views: dict[str, str]) -> list:
    above = ABOVE[app]
    found = []
    for match in LOAD.finditer(text):
        names = match.group(1).split()
        if "from" in names:  # {% load tag from library %}
            names = names[names.index("from") + 1 :]
        for name in names:
            module = libraries.get(name, "")
            if module.split(".")[0] in above:
                found.append(f"loads {name} ({module})")
    for match in URL.finditer(text):
        quoted = match.group(1)
        if quoted[0] not in "'\"" or quoted[-1] != quoted[0]:
            found.append(f"url {quoted}: a URL name must be a quoted string here")
            continue
        name = quoted[1:-1]
        module = views.get(name)
        if module is None:
            found.append(f"url {name}: no such URL")
        elif module.split(".")[0] in above:
            found.append(f"url {name} ({module})")
    found.extend(f"uses {m.group(0)}" for m in FOREIGN_TAGS.finditer(text))
    return found


@pytest.fixture(scope="module")
def libraries() -> dict[str, str]:
    """Every tag library a template can load, and its module."""
    return dict(engines["django"].engine.libraries)


def templates_of(app: str) -> list[Path]:
    return sorted((ROOT / "templates" / app).rglob("*.html"))


@pytest.mark.parametrize(
    "path", templates_of("competitions"), ids=lambda p: str(p.relative_to(ROOT))
)
def test_a_data_layer_template_uses_nothing_of_an_app_above(path, libraries):
    text = path.read_text(encoding="utf-8")
    assert problems(text, "competitions", libraries, url_views()) == []


def test_the_scan_finds_a_library_a_url_and_a_tag_of_an_app_above(libraries):
    text = (
        "{% load i18n rankings manage %}{% load season_url from rankings %}"
        "{% url 'season' s.series.slug s.slug %}{% url 'manage:dashboard' %}"
        "{% url name %}{% season_url season 'tournament' 1 %}{% url 'season_recompute' 'a' 'b' %}"
    )
    assert problems(text, "competitions", libraries, url_views()) == [
        "loads rankings (rankings.templatetags.rankings)",
        "loads rankings (rankings.templatetags.rankings)",
        "url season (rankings.views)",
        "url name: a URL name must be a quoted string here",
        "url season_recompute (rankings.manage)",
        "uses {% season_url",
    ]
