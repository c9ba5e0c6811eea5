# wrk runs and their figures, shared by scripts/bench-proxy.sh and scripts/bench-fleet-proxy.sh:
# the same load (scripts/bench-proxy/cards.lua: random cards, the key read from a file) and the same
# BENCH_RESULT line read back. Loaded by bench-preamble.sh; the scripts set RUN (where each run's
# output goes), IDS_FILE, RANGE, THREADS and CONNECTIONS first.

# run_wrk <name> <url> <seconds> <key file or ""> -> $RUN/<name>.wrk (text with a BENCH_RESULT line)
run_wrk() {
  local name="$1" url="$2" secs="$3" key="$4"
  wrk -t "$THREADS" -c "$CONNECTIONS" -d "${secs}s" --latency -s "$ROOT/scripts/bench-proxy/cards.lua" "$url" -- "$IDS_FILE" "$key" "$RANGE" \
    > "$RUN/$name.wrk" 2>&1 || { cat "$RUN/$name.wrk" >&2; die "wrk failed against $url"; }
  grep -q '^BENCH_RESULT ' "$RUN/$name.wrk" || { cat "$RUN/$name.wrk" >&2; die "no result line from wrk ($name)"; }
}

# field <name> <key>: a key=value from the BENCH_RESULT line of a run
field() { sed -n 's/^BENCH_RESULT //p' "$RUN/$1.wrk" | tr ' ' '\n' | sed -n "s/^$2=//p"; }

# CPU seconds (user + system) of processes and their direct children, from /proc.
cpu_seconds() {
  local ticks=0 pid p
  for pid in "$@"; do
    for p in "$pid" $(ps -o pid= --ppid "$pid" 2>/dev/null); do
      [[ -r "/proc/$p/stat" ]] || continue
      ticks=$(( ticks + $(awk '{ print $14 + $15 }' "/proc/$p/stat") ))
    done
  done
  awk -v t="$ticks" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", t / hz }'
}

# ms <microseconds>; rps <run name>: requests per second of a run; ratio <a> <b>: a / b
ms() { awk -v us="$1" 'BEGIN { printf "%.2f", us / 1000 }'; }
rps() { awk -v n="$(field "$1" requests)" -v us="$(field "$1" duration_us)" 'BEGIN { if (us > 0) printf "%.0f", n / (us / 1e6); else print 0 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "n/a" }'; }

# wrk_errors <run name>: non-2xx answers and socket errors of a run, added up (0 = a clean run)
wrk_errors() {
  local k sum=0
  for k in non2xx connect_err read_err write_err timeout_err; do sum=$(( sum + $(field "$1" "$k") )); done
  echo "$sum"
}
