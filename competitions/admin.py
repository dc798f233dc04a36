"""The Django admin: staff correct anything here, and every correction is kept in a history.

Every model has `history = HistoricalRecords()` and every admin here and in the systems' own
admin modules (`competitions/systems/<name>/admin.py`, found through the registry) derives from
`SimpleHistoryAdmin`, so a change through a form, an inline or an action is recorded with the
request's user (HistoryRequestMiddleware). Saving a result row fires the recompute signal, so the
stored standings follow a correction without anything else to do here.

Rows created by bulk writes (the importer's `bulk_create`) have no history record yet; before the
first correction of such a row, `HistoryAdmin` records its stored state, so the history always
shows what a correction changed, not only what it changed to.
"""

import json

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path
from django.utils.html import format_html, format_html_join
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from simple_history.admin import SimpleHistoryAdmin
from simple_history.utils import get_history_manager_for_model

from . import merging
from .admin_lists import related_column, scope_filters
from .admin_site import columns_left_out, shared_listings
from .discovery import import_system_modules
from .models import (
    Club,
    Game,
    Group,
    Player,
    PlayerMerge,
    Round,
    RoundEntry,
    Season,
    SeasonPlayer,
    Series,
    Tournament,
)
from .registry import BOOL, CHOICE, find_system
from .selectors import series_players
from .services import tournament_redraw

# Stored in the history rows (data, not a label), so not translated.
BASELINE_REASON = "Stored state before the first recorded change (row created without history)"
REDRAW_REASON = "Re-drew the lot"


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

    def get_list_display(self, request):
        # A shared model opened from a system's section leaves out what its rows leave empty.
        key = request.GET.get("system")
        left_out = set(columns_left_out(self.model, key)) if key else set()
        return [
            related_column(self.model, name)
            if isinstance(name, str) and "__" in name.strip("_")
            else name
            for name in super().get_list_display(request)
            if name not in left_out
        ]

    def changelist_view(self, request, extra_context=None):
        # A shared model opened from a system's section (?system=<key>) is titled as there.
        key = request.GET.get("system")
        for spec, name in shared_listings(self.model) if key else []:
            if spec.key == key:
                extra_context = {**(extra_context or {}), "title": f"{spec.name}: {capfirst(name)}"}
        return super().changelist_view(request, extra_context)

    def save_model(self, request, obj, form, change):
        if change:
            ensure_history_baseline(obj)
        super().save_model(request, obj, form, change)

    def save_formset(self, request, form, formset, change):
        for inline_form in formset.initial_forms:
            if inline_form.instance.pk is not None and inline_form.has_changed():
                ensure_history_baseline(inline_form.instance)
        super().save_formset(request, form, formset, change)

    def save_related(self, request, form, formsets, change):
        """Inline corrections (a table's seats) are written on the parent's own history too,
        as its change reason: its History then says what changed, not only "Changed"."""
        described = [inline_changes(formset) for formset in formsets] if change else []
        super().save_related(request, form, formsets, change)
        text = "; ".join(part for part in described if part)
        history = getattr(form.instance, "history", None)
        if text and history is not None:
            latest = history.order_by("-history_date", "-history_id").first()
            if latest is not None:
                type(latest).objects.filter(pk=latest.pk).update(history_change_reason=text[:100])


def inline_changes(formset) -> str:
    """What an inline formset is about to change, in words: "Dirk Maes: rank 2 → 1"."""
    parts = []
    for inline in formset.initial_forms:
        if inline in formset.deleted_forms:
            parts.append(_("removed %(row)s") % {"row": inline.instance})
        elif inline.has_changed():
            model = type(inline.instance)
            before = model._default_manager.filter(pk=inline.instance.pk).first()
            for name in inline.changed_data:
                field = inline.fields[name]
                old = inline.initial.get(name)
                new = inline.cleaned_data.get(name)
                if hasattr(field, "queryset") and old is not None:
                    old = field.queryset.filter(pk=old).first() or old
                parts.append(f"{before or inline.instance}: {field.label} {old} → {new}")
    parent = getattr(getattr(formset, "fk", None), "name", None)
    for inline in formset.extra_forms:
        if inline.has_changed() and inline not in formset.deleted_forms:
            values = [
                str(value)
                for name, value in inline.cleaned_data.items()
                if name not in (parent, "DELETE", "id") and value not in (None, "", False)
            ]
            parts.append(_("added %(row)s") % {"row": ", ".join(values)})
    return "; ".join(parts)


# --- forms for rows whose round is copied from their parent --------------------------------------


class RoundCopiedFromParentForm(forms.ModelForm):
    """Rows that copy `round` from their parent (a result at a table, a member of a pool) hold a
    field the form does not show,
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
        fields = ["series", "label", "name", "closed", "settings"]

    def clean(self):
        cleaned = super().clean()
        series = cleaned.get("series")
        spec = find_system(series.system) if series is not None else None
        if spec is not None and "settings" in cleaned:
            # The recompute reads the settings without checking them again.
            problems = spec.settings.validate(cleaned["settings"])
            if problems:
                self.add_error(
                    "settings",
                    [f"{path}: {message}" if path else message for path, message in problems],
                )
        return cleaned


class TournamentForm(forms.ModelForm):
    class Meta:
        model = Tournament
        fields = ["season", "key", "name", "date", "options", "draw_seed"]

    def clean(self):
        cleaned = super().clean()
        season = cleaned.get("season")
        spec = find_system(season.series.system) if season is not None else None
        if spec is not None and "options" in cleaned:
            # The system's tournament options, checked where its files and pages check them.
            options = cleaned["options"] or {}
            if spec.tournament_options is not None:
                problems = spec.tournament_options.validate(options)
            elif options:
                problems = [("", _("This competition system has no tournament options."))]
            else:
                problems = []
            if problems:
                self.add_error(
                    "options",
                    [f"{path}: {message}" if path else message for path, message in problems],
                )
        return cleaned


class TournamentRoundFormSet(forms.BaseInlineFormSet):
    """Rounds added under a tournament take the tournament's season."""

    def save_new(self, form, commit=True):
        form.instance.season_id = self.instance.season_id
        return super().save_new(form, commit=commit)


# --- inlines ------------------------------------------------------------------------------------


def system_inlines(system: str | None, name: str) -> list[type[admin.options.InlineModelAdmin]]:
    """The inlines a system's admin module adds to a shared page (SEASON_INLINES, ...)."""
    spec = find_system(system) if system else None
    module = spec.admin_module() if spec is not None else None
    return list(getattr(module, name, []))


class SeasonPlayerInline(admin.TabularInline):
    """A season's entries; what a system keeps per entry is on the entry's own page."""

    model = SeasonPlayer
    fields = ["position", "player", "club"]
    autocomplete_fields = ["player", "club"]
    extra = 0
    show_change_link = True


class RoundInline(admin.TabularInline):
    """The rounds of a tournament itself (the rounds of its groups are under Rounds)."""

    model = Round
    formset = TournamentRoundFormSet
    fields = ["number", "date"]
    extra = 0
    show_change_link = True

    def get_queryset(self, request):
        return super().get_queryset(request).filter(group__isnull=True)


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
    list_display = ["name", "key", "club", "born", "series"]
    list_filter = ["series"]
    search_fields = ["name", "key"]
    autocomplete_fields = ["club"]
    list_select_related = ["series", "club"]
    actions = ["merge_into"]

    def get_urls(self):
        merge = self.admin_site.admin_view(self.merge_view)
        return [
            path("<int:pk>/merge/", merge, name="competitions_player_merge"),
            *super().get_urls(),
        ]

    @admin.action(description=_("Merge into another player…"), permissions=["change", "delete"])
    def merge_into(self, request, queryset):
        if queryset.count() != 1:
            self.message_user(
                request, _("Choose exactly one player: the duplicate."), messages.WARNING
            )
            return None
        return redirect("admin:competitions_player_merge", queryset.get().pk)

    def merge_view(self, request, pk):
        """Merge the player (a duplicate) into another of its series: choose the kept one,
        see what moves and what stops it, merge (competitions.merging)."""
        if not (self.has_change_permission(request) and self.has_delete_permission(request)):
            raise PermissionDenied
        duplicate = get_object_or_404(Player.objects.select_related("series"), pk=pk)
        into = request.POST.get("into") or request.GET.get("into")
        kept = (
            get_object_or_404(Player, series_id=duplicate.series_id, pk=into)
            if into and into.isdigit()
            else None
        )
        if kept is not None and request.method == "POST":
            try:
                merge = merging.player_merge(duplicate=duplicate, kept=kept, user=request.user)
            except ValidationError as exc:
                for message in exc.messages:
                    self.message_user(request, message, messages.ERROR)
            else:
                self.message_user(request, str(merge), messages.SUCCESS)
                return redirect("admin:competitions_player_change", kept.pk)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": _("Merge %(name)s into another player") % {"name": duplicate.name},
            "player": duplicate,
            "candidates": [p for p in series_players(duplicate.series_id) if p.pk != duplicate.pk],
            "kept": kept,
            "preview": merging.player_merge_preview(duplicate=duplicate, kept=kept)
            if kept is not None
            else None,
        }
        return TemplateResponse(request, "admin/competitions/player/merge.html", context)


@admin.register(PlayerMerge)
class PlayerMergeAdmin(HistoryAdmin):
    """The merges of players, each undoable (competitions.merging.player_merge_undo)."""

    list_display = ["__str__", "series", "moved_count", "merged_at", "merged_by", "undone_at"]
    list_filter = ["series"]
    search_fields = ["duplicate_name", "duplicate_key", "kept_name"]
    list_select_related = ["series", "merged_by"]
    actions = ["undo_merge"]
    readonly_fields = [
        "series",
        "kept_name",
        "duplicate_id",
        "duplicate_key",
        "duplicate_name",
        "moved",
        "removed_entries",
        "season_ids",
        "merged_at",
        "merged_by",
        "undone_at",
        "undone_by",
    ]
    exclude = ["kept", "duplicate_club_id", "duplicate_born"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    @admin.display(description=_("rows moved"))
    def moved_count(self, obj: PlayerMerge) -> int:
        return obj.moved_count

    @admin.action(description=_("Undo merge"), permissions=["change"])
    def undo_merge(self, request, queryset):
        for merge in queryset.order_by("-merged_at", "-pk"):
            try:
                merging.player_merge_undo(merge=merge, user=request.user)
            except ValidationError as exc:
                self.message_user(request, f"{merge}: {' '.join(exc.messages)}", messages.ERROR)
            else:
                self.message_user(
                    request,
                    _("Undone: %(merge)s.") % {"merge": merge},
                    messages.SUCCESS,
                )


@admin.register(Season)
class SeasonAdmin(HistoryAdmin):
    form = SeasonForm
    list_display = [
        "__str__",
        "series",
        "label",
        "closed",
        "stale",
        "data_version",
        "standings_version",
        "standings_computed_at",
    ]
    list_filter = ["series", "closed"]
    search_fields = ["name", "label", "series__name", "series__slug"]
    list_select_related = ["series"]
    standings_fields = [
        "data_version",
        "standings_version",
        "standings_computed_at",
        "stale_since",
        "recompute_error",
    ]
    readonly_fields = standings_fields
    fieldsets = [
        (None, {"fields": ["series", "label", "name", "closed"]}),
        (_("Rules"), {"fields": ["settings"]}),
        (_("Standings"), {"fields": standings_fields}),
    ]
    inlines = [SeasonPlayerInline]

    def get_inlines(self, request, obj):
        system = obj.series.system if obj is not None else None
        return [*self.inlines, *system_inlines(system, "SEASON_INLINES")]

    @admin.display(boolean=True, description=_("stale standings"))
    def stale(self, obj: Season) -> bool:
        return obj.stale

    def save_model(self, request, obj, form, change):
        if change:
            # The recompute bookkeeping is written by the signals and the task while this form
            # is open; saving the whole row would put back the versions read when it loaded.
            ensure_history_baseline(obj)
            obj._history_user = request.user
            bookkeeping = {
                "data_version",
                "enqueued_version",
                "standings_version",
                "standings_computed_at",
                "stale_since",
                "recompute_error",
            }
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
    list_display = ["player", "season", "position", "club"]
    list_filter = scope_filters(system=True, series="season__series", season="season")
    search_fields = ["player__name", "player__key"]
    autocomplete_fields = ["season", "player", "club"]
    list_select_related = ["player", "season__series", "club"]

    def get_inlines(self, request, obj):
        return system_inlines(obj.season.series.system if obj else None, "ENTRY_INLINES")


# --- tournaments and rounds ---------------------------------------------------------------------


@admin.register(Tournament)
class TournamentAdmin(HistoryAdmin):
    form = TournamentForm
    list_display = ["name", "key", "date", "season", "draw_seed"]
    list_filter = scope_filters(system=True, series="season__series", season="season")
    search_fields = ["name", "key", "season__name", "season__label"]
    date_hierarchy = "date"
    autocomplete_fields = ["season"]
    list_select_related = ["season__series"]
    inlines = [RoundInline]
    actions = ["redraw_lot"]

    def get_inlines(self, request, obj):
        system = obj.season.series.system if obj is not None else None
        return [*self.inlines, *system_inlines(system, "TOURNAMENT_INLINES")]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related(*self.list_select_related)

    @admin.action(description=_("Re-draw the lot"), permissions=["change"])
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


def readable_options(spec, options) -> str:
    """A row's system options as HTML for people: each option of `spec` by its label with its
    value (a choice by its words, "not set" where the row leaves it to the level above), then
    what the system's checks find wrong with the stored value, if anything."""
    options = options if isinstance(options, dict) else {}
    rows = []
    for setting in spec.fields:
        value = options.get(setting.name)
        choices = dict(setting.choices or ()) if setting.kind == CHOICE else {}
        if setting.kind == BOOL:
            shown = _("yes") if value is True else _("no")
        elif value in (None, ""):
            shown = choices.get("", _("not set"))  # a choice may name what empty means
        elif choices:
            shown = choices.get(value, value)
        else:
            shown = value
        rows.append((setting.label, shown))
    html = format_html(
        "<dl class='readable-options'>{}</dl>",
        format_html_join("", "<dt>{}</dt><dd>{}</dd>", rows),
    )
    problems = spec.validate(options)
    if problems:
        html += format_html(
            "<p class='errornote'>{} {}</p>",
            _("Not valid, so the standings pass it over:"),
            "; ".join(f"{path}: {message}" if path else message for path, message in problems),
        )
    return html


@admin.register(Group)
class GroupAdmin(HistoryAdmin):
    """A group's own options (Group.options) are shown here, not edited: they are changed on
    the system's manager page of the group, which checks them, previews what they change and
    writes them as one action (the link beside them)."""

    list_display = ["name", "tournament", "tournament__season", "position", "scale"]
    exclude = ["options"]
    readonly_fields = ["options_shown"]
    list_filter = [
        *scope_filters(
            system=True,
            series="tournament__season__series",
            season="tournament__season",
            tournament="tournament",
        ),
        "scale",
    ]
    search_fields = ["name", "tournament__name"]
    autocomplete_fields = ["tournament"]
    list_select_related = ["tournament__season__series"]

    def get_inlines(self, request, obj):
        system = obj.tournament.season.series.system if obj is not None else None
        return system_inlines(system, "GROUP_INLINES")

    @admin.display(description=_("options"))
    def options_shown(self, obj: Group | None) -> str:
        spec = find_system(obj.tournament.season.series.system) if obj and obj.pk else None
        if spec is None or spec.group_options is None:
            if obj is not None and obj.options:
                return format_html("<code>{}</code>", json.dumps(obj.options, ensure_ascii=False))
            return _("none")
        html = readable_options(spec.group_options, obj.options)
        url = spec.group_page_url(obj)
        if url:
            html += format_html(
                "<p><a href='{}'>{}</a></p>",
                url,
                _("Change them on the group's manager page (checked, with a preview)"),
            )
        return html


@admin.register(Round)
class RoundAdmin(HistoryAdmin):
    form = RoundForm
    list_display = ["__str__", "tournament", "group", "date", "season"]
    list_filter = scope_filters(
        system=True,
        series="season__series",
        season="season",
        tournament="tournament",
        group="group",
    )
    search_fields = ["tournament__name", "group__name", "season__name"]
    autocomplete_fields = ["season", "tournament", "group"]
    list_select_related = ["season__series", "tournament", "group"]

    def get_inlines(self, request, obj):
        return system_inlines(obj.season.series.system if obj else None, "ROUND_INLINES")

    def get_queryset(self, request):
        # The change page picks its inlines by the season's system. (A queryset that already
        # selects related rows makes the changelist skip list_select_related, hence all here.)
        return super().get_queryset(request).select_related(*self.list_select_related)


# --- two-player games ----------------------------------------------------------------------------


class GameEntryForm(forms.ModelForm):
    """A player of a game: the entry takes the game's round and the status "played"."""

    class Meta:
        model = RoundEntry
        fields = ["colour", "player"]

    def clean(self):
        cleaned = super().clean()
        game, player = self.instance.game if self.instance.game_id else None, cleaned.get("player")
        round_id = getattr(game, "round_id", None) or getattr(self, "parent_round_id", None)
        if round_id and player is not None:
            clash = RoundEntry.objects.filter(round_id=round_id, player=player)
            if self.instance.pk is not None:
                clash = clash.exclude(pk=self.instance.pk)
            if clash.exists():
                raise forms.ValidationError(
                    _("%(player)s already has an entry in this round.") % {"player": player}
                )
        return cleaned


class GameEntryFormSet(forms.BaseInlineFormSet):
    def _construct_form(self, i, **kwargs):
        form = super()._construct_form(i, **kwargs)
        form.parent_round_id = self.instance.round_id
        return form

    def save_new(self, form, commit=True):
        form.instance.round_id = self.instance.round_id
        form.instance.status = RoundEntry.Status.PLAYED
        return super().save_new(form, commit=commit)


class GameEntryInline(admin.TabularInline):
    model = RoundEntry
    form = GameEntryForm
    formset = GameEntryFormSet
    fields = ["colour", "player"]
    autocomplete_fields = ["player"]
    extra = 0
    min_num = 2
    max_num = 2
    validate_min = True
    validate_max = True
    verbose_name = _("player")
    verbose_name_plural = _("players")


# The filters of the lists of games and round entries: what holds a round, widest first.
ROUND_SCOPE = scope_filters(
    system=True,
    series="round__season__series",
    season="round__season",
    tournament="round__tournament",
    group="round__group",
    round="round__number",
)


@admin.register(Game)
class GameAdmin(HistoryAdmin):
    list_display = [
        "round__tournament",
        "round__group",
        "round",
        "board",
        "white",
        "black",
        "result",
        "manual",
        "round__season",
    ]
    list_display_links = ["board"]
    list_filter = [*ROUND_SCOPE, "result", "manual"]
    search_fields = [
        "entries__player__name",
        "entries__player__key",
        "round__tournament__name",
        "round__group__name",
    ]
    autocomplete_fields = ["round"]
    list_select_related = ["round__season__series", "round__tournament", "round__group"]
    inlines = [GameEntryInline]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("entries__player")

    @staticmethod
    def _player(game: Game, colour: str):
        return next((e.player for e in game.entries.all() if e.colour == colour), None)

    @admin.display(description=_("white"))
    def white(self, game: Game):
        return self._player(game, RoundEntry.Colour.WHITE)

    @admin.display(description=_("black"))
    def black(self, game: Game):
        return self._player(game, RoundEntry.Colour.BLACK)


class RoundEntryForm(forms.ModelForm):
    class Meta:
        model = RoundEntry
        fields = ["round", "player", "status", "game", "colour", "volunteer_bye"]

    def clean(self):
        cleaned = super().clean()
        played = cleaned.get("status") == RoundEntry.Status.PLAYED
        if played != (cleaned.get("game") is not None) or played != bool(cleaned.get("colour")):
            raise forms.ValidationError(
                _("A player who played has a game and a colour; nobody else has either.")
            )
        game = cleaned.get("game")
        if game is not None and game.round_id != getattr(cleaned.get("round"), "pk", None):
            self.add_error("game", _("This game belongs to another round."))
        return cleaned


@admin.register(RoundEntry)
class RoundEntryAdmin(HistoryAdmin):
    form = RoundEntryForm
    list_display = [
        "player",
        "status",
        "colour",
        "game",
        "volunteer_bye",
        "round__tournament",
        "round__group",
        "round",
        "round__season",
    ]
    list_filter = [*ROUND_SCOPE, "status", "volunteer_bye"]
    search_fields = ["player__name", "player__key"]
    autocomplete_fields = ["round", "player", "game"]
    list_select_related = [
        "player",
        "game",
        "round__season__series",
        "round__tournament",
        "round__group",
    ]

    def get_queryset(self, request):
        # The game column names both players.
        return super().get_queryset(request).prefetch_related("game__entries__player")


class RoundEntryInline(admin.TabularInline):
    """What each player did in a round (attendance, byes, walkovers); games have their own
    page."""

    model = RoundEntry
    form = RoundEntryForm
    fields = ["player", "status", "game", "colour", "volunteer_bye"]
    autocomplete_fields = ["player", "game"]
    extra = 0


# The systems' own admin modules (competitions/systems/<name>/admin.py) register their models
# and define their inlines. Found on disk: the admin loads before the registry is filled.
import_system_modules("admin")
