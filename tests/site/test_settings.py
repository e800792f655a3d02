"""Settings read the environment: embedded defaults, and a clear error for production gaps."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = (
    "import json; from django.conf import settings as s; "
    "print(json.dumps({'db': s.DATABASES['default']['ENGINE'], "
    "'layer': s.CHANNEL_LAYERS['default']['BACKEND'], 'debug': s.DEBUG}))"
)


def run_settings(**env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    clean.update(env, DJANGO_SETTINGS_MODULE="eleora_site.settings")
    code = f"import django; django.setup(); {PROBE}"
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True
    )


def test_it_defaults_to_sqlite_and_the_in_memory_layer() -> None:
    result = run_settings()
    assert result.returncode == 0, result.stderr
    probe = json.loads(result.stdout)
    assert probe["db"] == "django.db.backends.sqlite3"
    assert probe["layer"] == "channels.layers.InMemoryChannelLayer"
    assert probe["debug"] is True


def test_it_switches_to_postgresql_and_redis_from_the_environment() -> None:
    result = run_settings(
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/eleora",
        REDIS_URL="redis://127.0.0.1:6379/0",
    )
    assert result.returncode == 0, result.stderr
    probe = json.loads(result.stdout)
    assert probe["db"] == "django.db.backends.postgresql"
    assert probe["layer"] == "channels_redis.core.RedisChannelLayer"


def test_it_refuses_production_without_a_secret_key() -> None:
    result = run_settings(DEBUG="0", REDIS_URL="redis://127.0.0.1:6379/0")
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_it_refuses_production_on_the_in_memory_layer() -> None:
    result = run_settings(DEBUG="0", SECRET_KEY="x" * 50)
    assert result.returncode != 0
    assert "REDIS_URL must be set" in result.stderr


def test_the_production_settings_pass_the_deploy_check() -> None:
    """DEBUG off behind the README's nginx: secure cookies, HSTS, the proxy's scheme header
    and the HTTPS redirect, with no warning left from Django's deployment checklist."""
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    clean.update(
        DJANGO_SETTINGS_MODULE="eleora_site.settings",
        DEBUG="0",
        SECRET_KEY="production-" + "k3y-0f-f1fty-ch4r4ct3rs-4nd-m0r3-" * 2,
        REDIS_URL="redis://127.0.0.1:6379/0",
        ALLOWED_HOSTS="eleora.example.org",
    )
    clean.pop("HTTPS", None)
    command = [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"]
    result = subprocess.run(command, cwd=ROOT, env=clean, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout
