#!/usr/bin/env bash
# A throw-away PostgreSQL server for the test suite, in its own folder, on loopback, with TLS on.
#   scripts/postgres-test-server.sh start DIR PORT   prints the database URL (PORT 0: a free port the server takes)
#   scripts/postgres-test-server.sh stop DIR
# The server's certificate (for localhost and 127.0.0.1) is signed by a test authority made at the first start, both
# in DIR (DIR/ca.pem, never committed); the URL printed asks for sslmode=verify-full against DIR/ca.pem, so every test
# connects as a managed PostgreSQL service is connected to.
# Installs PostgreSQL (Debian package) when missing. PostgreSQL refuses to run as root, so as root it runs the
# server as the 'postgres' system user.
set -euo pipefail
command=$1
dir=$2
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
as_postgres() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
case "$command" in
start)
    port=$3
    if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
        sudo=""; [ "$(id -u)" -ne 0 ] && sudo=sudo
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq postgresql >/dev/null
        bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
    fi
    mkdir -p "$dir"
    [ "$(id -u)" -eq 0 ] && chown postgres "$dir"
    as_postgres test -w "$dir" || { echo "the postgres user cannot write to $dir: give every parent folder o+x, or pick a folder under /tmp" >&2; exit 1; }
    # PostgreSQL refuses a data folder others can read (a chmod -R on the parent can cause this).
    [ -d "$dir/data" ] && as_postgres chmod 0700 "$dir/data"
    if [ ! -f "$dir/data/PG_VERSION" ]; then
        as_postgres "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --no-locale >/dev/null
    fi
    if [ ! -f "$dir/server.crt" ]; then
        # A test certificate authority and the server's certificate, valid 30 days, as the compose files are made.
        POSTGRES_TLS_DIR="$dir" POSTGRES_TLS_NAMES="DNS:localhost,IP:127.0.0.1" POSTGRES_TLS_DAYS=30 \
            "$(dirname "$0")/../deploy/make-postgres-tls.sh" >/dev/null
        chmod 0600 "$dir/server.key"
        [ "$(id -u)" -eq 0 ] && chown postgres "$dir/server.key" "$dir/server.crt"
        chmod 0644 "$dir/ca.pem"
    fi
    # One role that logs in with a password, for the tests of a refused login (every other role is trusted); first in
    # pg_hba.conf, which takes the first line that matches.
    if ! grep -q "passmint_password" "$dir/data/pg_hba.conf"; then
        { echo "host all passmint_password 127.0.0.1/32 scram-sha-256"; as_postgres cat "$dir/data/pg_hba.conf"; } >"$dir/pg_hba.new"
        as_postgres tee "$dir/data/pg_hba.conf" <"$dir/pg_hba.new" >/dev/null
        rm -f "$dir/pg_hba.new"
        as_postgres "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1 && as_postgres "$bin/pg_ctl" -D "$dir/data" reload >/dev/null
    fi
    # In postgresql.conf, so that a server already running from an earlier start takes it on a reload.
    if ! grep -q "^ssl = on" "$dir/data/postgresql.conf"; then
        printf "ssl = on\nssl_cert_file = '%s'\nssl_key_file = '%s'\n" "$dir/server.crt" "$dir/server.key" \
            | as_postgres tee -a "$dir/data/postgresql.conf" >/dev/null
        as_postgres "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1 && as_postgres "$bin/pg_ctl" -D "$dir/data" reload >/dev/null
    fi
    if ! as_postgres "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
        # Port 0: the server takes the first port from 55432 up that it can bind (the server binds it, so no other
        # program can take it between a look and the start).
        try=$port; [ "$port" = 0 ] && try=55432
        # max_connections: every test has a database and a pool of its own (up to 16 connections), and the whole
        # suite holds 150-330 at once on this machine, more on a faster one; at 500 a pool refused at the limit
        # waited out its back-off past connect_timeout (CI, stop 47).
        while true; do
            as_postgres truncate -s 0 "$dir/server.log" 2>/dev/null || true
            as_postgres "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -o "-p $try -k $dir -c listen_addresses=127.0.0.1 -c max_connections=2000 -c fsync=on" start >/dev/null 2>&1 && break
            if [ "$port" = 0 ] && [ "$try" -lt 55932 ] && grep -q "could not bind" "$dir/server.log"; then
                try=$((try + 1))
                continue
            fi
            echo "PostgreSQL did not start; its log:" >&2; cat "$dir/server.log" >&2; exit 1
        done
    fi
    # The port the server listens on (the fourth line of postmaster.pid): the one asked for, or the one it took.
    port=$(as_postgres sed -n 4p "$dir/data/postmaster.pid")
    as_postgres "$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'passmint_test'" | grep -q 1 \
        || as_postgres "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres passmint_test
    as_postgres "$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -tAc "SELECT 1 FROM pg_roles WHERE rolname = 'passmint_password'" | grep -q 1 \
        || as_postgres "$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -qc "CREATE ROLE passmint_password LOGIN PASSWORD 'right-password'"
    echo "postgres://postgres@127.0.0.1:$port/passmint_test?sslmode=verify-full&sslrootcert=$dir/ca.pem"
    ;;
stop)
    [ -f "$dir/data/PG_VERSION" ] && as_postgres "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    ;;
esac
