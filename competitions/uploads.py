"""Text that a manager uploads or types into a form, read by one set of rules for every system
(the rules of the JSON import, README "Bad files get a message, not a traceback"):

- a size limit, checked before the file is read whole;
- UTF-8, strictly (a byte that is not UTF-8 is refused, naming its line, never replaced); a
  form that documents a spreadsheet's or a pairing program's legacy encoding reads a file that
  is not UTF-8 in that encoding, strictly too;
- universal newlines: CR (old Mac, some spreadsheet exports), LF and CRLF all end a line;
- no line longer than LINE_MAX_CHARS (a name, a TRF player line of 100 rounds fit many times);
- no control character in the text (NUL, escape, form feed, ...: no column stores them and no
  page shows them), naming the line; a tab is a separator and stays;
- CSV read through `csv_rows`, whose faults (a field over the csv module's limit) are messages
  naming the line.

Every fault is a `TextError`, a `ValidationError` a form shows as it is: nothing is stored.
"""

import codecs
import csv
import io
import re

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import ProhibitNullCharactersValidator
from django.utils.translation import gettext as _

# Windows' code page for Western Europe: what a spreadsheet's "CSV" and older pairing programs
# write on a Swedish, Dutch or Norwegian Windows.
WINDOWS_1252 = "cp1252"

# The characters no text of a form may hold: C0 and C1 controls but tab and newline (CR is a
# newline, read as LF before this is checked), the Unicode line and paragraph separators
# (invisible line breaks that only some readers break at) and lone surrogates.
FORBIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")

LINE_MAX_CHARS = 10_000

# What a typed text holds at most, unless its field says otherwise (a season's 2000 players of
# 60 characters fit many times).
TYPED_MAX_CHARS = 200_000


class TextError(ValidationError):
    """A file or a typed text that cannot be read: the message says what and on which line."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


def _line_error(line: int, message: str) -> TextError:
    return TextError(_("Line %(line)s: %(message)s") % {"line": line, "message": message}, line)


def size_text(size: int) -> str:
    """A number of bytes as the limits are written: "2 MB", "200 KB", "512 bytes"."""
    if size >= 1_000_000:
        return _("%(n)s MB") % {"n": f"{size / 1_000_000:g}"}
    if size >= 1000:
        return _("%(n)s KB") % {"n": f"{size / 1000:g}"}
    return _("%(n)s bytes") % {"n": size}


def universal_newlines(text: str) -> str:
    """The text with every line ending (CRLF, CR, LF) written as LF."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def readable(text: str) -> str:
    """The text with universal newlines; a `TextError` naming the line of its first control
    character, or the first line longer than LINE_MAX_CHARS."""
    text = universal_newlines(text)
    if len(text) > LINE_MAX_CHARS:
        for number, line in enumerate(text.split("\n"), start=1):
            if len(line) > LINE_MAX_CHARS:
                raise _line_error(
                    number,
                    _("a line of %(n)s characters; a line holds at most %(max)s")
                    % {"n": len(line), "max": LINE_MAX_CHARS},
                )
    found = FORBIDDEN.search(text)
    if found is not None:
        line = text.count("\n", 0, found.start()) + 1
        raise _line_error(
            line,
            _(
                "the control character %(char)s cannot be stored: remove it (a file must be "
                "plain text such as CSV, not a spreadsheet or an image)"
            )
            % {"char": f"U+{ord(found.group()):04X}"},
        )
    return text


def lines(text: str) -> list[str]:
    """The lines of a typed text or a file (universal newlines, no control character), as
    `str.splitlines` gives them but breaking at CR, LF and CRLF only."""
    split = readable(text).split("\n")
    if split and split[-1] == "":
        split.pop()
    return split


def _byte_line(raw: bytes, at: int) -> int:
    """The line of the byte at offset `at`, every line ending counted once."""
    return universal_newlines(raw[:at].decode("latin-1")).count("\n") + 1


def decode(raw: bytes, *, legacy: str | None = None) -> str:
    """The bytes of an uploaded file as text: UTF-8 (with or without a byte order mark), else
    the form's `legacy` encoding; never a character replaced. A `TextError` names the line of
    the first byte that is neither."""
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise _line_error(
            1,
            _(
                "the file is UTF-16 text; save it as UTF-8 (in a spreadsheet: “CSV UTF-8”) "
                "and upload it again"
            ),
        )
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        error = exc
    if legacy is not None:
        try:
            return raw.decode(legacy)
        except UnicodeDecodeError:
            pass  # neither: the message names the first byte that is no UTF-8
    raise _line_error(
        _byte_line(raw, error.start),
        _(
            "the file is not UTF-8 text (byte %(byte)s); save it as UTF-8 (in a spreadsheet: "
            "“CSV UTF-8”; in an editor: “Unicode (UTF-8)”) and upload it again"
        )
        % {"byte": error.start},
    )


def upload_bytes(upload, *, limit: int) -> bytes:
    """An uploaded file's bytes, refused over `limit` bytes (before it is read whole)."""
    too_big = TextError(_("The file is larger than %(limit)s.") % {"limit": size_text(limit)})
    if upload.size is not None and upload.size > limit:
        raise too_big
    upload.seek(0)
    raw = upload.read(limit + 1)
    if len(raw) > limit:
        raise too_big
    return raw


def read_upload(upload, *, limit: int, legacy: str | None = None) -> str:
    """An uploaded file's text by the rules above: refused over `limit` bytes (before it is
    read whole), decoded strictly, universal newlines, no control character."""
    return readable(decode(upload_bytes(upload, limit=limit), legacy=legacy))


def csv_rows(text: str, **options) -> list[tuple[int, list[str]]]:
    """(line, cells) of every record of a CSV text (`options` go to `csv.reader`), the line
    being where the record starts. Universal newlines; control characters and what the csv
    module refuses (a field over its size limit) are `TextError`s naming the line."""
    reader = csv.reader(io.StringIO(readable(text)), **options)
    rows: list[tuple[int, list[str]]] = []
    while True:
        start = reader.line_num + 1
        try:
            cells = next(reader)
        except StopIteration:
            return rows
        except csv.Error as exc:
            line = max(start, reader.line_num)
            if "field limit" in str(exc):
                raise _line_error(
                    line,
                    _("a field longer than %(n)s characters") % {"n": csv.field_size_limit()},
                ) from exc
            raise _line_error(line, _("not readable as CSV (%(error)s)") % {"error": exc}) from exc
        rows.append((start, cells))


class TypedTextField(forms.CharField):
    """A text typed into a form (a textarea of lines): at most `max_length` characters
    (TYPED_MAX_CHARS unless given), universal newlines, and a control character refused
    naming its line (Django's own NUL check names none)."""

    def __init__(self, *, max_length: int | None = TYPED_MAX_CHARS, **kwargs) -> None:
        super().__init__(max_length=max_length, **kwargs)
        self.validators = [
            v for v in self.validators if not isinstance(v, ProhibitNullCharactersValidator)
        ]

    def clean(self, value):
        value = super().clean(value)
        return readable(value) if value else value
