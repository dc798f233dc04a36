"""The Django admin: staff correct anything here, and every correction is kept in a history.

Every model has `history = HistoricalRecords()` and every admin below derives from
`SimpleHistoryAdmin`, so a change through a form, an inline or an action is recorded with the
request's user (HistoryRequestMiddleware). Saving a result row fires the recompute signal, so the
stored standings follow a correction without anything else to do here.

Rows created by bulk writes (the importer's `bulk_create`) have no history record yet; before the
first correction of such a row, `HistoryAdmin` records its stored state, so the history always
shows what a correction changed, not only what it changed to.
"""

from django import forms
from django.contrib import admin, messages
from django.db import transaction
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from simple_history.admin import SimpleHistoryAdmin
from simple_history.utils import get_history_manager_for_model

from rankings.registry import SYSTEMS

from .models import (
    Attendance,
    Challenge,
    ChallengeScore,
    Club,
    Game,
    Group,
    GroupPlayer,
    HistoricTotal,
    Placement,
    Player,
    Pool,
    PoolMember,
    Round,
    Season,
    SeasonPlayer,
    Seat,
    Series,
    System,
    Table,
    Tournament,
)
from .services import tournament_redraw

# Stored in the history rows (data, not a label), so not translated.
BASELINE_REASON = "Stored state before the first recorded change (row created without history)"
REDRAW_REASON = "Re-drew the prize ceremony lot"


def _is_historical(model) -> bool:
    return hasattr(model._meta, "simple_history_manager_attribute")


def ensure_history_baseline(obj) -> None:
    """Record the stored state of a row that has no history yet, before it is changed."""
    model = type(obj)
    if obj.pk is None or not _is_historical(model):
        return
    history = get_history_manager_for_model(model)
    if history.filter(**{model._meta.pk.attname: obj.pk}).exists():
        return
    stored = model._default_manager.filter(pk=obj.pk).first()
    if stored is None:
        return
    stored._history_user = None  # nobody known: the row was written without history
    history.bulk_history_create([stored], default_change_reason=BASELINE_REASON)


class HistoryAdmin(SimpleHistoryAdmin):
    """SimpleHistoryAdmin that records a baseline before the first change of a row."""

    def save_model(self, request, obj, form, change):
        if change:
            ensure_history_baseline(obj)
        super().save_model(request, obj, form, change)

    def save_formset(self, request, form, formset, change):
        for inline_form in formset.initial_forms:
            if inline_form.instance.pk is not None and inline_form.has_changed():
                ensure_history_baseline(inline_form.instance)
        super().save_formset(request, form, formset, change)


# --- forms for rows whose round is copied from their parent --------------------------------------


class _RoundCopiedFromParentForm(forms.ModelForm):
    """Seat and PoolMember copy `round` from their table or pool, a field the form does not show,
    so the database constraint "a player once per round" is checked here instead of failing as
    an IntegrityError on save."""

    parent_field: str

    def clean(self):
        cleaned = super().clean()
        parent = cleaned.get(self.parent_field)
        player = cleaned.get("player")
        if parent is None or player is None or parent.round_id is None:
            return cleaned
        others = type(self.instance)._default_manager.filter(
            round_id=parent.round_id, player=player
        )
        if self.instance.pk is not None:
            others = others.exclude(pk=self.instance.pk)
        if parent.pk is not None:
            # Duplicates within the same parent are the formset's own unique check.
            others = others.exclude(**{self.parent_field: parent})
        if others.exists():
            raise forms.ValidationError(
                _("%(player)s already plays elsewhere in this round.") % {"player": player}
            )
        return cleaned


class SeatForm(_RoundCopiedFromParentForm):
    parent_field = "table"

    class Meta:
        model = Seat
        fields = ["table", "player", "rank"]


class PoolMemberForm(_RoundCopiedFromParentForm):
    parent_field = "pool"

    class Meta:
        model = PoolMember
        fields = ["pool", "player", "position", "reason"]


class RoundForm(forms.ModelForm):
    class Meta:
        model = Round
        fields = ["season", "tournament", "group", "number", "date"]

    def clean(self):
        cleaned = super().clean()
        season, tournament, group = (cleaned.get(k) for k in ("season", "tournament", "group"))
        if season is not None and tournament is not None and tournament.season_id != season.pk:
            self.add_error("tournament", _("This tournament belongs to another season."))
        if group is not None and group.tournament_id != getattr(tournament, "pk", None):
            self.add_error("group", _("This group belongs to another tournament."))
        return cleaned


class SeasonForm(forms.ModelForm):
    class Meta:
        model = Season
        fields = ["series", "label", "name", "closed", "settings", "previous_participants"]

    def clean(self):
        cleaned = super().clean()
        series = cleaned.get("series")
        spec = SYSTEMS.get(series.system) if series is not None else None
        if spec is not None and "settings" in cleaned:
            # The recompute reads the settings without checking them again.
            problems = spec.interchange_module().validate_settings(cleaned["settings"])
            if problems:
                self.add_error(
                    "settings",
                    [f"{path}: {message}" if path else message for path, message in problems],
                )
        return cleaned


class TournamentRoundFormSet(forms.BaseInlineFormSet):
    """Rounds added under a tournament take the tournament's season."""

    def save_new(self, form, commit=True):
        form.instance.season_id = self.instance.season_id
        return super().save_new(form, commit=commit)


# --- inlines ------------------------------------------------------------------------------------


class SeasonPlayerInline(admin.TabularInline):
    model = SeasonPlayer
    fields = ["position", "player", "club", "start_points", "start_elo"]
    autocomplete_fields = ["player", "club"]
    extra = 0


class HistoricTotalInline(admin.TabularInline):
    model = HistoricTotal
    fields = ["label", "player", "points"]
    autocomplete_fields = ["player"]
    extra = 0


class RoundInline(admin.TabularInline):
    """The rounds of a tournament itself (the rounds of its chess groups are under Rounds)."""

    model = Round
    formset = TournamentRoundFormSet
    fields = ["number", "date"]
    extra = 0
    show_change_link = True

    def get_queryset(self, request):
        return super().get_queryset(request).filter(group__isnull=True)


class GroupInline(admin.TabularInline):
    model = Group
    fields = ["position", "name", "scale"]
    extra = 0
    show_change_link = True


class PlacementInline(admin.TabularInline):
    model = Placement
    fields = ["place", "player", "country", "nordic", "ffo", "provisional", "uncertainty"]
    autocomplete_fields = ["player"]
    extra = 0


class GroupPlayerInline(admin.TabularInline):
    model = GroupPlayer
    fields = ["position", "player", "player_class", "born"]
    autocomplete_fields = ["player"]
    extra = 0


class TableInline(admin.TabularInline):
    model = Table
    fields = ["number", "game"]
    extra = 0
    show_change_link = True


class SeatInline(admin.TabularInline):
    model = Seat
    form = SeatForm
    fields = ["player", "rank"]
    autocomplete_fields = ["player"]
    extra = 0
    min_num = 2  # rules.md §1: a table has at least 2 players
    validate_min = True


class GameInline(admin.TabularInline):
    model = Game
    fields = ["white", "black", "result", "manual"]
    autocomplete_fields = ["white", "black"]
    extra = 0


class AttendanceInline(admin.TabularInline):
    model = Attendance
    fields = ["player", "status", "volunteer_bye"]
    autocomplete_fields = ["player"]
    extra = 0


class PoolInline(admin.TabularInline):
    model = Pool
    fields = ["number"]
    extra = 0
    show_change_link = True


class PoolMemberInline(admin.TabularInline):
    model = PoolMember
    form = PoolMemberForm
    fields = ["position", "player", "reason"]
    autocomplete_fields = ["player"]
    extra = 0


class ChallengeInline(admin.TabularInline):
    model = Challenge
    fields = ["number"]
    extra = 0
    show_change_link = True


class ChallengeScoreInline(admin.TabularInline):
    model = ChallengeScore
    fields = ["player", "imps"]
    autocomplete_fields = ["player"]
    extra = 0


# --- people and seasons -------------------------------------------------------------------------


@admin.register(Series)
class SeriesAdmin(HistoryAdmin):
    list_display = ["name", "slug", "system"]
    list_filter = ["system"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["managers"]


@admin.register(Club)
class ClubAdmin(HistoryAdmin):
    list_display = ["name", "key", "series"]
    list_filter = ["series"]
    search_fields = ["name", "key"]
    list_select_related = ["series"]


@admin.register(Player)
class PlayerAdmin(HistoryAdmin):
    list_display = ["name", "key", "club", "country", "born", "series"]
    list_filter = ["series", "country"]
    search_fields = ["name", "key"]
    autocomplete_fields = ["club"]
    list_select_related = ["series", "club"]


@admin.register(Season)
class SeasonAdmin(HistoryAdmin):
    form = SeasonForm
    list_display = [
        "__str__",
        "series",
        "label",
        "closed",
        "recomputing",
        "data_version",
        "standings_version",
        "standings_computed_at",
    ]
    list_filter = ["series", "closed"]
    search_fields = ["name", "label", "series__name", "series__slug"]
    list_select_related = ["series"]
    readonly_fields = ["data_version", "standings_version", "standings_computed_at"]
    fieldsets = [
        (None, {"fields": ["series", "label", "name", "closed"]}),
        (_("Rules"), {"fields": ["settings", "previous_participants"]}),
        (
            _("Standings"),
            {"fields": ["data_version", "standings_version", "standings_computed_at"]},
        ),
    ]
    inlines = [SeasonPlayerInline, HistoricTotalInline]

    @admin.display(boolean=True, description=_("recomputing"))
    def recomputing(self, obj: Season) -> bool:
        return obj.recomputing

    def save_model(self, request, obj, form, change):
        if change:
            # The recompute bookkeeping is written by the signals and the task while this form
            # is open; saving the whole row would put back the versions read when it loaded.
            ensure_history_baseline(obj)
            obj._history_user = request.user
            bookkeeping = {"data_version", "standings_version", "standings_computed_at"}
            obj.save(
                update_fields=[
                    f.name
                    for f in obj._meta.concrete_fields
                    if not f.primary_key and f.name not in bookkeeping
                ]
            )
        else:
            super().save_model(request, obj, form, change)


@admin.register(SeasonPlayer)
class SeasonPlayerAdmin(HistoryAdmin):
    list_display = ["player", "season", "position", "club", "start_points", "start_elo"]
    list_filter = ["season"]
    search_fields = ["player__name", "player__key"]
    autocomplete_fields = ["season", "player", "club"]
    list_select_related = ["player", "season__series", "club"]


@admin.register(HistoricTotal)
class HistoricTotalAdmin(HistoryAdmin):
    list_display = ["player", "label", "points", "season"]
    list_filter = ["season", "label"]
    search_fields = ["player__name", "player__key"]
    autocomplete_fields = ["season", "player"]
    list_select_related = ["player", "season__series"]


# --- tournaments and rounds ---------------------------------------------------------------------


@admin.register(Tournament)
class TournamentAdmin(HistoryAdmin):
    list_display = ["name", "key", "date", "season", "final", "county_championship", "draw_seed"]
    list_filter = ["season", "final", "county_championship"]
    search_fields = ["name", "key", "season__name", "season__label"]
    date_hierarchy = "date"
    autocomplete_fields = ["season"]
    list_select_related = ["season__series"]
    inlines = [RoundInline, GroupInline, PlacementInline]
    actions = ["redraw_lot"]

    @admin.action(description=_("Re-draw the prize ceremony lot"), permissions=["change"])
    def redraw_lot(self, request, queryset):
        ids = list(queryset.values_list("pk", flat=True))
        # One transaction: each season's recompute is sent once, after the last new seed.
        with transaction.atomic():
            tournaments = Tournament.objects.select_for_update().filter(pk__in=ids)
            for tournament in tournaments:
                ensure_history_baseline(tournament)
                tournament._history_user = request.user
                tournament._change_reason = REDRAW_REASON
                tournament_redraw(tournament=tournament)
                self.log_change(request, tournament, [{"changed": {"fields": ["draw_seed"]}}])
        self.message_user(
            request,
            ngettext(
                "Re-drew the lot of %(count)d tournament.",
                "Re-drew the lot of %(count)d tournaments.",
                len(ids),
            )
            % {"count": len(ids)},
            messages.SUCCESS,
        )


@admin.register(Group)
class GroupAdmin(HistoryAdmin):
    list_display = ["name", "tournament", "position", "scale"]
    list_filter = ["tournament__season", "scale"]
    search_fields = ["name", "tournament__name"]
    autocomplete_fields = ["tournament"]
    list_select_related = ["tournament"]
    inlines = [GroupPlayerInline]


@admin.register(GroupPlayer)
class GroupPlayerAdmin(HistoryAdmin):
    list_display = ["player", "group", "group__tournament", "position", "player_class", "born"]
    list_filter = ["group__tournament__season"]
    search_fields = ["player__name", "player__key", "group__name"]
    autocomplete_fields = ["group", "player"]
    list_select_related = ["player", "group__tournament"]


# The results a round holds, by the system of its season.
ROUND_INLINES: dict[str, list[type[admin.TabularInline]]] = {
    System.BOARDGAME: [TableInline],
    System.OTHELLO: [],
    System.CHESS: [GameInline],
    System.KEIZER: [GameInline, AttendanceInline],
    System.BRIDGE: [PoolInline, ChallengeInline, AttendanceInline],
}


@admin.register(Round)
class RoundAdmin(HistoryAdmin):
    form = RoundForm
    list_display = ["__str__", "tournament", "group", "date", "season"]
    list_filter = ["season", "season__series__system"]
    search_fields = ["tournament__name", "group__name", "season__name"]
    autocomplete_fields = ["season", "tournament", "group"]
    list_select_related = ["season__series", "tournament", "group"]

    def get_inlines(self, request, obj):
        if obj is None:
            return []
        return ROUND_INLINES.get(obj.season.series.system, [])

    def get_queryset(self, request):
        # The change page picks its inlines by the season's system. (A queryset that already
        # selects related rows makes the changelist skip list_select_related, hence all here.)
        return super().get_queryset(request).select_related(*self.list_select_related)


@admin.register(Table)
class TableAdmin(HistoryAdmin):
    list_display = ["__str__", "round__tournament", "game", "round__season"]
    list_filter = ["round__season", "round__tournament__final"]
    search_fields = ["game", "round__tournament__name"]
    autocomplete_fields = ["round"]
    list_select_related = ["round__tournament", "round__season__series"]
    inlines = [SeatInline]

    def get_queryset(self, request):
        # __str__ shows the round, in autocomplete answers too. (A queryset that already
        # selects related rows makes the changelist skip list_select_related, hence all here.)
        return super().get_queryset(request).select_related(*self.list_select_related)


@admin.register(Seat)
class SeatAdmin(HistoryAdmin):
    form = SeatForm
    list_display = ["player", "rank", "table", "round__tournament", "round__season"]
    list_filter = ["round__season", "round__tournament__final"]
    search_fields = ["player__name", "player__key", "table__game", "round__tournament__name"]
    autocomplete_fields = ["table", "player"]
    list_select_related = ["player", "table__round", "round__tournament", "round__season__series"]


@admin.register(Placement)
class PlacementAdmin(HistoryAdmin):
    list_display = ["place", "player", "tournament", "country", "nordic", "ffo", "provisional"]
    list_filter = ["tournament__season", "provisional", "country"]
    search_fields = ["player__name", "player__key", "tournament__name"]
    autocomplete_fields = ["tournament", "player"]
    list_select_related = ["player", "tournament"]


@admin.register(Game)
class GameAdmin(HistoryAdmin):
    list_display = ["white", "black", "result", "manual", "round", "round__season"]
    list_filter = ["round__season", "result", "manual"]
    search_fields = ["white__name", "white__key", "black__name", "black__key"]
    autocomplete_fields = ["round", "white", "black"]
    list_select_related = ["white", "black", "round__season__series"]


@admin.register(Attendance)
class AttendanceAdmin(HistoryAdmin):
    list_display = ["player", "status", "volunteer_bye", "round", "round__season"]
    list_filter = ["round__season", "status", "volunteer_bye"]
    search_fields = ["player__name", "player__key"]
    autocomplete_fields = ["round", "player"]
    list_select_related = ["player", "round__season__series"]


@admin.register(Pool)
class PoolAdmin(HistoryAdmin):
    list_display = ["__str__", "round", "round__season"]
    list_filter = ["round__season"]
    search_fields = ["round__season__name"]
    autocomplete_fields = ["round"]
    list_select_related = ["round__season__series"]
    inlines = [PoolMemberInline]


@admin.register(PoolMember)
class PoolMemberAdmin(HistoryAdmin):
    form = PoolMemberForm
    list_display = ["player", "pool", "position", "reason", "round", "round__season"]
    list_filter = ["round__season"]
    search_fields = ["player__name", "player__key", "reason"]
    autocomplete_fields = ["pool", "player"]
    list_select_related = ["player", "pool", "round__season__series"]


@admin.register(Challenge)
class ChallengeAdmin(HistoryAdmin):
    list_display = ["__str__", "round", "round__season"]
    list_filter = ["round__season"]
    search_fields = ["round__season__name"]
    autocomplete_fields = ["round"]
    list_select_related = ["round__season__series"]
    inlines = [ChallengeScoreInline]


@admin.register(ChallengeScore)
class ChallengeScoreAdmin(HistoryAdmin):
    list_display = ["player", "imps", "challenge", "challenge__round", "challenge__round__season"]
    list_filter = ["challenge__round__season"]
    search_fields = ["player__name", "player__key"]
    autocomplete_fields = ["challenge", "player"]
    list_select_related = ["player", "challenge__round__season__series"]
