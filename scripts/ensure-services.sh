#!/usr/bin/env bash
# Start Redis and PostgreSQL on loopback if they are not running (the test suite uses both).
# This machine kind installs them from Debian's packages; a machine without them gets them.
set -euo pipefail

need_install=()
command -v redis-server >/dev/null 2>&1 || need_install+=(redis-server)
command -v pg_ctlcluster >/dev/null 2>&1 || need_install+=(postgresql)
if [ ${#need_install[@]} -gt 0 ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_install[@]}"
fi

if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log
  for _ in $(seq 50); do redis-cli -h 127.0.0.1 ping >/dev/null 2>&1 && break; sleep 0.1; done
fi

if ! pg_isready -h 127.0.0.1 -p 5432 >/dev/null 2>&1; then
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start
  for _ in $(seq 100); do pg_isready -h 127.0.0.1 -p 5432 >/dev/null 2>&1 && break; sleep 0.1; done
fi

redis-cli -h 127.0.0.1 ping >/dev/null
pg_isready -h 127.0.0.1 -p 5432 >/dev/null
echo "services: redis and postgresql are up"
