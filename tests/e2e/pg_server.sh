#!/usr/bin/env bash
# A throw-away PostgreSQL server for the tests (the store's unit tests, the e2e test, and the
# ctest fixture that shares one server between the state tests).
#
#   pg_server.sh start DIR   initdb + pg_ctl start in DIR (created; must not exist or be
#                            empty), on a Unix socket in DIR and a random 127.0.0.1 port.
#                            Prints the libpq connection string (Unix socket, no password)
#                            and writes DIR/conninfo, DIR/port, DIR/password (the password of
#                            user strata over TCP, which needs one: scram-sha-256), and, when
#                            openssl is there, serves TLS with a certificate for localhost and
#                            127.0.0.1 signed by a CA of its own (DIR/ca.crt).
#                            Exit 77, the reason on stderr and in DIR/unavailable, when no
#                            server can be had (no initdb/pg_ctl; root without a postgres user).
#   pg_server.sh stop DIR    stops it (immediate) and removes DIR.
#   pg_server.sh pause DIR   stops it as a crash would (pg_ctl stop -m immediate), keeping
#                            its data; `resume DIR` starts it again on the same port.
#
# The server runs with fsync=off (the tests do not cut the power); PG_SERVER_FSYNC=on makes
# its commits durable, for benchmarks.
#
# initdb refuses to run as root: as root, the server runs as the `postgres` user (runuser),
# in a directory given to it.
set -uo pipefail
cmd=${1:?start or stop}
dir=${2:?directory}

find_tool() {
  local t
  t=$(command -v "$1" 2>/dev/null) && { echo "$t"; return 0; }
  for t in /usr/local/bin/"$1" /usr/lib/postgresql/*/bin/"$1"; do
    [ -x "$t" ] && { echo "$t"; return 0; }
  done
  return 1
}

unavailable() {
  mkdir -p "$dir" 2>/dev/null && echo "$1" >"$dir/unavailable"
  echo "no PostgreSQL server for the tests: $1" >&2
  exit 77
}

as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$cmd" in
start)
  initdb=$(find_tool initdb) || unavailable "initdb is not installed (apt-get install postgresql)"
  pg_ctl=$(find_tool pg_ctl) || unavailable "pg_ctl is not installed (apt-get install postgresql)"
  mkdir -p "$dir" || unavailable "cannot create $dir"
  rm -f "$dir/unavailable"
  if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || unavailable "running as root and there is no postgres user to run initdb as"
    chown postgres "$dir" || unavailable "cannot give $dir to the postgres user"
    chmod 0755 "$dir"
  fi
  # TLS with a CA of its own (DIR/ca.crt), for clients that verify the server
  # (sslmode=verify-full): the certificate names localhost and 127.0.0.1.
  tls_options=""
  if command -v openssl >/dev/null; then
    if (cd "$dir" && openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=strata test CA" \
          -keyout ca.key -out ca.crt &&
        openssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" -keyout server.key -out server.csr &&
        printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\n' >san.ext &&
        openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 2 -extfile san.ext \
          -out server.crt) >"$dir/tls.log" 2>&1; then
      chmod 0600 "$dir/server.key"
      [ "$(id -u)" = 0 ] && chown postgres "$dir/server.key" "$dir/server.crt"
      chmod 0644 "$dir/ca.crt"
      tls_options="-c ssl=on -c ssl_cert_file=$dir/server.crt -c ssl_key_file=$dir/server.key"
    fi
  fi
  password="strata-test-$RANDOM$RANDOM"
  as_owner bash -c "umask 077; echo '$password' >'$dir/pwfile'"
  if ! as_owner "$initdb" -D "$dir/data" -U strata --pwfile="$dir/pwfile" --auth-local=trust \
       --auth-host=scram-sha-256 -E UTF8 --no-sync >"$dir/initdb.log" 2>&1; then
    unavailable "initdb failed: $(tail -3 "$dir/initdb.log" | tr '\n' ' ')"
  fi
  started=""
  for _ in 1 2 3 4 5; do
    port=$((20000 + RANDOM % 40000))
    options="-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=${PG_SERVER_FSYNC:-off} -c max_connections=100 $tls_options"
    if as_owner "$pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 -o "$options" start >>"$dir/pg_ctl.log" 2>&1; then
      echo "$options" >"$dir/options"
      started=1
      break
    fi
  done
  [ -n "$started" ] || unavailable "pg_ctl start failed: $(tail -3 "$dir/server.log" 2>/dev/null | tr '\n' ' ')"
  echo "$port" >"$dir/port"
  echo "$password" >"$dir/password"
  chmod 0644 "$dir/port" "$dir/password" 2>/dev/null
  echo "host=$dir port=$port user=strata dbname=postgres" >"$dir/conninfo"
  cat "$dir/conninfo"
  ;;
pause)
  pg_ctl=$(find_tool pg_ctl) || exit 1
  as_owner "$pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1
  ;;
resume)
  pg_ctl=$(find_tool pg_ctl) || exit 1
  as_owner "$pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 -o "$(cat "$dir/options")" start >>"$dir/pg_ctl.log" 2>&1
  ;;
stop)
  [ -d "$dir/data" ] || { rm -rf "$dir"; exit 0; }
  pg_ctl=$(find_tool pg_ctl) || exit 0
  as_owner "$pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1
  rm -rf "$dir"
  ;;
*)
  echo "usage: pg_server.sh start|stop|pause|resume DIR" >&2
  exit 2
  ;;
esac
