#!/usr/bin/env bash
# Headless Chromium (Debian's package) for the browser test of the reference page (GET /docs,
# test/docs/docs-page.test.ts), driven over the DevTools protocol by puppeteer-core.
#
#   bash scripts/servers/chromium.sh install   # Debian's chromium; apt-get update only when it is missing
#   bash scripts/servers/chromium.sh bin       # the browser binary's path (exit 1 when not installed)
#   bash scripts/servers/chromium.sh start     # headless on a free loopback port; prints its ws:// endpoint
#   bash scripts/servers/chromium.sh up        # install, then start
#   bash scripts/servers/chromium.sh endpoint  # the ws:// endpoint of the running browser
#   bash scripts/servers/chromium.sh stop      # TERM (then KILL) the recorded PID's process group, nothing else
#
# Settings (environment): CHROMIUM_STATE (the state folder: profile, log, PID; default
# .servers/chromium of the checkout; each test run passes a temp folder of its own).
# The browser leads its own process group (setsid), so its renderer and helper processes go with it;
# `stop` signals only that group, and only while /proc/<pid>/cmdline still names this state folder.
set -euo pipefail
# No job control: the background browser then stays in this script's process group until setsid
# makes it a group of its own without forking, so the PID recorded is the browser's.
set +m

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
STATE="${CHROMIUM_STATE:-$ROOT/.servers/chromium}"
PROFILE="$STATE/profile"
PID_FILE="$STATE/chromium.pid"
LOG="$STATE/chromium.log"
PACKAGES=(chromium)

log() { printf 'chromium.sh: %s\n' "$*" >&2; }
die() { printf 'chromium.sh: %s\n' "$*" >&2; exit 1; }

# The browser itself, not Debian's /usr/bin/chromium wrapper script (which only adds flags from
# /etc/chromium.d and execs this).
find_bin() {
  local p
  for p in /usr/lib/chromium/chromium /usr/bin/chromium /usr/bin/chromium-browser; do [[ -x "$p" ]] && { echo "$p"; return 0; }; done
  return 1
}

cmd_install() {
  if find_bin >/dev/null; then log "installed already ($(find_bin))"; return 0; fi
  command -v apt-get >/dev/null 2>&1 || die "apt-get not found: install Chromium by hand (Debian: apt-get install -y chromium)"
  [[ "$(id -u)" == 0 ]] || die "not root: run 'apt-get install -y chromium' as root"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${PACKAGES[@]}" >&2 \
    || { DEBIAN_FRONTEND=noninteractive apt-get update -q >&2 \
         && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${PACKAGES[@]}" >&2; } \
    || die "apt-get install ${PACKAGES[*]} failed"
  log "installed $(find_bin)"
}

pid_of() { [[ -s "$PID_FILE" ]] && cat "$PID_FILE" || true; }
ours() {
  local pid
  pid="$(pid_of)"
  [[ -n "$pid" && -r "/proc/$pid/cmdline" ]] || return 1
  tr '\0' ' ' < "/proc/$pid/cmdline" | grep -qF -e "$PROFILE"
}

# Chromium writes the port it bound (port 0 asks for a free one) and the browser's path to
# <profile>/DevToolsActivePort once it listens.
endpoint() {
  [[ -s "$PROFILE/DevToolsActivePort" ]] || return 1
  local port path
  port="$(sed -n 1p "$PROFILE/DevToolsActivePort")"
  path="$(sed -n 2p "$PROFILE/DevToolsActivePort")"
  [[ -n "$port" && -n "$path" ]] || return 1
  echo "ws://127.0.0.1:$port$path"
}

cmd_start() {
  local bin
  bin="$(find_bin)" || die "Chromium is not installed: run 'bash scripts/servers/chromium.sh install' (as root, Debian)"
  if ours; then log "running already"; endpoint; return 0; fi
  mkdir -p "$PROFILE"
  rm -f "$PROFILE/DevToolsActivePort" "$PID_FILE"
  # --no-sandbox: the sandbox needs user namespaces or a setuid helper, which a root shell in a
  # container lacks. --disable-dev-shm-usage: /dev/shm is small in containers.
  setsid "$bin" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
    --no-default-browser-check --disable-extensions --disable-background-networking --mute-audio \
    --remote-debugging-address=127.0.0.1 --remote-debugging-port=0 --user-data-dir="$PROFILE" \
    about:blank </dev/null >"$LOG" 2>&1 &
  echo $! > "$PID_FILE"
  local i pid
  pid="$(pid_of)"
  for ((i = 0; i < 300; i++)); do
    # Alive is enough here: until the forked shell has exec'd the browser its command line is still
    # this script's, which `ours` would not recognize.
    kill -0 "$pid" 2>/dev/null || { tail -n 20 "$LOG" >&2; die "chromium exited while starting (log: $LOG)"; }
    if endpoint >/dev/null; then log "started pid $(pid_of) (state $STATE)"; endpoint; return 0; fi
    sleep 0.1
  done
  cmd_stop
  die "chromium did not open its DevTools port within 30 s (log: $LOG)"
}

cmd_stop() {
  local pid i
  pid="$(pid_of)"
  if ! ours; then rm -f "$PID_FILE"; log "not running"; return 0; fi
  kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < 50; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then
    log "pid $pid still running after 5 s; sending SIGKILL"
    kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$PID_FILE"
  log "stopped pid $pid"
}

case "${1:-}" in
  install) cmd_install ;;
  bin) find_bin || die "Chromium is not installed: run 'bash scripts/servers/chromium.sh install'" ;;
  start) cmd_start ;;
  up) cmd_install && cmd_start ;;
  endpoint) endpoint || die "not running: start it with 'bash scripts/servers/chromium.sh start'" ;;
  stop) cmd_stop ;;
  *) die "usage: chromium.sh install|bin|start|up|endpoint|stop" ;;
esac
