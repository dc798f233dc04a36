"""What the console shows: each line once."""

from tests.helpers import run_probe

PROBE = """
import io, json, logging, sys
sys.stderr = captured = io.StringIO()
import django
django.setup()
logging.getLogger("django.utils.autoreload").info("Watching for file changes with StatReloader")
logging.getLogger("django.request").warning("Not Found: /nowhere")
sys.stderr = sys.__stderr__
print(json.dumps(captured.getvalue().splitlines()))
"""


def test_runserver_lines_are_written_once():
    """`make run` printed "Watching for file changes with StatReloader" twice: Django's own
    console handler (DEBUG only) and the site's root handler both wrote Django's lines."""
    lines = run_probe(PROBE, {"DEBUG": "true", "LOG_LEVEL": "INFO"})
    assert lines.count("Watching for file changes with StatReloader") == 1, lines
    assert lines.count("Not Found: /nowhere") == 1, lines
