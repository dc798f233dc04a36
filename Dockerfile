# Clubsite production image: gunicorn serves the web app, the same image runs the Celery worker
# (see docker-compose.yml). Configuration comes from environment variables (README.md).
FROM python:3.11-slim

# PYTHONPATH=/app: `pip install .` also copies the packages into site-packages, but settings.py
# finds templates/, static/ and locale/ next to itself, so every process (gunicorn, celery,
# manage.py) must import the code from /app, whatever its working directory.
ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONPATH=/app \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_ROOT_USER_ACTION=ignore \
    DJANGO_ENV=production

RUN groupadd --system clubsite \
 && useradd --system --gid clubsite --create-home --home-dir /home/clubsite \
        --shell /usr/sbin/nologin clubsite

WORKDIR /app

# Dependencies in their own layer, rebuilt only when pyproject.toml changes.
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" \
        > /tmp/requirements.txt \
 && pip install -r /tmp/requirements.txt \
 && rm /tmp/requirements.txt

# The code stays owned by root: the app user only reads it. Translations are compiled in locale/.
# The build-time SECRET_KEY exists only for collectstatic (production settings refuse to load
# without one); the running containers get theirs from the environment.
COPY . .
RUN pip install . \
 && rm -rf build ./*.egg-info \
 && python -m compileall -q clubsite competitions rankings pairings \
 && SECRET_KEY="$(python -c 'import secrets; print(secrets.token_urlsafe(50))')" \
        python manage.py collectstatic --noinput

USER clubsite
EXPOSE 8000

# gunicorn reads its worker count from WEB_CONCURRENCY; 3 suits a small 1-2 CPU server.
# --preload: the app is loaded once, before the workers fork (clubsite/wsgi.py freezes it for
# the garbage collector), so they share its memory: 3 workers took 172 MB (PSS) instead of 210
# serving the bench's pages (docs/performance.md, twenty-first round). Loading the app opens no
# database or broker connection (tests/test_wsgi.py), so the workers share none.
ENV WEB_CONCURRENCY=3

# Asks /healthz as the TLS proxy would (a host from ALLOWED_HOSTS, X-Forwarded-Proto so
# SECURE_SSL_REDIRECT does not redirect): 200 when the database, the broker and a worker answer
# and no season's standings lag behind for long (README, "Data safety").
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, http.client; host = os.getenv('ALLOWED_HOSTS', '').split(',')[0].strip().lstrip('.').replace('*', '') or 'localhost'; c = http.client.HTTPConnection('127.0.0.1', 8000, timeout=4); c.request('GET', '/healthz', headers={'Host': host, 'X-Forwarded-Proto': 'https'}); raise SystemExit(c.getresponse().status >= 500)"]

CMD ["gunicorn", "clubsite.wsgi", "--bind", "0.0.0.0:8000", "--preload", "--worker-tmp-dir", "/dev/shm", "--access-logfile", "-"]
