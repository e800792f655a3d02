"""Eleora settings: one file, read from the environment.

With nothing set, the app runs embedded: SQLite and the in-memory channel layer, DEBUG on.
`DATABASE_URL` switches to PostgreSQL (or any database dj-database-url reads) and `REDIS_URL`
switches fan-out to Redis, which a deployment with several server processes needs.
"""

from __future__ import annotations

import os
import tempfile
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


DEBUG = env_bool("DEBUG", True)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = "dev-only-insecure-key-eleora"  # noqa: S105 - embedded default, DEBUG only

ALLOWED_HOSTS = [
    h.strip() for h in os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost").split(",") if h
]
CSRF_TRUSTED_ORIGINS = [
    o.strip() for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()
]

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "axes",
    "django_htmx",
    "template_partials.apps.SimpleAppConfig",
    "characters",
    "combat",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "characters.language.LanguageMiddleware",  # Polish unless picked: never Accept-Language
    "combat.terms.RulesetTermsMiddleware",  # a campaign's pages read in its ruleset's terms
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "eleora_site.debug.LoopbackDebugPages",  # DEBUG only; inside CommonMiddleware's slash redirect
    "axes.middleware.AxesMiddleware",  # last: turns a locked sign-in into its 429 page
]

ROOT_URLCONF = "eleora_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": False,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            "builtins": ["template_partials.templatetags.partials"],
            # Cached: a socket push renders several partials per viewer and must not re-read
            # and re-parse the page each time (an explicit loader list turns Django's own
            # cache off). Restart the server to see template edits.
            "loaders": [
                (
                    "template_partials.loader.Loader",
                    [
                        (
                            "django.template.loaders.cached.Loader",
                            [
                                "eleora_site.loaders.Loader",
                                "django.template.loaders.app_directories.Loader",
                            ],
                        )
                    ],
                )
            ],
        },
    },
]

ASGI_APPLICATION = "eleora_site.asgi.application"
WSGI_APPLICATION = None

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        # Keep connections: Channels runs every socket's database work through one thread
        # that closes expired connections around each call, and with 0 every websocket
        # message opened a new PostgreSQL connection (a third of a connect storm's time).
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "300")),
        # No health check: it would cost a SELECT 1 before every socket message; a connection
        # that died fails one call and is replaced at the next.
        conn_health_checks=False,
    )
}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # A busy timeout keeps several writers (daphne threads, test processes) from failing at once.
    # IMMEDIATE transactions take the write lock up front, so two appends queue on the busy
    # timeout instead of one failing with "database is locked" when it upgrades its lock.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 20, "transaction_mode": "IMMEDIATE"}
    )
    # Tests use a file, not the shared-cache in-memory database: that one answers concurrent
    # writers with "table is locked" at once instead of waiting on the busy timeout.
    DATABASES["default"]["TEST"] = {
        "NAME": str(Path(tempfile.gettempdir()) / f"eleora-test-{os.getpid()}.sqlite3")
    }

REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    from redis.asyncio.retry import Retry
    from redis.backoff import ExponentialBackoff
    from redis.exceptions import ConnectionError as RedisConnectionError

    # `core` (lists and sorted sets; the default) or `pubsub` (Redis PUBLISH/SUBSCRIBE): the
    # benchmark compares both (docs/performance.md).
    CHANNEL_LAYER_BACKENDS = {
        "core": "channels_redis.core.RedisChannelLayer",
        "pubsub": "channels_redis.pubsub.RedisPubSubChannelLayer",
    }
    CHANNEL_LAYER = os.environ.get("CHANNEL_LAYER", "core")
    if CHANNEL_LAYER not in CHANNEL_LAYER_BACKENDS:
        raise ImproperlyConfigured(f"CHANNEL_LAYER must be one of {sorted(CHANNEL_LAYER_BACKENDS)}")
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": CHANNEL_LAYER_BACKENDS[CHANNEL_LAYER],
            "CONFIG": {
                "hosts": [
                    {
                        "address": REDIS_URL,
                        # redis-py 8 reads with a 5 s timeout by default, exactly as long as
                        # channels_redis blocks in BZPOPMIN: every idle socket would be torn
                        # down every 5 s (redis-py#4091, channels_redis#422).
                        "socket_timeout": 30,
                        # A restarted Redis: reconnect and retry instead of dropping sockets.
                        "retry_on_error": [RedisConnectionError],
                        "retry": Retry(ExponentialBackoff(cap=1.0, base=0.05), 8),
                        # redis-py 8 caps a pool at 100 connections and fails the 101st at
                        # once ("Too many connections"): a reconnect storm of a few hundred
                        # sockets, each joining its group, crashed consumers with 1011.
                        "max_connections": 2000,
                    }
                ]
            },
        }
    }
else:
    if not DEBUG and not env_bool("ALLOW_IN_MEMORY_LAYER", False):
        raise ImproperlyConfigured(
            "REDIS_URL must be set when DEBUG is off: the in-memory channel layer "
            "does not reach other server processes."
        )
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
if env_bool("FAST_PASSWORD_HASHER", False):
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Sign-in throttling (django-axes): 5 failed attempts on one account, or from one address,
# lock that account (from anywhere) or that address (for any account) for 15 minutes; each
# further attempt during the lock starts the 15 minutes again.
# Axes' backend only refuses a locked account or address; Django's ModelBackend signs in (and
# stays the backend recorded in sessions, so none ends when this list changes).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_LOCKOUT_CALLABLE = "characters.views.locked_out"
AXES_CLIENT_IP_CALLABLE = "eleora_site.clients.client_address"
# The reverse proxies whose `X-Forwarded-For` is believed (deploy/nginx.conf runs on the host).
TRUSTED_PROXIES = frozenset(
    a.strip() for a in os.environ.get("TRUSTED_PROXIES", "127.0.0.1,::1").split(",") if a.strip()
)

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "campaign-list"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "pl"
LANGUAGES = [("pl", _("Polski")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Warsaw"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG

MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "media"))
# Portraits are served through a view that checks campaign membership, never as public media.
FILE_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True

# Served over HTTPS (on unless DEBUG): TLS ends at nginx (deploy/nginx.conf), which tells the
# app the scheme in X-Forwarded-Proto (set by nginx, never passed on from the client). Cookies
# go over HTTPS only, plain-http requests are redirected, and browsers are told to use HTTPS
# for a year. HTTPS=0 for plain-http setups on loopback (the benchmark's servers).
HTTPS = env_bool("HTTPS", not DEBUG)
if HTTPS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = 365 * 24 * 3600
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    # Allows (does not make) a submission to the browsers' preload list; HSTS_PRELOAD=0 when
    # the domain's other sites are not all on HTTPS.
    SECURE_HSTS_PRELOAD = env_bool("HSTS_PRELOAD", True)

# E-mail (a by-post turn mails the players it waits on: combat/posts.py). The console by
# default; `EMAIL_FILE_PATH` writes each mail to a file in that folder; `EMAIL_HOST` sends
# through SMTP (with `EMAIL_PORT`, `EMAIL_HOST_USER`, `EMAIL_HOST_PASSWORD`, `EMAIL_USE_TLS`).
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_FILE_PATH = os.environ.get("EMAIL_FILE_PATH", "")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", EMAIL_PORT == 587)
    EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", EMAIL_PORT == 465 and not EMAIL_USE_TLS)
elif EMAIL_FILE_PATH:
    EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
# Mails are queued with what causes them and sent after commit by each process's mail thread
# (characters/outbox.py); MAIL_THREAD=0: no thread, `manage.py sweep_tables` sends them.
MAIL_THREAD = env_bool("MAIL_THREAD", True)
# Seconds an SMTP server may take: a dead one must not hold a table's command for long.
EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT", "10"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Eleora <eleora@localhost>")
# The site's address as the players reach it: the links in the mails.
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
# How often each server process looks for tables whose deadline or reminder is due (seconds;
# 0: never, e.g. when `manage.py sweep_tables --loop` runs beside the servers).
SWEEP_S = float(os.environ.get("SWEEP_S", "30"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
