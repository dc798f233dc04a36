"""Who tried to log in and failed: every failure is logged (django-axes throttles them)."""

import ipaddress
import logging

from django.conf import settings
from django.contrib.auth.signals import user_login_failed

logger = logging.getLogger("clubsite.auth")


def client_address(request) -> str | None:
    """The address of the client behind settings.PROXY_COUNT reverse proxies (django-axes'
    AXES_CLIENT_IP_CALLABLE; the failure log uses it too).

    Each proxy appends the address it was connected from to X-Forwarded-For, so the last
    PROXY_COUNT entries are the ones the site's own proxies wrote: the PROXY_COUNT-th from the
    right is the client as the outermost proxy saw it. Entries further left came from the client
    and may be anything, so a client cannot choose its address (nor take someone else's) by
    sending the header. With fewer entries than proxies, the leftmost one (all were written by
    the site's proxies). Without a proxy, or without a valid header, the connection's address.
    """
    remote = request.META.get("REMOTE_ADDR") or None
    count = settings.PROXY_COUNT
    header = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if count <= 0 or not header:
        return remote
    entries = [entry.strip() for entry in header.split(",")]
    entry = entries[-min(count, len(entries))]
    try:
        return str(ipaddress.ip_address(entry))
    except ValueError:
        return remote


def _login_failed(sender, credentials, request=None, **kwargs) -> None:
    address = (client_address(request) or "?") if request is not None else "?"
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
    from django.shortcuts import render

    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    return render(request, "registration/locked_out.html", {"cooloff_minutes": minutes}, status=429)
