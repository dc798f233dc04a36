"""A JSONField that reads stored JSON with orjson: several times faster than json.loads on the
large documents of stored standings (a tournament of 2000 players is about 1 MB of JSON).

orjson reads an integer beyond 64 bits as a float. Only such an integer writes a run of 19 or
more digits (a float's shortest form has at most 17), so a text holding one is read by
json.loads, exactly, as is anything orjson refuses (NaN, say)."""

import json

import orjson
from django.db import models
from django.db.models.constants import LOOKUP_SEP
from django.db.models.fields.json import KeyTransform

# Every byte that is not an ASCII digit becomes a space, every digit a "0": a run of 19 digits
# is then a plain substring search (ten times faster than a regular expression, which cost
# more than orjson's reading itself).
_DIGITS_ONLY = bytes(48 if 48 <= i <= 57 else 32 for i in range(256))
_LONG_RUN = b"0" * 19


def _long_digit_run(text: str) -> bool:
    return _LONG_RUN in text.encode().translate(_DIGITS_ONLY)


def loads(text: str):
    """Stored JSON text read exactly: orjson where that is exact, else json.loads (which
    raises json.JSONDecodeError on what is not JSON)."""
    if not _long_digit_run(text):
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:
            pass
    return json.loads(text)


class JSONField(models.JSONField):
    def from_db_value(self, value, expression, connection):
        if isinstance(value, str) and self.decoder is None:
            try:
                return loads(value)
            except json.JSONDecodeError:
                return value  # as Django's own reading does: the text as it is
        return super().from_db_value(value, expression, connection)


def json_value(path: str) -> KeyTransform:
    """A key of a JSON field as an expression, `json_value("data__exact")`, for values(),
    values_list() and annotate() where a path string "data__exact" would do the same.

    Given the string, Django first tries "exact" as a relation of "data", and keeps the
    FieldError it catches (`Query.setup_joins`); that exception's traceback holds the frames of
    the whole call stack, and with them every object their locals hold, in a reference cycle
    that only the cyclic garbage collector frees. During a recompute, which pauses the collector
    (`competitions.collector.gc_paused`), that was everything the recompute had built: a circuit
    season's update at 2000 players left some 260,000 objects for one collection (about 70 ms).
    The expression resolves "data" alone and raises nothing. The JSON value is decoded as the
    path string's is (text as text: `KT` for the value as text)."""
    field, *keys = path.split(LOOKUP_SEP)
    if not keys:
        raise ValueError(f"{path!r} names no key of a JSON field")
    expression = field
    for key in keys:
        expression = KeyTransform(key, expression)
    return expression
