"""One package per competition system, each a vertical slice of this app.

`competitions/systems/<name>/` holds what the system adds to the data layer: `models.py` (its
result models), `system.py` (its one registration, see `competitions.registry`), and whatever
else it needs (settings, file section, manager pages, admin, demo data). The rankings and
pairings apps have the same layout for their layers. Nothing lists the systems: a new
package is found by `competitions.discovery.import_system_modules`.
"""
