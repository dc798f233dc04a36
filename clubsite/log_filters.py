"""Logging filters of the site."""

import logging


class ForbiddenInOneLine(logging.Filter):
    """A refused request (403) is one line in the log, not a traceback: an authorization sweep
    answers hundreds of them, each an expected refusal, not a fault of the code. Other errors
    keep their traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) == 403:
            record.exc_info = None
            record.exc_text = None
        return True
