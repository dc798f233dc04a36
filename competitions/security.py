"""Who tried to log in and failed: every failure is logged (django-axes throttles them)."""

import logging

from django.contrib.auth.signals import user_login_failed

logger = logging.getLogger("clubsite.auth")


def _login_failed(sender, credentials, request=None, **kwargs) -> None:
    address = request.META.get("REMOTE_ADDR", "?") if request is not None else "?"
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "") if request is not None else ""
    logger.warning(
        "failed login for user %r from %s%s",
        credentials.get("username", ""),
        address,
        f" (forwarded for {forwarded})" if forwarded else "",
    )


def connect() -> None:
    user_login_failed.connect(_login_failed, dispatch_uid="clubsite-login-failed")


def locked_out(request, response=None, credentials=None):
    """django-axes' answer to a locked-out login: a page that says why, with status 429."""
    from django.conf import settings
    from django.shortcuts import render

    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    return render(request, "registration/locked_out.html", {"cooloff_minutes": minutes}, status=429)
