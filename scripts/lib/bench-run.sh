# Shell functions the benchmark scripts share: find or install nginx, run it on a config of their
# own, start `catalog serve`, and stop what they started (only that, by PID) when they exit.
# Loaded by bench-preamble.sh (which defines log and die); the scripts set NGINX after find_nginx.

find_nginx() { command -v nginx 2>/dev/null || { [[ -x /usr/sbin/nginx ]] && echo /usr/sbin/nginx; } || true; }

# install_nginx [more Debian packages]: nginx-light (else nginx) and the others, from Debian. Prints
# why on stdout and returns 1 when it cannot.
install_nginx() {
  command -v apt-get >/dev/null 2>&1 || { echo "apt-get not found"; return 1; }
  [[ "$(id -u)" == 0 ]] || { echo "not root, cannot apt-get install"; return 1; }
  # Package scripts must not start the system nginx service; most containers already ship a
  # policy-rc.d that forbids it, otherwise put a temporary one in place for the install only.
  local own_policy=0
  if [[ ! -e /usr/sbin/policy-rc.d ]]; then
    printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d && own_policy=1
  fi
  local ok=1 pkg
  for pkg in nginx-light nginx; do
    if DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$pkg" "$@" >&2 \
      || { DEBIAN_FRONTEND=noninteractive apt-get update -q >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$pkg" "$@" >&2; }; then
      ok=0; break
    fi
  done
  (( own_policy )) && rm -f /usr/sbin/policy-rc.d
  (( ok == 0 )) || { echo "apt-get install nginx-light|nginx${*:+ $*} failed"; return 1; }
}

# stop_pid <pid> <signal> <seconds>: signals a process this script started and waits for it to go;
# SIGKILL after <seconds>. Nothing else is ever signalled.
stop_pid() {
  local pid="$1" sig="$2" wait_s="$3" i
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 0
  kill "-$sig" "$pid" 2>/dev/null || return 0
  for ((i = 0; i < wait_s * 10; i++)); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  log "pid $pid still running after ${wait_s}s; sending SIGKILL"
  kill -KILL "$pid" 2>/dev/null || true
}

# start_nginx <template> <dir> [sed arguments]: writes <dir>/nginx.conf from the template with
# @PREFIX@ = <dir>, @PORT@ = a free port and the given sed expressions (-e 's|@X@|v|g' ...), starts
# nginx on it in the foreground of a background job (the config says `daemon off`, so $! is the
# master's PID) and waits until it answers on 127.0.0.1. Sets NGINX_PID and NGINX_URL; tries five
# ports before giving up.
start_nginx() {
  local template="$1" dir="$2" attempt port i
  shift 2
  for attempt in 1 2 3 4 5; do
    port="$(node "$(dirname "${BASH_SOURCE[0]}")/free-port.mjs")"
    sed -e "s|@PREFIX@|$dir|g" -e "s|@PORT@|$port|g" "$@" "$template" > "$dir/nginx.conf"
    # -e: the compiled-in error log (/var/log/nginx) is opened before the config is read; point it
    # here too. -p: relative paths resolve under the run folder, not /usr/share/nginx.
    "$NGINX" -t -q -e "$dir/error.log" -p "$dir/" -c "$dir/nginx.conf" \
      || die "nginx rejected $dir/nginx.conf (see $dir/error.log)"
    "$NGINX" -e "$dir/error.log" -p "$dir/" -c "$dir/nginx.conf" &
    NGINX_PID=$!
    for ((i = 0; i < 50; i++)); do
      if ! kill -0 "$NGINX_PID" 2>/dev/null; then break; fi
      if curl -s -o /dev/null "http://127.0.0.1:$port/"; then NGINX_URL="http://127.0.0.1:$port"; return 0; fi
      sleep 0.1
    done
    log "nginx did not come up on port $port (attempt $attempt); retrying"
    stop_pid "$NGINX_PID" TERM 5
    NGINX_PID=""
  done
  die "nginx did not start; see $dir/error.log"
}

# stop_started_on_exit: when the script exits (or is interrupted), stop NGINX_PID with SIGQUIT
# (nginx's graceful stop: the master waits for its workers and removes its pid file), PROXY_PID
# with SIGTERM (the proxy drains, DRAIN_TIMEOUT_MS = 10 s) and BARE_PID (bench-proxy's plain
# node:http reference) with SIGTERM, then exit with the script's status.
stop_started_on_exit() {
  NGINX_PID=""
  PROXY_PID=""
  BARE_PID=""
  trap _stop_started EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
}
_stop_started() {
  local rc=$?
  stop_pid "$NGINX_PID" QUIT 10
  stop_pid "$PROXY_PID" TERM 15
  stop_pid "$BARE_PID" TERM 5
  wait 2>/dev/null || true
  exit "$rc"
}

# start_proxy <stdout file> <stderr file> [VAR=value ...] -- [serve options ...]: starts `catalog serve`
# on SNAPS and STATE, on a free port of 127.0.0.1, as PROXY_PID, and waits for it (wait_for_proxy).
# Its environment holds only PATH, HOME and the given variables: no session, internal key or
# first-party origins from the caller's shell.
start_proxy() {
  local out="$1" err="$2" vars=()
  shift 2
  while [[ $# -gt 0 && "$1" != -- ]]; do vars+=("$1"); shift; done
  shift
  env -i PATH="$PATH" HOME="${HOME:-/root}" "${vars[@]}" \
    node bin/catalog.js serve --snapshots "$SNAPS" --state "$STATE" --host 127.0.0.1 --port 0 "$@" \
    > "$out" 2> "$err" &
  PROXY_PID=$!
  wait_for_proxy "$out" "$err"
}

# wait_for_proxy <stdout file> <stderr file>: waits (30 s at most) for the `listening on <url>` line
# of the `catalog serve` started as PROXY_PID; sets PROXY_URL, or dies with its stderr.
wait_for_proxy() {
  PROXY_URL="$(wait_for_listening "$PROXY_PID" "$1" "$2" "the proxy")"
}

# wait_for_listening <pid> <stdout file> <stderr file> <name>: prints the URL of the first
# `listening on <url>` line of <stdout file> once it appears (30 s at most), or dies with <stderr file>.
wait_for_listening() {
  local pid="$1" out="$2" err="$3" name="$4" i url
  for ((i = 0; i < 300; i++)); do
    kill -0 "$pid" 2>/dev/null || { cat "$err" >&2; die "$name exited while starting"; }
    url="$(sed -n 's/^listening on \(http:[^ ]*\)$/\1/p' "$out" | head -n 1)"
    if [[ -n "$url" ]]; then echo "$url"; return 0; fi
    sleep 0.1
  done
  die "$name did not print 'listening on' within 30 s (see $err)"
}
