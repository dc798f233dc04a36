"""Login throttling behind the README's TLS proxy: a lockout is per (user name, client address),
the client's address as the proxy saw it, not the proxy's own address (which every request
comes from) and not what a client writes into X-Forwarded-For itself. Otherwise anyone could
lock the secretary out, again and again (issue 45)."""

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from axes.models import AccessAttempt
from django.conf import settings as django_settings
from django.test import Client, RequestFactory
from django.urls import reverse

from competitions.security import client_address

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.django_db

# The proxy as the web container sees it (docker's gateway); clients on the internet.
PROXY = "172.18.0.1"
CLIENT_A = "203.0.113.5"
CLIENT_B = "198.51.100.7"
PASSWORD = "right-password-1"


def through_proxy(forwarded_for: str) -> Client:
    """A browser whose requests reach the site through the proxy, which sends this
    X-Forwarded-For (nginx's $proxy_add_x_forwarded_for: what the client sent, then the
    client's address)."""
    return Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=forwarded_for)


def fail_until_locked(client: Client) -> None:
    for _ in range(django_settings.AXES_FAILURE_LIMIT):
        response = client.post(reverse("login"), {"username": "secretary", "password": "wrong"})
        assert response.status_code in (200, 429)


def log_in(client: Client) -> int:
    return client.post(
        reverse("login"), {"username": "secretary", "password": PASSWORD}
    ).status_code


@pytest.fixture
def behind_one_proxy(settings, django_user_model):
    settings.PROXY_COUNT = 1  # production's default
    django_user_model.objects.create_user("secretary", password=PASSWORD)


def test_failed_logins_from_one_client_lock_that_client_out_not_another(behind_one_proxy, caplog):
    with caplog.at_level(logging.WARNING, logger="clubsite.auth"):
        fail_until_locked(through_proxy(CLIENT_A))
    assert log_in(through_proxy(CLIENT_A)) == 429
    # The secretary, at another address, logs in with the same user name.
    assert log_in(through_proxy(CLIENT_B)) == 302
    # The client's address is what was recorded and logged, not the proxy's.
    assert list(AccessAttempt.objects.values_list("username", "ip_address")) == [
        ("secretary", CLIENT_A)
    ]
    lines = [r.getMessage() for r in caplog.records if "failed login" in r.getMessage()]
    assert len(lines) >= django_settings.AXES_FAILURE_LIMIT
    assert all(f"from {CLIENT_A} " in line for line in lines), lines


def test_a_forged_x_forwarded_for_neither_escapes_a_lockout_nor_locks_out_someone_else(
    behind_one_proxy,
):
    # The attacker at A writes B's address into the header; the proxy appends A's.
    fail_until_locked(through_proxy(f"{CLIENT_B}, {CLIENT_A}"))
    assert log_in(through_proxy(CLIENT_B)) == 302
    # Locked out at A whatever A claims to be.
    assert log_in(through_proxy(f"192.0.2.99, {CLIENT_A}")) == 429
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {CLIENT_A}


@pytest.mark.parametrize(
    "count,forwarded_for,expected",
    [
        (0, CLIENT_A, PROXY),  # no proxy configured: the header is not believed
        (1, None, PROXY),  # no header: the connection's address
        (1, CLIENT_A, CLIENT_A),
        (1, f"{CLIENT_B}, {CLIENT_A}", CLIENT_A),
        (1, f" {CLIENT_B} ,  {CLIENT_A} ", CLIENT_A),
        (1, "2001:DB8::1", "2001:db8::1"),
        (1, "not-an-address", PROXY),
        (1, f"{CLIENT_A}, unknown", PROXY),
        (2, f"192.0.2.99, {CLIENT_A}, 10.0.0.2", CLIENT_A),  # a CDN, then the TLS proxy
        (2, CLIENT_A, CLIENT_A),  # fewer entries than proxies: all were written by them
    ],
)
def test_the_client_address_is_the_one_the_outermost_proxy_saw(
    settings, count, forwarded_for, expected
):
    settings.PROXY_COUNT = count
    headers = {"HTTP_X_FORWARDED_FOR": forwarded_for} if forwarded_for is not None else {}
    request = RequestFactory().post("/accounts/login/", REMOTE_ADDR=PROXY, **headers)
    assert client_address(request) == expected


def test_production_counts_one_proxy_and_axes_asks_the_site_for_the_address():
    """The production settings as they load (PROXY_COUNT unset): axes' own helper gives the
    address the proxy appended."""
    code = (
        "import django; django.setup(); from django.test import RequestFactory; "
        "from axes.helpers import get_client_ip_address; "
        f"r = RequestFactory().get('/', REMOTE_ADDR='{PROXY}', "
        f"HTTP_X_FORWARDED_FOR='{CLIENT_B}, {CLIENT_A}'); print(get_client_ip_address(r))"
    )
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DJANGO_ENV", "SECRET_KEY", "PROXY_COUNT", "DEBUG")
    }
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={
            **clean,
            "DJANGO_SETTINGS_MODULE": "clubsite.settings",
            "DJANGO_ENV": "production",
            "SECRET_KEY": "k" * 20 + "Zq8-mN3_pL0xW7vB2yT5rE9uI4oP1aS6dF",
            "ALLOWED_HOSTS": "clubs.example.org",
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == CLIENT_A
