"""Admin of the Keizer competition: a round's attendance, byes and games (shared models)."""

from competitions.admin import RoundEntryInline

ROUND_INLINES = [RoundEntryInline]
