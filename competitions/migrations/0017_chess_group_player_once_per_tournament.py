"""A chess player plays in one group of a tournament (issue 45: a player in two groups of the
same tournament had his BGP points counted twice). The group's tournament is copied onto its
players so a unique constraint can refuse a second group; the database keeps the copy equal to
the group's (competitions.systems.chess.models.LINKS, installed after migrate)."""

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import Count, OuterRef, Subquery


def copy_tournament(apps, schema_editor):
    GroupPlayer = apps.get_model("competitions", "GroupPlayer")
    Group = apps.get_model("competitions", "Group")
    GroupPlayer.objects.update(
        tournament_id=Subquery(
            Group.objects.filter(pk=OuterRef("group_id")).values("tournament_id")[:1]
        )
    )
    twice = (
        GroupPlayer.objects.values("tournament_id", "player_id")
        .annotate(n=Count("id"))
        .filter(n__gt=1)
    )
    found = [
        f"player {row['player_id']} in {row['n']} groups of tournament {row['tournament_id']}"
        for row in twice[:20]
    ]
    if found:
        raise RuntimeError(
            "A player plays in several groups of one tournament; keep one group for each "
            "(the admin's group players) and migrate again: " + "; ".join(found)
        )


class Migration(migrations.Migration):

    dependencies = [
        ('competitions', '0016_system_concepts_remove'),
    ]

    operations = [
        migrations.AddField(
            model_name='groupplayer',
            name='tournament',
            field=models.ForeignKey(editable=False, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='group_players', to='competitions.tournament'),
        ),
        migrations.AddField(
            model_name='historicalgroupplayer',
            name='tournament',
            field=models.ForeignKey(blank=True, db_constraint=False, editable=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='competitions.tournament'),
        ),
        migrations.RunPython(copy_tournament, migrations.RunPython.noop),
    ]
