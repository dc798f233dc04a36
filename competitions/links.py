"""Links to many pages of one kind at once (every player of a list of 2000) without a reverse()
per link: the URL is reversed once with a marker, and each link puts its key in its place."""

from collections.abc import Callable
from urllib.parse import quote

from django.urls import reverse
from django.utils.http import RFC3986_SUBDELIMS


def key_urls(name: str, *args) -> Callable[[str], str]:
    """key -> reverse(name, args=[*args, key]), the key quoted as reverse() quotes a path
    argument. A key reverse() treats apart ("/" or empty) is reversed."""
    marker = "__key__"
    head, tail = reverse(name, args=[*args, marker]).rsplit(marker, 1)

    def url(key: str) -> str:
        if "/" in key or not key:
            return reverse(name, args=[*args, key])
        return f"{head}{quote(key, safe=RFC3986_SUBDELIMS + '/~:@')}{tail}"

    return url
