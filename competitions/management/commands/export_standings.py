import json
import sys

from django.core.management.base import BaseCommand

from competitions.management.commands.export_competition import find_season
from rankings.exports import csv_archive, csv_tables
from rankings.selectors import fresh_standings_document


class Command(BaseCommand):
    help = "Write every standings table of a season (interchange.md) to stdout."

    def add_arguments(self, parser):
        parser.add_argument("series")
        parser.add_argument("season")
        parser.add_argument("--format", choices=["json", "csv"], default="json")

    def handle(self, *args, **options):
        season = find_season(options["series"], options["season"])
        document = fresh_standings_document(season=season)
        if options["format"] == "json":
            self.stdout.write(json.dumps(document, ensure_ascii=False, indent=2))
            return
        tables = csv_tables(season.system, document)
        if len(tables) == 1:
            self.stdout.write(next(iter(tables.values())), ending="")
        else:
            sys.stdout.buffer.write(csv_archive(tables))
