"""Stored standings in the admin: staff can look, nobody edits (a recompute replaces them)."""

import json

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from .models import StandingsTable


@admin.register(StandingsTable)
class StandingsTableAdmin(admin.ModelAdmin):
    list_display = ["season", "kind", "key", "position"]
    list_filter = ["season", "kind"]
    search_fields = ["key", "season__name", "season__label"]
    list_select_related = ["season__series"]
    fields = ["season", "kind", "key", "position", "pretty_data", "pretty_rows"]
    readonly_fields = fields

    @admin.display(description=_("data"))
    def pretty_data(self, obj: StandingsTable) -> str:
        return format_html("<pre>{}</pre>", json.dumps(obj.data, indent=2, ensure_ascii=False))

    @admin.display(description=_("rows"))
    def pretty_rows(self, obj: StandingsTable) -> str:
        rows = list(obj.rows.order_by("position").values_list("detail", flat=True))
        return format_html("<pre>{}</pre>", json.dumps(rows, indent=2, ensure_ascii=False))

    # Corrections go to the results; the standings follow through the recompute.
    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        # A season deleted in the admin takes its standings with it (the admin asks this for
        # each of them); deleting one by one is refused below.
        return request.user.is_active and request.user.is_staff

    def delete_view(self, request, object_id, extra_context=None):
        raise PermissionDenied(_("Standings are deleted with their season, not one by one."))

    def get_actions(self, request):
        return {}

    def change_view(self, request, object_id, form_url="", extra_context=None):
        return super().change_view(
            request, object_id, form_url, {**(extra_context or {}), "show_delete": False}
        )

    def has_view_permission(self, request, obj=None) -> bool:
        return request.user.is_active and request.user.is_staff

    def has_module_permission(self, request) -> bool:
        return request.user.is_active and request.user.is_staff
