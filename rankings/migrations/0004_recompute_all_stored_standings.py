"""The stored standings of every system changed format (compact rows, exact integer scales,
paginated pages read them per table): every season with stored standings is marked for a full
recompute. `manage.py recompute --stale` (run by `make run` and the web service after `migrate`)
or the next reconcile brings them up to date; until then the pages show the stored standings
with their "recomputing" state."""

from django.db import migrations
from django.db.models import F, Value
from django.db.models.functions import Coalesce
from django.utils import timezone


def mark_all(apps, schema_editor):
    Season = apps.get_model("competitions", "Season")
    StaleScope = apps.get_model("rankings", "StaleScope")
    seasons = list(Season.objects.filter(standings_version__gt=0).values_list("pk", flat=True))
    if not seasons:
        return
    Season.objects.filter(pk__in=seasons).update(
        data_version=F("data_version") + 1,
        stale_since=Coalesce(F("stale_since"), Value(timezone.now())),
    )
    StaleScope.objects.bulk_create(StaleScope(season_id=pk, scope="*") for pk in seasons)


class Migration(migrations.Migration):
    dependencies = [
        ("rankings", "0003_stale_scopes"),
    ]

    operations = [migrations.RunPython(mark_all, migrations.RunPython.noop)]
