# The catalog a benchmark shell script serves, and its key: a generated catalog and its compiled
# snapshot kept between runs under the script's .bench/ folder, and a key minted into a fresh state
# file. Loaded by bench-preamble.sh (which defines log and die).

# cached_snapshot <work dir> <cards> <seed> [compile log]: sets CATALOG (<work dir>/catalog-<cards>),
# SNAPS (<work dir>/snapshots-<cards>), SNAPSHOT_DIR (the folder SNAPS/current points to now) and
# PUBLIC_KEY (<work dir>/signing/signing-key.pub.pem), generating and compiling only what an earlier
# run did not finish. The snapshot is packed (objects.sqlite and packs/, docs/snapshots.md) and signed
# with a key pair kept in <work dir>/signing/, because `catalog mirror` (cached_files_export) refuses
# an unsigned snapshot; a cached snapshot of the old per-URL layout, or an unsigned one, is compiled
# again. The compile's output goes to stderr, or, with [compile log], its stdout nowhere and its
# stderr to that file.
cached_snapshot() {
  local work="$1" cards="$2" seed="$3" compile_log="${4:-}"
  CATALOG="$work/catalog-$cards"
  SNAPS="$work/snapshots-$cards"
  PUBLIC_KEY="$work/signing/signing-key.pub.pem"
  # meta.json is written last by `generate`, and `current` only appears once a compile is complete,
  # so their presence means a finished earlier run (docs/generate.md, docs/snapshots.md).
  if [[ ! -f "$CATALOG/meta.json" ]]; then
    log "generating $cards cards into $CATALOG"
    rm -rf "$CATALOG" "$SNAPS"
    node bin/catalog.js generate --out "$CATALOG" --cards "$cards" --seed "$seed" >&2
  fi
  if [[ ! -f "$work/signing/signing-key.pem" ]]; then
    rm -rf "$work/signing" "$SNAPS"
    node bin/catalog.js signing init --out "$work/signing" >&2
  fi
  if [[ -e "$SNAPS/current" ]] && { [[ ! -f "$SNAPS/current/objects.sqlite" ]] || [[ ! -f "$SNAPS/current/manifest.ndjson.sig" ]]; }; then
    log "$SNAPS holds a per-URL or unsigned snapshot from an earlier version of this script; compiling again"
    rm -rf "$SNAPS"
  fi
  if [[ ! -e "$SNAPS/current" ]]; then
    log "compiling $CATALOG into $SNAPS"
    local compile=(node bin/catalog.js compile --source "$CATALOG" --out "$SNAPS" --sign-key "$work/signing/signing-key.pem")
    if [[ -n "$compile_log" ]]; then
      "${compile[@]}" > /dev/null 2> "$compile_log"
    else
      "${compile[@]}" >&2
    fi
  fi
  SNAPSHOT_DIR="$(readlink -f "$SNAPS/current")"
}

# cached_files_export <work dir> <cards> <proxy url> <key file>: the per-URL files nginx serves for
# the snapshot SNAPSHOT_DIR, made by the product's own path: `catalog mirror --layout files` from the
# running proxy (PROXY_URL, serving SNAPS) with the key, the signature checked against PUBLIC_KEY.
# Kept in <work dir>/export-<cards>/ like the snapshot, and synced again only when its `current` is
# not the snapshot's id (a new compile). Sets EXPORT (the mirror folder) and EXPORT_DIR (the folder
# its `current` points to: v1/..., etags.map). Run after cached_snapshot.
cached_files_export() {
  local work="$1" cards="$2" url="$3" key_file="$4" started=$SECONDS
  EXPORT="$work/export-$cards"
  if [[ "$(basename "$(readlink -f "$EXPORT/current" 2>/dev/null || true)")" != "$(basename "$SNAPSHOT_DIR")" \
      || ! -f "$EXPORT/current/etags.map" ]]; then
    log "exporting $(basename "$SNAPSHOT_DIR") as per-URL files: catalog mirror --layout files --to $EXPORT"
    node bin/catalog.js mirror --from "$url" --key "@$key_file" --to "$EXPORT" --public-key "$PUBLIC_KEY" \
      --layout files --keep 1 >&2 || die "catalog mirror --layout files failed (see above)"
    log "export written in $((SECONDS - started)) s"
  fi
  EXPORT_DIR="$(readlink -f "$EXPORT/current")"
  [[ -f "$EXPORT_DIR/etags.map" ]] || die "$EXPORT_DIR/etags.map is missing: is the export complete? (BENCH_REBUILD=1 starts over)"
}

# mint_key <state file> <tenant> <tier>: mints a key into the state file (created when absent) and
# prints the key alone, without a newline.
mint_key() {
  node bin/catalog.js keys mint --state "$1" --tenant "$2" --tier "$3" --json \
    | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>process.stdout.write(JSON.parse(s).key))'
}
