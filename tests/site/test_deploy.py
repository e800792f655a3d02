"""deploy/: nginx's configurations pass `nginx -t`; the deployed one ends TLS and sends plain
HTTP to HTTPS, the loopback one (the benchmark's) serves the same locations on plain HTTP."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
CERTIFICATE = "/etc/letsencrypt/live/eleora.example.org/"

pytestmark = pytest.mark.skipif(
    not Path(NGINX).exists() or shutil.which("openssl") is None, reason="needs nginx and openssl"
)


def nginx_test(conf: str, prefix: Path) -> subprocess.CompletedProcess[str]:
    """`nginx -t` of deploy/`conf` copied under `prefix`, with a self-signed certificate in
    place of the site's."""
    shutil.copytree(ROOT / "deploy", prefix / "deploy")
    (prefix / "build" / "nginx").mkdir(parents=True)
    key, cert = prefix / "privkey.pem", prefix / "fullchain.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=eleora.example.org", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    path = prefix / "deploy" / conf
    path.write_text(path.read_text().replace(CERTIFICATE, f"{prefix}/"))
    globals_ = f"pid {prefix}/nginx.pid; error_log {prefix}/error.log;"
    command = [NGINX, "-t", "-p", f"{prefix}/", "-c", f"deploy/{conf}", "-g", globals_]
    return subprocess.run(command, capture_output=True, text=True)


def test_the_deployed_front_door_ends_tls_and_redirects_plain_http(tmp_path: Path) -> None:
    result = nginx_test("nginx.conf", tmp_path)
    assert result.returncode == 0, result.stderr
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    assert re.search(r"listen 443 ssl", conf) and f"{CERTIFICATE}fullchain.pem" in conf
    plain = re.search(r"server \{\s*listen 80;.*?\}", conf, re.S)
    assert plain is not None and "return 301 https://$host$request_uri;" in plain.group(0)
    locations = (ROOT / "deploy" / "eleora-locations.conf").read_text()
    assert locations.count("proxy_set_header X-Forwarded-Proto $scheme;") == 2  # pages, sockets
    assert "proxy_set_header Upgrade $http_upgrade;" in locations


def test_the_loopback_front_door_serves_plain_http(tmp_path: Path) -> None:
    result = nginx_test("nginx-loopback.conf", tmp_path)
    assert result.returncode == 0, result.stderr
    conf = (ROOT / "deploy" / "nginx-loopback.conf").read_text()
    assert "listen 127.0.0.1:8080;" in conf and "ssl" not in conf
