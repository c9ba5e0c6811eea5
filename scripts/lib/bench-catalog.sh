# The catalog a benchmark shell script serves, and its key: a generated catalog and its compiled
# snapshot kept between runs under the script's .bench/ folder, and a key minted into a fresh state
# file. Loaded by bench-preamble.sh (which defines log and die).

# cached_snapshot <work dir> <cards> <seed> [compile log]: sets CATALOG (<work dir>/catalog-<cards>),
# SNAPS (<work dir>/snapshots-<cards>) and SNAPSHOT_DIR (the folder SNAPS/current points to now),
# generating and compiling only what an earlier run did not finish. The compile's output goes to
# stderr, or, with [compile log], its stdout nowhere and its stderr to that file.
cached_snapshot() {
  local work="$1" cards="$2" seed="$3" compile_log="${4:-}"
  CATALOG="$work/catalog-$cards"
  SNAPS="$work/snapshots-$cards"
  # meta.json is written last by `generate`, and `current` only appears once a compile is complete,
  # so their presence means a finished earlier run (docs/generate.md, docs/snapshots.md).
  if [[ ! -f "$CATALOG/meta.json" ]]; then
    log "generating $cards cards into $CATALOG"
    rm -rf "$CATALOG" "$SNAPS"
    node bin/catalog.js generate --out "$CATALOG" --cards "$cards" --seed "$seed" >&2
  fi
  if [[ ! -e "$SNAPS/current" ]]; then
    log "compiling $CATALOG into $SNAPS"
    if [[ -n "$compile_log" ]]; then
      node bin/catalog.js compile --source "$CATALOG" --out "$SNAPS" > /dev/null 2> "$compile_log"
    else
      node bin/catalog.js compile --source "$CATALOG" --out "$SNAPS" >&2
    fi
  fi
  SNAPSHOT_DIR="$(readlink -f "$SNAPS/current")"
}

# mint_key <state file> <tenant> <tier>: mints a key into the state file (created when absent) and
# prints the key alone, without a newline.
mint_key() {
  node bin/catalog.js keys mint --state "$1" --tenant "$2" --tier "$3" --json \
    | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>process.stdout.write(JSON.parse(s).key))'
}
