"""django-tables2 asks `inspect.signature` which arguments a column's render method takes, once
per cell (django_tables2.utils.call_with_appropriate). The answer depends on the function only,
so it is worked out once per function here: on a page of 100 lines that is about a fifth of
the table's rendering time saved, with the same cells."""

import django_tables2.utils as tables_utils

_original = tables_utils.signature
_known: dict[tuple[object, bool], tuple[tuple[str, ...], str | None]] = {}


def signature(fn):
    # A bound method is a new object per access; its function and whether it is bound (self
    # dropped) decide the answer. Partials and other callables are not cached.
    function = getattr(fn, "__func__", None)
    if function is None:
        function = fn if hasattr(fn, "__code__") else None
    if function is None:
        return _original(fn)
    key = (function, hasattr(fn, "__self__"))
    found = _known.get(key)
    if found is None:
        found = _known[key] = _original(fn)
    return found


def install() -> None:
    tables_utils.signature = signature
