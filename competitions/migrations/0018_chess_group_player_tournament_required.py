"""The second step of 0017 (in its own transaction: PostgreSQL does not alter a table with the
pending foreign key checks of 0017's update): the copied tournament is required, and a player
is in at most one group of a tournament."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('competitions', '0017_chess_group_player_once_per_tournament'),
    ]

    operations = [
        migrations.AlterField(
            model_name='groupplayer',
            name='tournament',
            field=models.ForeignKey(editable=False, on_delete=django.db.models.deletion.CASCADE, related_name='group_players', to='competitions.tournament'),
        ),
        migrations.AddConstraint(
            model_name='groupplayer',
            constraint=models.UniqueConstraint(fields=('tournament', 'player'), name='group_player_once_per_tournament'),
        ),
    ]
