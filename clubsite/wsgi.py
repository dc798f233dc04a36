import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.settings")
application = get_wsgi_application()

# What the app has loaded so far (modules, classes, settings, URL patterns, about 90,000
# objects) lives as long as the process. Frozen, the collector no longer walks it on each full
# collection, which took 20-55 ms here and landed in whichever request was running; it walks
# only what requests made since (docs/performance.md, twentieth round). Under gunicorn's
# --preload this runs before the fork, so the workers also share these pages of memory longer.
gc.collect()
gc.freeze()
