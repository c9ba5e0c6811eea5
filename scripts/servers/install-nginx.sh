#!/usr/bin/env bash
# Installs nginx (Debian's nginx-light) for the tests that run it: the mirror check
# (docs/mirroring/nginx.conf) and the HTTP catalog source against a real static file server.
# .ci/run calls it before `npm test`. Idempotent: when an nginx with the gzip_static and gunzip
# modules (docs/mirroring/nginx.conf needs both) is already there it only says so, in milliseconds.
# Needs root and apt-get (Debian). No service is started: the package's scripts may not start one
# (policy-rc.d), and each test starts its own nginx on a free port with its own prefix.
set -euo pipefail

find_nginx() {
  local p
  for p in /usr/sbin/nginx /usr/local/sbin/nginx /usr/bin/nginx; do [[ -x "$p" ]] && { echo "$p"; return 0; }; done
  command -v nginx 2>/dev/null || true
}

usable() {
  local bin="$1" modules
  [[ -n "$bin" ]] || return 1
  modules="$("$bin" -V 2>&1)" || return 1
  [[ "$modules" == *--with-http_gzip_static_module* && "$modules" == *--with-http_gunzip_module* ]]
}

NGINX="$(find_nginx)"
if usable "$NGINX"; then
  echo "install-nginx: $("$NGINX" -v 2>&1 | sed 's/^nginx version: //') already installed at $NGINX"
  exit 0
fi

command -v apt-get >/dev/null 2>&1 || { echo "install-nginx: apt-get not found; install nginx (with gzip_static and gunzip) by hand" >&2; exit 1; }
[[ "$(id -u)" == 0 ]] || { echo "install-nginx: not root; run as root, or install nginx-light by hand" >&2; exit 1; }

# Package scripts must not start the system nginx (port 80, no systemd here): most containers ship a
# policy-rc.d that forbids it; otherwise one is put in place for this install only.
own_policy=0
if [[ ! -e /usr/sbin/policy-rc.d ]]; then
  printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d
  chmod +x /usr/sbin/policy-rc.d
  own_policy=1
fi
trap 'if (( own_policy )); then rm -f /usr/sbin/policy-rc.d; fi' EXIT

started=$SECONDS
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends nginx-light
NGINX="$(find_nginx)"
usable "$NGINX" || { echo "install-nginx: nginx-light installed, but no nginx with gzip_static and gunzip was found" >&2; exit 1; }
echo "install-nginx: installed $("$NGINX" -v 2>&1 | sed 's/^nginx version: //') at $NGINX in $((SECONDS - started)) s"
