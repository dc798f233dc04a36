"""The lists of the admin's result pages: their columns through relations, and their filters.

The filters go from the widest choice to the narrowest: the system (shared models), the series,
the season, then the system's unit (tournament, group, round, pool, challenge). Each lists only
what the wider choices hold, and the narrow ones appear once a wider one is chosen, so no filter
loads every tournament or round of the database. Choosing a wider value drops the narrower ones,
which would no longer match.

    list_filter = scope_filters(series="round__season__series", season="round__season",
                                tournament="round__tournament", round="round__number")

A path ending at a row lists those rows; a path ending at a number (a round's number) lists the
numbers found.
"""

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.contrib import admin
from django.contrib.admin.options import IncorrectLookupParameters
from django.contrib.admin.utils import get_fields_from_path
from django.utils.translation import gettext_lazy as _

from .admin_site import shared_listings
from .registry import all_systems

# The levels a list can filter by, widest first: title, and the level that must be chosen (or
# one between it and this one) before this one is shown.
LEVELS = {
    "system": (_("system"), None),
    "series": (_("series"), None),
    "season": (_("season"), None),
    "tournament": (_("tournament"), "season"),
    "group": (_("group"), "tournament"),
    "round": (_("round"), "season"),
    "pool": (_("pool"), "round"),
    "challenge": (_("challenge"), "round"),
}


@dataclass(frozen=True)
class Level:
    param: str
    path: str


class ScopeFilter(admin.SimpleListFilter):
    levels: tuple[Level, ...] = ()
    index = 0

    @property
    def level(self) -> Level:
        return self.levels[self.index]

    @classmethod
    def chosen(cls, request, model) -> dict[str, Any]:
        """The values chosen in the request, by parameter (numbers where a row or a number)."""
        values: dict[str, Any] = {}
        for level in cls.levels:
            raw = request.GET.get(level.param)
            if raw is None:
                continue
            if level.param == "system":
                values[level.param] = raw
                continue
            try:
                values[level.param] = int(raw)
            except ValueError:
                raise IncorrectLookupParameters(f"{level.param}={raw!r}") from None
        return values

    def lookups(self, request, model_admin):
        model = model_admin.model
        chosen = self.chosen(request, model)
        level = self.level
        if level.param == "system":
            specs = [spec for spec, _name in shared_listings(model)] or all_systems()
            return [(spec.key, spec.name) for spec in specs]
        after = LEVELS[level.param][1]
        if after is not None:
            params = [other.param for other in self.levels]
            start = params.index(after) if after in params else 0
            if not any(param in chosen for param in params[start : self.index]):
                return []
        rows = model._default_manager.filter(
            **{
                other.path: chosen[other.param]
                for other in self.levels[: self.index]
                if other.param in chosen
            }
        )
        field = get_fields_from_path(model, level.path)[-1]
        if field.related_model is None:
            values = rows.order_by(level.path).values_list(level.path, flat=True).distinct()
            return [(value, str(value)) for value in values if value is not None]
        # select_related(): a season's name may be its series' name and label.
        related = field.related_model._default_manager.select_related()
        return [(row.pk, str(row)) for row in related.filter(pk__in=rows.values(level.path))]

    def queryset(self, request, queryset):
        value = self.value()
        if value is None:
            return queryset
        self.chosen(request, queryset.model)  # a value that is not a number is refused
        return queryset.filter(**{self.level.path: value})

    def choices(self, changelist):
        narrower = [level.param for level in self.levels[self.index + 1 :]]
        counts = self.get_facet_queryset(changelist) if changelist.add_facets else None
        yield {
            "selected": self.value() is None,
            "query_string": changelist.get_query_string(remove=[self.parameter_name, *narrower]),
            "display": _("All"),
        }
        for i, (lookup, title) in enumerate(self.lookup_choices):
            if counts is not None:
                title = f"{title} ({counts.get(f'{i}__c', '-')})"
            yield {
                "selected": self.value() == str(lookup),
                "query_string": changelist.get_query_string(
                    {self.parameter_name: lookup}, narrower
                ),
                "display": title,
            }


def scope_filters(**paths: str) -> list[type[ScopeFilter]]:
    """One filter per level, in the order given (widest first): `series="round__season__series"`;
    `system=True` filters a shared model by the system of its series."""
    if paths.get("system") is True:
        paths["system"] = f"{paths['series']}__system"
        paths = {"system": paths.pop("system"), **paths}
    levels = tuple(Level(param, path) for param, path in paths.items())
    return [
        type(
            f"{level.param.capitalize()}ScopeFilter",
            (ScopeFilter,),
            {
                "levels": levels,
                "index": index,
                "parameter_name": level.param,
                "title": LEVELS[level.param][0],
            },
        )
        for index, level in enumerate(levels)
    ]


@cache
def related_column(model: type, path: str) -> Callable[[Any], Any]:
    """A list column through relations (`round__season`), titled with the translated name of
    what it shows (Django would title it "Round  season", untranslated), sortable by it."""
    field = get_fields_from_path(model, path)[-1]
    title = field.related_model._meta.verbose_name if field.related_model else field.verbose_name

    def show(row):
        for name in path.split("__"):
            row = getattr(row, name) if row is not None else None
        return row

    show.__name__ = path
    return admin.display(description=title, ordering=path)(show)
