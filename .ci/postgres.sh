#!/usr/bin/env bash
# Install Debian's PostgreSQL server binaries if they are missing (idempotent).
# The store tests start and stop their own throwaway server (tests/pg.py); nothing runs here.
set -euo pipefail

if command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "postgres.sh: PostgreSQL is missing and this is not root: install the 'postgresql' package" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq postgresql >/dev/null
# Debian's package starts a cluster on port 5432; the tests do not use it.
