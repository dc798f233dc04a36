import json
import sys

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from competitions.management.commands.export_competition import find_season
from competitions.registry import get_system
from rankings.exports import csv_archive, csv_tables, names_of
from rankings.selectors import standings_document


class Command(BaseCommand):
    help = "Write every stored standings table of a season (interchange.md) to stdout."

    def add_arguments(self, parser):
        parser.add_argument("series")
        parser.add_argument("season")
        parser.add_argument("--format", choices=["json", "csv"], default="json")
        parser.add_argument(
            "--names",
            action="store_true",
            help="CSV: add the players' names beside their ids, and lists of players and "
            "tournaments (as the web download does)",
        )

    def handle(self, *args, **options):
        season = find_season(options["series"], options["season"])
        if not get_system(season.system).available:
            raise CommandError(
                _("standings of %(system)s seasons are not available yet")
                % {"system": season.system}
            )
        if season.stale:
            # Reads never recompute: say so, and how to bring them up to date.
            self.stderr.write(
                _(
                    "warning: results changed since these standings were computed; "
                    "run `manage.py recompute %(series)s %(season)s` first for current ones"
                )
                % {"series": season.series.slug, "season": season.label}
            )
        document = standings_document(season=season)
        if options["format"] == "json":
            self.stdout.write(json.dumps(document, ensure_ascii=False, indent=2))
            return
        tables = csv_tables(season.system, document, names_of(season) if options["names"] else None)
        if len(tables) == 1:
            self.stdout.write(next(iter(tables.values())), ending="")
        else:
            sys.stdout.buffer.write(csv_archive(tables))
