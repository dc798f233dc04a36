"""Signing in, as every manager journey in the browser starts."""


def log_in(page, base: str, username: str, password: str) -> None:
    """Sign in through the login form and land on the manager dashboard."""
    page.goto(f"{base}/accounts/login/?next=/manage/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/manage/")
