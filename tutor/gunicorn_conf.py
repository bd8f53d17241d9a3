"""gunicorn settings shared by ``manage.py serve`` and the systemd unit (``deploy/``).

Threaded workers sized to the cores: most of a request's time is the database
and the template, and a class's htmx polling is many short requests, so a few
processes with several threads each keep every core busy without many copies
of Django in memory. Environment variables override each value.
"""

import os

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", str(max(2, (os.cpu_count() or 1) + 1))))
worker_class = "gthread"
# Twenty threads: a run's page holds its status request open until the run ends (exercises/labs/push.py),
# at most LAB_RUN_HOLD_MAX (12) per process, so eight threads always answer pages at once. With fewer
# holds than a class clicking at once, the rest were answered at once and asked again at once: on
# 7 December that spin cost 60-80 ms of CPU per run (README, Performance). Each thread may keep a
# PostgreSQL connection: processes x threads must stay under the server's max_connections. The settings
# read this value (settings.GUNICORN_THREADS), and their system check labs.W004 keeps LAB_RUN_HOLD_MAX below it.
threads = int(os.environ.get("GUNICORN_THREADS", "20"))
# A burst of a whole class must queue in the kernel, not be refused.
backlog = int(os.environ.get("GUNICORN_BACKLOG", "2048"))
keepalive = 5
timeout = 30
graceful_timeout = 20
# Restart workers now and then so a slow leak cannot grow for ever.
max_requests = 5000
max_requests_jitter = 500
# Requests are logged by the site itself (JSON, with request ids); gunicorn logs only errors.
accesslog = None
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "warning")
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
wsgi_app = "tutor.wsgi:application"
