"""Clubsite settings: one module, configured through environment variables.

DJANGO_ENV=production turns on the deployment settings (DEBUG off, secret key required,
secure cookies, HSTS). DATABASE_URL picks the database (SQLite in the project folder when
unset). CELERY_BROKER_URL picks the broker; without it tasks run eagerly in process.
"""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.getenv(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.getenv(name, default).split(",") if item.strip()]


DJANGO_ENV = os.getenv("DJANGO_ENV", "development")
if DJANGO_ENV not in ("development", "production"):
    # A typo ("Production", "prod") must not quietly mean development, with DEBUG on.
    raise ImproperlyConfigured(
        f"DJANGO_ENV must be 'development' or 'production', not {DJANGO_ENV!r}"
    )
PRODUCTION = DJANGO_ENV == "production"
DEBUG = env_bool("DEBUG", not PRODUCTION)
if PRODUCTION and DEBUG:
    # Debug pages show every visitor the URL configuration and the settings: refused as a weak
    # SECRET_KEY is, not merely warned about by `check --deploy`.
    raise ImproperlyConfigured("DEBUG must be off with DJANGO_ENV=production (unset DEBUG)")

DEVELOPMENT_SECRET_KEY = "development-only-key-not-for-production"  # noqa: S105
SECRET_KEY = os.getenv("SECRET_KEY", "")


def weak_secret_key(key: str) -> str | None:
    """Why a key may not sign a production site's sessions, or None (Django's own rule for
    security.W009: at least 50 characters, 5 different ones, not an insecure default)."""
    if not key:
        return "it is not set"
    if key == DEVELOPMENT_SECRET_KEY or key.startswith("django-insecure"):
        return "it is a development key"
    if len(key) < 50 or len(set(key)) < 5:
        return "it is shorter than 50 characters or has fewer than 5 different characters"
    return None


if PRODUCTION and (problem := weak_secret_key(SECRET_KEY)):
    raise ImproperlyConfigured(
        f"SECRET_KEY is too weak for DJANGO_ENV=production: {problem}. Make one with "
        "python3 -c 'import secrets; print(secrets.token_urlsafe(50))'"
    )
SECRET_KEY = SECRET_KEY or DEVELOPMENT_SECRET_KEY

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "" if PRODUCTION else "127.0.0.1,localhost,testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "competitions.admin_site.ClubsiteAdminConfig",  # the admin site, its index in sections
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_tables2",
    "crispy_forms",
    "crispy_bootstrap5",
    "simple_history",
    "axes",
    "competitions",
    "rankings",
    "pairings",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages compressed for browsers that ask (a Keizer club's season page, every line with its
    # explanation, is about 480 KB of HTML and 24 KB compressed). Static files are answered by
    # WhiteNoise above, which has them compressed already. Django pads each compressed page
    # with random bytes against BREACH-style guessing, and CSRF tokens differ per response.
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    # Last, as django-axes asks: it answers a locked-out login.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "clubsite.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "clubsite.wsgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        # Production keeps a connection a minute: a request that reads the database (a cached
        # public page reads its season's versions) does not pay a new connection each time,
        # which under a crowd cost half the requests per second.
        conn_max_age=int(os.getenv("CONN_MAX_AGE", "60" if PRODUCTION else "0")),
        # A connection kept open across requests is checked before use, so a restarted
        # database costs a reconnect, not a 500.
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Concurrent writers wait for each other instead of failing with "database is locked":
    # write-ahead logging, writers take the lock when their transaction starts, and wait up to
    # 20 s for it.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
        }
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    # django-axes first: it refuses a locked-out login before the password is checked.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "manage:dashboard"
LOGOUT_REDIRECT_URL = "home"

# Login throttling (django-axes): after 5 failed logins for one user name from one address,
# that pair is locked out for 15 minutes. Every failure is logged (logger "clubsite.auth").
AXES_FAILURE_LIMIT = int(os.getenv("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.getenv("AXES_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False
AXES_LOCKOUT_CALLABLE = "competitions.security.locked_out"
# The client's address, as the throttling counts it: behind PROXY_COUNT reverse proxies, the
# address the outermost of them saw (the PROXY_COUNT-th entry of X-Forwarded-For from the right;
# what a client writes into that header itself stays to the left and is not believed). Without
# a proxy (0, the development default) the address of the connection. Behind the README's one
# TLS proxy, REMOTE_ADDR is the proxy's for every client.
PROXY_COUNT = int(os.getenv("PROXY_COUNT", "1" if PRODUCTION else "0"))
AXES_CLIENT_IP_CALLABLE = "competitions.security.client_address"

# Mail: password reset is offered only when a mail server is configured.
EMAIL_HOST = os.getenv("EMAIL_HOST", "")
MAIL_CONFIGURED = bool(EMAIL_HOST)
EMAIL_PORT = int(os.getenv("EMAIL_PORT", "587"))
EMAIL_HOST_USER = os.getenv("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.getenv("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
DEFAULT_FROM_EMAIL = os.getenv("DEFAULT_FROM_EMAIL", "clubsite@localhost")

# Content Security Policy (django-csp): scripts and styles only from the site itself; no inline
# script anywhere (pages pass data as JSON, static/js reads it).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        # The admin and Bootstrap components set a few style attributes.
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'self'"],
    }
}

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("nl", _("Dutch")),
    ("sv", _("Swedish")),
    ("nb", _("Norwegian Bokmål")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.getenv("TIME_ZONE", "Europe/Brussels")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Where collectstatic writes (and WhiteNoise serves from, with its manifest in production).
STATIC_ROOT = Path(os.getenv("STATIC_ROOT") or BASE_DIR / "staticfiles")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"
DJANGO_TABLES2_TEMPLATE = "django_tables2/clubsite.html"

# Celery: with no broker the recompute runs in process, so a fresh checkout needs nothing else.
CELERY_TASK_ALWAYS_EAGER = not os.getenv("CELERY_BROKER_URL")
CELERY_BROKER_URL = os.getenv("CELERY_BROKER_URL") or "memory://localhost/"
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_DEFAULT_QUEUE = os.getenv("CELERY_QUEUE", "clubsite")
# A task is acknowledged when it is done, and given back to the queue when the process running it
# dies; the periodic reconcile (and the one at every worker start) catches anything else.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# An unacknowledged message comes back after this many seconds (Redis), e.g. when a whole
# worker was killed; it must exceed the longest recompute.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(os.getenv("CELERY_VISIBILITY_TIMEOUT", "900")),
    # A send fails in seconds when the broker is down, instead of hanging a request.
    "socket_connect_timeout": 3,
    "socket_timeout": 10,
}
CELERY_BROKER_CONNECTION_TIMEOUT = 3
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.5}
RECONCILE_SECONDS = int(os.getenv("RECONCILE_SECONDS", "60"))
# The largest competition file import_competition reads, in MB (a whole circuit season of 2000
# players is about 15 MB).
IMPORT_MAX_MB = int(os.getenv("IMPORT_MAX_MB", "50"))
# /healthz fails when a season's standings have lagged behind its results for longer.
HEALTH_MAX_STALE_SECONDS = int(os.getenv("HEALTH_MAX_STALE_SECONDS", "600"))
# /healthz fails when no worker of the site's queue answers Celery's broadcast within
# HEALTH_WORKER_TIMEOUT seconds; the answer is kept HEALTH_WORKER_CACHE_SECONDS (per cache), so a
# dead worker is reported within their sum, however often /healthz is asked.
HEALTH_WORKER_TIMEOUT = float(os.getenv("HEALTH_WORKER_TIMEOUT", "1"))
HEALTH_WORKER_CACHE_SECONDS = int(os.getenv("HEALTH_WORKER_CACHE_SECONDS", "15"))
CELERY_BEAT_SCHEDULE = {
    "reconcile-stale-standings": {
        "task": "rankings.reconcile",
        "schedule": RECONCILE_SECONDS,
    },
}

# Caches: Redis at CACHE_URL (e.g. redis://redis:6379/1, a database of its own: not the
# broker's), else each process's local memory. "pages" holds the public pages
# (rankings.pagecache), keyed by the data version of what they show; PAGE_CACHE_SECONDS bounds
# how long an entry no page asks for any more is kept (0 turns the page cache off).
CACHE_URL = os.getenv("CACHE_URL", "")
PAGE_CACHE_SECONDS = int(os.getenv("PAGE_CACHE_SECONDS", "3600"))


def cache_backend(prefix: str) -> dict:
    if CACHE_URL:
        return {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": CACHE_URL,
            "KEY_PREFIX": prefix,
            # An unreachable Redis costs a page a second at most (it is then rendered).
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": prefix}


CACHES = {"default": cache_backend("clubsite"), "pages": cache_backend("clubsite-pages")}

# Seconds a recompute waits for another recompute of the same season before it gives up (the
# task then retries later).
RECOMPUTE_LOCK_TIMEOUT = float(os.getenv("RECOMPUTE_LOCK_TIMEOUT", "60"))

if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.getenv("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"forbidden_in_one_line": {"()": "clubsite.log_filters.ForbiddenInOneLine"}},
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.getenv("LOG_LEVEL", "INFO")},
    "loggers": {
        # Django's own console handler (DEBUG only) beside the root's wrote every line of
        # `runserver` twice ("Watching for file changes" twice): the root's alone writes them.
        "django": {"handlers": [], "level": "INFO"},
        "django.db.backends": {"level": "INFO"},
        "django.request": {"filters": ["forbidden_in_one_line"]},
        # In-process (eager) tasks would log every recompute twice; a worker keeps its lines.
        "celery.app.trace": {"level": "WARNING" if CELERY_TASK_ALWAYS_EAGER else "INFO"},
    },
}

LOGGING["loggers"]["clubsite.auth"] = {"level": "INFO"}
# django-axes logs every successful login's reset at INFO; failures are logged by clubsite.auth.
LOGGING["loggers"]["axes"] = {"level": "WARNING"}
