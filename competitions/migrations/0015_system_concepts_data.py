"""Move the facts of single systems that 0016 drops from the shared models to the systems' own
models (0014), each new row with a first history record saying where it came from:

- a season entry's start points (Keizer) to StartPoints, its start Elo (bridge) to StartElo;
- a season's final tournament (board-game circuit) to FinalTournament;
- a season's participants of the previous season (board-game circuit) to PreviousParticipants.
"""

from django.db import migrations
from django.utils import timezone

REASON = "Moved from the shared %s (migration 0015)"


def _with_history(apps, name: str, rows: list, source: str) -> None:
    model = apps.get_model("competitions", name)
    model.objects.bulk_create(rows, batch_size=2000)
    historical = apps.get_model("competitions", f"Historical{name}")
    fields = [f.attname for f in model._meta.concrete_fields]
    now = timezone.now()
    historical.objects.bulk_create(
        [
            historical(
                history_date=now,
                history_type="+",
                history_change_reason=REASON % source,
                **{f: getattr(row, f) for f in fields},
            )
            for row in model.objects.all()
        ],
        batch_size=2000,
    )


def forwards(apps, schema_editor):
    SeasonPlayer = apps.get_model("competitions", "SeasonPlayer")
    Tournament = apps.get_model("competitions", "Tournament")
    Season = apps.get_model("competitions", "Season")
    StartPoints = apps.get_model("competitions", "StartPoints")
    StartElo = apps.get_model("competitions", "StartElo")
    FinalTournament = apps.get_model("competitions", "FinalTournament")
    PreviousParticipants = apps.get_model("competitions", "PreviousParticipants")

    entries = SeasonPlayer.objects.order_by("pk")
    _with_history(
        apps,
        "StartPoints",
        [
            StartPoints(entry_id=pk, start_points=points)
            for pk, points in entries.exclude(start_points=None).values_list("pk", "start_points")
        ],
        "season entry",
    )
    _with_history(
        apps,
        "StartElo",
        [
            StartElo(entry_id=pk, start_elo=elo)
            for pk, elo in entries.exclude(start_elo=None).values_list("pk", "start_elo")
        ],
        "season entry",
    )
    _with_history(
        apps,
        "FinalTournament",
        [
            FinalTournament(season_id=season_id, tournament_id=pk)
            for pk, season_id in Tournament.objects.filter(final=True)
            .order_by("pk")
            .values_list("pk", "season_id")
        ],
        "tournament",
    )
    _with_history(
        apps,
        "PreviousParticipants",
        [
            PreviousParticipants(season_id=pk, previous_participants=counts)
            for pk, counts in Season.objects.order_by("pk").values_list(
                "pk", "previous_participants"
            )
            if counts
        ],
        "season",
    )


def backwards(apps, schema_editor):
    SeasonPlayer = apps.get_model("competitions", "SeasonPlayer")
    Tournament = apps.get_model("competitions", "Tournament")
    Season = apps.get_model("competitions", "Season")
    for row in apps.get_model("competitions", "StartPoints").objects.all():
        SeasonPlayer.objects.filter(pk=row.entry_id).update(start_points=row.start_points)
    for row in apps.get_model("competitions", "StartElo").objects.all():
        SeasonPlayer.objects.filter(pk=row.entry_id).update(start_elo=row.start_elo)
    for row in apps.get_model("competitions", "FinalTournament").objects.all():
        Tournament.objects.filter(pk=row.tournament_id).update(final=True)
    for row in apps.get_model("competitions", "PreviousParticipants").objects.all():
        Season.objects.filter(pk=row.season_id).update(
            previous_participants=row.previous_participants
        )
    for name in ("StartPoints", "StartElo", "FinalTournament", "PreviousParticipants"):
        apps.get_model("competitions", name).objects.all().delete()
        apps.get_model("competitions", f"Historical{name}").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("competitions", "0014_system_concepts_add"),
    ]

    operations = [
        migrations.RunPython(forwards, backwards),
    ]
