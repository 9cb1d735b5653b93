#!/bin/sh
# A private PostgreSQL server for the tests (`make test`, `make test-postgres`): Debian's
# `postgresql` package, its own data folder and Unix socket in a new temporary folder, no TCP
# (listen_addresses = ''), run as a non-root user (`nobody` when started by root), trust
# authentication for the database user `porter`.
#   scripts/postgres-server.sh start        prints the folder (the socket folder: $FOLDER/socket)
#   scripts/postgres-server.sh stop FOLDER  stops the server and removes the folder
set -eu
bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
  echo "postgres-server.sh: Debian's postgresql package is not installed (apt-get install postgresql)" >&2
  exit 1
fi
# As root, the server runs as `nobody` (PostgreSQL refuses to run as root).
as_user() {
  if [ "$(id -u)" = "0" ]; then runuser -u nobody -- "$@"; else "$@"; fi
}
case "${1:-}" in
start)
  folder=$(mktemp -d "${TMPDIR:-/tmp}/porter-postgres-XXXXXX")
  mkdir "$folder/socket"
  chmod 755 "$folder"
  [ "$(id -u)" = "0" ] && chown -R nobody "$folder"
  as_user "$bindir/initdb" -D "$folder/data" -U porter --auth=trust -E UTF8 --locale=C.UTF-8 >"$folder/initdb.log" 2>&1 \
    || { cat "$folder/initdb.log" >&2; exit 1; }
  as_user "$bindir/pg_ctl" -D "$folder/data" -l "$folder/server.log" -w -t 60 \
    -o "-c listen_addresses='' -c unix_socket_directories='$folder/socket' -c fsync=off" start >/dev/null \
    || { cat "$folder/server.log" >&2; exit 1; }
  echo "$folder"
  ;;
stop)
  folder=${2:?usage: postgres-server.sh stop FOLDER}
  case "$folder" in *porter-postgres-*) ;; *) echo "not a server folder: $folder" >&2; exit 1 ;; esac
  if [ -d "$folder/data" ]; then
    as_user "$bindir/pg_ctl" -D "$folder/data" -m fast -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$folder"
  ;;
*)
  echo "usage: postgres-server.sh start | stop FOLDER" >&2
  exit 64
  ;;
esac
