"""The admin site, its index in sections: the shared data ("Series and players"), then one
section per competition system, then the other apps.

A system's section lists the models its admin module registers, and the shared models it names
in that module's SHARED_MODELS ({model: name in the section, or None for the model's own}),
which open filtered to the system (`?system=<key>`). Everything else stays where Django puts it.
Which system registered a model is read from its ModelAdmin's module (the spec's `admin`), so a
system adds its section by registering its models, and no list names the systems.
"""

from collections.abc import Sequence
from typing import Any

from django.contrib import admin
from django.contrib.admin.apps import AdminConfig
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from .registry import SystemSpec, all_systems

SHARED_APP = "competitions"


def shared_listings(model: type) -> list[tuple[SystemSpec, Any]]:
    """The systems whose admin section lists the shared `model`, each with its name there."""
    found = []
    for spec in all_systems():
        module = spec.admin_module()
        names = getattr(module, "SHARED_MODELS", {}) if module is not None else {}
        if model in names:
            found.append((spec, names[model] or model._meta.verbose_name_plural))
    return found


def columns_left_out(model: type, key: str) -> list[str]:
    """The list columns of the shared `model` that the system `key`'s section leaves out
    (its admin module's SHARED_COLUMNS_LEFT_OUT: columns its rows leave empty)."""
    for spec in all_systems():
        if spec.key == key and (module := spec.admin_module()) is not None:
            return list(getattr(module, "SHARED_COLUMNS_LEFT_OUT", {}).get(model, []))
    return []


def system_sections(apps: Sequence[dict], registry: dict, series_url: str | None) -> list[dict]:
    """Django's app list (`apps`) regrouped: the shared app first, renamed, then a section per
    system in the registry's order, then the other apps; empty sections are left out."""
    specs = all_systems()
    by_module = {spec.admin: spec for spec in specs if spec.admin}
    sections: dict[str, list[dict]] = {spec.key: [] for spec in specs}
    kept = []
    for app in apps:
        models = []
        for entry in app["models"]:
            model = entry["model"]
            owner = by_module.get(type(registry[model]).__module__)
            listings = [] if owner is not None else shared_listings(model)
            if owner is not None:
                sections[owner.key].append(entry)
            for spec, name in listings:
                url = entry["admin_url"]
                sections[spec.key].append(
                    {
                        **entry,
                        "name": capfirst(name),
                        "admin_url": url and f"{url}?system={spec.key}",
                    }
                )
            if owner is None and not listings:
                models.append(entry)
        if models:
            kept.append({**app, "models": models})
    shared = [app for app in kept if app["app_label"] == SHARED_APP]
    for app in shared:
        app["name"] = _("Series and players")
    systems = [
        {
            "name": spec.name,
            "app_label": spec.key,
            # The section's caption opens the series that run this system.
            "app_url": f"{series_url}?system__exact={spec.key}" if series_url else "",
            "has_module_perms": True,
            "models": sorted(sections[spec.key], key=lambda entry: str(entry["name"]).lower()),
        }
        for spec in specs
        if sections[spec.key]
    ]
    return [*shared, *systems, *(app for app in kept if app["app_label"] != SHARED_APP)]


class ClubsiteAdminSite(admin.AdminSite):
    def get_app_list(self, request, app_label=None):
        apps = super().get_app_list(request, app_label)
        if app_label is not None:
            return apps  # an app's own page lists its models as Django does
        series = next(
            (
                entry["admin_url"]
                for app in apps
                if app["app_label"] == SHARED_APP
                for entry in app["models"]
                if entry["object_name"] == "Series"
            ),
            None,
        )
        return system_sections(apps, self._registry, series)


class ClubsiteAdminConfig(AdminConfig):
    default_site = "competitions.admin_site.ClubsiteAdminSite"
