import json
import sys

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from competitions.interchange import FileError
from rankings.imports import import_file
from rankings.systems import foreign_file


def read_limited(name: str, limit: int) -> bytes:
    """The file's bytes ('-' = stdin), refused when larger than `limit` bytes."""
    try:
        if name == "-":
            raw = sys.stdin.buffer.read(limit + 1)
        else:
            with open(name, "rb") as handle:
                raw = handle.read(limit + 1)
    except OSError as exc:
        raise CommandError(
            _("cannot read %(file)s: %(error)s") % {"file": name, "error": exc.strerror}
        ) from exc
    if len(raw) > limit:
        raise CommandError(
            _("%(file)s is larger than %(mb)s MB, the limit for a competition file (IMPORT_MAX_MB)")
            % {"file": name, "mb": limit // 1_000_000}
        )
    return raw


def parse(raw: bytes):
    """The JSON document, or a CommandError that says what is wrong and where."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CommandError(
            _(
                "the file is not UTF-8 text (byte %(at)s); save it as UTF-8 (in a spreadsheet "
                "or editor: 'Unicode (UTF-8)') and import it again"
            )
            % {"at": exc.start}
        ) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise CommandError(
            _("not valid JSON at line %(line)s, column %(col)s: %(msg)s")
            % {"line": exc.lineno, "col": exc.colno, "msg": exc.msg}
        ) from exc
    except RecursionError:
        raise CommandError(_("the JSON is nested too deeply; not a competition file")) from None
    except ValueError as exc:  # e.g. a number of thousands of digits
        raise CommandError(_("not a usable JSON document: %(error)s") % {"error": exc}) from None


class Command(BaseCommand):
    help = (
        "Import a competition file (interchange.md); '-' reads stdin. An existing season is "
        "replaced only with --replace; --dry-run shows what would change and stores nothing. "
        "A file of another program that a system moves in from is imported too, with --series "
        "and --season, and checked against the numbers it stores."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="path of the JSON file, or - for stdin")
        parser.add_argument(
            "--replace", action="store_true", help="replace the season if it exists already"
        )
        parser.add_argument(
            "--dry-run", action="store_true", help="check and report, store nothing"
        )
        parser.add_argument("--series", help="a file of another program: the series' slug")
        parser.add_argument("--season", help="a file of another program: the season's label")
        parser.add_argument(
            "--next-round",
            action="store_true",
            help="a file of another program: also take the attendance it holds for the round "
            "after its last one (off by default)",
        )

    def handle(self, *args, **options):
        raw = read_limited(options["file"], settings.IMPORT_MAX_MB * 1_000_000)
        reader = foreign_file(raw)
        if reader is not None:
            return self.foreign(reader, raw, options)
        data = parse(raw)
        try:
            result = import_file(data, replace=options["replace"], dry_run=options["dry_run"])
        except FileError as exc:
            raise CommandError(str(exc)) from exc
        self.report(result)

    def foreign(self, reader, raw: bytes, options) -> None:
        """A file of another program a system moves in from (rankings.systems.ForeignFile)."""
        if not options["series"] or not options["season"]:
            raise CommandError(_("this file needs --series SLUG and --season LABEL"))
        try:
            done = reader.run(
                raw,
                series=options["series"],
                season=options["season"],
                replace=options["replace"],
                dry_run=options["dry_run"],
                next_round=options["next_round"],
            )
        except FileError as exc:
            raise CommandError(str(exc)) from exc
        self.report(done.result)
        for line in done.lines:
            self.stdout.write(line)

    def report(self, result) -> None:
        season = result.season
        names = {"series": season.series.slug, "season": season.label}
        if result.dry_run:
            if result.replaced:
                self.stdout.write(_("Dry run: would replace %(series)s %(season)s.") % names)
            else:
                self.stdout.write(_("Dry run: would import %(series)s %(season)s.") % names)
            self.stdout.write(_("Nothing was stored."))
        elif result.replaced:
            self.stdout.write(_("Replaced %(series)s %(season)s.") % names)
        else:
            self.stdout.write(_("Imported %(series)s %(season)s.") % names)
        if result.changes is not None:
            if result.changes.none:
                self.stdout.write(_("No results change."))
            for line in result.changes.summary():
                self.stdout.write(line)
        for warning in result.warnings:
            self.stdout.write(_("Warning: %(warning)s") % {"warning": warning})
