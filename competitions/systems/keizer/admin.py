"""Admin of the Keizer competition: an evening's games and what each player did (shared models),
and the start points set by hand on a season entry's page. Its results are the shared games and
round entries, which have their own admin pages too."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from competitions.admin import RoundEntryInline
from competitions.models import Game, RoundEntry

from .models import StartPoints, Withdrawal


class GameInline(admin.TabularInline):
    """An evening's games by board: the result can be corrected here; the players are on the
    game's own page."""

    model = Game
    fields = ["board", "result", "manual"]
    extra = 0
    show_change_link = True


class StartPointsInline(admin.TabularInline):
    model = StartPoints
    fields = ["start_points"]
    extra = 0


class WithdrawalInline(admin.TabularInline):
    """keizer-variants.md §2.8: a row means the player has withdrawn."""

    model = Withdrawal
    fields: list[str] = []
    extra = 0


# The shared models the Keizer section of the admin index lists (filtered to Keizer).
SHARED_MODELS = {Game: None, RoundEntry: _("Attendance")}
# Their columns that a club evening leaves empty (it is a round of the season itself).
SHARED_COLUMNS_LEFT_OUT = {
    Game: ["round__tournament", "round__group"],
    RoundEntry: ["round__tournament", "round__group"],
}
ROUND_INLINES = [GameInline, RoundEntryInline]
ENTRY_INLINES = [StartPointsInline, WithdrawalInline]
