"""Finding the systems' modules on disk: `<app>/systems/<name>/<module>.py`, for every system
package there is, so that adding a system edits no list."""

from importlib import import_module
from importlib.util import find_spec
from pkgutil import iter_modules


def system_packages(package: str = "competitions.systems") -> list[str]:
    """The dotted names of the system packages under `package`, in name order."""
    module = import_module(package)
    return sorted(f"{package}.{info.name}" for info in iter_modules(module.__path__) if info.ispkg)


def import_system_modules(name: str, package: str = "competitions.systems") -> list[str]:
    """Import `<system package>.<name>` for every system package that has one."""
    imported = []
    for system_package in system_packages(package):
        dotted = f"{system_package}.{name}"
        if find_spec(dotted) is not None:
            import_module(dotted)
            imported.append(dotted)
    return imported
