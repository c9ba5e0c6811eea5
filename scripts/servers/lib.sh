# Shared by redis.sh and postgres.sh (sourced, not run): apt installs that start no service, a free
# loopback port, launching with the PID recorded at once, and stopping only the PIDs recorded.
# The sourcing script sets NAME (for messages), PACKAGES, STATE, RUN and LOGS, defines
# `ours <name>` (its recorded PID runs and /proc/<pid>/cmdline still looks like ours), `answers`
# (the server takes requests), `where` (its address, for messages) and cmd_install, cmd_start,
# cmd_stop, cmd_env, then ends with `dispatch "$@"`.

log() { printf '%s.sh: %s\n' "$NAME" "$*" >&2; }
die() { printf '%s.sh: %s\n' "$NAME" "$*" >&2; exit 1; }

packages_installed() { dpkg-query -W -f='${Status}\n' "${PACKAGES[@]}" 2>/dev/null | grep -c '^install ok installed$' | grep -qx "${#PACKAGES[@]}"; }

apt_install() {
  command -v apt-get >/dev/null 2>&1 || die "apt-get not found: install ${PACKAGES[*]} from Debian's packages by hand"
  [[ "$(id -u)" == 0 ]] || die "not root: run 'apt-get install -y ${PACKAGES[*]}' as root"
  # Package scripts must not start services (no systemd here); keep a policy-rc.d that says so.
  local own_policy=0 rc=0
  if [[ ! -e /usr/sbin/policy-rc.d ]]; then
    printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d && own_policy=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get update -q >&2 \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${PACKAGES[@]}" >&2 || rc=$?
  (( own_policy )) && rm -f /usr/sbin/policy-rc.d
  (( rc == 0 )) || die "apt-get install ${PACKAGES[*]} failed (exit $rc)"
  log "installed ${PACKAGES[*]}"
}

# free_port [previous]: the previous port when it is still free (a restarted server keeps its URL,
# so clients holding it reconnect by themselves), else any free loopback port.
free_port() {
  node -e '
    const net = require("node:net");
    const listen = (port) => new Promise((ok, fail) => {
      const s = net.createServer().once("error", fail);
      s.listen(port, "127.0.0.1", () => { const p = s.address().port; s.close(() => ok(p)); });
    });
    listen(Number(process.argv[1]) || 0).catch(() => listen(0)).then((p) => console.log(p));' "${1:-0}"
}

pid_of() { [[ -s "$RUN/$1.pid" ]] && cat "$RUN/$1.pid" || true; }
# alive <name>: the PID launch just recorded still runs. The start loops use it rather than `ours`:
# a server renaming itself (redis-server) can show a half-written command line for a moment.
alive() { local pid; pid="$(pid_of "$1")"; [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; }
cmdline_of() { { tr '\0' ' ' < "/proc/$1/cmdline"; } 2>/dev/null || true; }

# launch <name> <command...>: runs it in the background (its output in log/<name>.log) and records
# its PID before anything else happens, so a start cut short can still be stopped.
launch() {
  local name="$1"
  shift
  "$@" </dev/null >"$LOGS/$name.log" 2>&1 &
  echo $! > "$RUN/$name.pid"
}

# stop_recorded <name> <signal>: signals the recorded PID while it is still ours, waits up to 10 s,
# then KILLs it; removes the PID file.
stop_recorded() {
  local name="$1" signal="$2" pid i
  pid="$(pid_of "$name")"
  if [[ -n "$pid" ]] && ours "$name"; then
    kill "-$signal" "$pid" 2>/dev/null || true
    for ((i = 0; i < 100; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
      log "pid $pid still running after 10 s; sending SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
    fi
    log "stopped pid $pid"
  fi
  rm -f "$RUN/$name.pid"
}

dispatch() {
  case "${1:-}" in
    install) cmd_install ;;
    start) cmd_start ;;
    up) cmd_install && cmd_start ;;
    stop) cmd_stop ;;
    env) cmd_env ;;
    status) ours "$NAME" && answers && log "running at $(where)" || { log "not running"; exit 1; } ;;
    *) die "usage: $NAME.sh install|start|up|stop|env|status" ;;
  esac
}
