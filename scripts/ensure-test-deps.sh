#!/usr/bin/env bash
# Install what the test suite needs that a fresh machine of this kind lacks, and nothing else:
# Debian's Chromium (Playwright drives it; no browser download), gettext (compilemessages), a
# font for the screenshots and nginx (the benchmark's front door, `deploy/nginx-loopback.conf`; its smoke
# check is the suite's last step). Each is checked first, so a prepared machine installs nothing.
set -euo pipefail

missing=()
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || missing+=(chromium)
command -v msgfmt >/dev/null 2>&1 || missing+=(gettext)
fc-list 2>/dev/null | grep -qi dejavu || missing+=(fonts-dejavu-core)
[ -x /usr/sbin/nginx ] || command -v nginx >/dev/null 2>&1 || missing+=(nginx-light)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)  # deploy/'s TLS check: a test certificate
if [ ${#missing[@]} -gt 0 ]; then
  echo "test-deps: installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
echo "test-deps: chromium, gettext, fonts, nginx and openssl are here"
