"""The one reader of uploaded and typed text (competitions.uploads): size limit, strict UTF-8 (or
a form's declared legacy encoding), universal newlines, no control character, CSV faults as
messages, each naming the line."""

import csv
import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from competitions.uploads import (
    LINE_MAX_CHARS,
    WINDOWS_1252,
    TextError,
    TypedTextField,
    csv_rows,
    decode,
    lines,
    read_upload,
    readable,
)


@pytest.mark.parametrize("newline", ["\n", "\r", "\r\n"], ids=["lf", "cr-only", "crlf"])
def test_every_line_ending_ends_a_line(newline):
    text = newline.join(["a;1", "b;2", "", "c;3"]) + newline
    assert lines(text) == ["a;1", "b;2", "", "c;3"]
    assert csv_rows(text, delimiter=";") == [
        (1, ["a", "1"]),
        (2, ["b", "2"]),
        (3, []),
        (4, ["c", "3"]),
    ]


def test_a_mix_of_line_endings_counts_each_once():
    assert lines("a\r\nb\rc\nd") == ["a", "b", "c", "d"]
    assert readable("a\r\nb\rc") == "a\nb\nc"


def test_a_quoted_field_over_several_lines_is_one_cell_and_the_next_record_keeps_its_line():
    assert csv_rows('a,"b\r\nc"\r\nd,e\r\n') == [(1, ["a", "b\nc"]), (3, ["d", "e"])]


@pytest.mark.parametrize(
    "text,line,char",
    [
        ("Anna\nBe\x00rt\n", 2, "U+0000"),
        ("Anna\rBert\rC\x1bis", 3, "U+001B"),
        ("x\x0cy", 1, "U+000C"),  # a form feed: str.splitlines breaks there, a reader does not
        ("a\nb\u2028c", 2, "U+2028"),
        ("a\x85b", 1, "U+0085"),
        ("lone \ud800 surrogate", 1, "U+D800"),
    ],
)
def test_a_control_character_is_refused_naming_its_line(text, line, char):
    with pytest.raises(TextError) as caught:
        readable(text)
    assert caught.value.line == line
    assert caught.value.message.startswith(f"Line {line}: the control character {char} ")


def test_a_tab_is_a_separator_not_a_control_character():
    assert csv_rows("a\tb\n", delimiter="\t") == [(1, ["a", "b"])]


def test_a_line_over_the_limit_is_refused_naming_it():
    with pytest.raises(TextError) as caught:
        readable("short\n" + "x" * (LINE_MAX_CHARS + 1) + "\nshort")
    assert caught.value.line == 2
    assert f"a line of {LINE_MAX_CHARS + 1} characters" in caught.value.message


def test_a_field_over_the_csv_modules_limit_is_a_message_naming_its_line():
    text = '"' + ("x" * 9000 + "\n") * 15 + '",1\n'
    with pytest.raises(TextError) as caught:
        csv_rows(text)
    limit = csv.field_size_limit()
    assert caught.value.message == f"Line 15: a field longer than {limit} characters"


def test_utf8_is_read_strictly_naming_the_line_of_the_first_bad_byte():
    assert decode("\ufeffÅström\n".encode()) == "Åström\n"
    with pytest.raises(TextError) as caught:
        decode("one\r\ntwo\rthree\nfour Åström".encode("cp1252"))
    assert caught.value.line == 4
    assert "not UTF-8 text (byte 20)" in caught.value.message


def test_a_declared_legacy_encoding_is_read_strictly_too():
    assert decode("Åström".encode("cp1252"), legacy=WINDOWS_1252) == "Åström"
    # 0x81 is no character of Windows-1252: nothing is replaced, the line is named.
    with pytest.raises(TextError) as caught:
        decode(b"ok\nbad \x81", legacy=WINDOWS_1252)
    assert caught.value.line == 2


def test_utf16_is_refused_with_what_to_do():
    with pytest.raises(TextError) as caught:
        decode("a;b".encode("utf-16"))
    assert "UTF-16" in caught.value.message and "UTF-8" in caught.value.message


class Unsized(io.BytesIO):
    """An upload that does not know its size: the limit is checked on what is read."""

    size = None


def test_an_upload_over_the_limit_is_refused_before_it_is_read_whole():
    big = SimpleUploadedFile("big.csv", b"x" * 2001)
    with pytest.raises(TextError) as caught:
        read_upload(big, limit=2000)
    assert caught.value.message == "The file is larger than 2 KB."
    stream = Unsized(b"y" * 5000)
    with pytest.raises(TextError):
        read_upload(stream, limit=2000)
    assert stream.tell() == 2001
    assert read_upload(SimpleUploadedFile("ok.csv", b"a\rb"), limit=2000) == "a\nb"


def test_a_typed_text_field_names_the_line_of_a_nul_and_reads_every_line_ending():
    field = TypedTextField(required=False)
    assert field.clean("a\r\nb\rc") == "a\nb\nc"
    assert field.clean("") == ""
    with pytest.raises(TextError) as caught:
        field.clean("a\nb\x00")
    assert caught.value.message.startswith("Line 2: the control character U+0000")
    with pytest.raises(Exception, match="at most 200000 characters"):
        field.clean("x" * 200_001)
