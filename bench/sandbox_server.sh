# sandbox_server.sh, sourced by the benchmarks that count AWS calls: one `strata sandbox
# serve` at a time on a world kept in $work/world.db, so that each server answers exactly
# one measured command and its closing line counts that command's calls. The caller sets
# STRATA and work (a fresh directory, removed on exit) and may set sandbox_args (flags for
# every start).

server=""
sandbox_cleanup() {
  [[ -n $server ]] && { kill "$server" 2>/dev/null; wait "$server" 2>/dev/null || true; }
  rm -rf "$work"
}
trap sandbox_cleanup EXIT

# serve LOG ARGS...: starts the sandbox on the bench's world; sets $url and AWS_ENDPOINT_URL.
serve() {
  local log=$1
  shift
  "$STRATA" sandbox serve --state "$work/world.db" ${sandbox_args[@]+"${sandbox_args[@]}"} "$@" >"$log" 2>&1 &
  server=$!
  url=""
  for _ in $(seq 1 100); do
    url=$(sed -n 's/^Strata sandbox serving AWS .* on \(http:[^ ]*\)$/\1/p' "$log")
    [[ -n $url ]] && break
    sleep 0.1
  done
  [[ -n $url ]] || { echo "the sandbox did not start:" >&2; cat "$log" >&2; exit 1; }
  export AWS_ENDPOINT_URL=$url
}

# stop LOG: stops the server; sets $calls to how many calls it answered. (Not in a command
# substitution: a subshell cannot wait for the server.)
stop() {
  kill -INT "$server"
  wait "$server" 2>/dev/null || true
  server=""
  calls=$(sed -n 's/^Sandbox stopped after \([0-9]*\) call.*/\1/p' "$1")
}
