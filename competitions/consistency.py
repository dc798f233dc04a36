"""Agreement between copied keys, enforced by the database itself.

A round keeps its season although its tournament (and a chess group's tournament) has one too,
and a game's round entries keep the round of their game: copies that make a season's results
load in one query. Django cannot declare a composite foreign key, so they are added here after
every migrate (idempotently):

- PostgreSQL: composite foreign keys `(tournament_id, season_id) -> tournament (id, season_id)`
  and the like, with ON UPDATE CASCADE (moving a tournament to another season moves its rounds),
  checked at commit like Django's own foreign keys (a cascading delete may remove parents first);
- SQLite: triggers that refuse a disagreeing row and cascade the same updates. They are
  recreated after every migrate because SQLite drops a table's triggers when Django rebuilds it.
"""

from django.db import connection as default_connection
from django.db.models.signals import post_migrate

# (name, child table, child columns, parent table, parent columns)
LINKS = (
    (
        "round_season_agrees_with_tournament",
        "competitions_round",
        ("tournament_id", "season_id"),
        "competitions_tournament",
        ("id", "season_id"),
    ),
    (
        "round_tournament_agrees_with_group",
        "competitions_round",
        ("group_id", "tournament_id"),
        "competitions_group",
        ("id", "tournament_id"),
    ),
    (
        "round_entry_round_agrees_with_game",
        "competitions_roundentry",
        ("game_id", "round_id"),
        "competitions_game",
        ("id", "round_id"),
    ),
)


def links() -> list[tuple]:
    """LINKS, then the links a system's models module declares (its `LINKS`, the same form)."""
    from importlib import import_module

    from .discovery import import_system_modules

    found = list(LINKS)
    for module in import_system_modules("models"):
        found.extend(getattr(import_module(module), "LINKS", ()))
    return found


def _postgresql(cursor) -> None:
    for name, child, columns, parent, parent_columns in links():
        cursor.execute("SELECT 1 FROM pg_constraint WHERE conname = %s", [name])
        if cursor.fetchone():
            continue
        cursor.execute(
            f"ALTER TABLE {child} ADD CONSTRAINT {name} FOREIGN KEY ({', '.join(columns)}) "
            f"REFERENCES {parent} ({', '.join(parent_columns)}) "
            "ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED"
        )


def _sqlite(cursor) -> None:
    for name, child, (key, copied), parent, (parent_key, parent_copied) in links():
        disagrees = (
            f"NEW.{key} IS NOT NULL AND NEW.{copied} IS NOT "
            f"(SELECT {parent_copied} FROM {parent} WHERE {parent_key} = NEW.{key})"
        )
        for event in ("INSERT", "UPDATE"):
            cursor.execute(
                f"CREATE TRIGGER IF NOT EXISTS {name}_{event.lower()} BEFORE {event} ON {child} "
                f"WHEN {disagrees} BEGIN SELECT RAISE(ABORT, '{name}'); END"
            )
        cursor.execute(
            f"CREATE TRIGGER IF NOT EXISTS {name}_cascade AFTER UPDATE OF {parent_copied} "
            f"ON {parent} BEGIN UPDATE {child} SET {copied} = NEW.{parent_copied} "
            f"WHERE {key} = NEW.{parent_key}; END"
        )


def install(connection=default_connection) -> None:
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            _postgresql(cursor)
        elif connection.vendor == "sqlite":
            _sqlite(cursor)


def _after_migrate(sender, using, **kwargs) -> None:
    from django.db import connections

    if sender.name == "competitions":
        install(connections[using])


def connect() -> None:
    post_migrate.connect(_after_migrate, dispatch_uid="competitions-consistency")
