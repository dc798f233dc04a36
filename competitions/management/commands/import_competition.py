import json
import sys

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from competitions.interchange import FileError, import_competition


class Command(BaseCommand):
    help = "Import a competition file (interchange.md); '-' reads stdin. Replaces the season."

    def add_arguments(self, parser):
        parser.add_argument("file", help="path of the JSON file, or - for stdin")

    def handle(self, *args, **options):
        name = options["file"]
        try:
            if name == "-":
                raw = sys.stdin.read()
            else:
                with open(name, encoding="utf-8") as handle:
                    raw = handle.read()
        except OSError as exc:
            raise CommandError(
                _("cannot read %(file)s: %(error)s") % {"file": name, "error": exc.strerror}
            ) from exc
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise CommandError(
                _("not valid JSON at line %(line)s, column %(col)s: %(msg)s")
                % {"line": exc.lineno, "col": exc.colno, "msg": exc.msg}
            ) from exc
        try:
            season = import_competition(data)
        except FileError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(
            _("Imported %(series)s %(season)s.")
            % {"series": season.series.slug, "season": season.label}
        )
