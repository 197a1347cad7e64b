#!/usr/bin/env bash
# make-postgres-tls.sh — the TLS files compose's PostgreSQL serves and its nodes check (sslmode=verify-full):
#   deploy/postgres-tls/ca.pem       a certificate authority of this machine's own (the nodes trust it)
#   deploy/postgres-tls/server.crt   the server's certificate, made out to the name "postgres" (compose's host name)
#   deploy/postgres-tls/server.key   its key (never committed: .gitignore keeps *.key out)
# Run once before `docker compose -f deploy/compose.yaml up`; --force makes new ones. Needs only openssl.
set -euo pipefail
dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/postgres-tls"
if [ -f "$dir/server.crt" ] && [ "${1:-}" != "--force" ]; then
    echo "$dir holds TLS files already (give --force to make new ones)"
    exit 0
fi
mkdir -p "$dir"
ec="-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes"
openssl req -x509 $ec -keyout "$dir/ca.key" -out "$dir/ca.pem" -days 825 -subj "/CN=Passmint compose PostgreSQL CA" 2>/dev/null
openssl req $ec -keyout "$dir/server.key" -out "$dir/server.csr" -subj "/CN=postgres" 2>/dev/null
printf 'subjectAltName=DNS:postgres\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' >"$dir/server.ext"
openssl x509 -req -in "$dir/server.csr" -CA "$dir/ca.pem" -CAkey "$dir/ca.key" -CAcreateserial -days 825 \
    -extfile "$dir/server.ext" -out "$dir/server.crt" 2>/dev/null
rm -f "$dir/server.csr" "$dir/server.ext" "$dir/ca.srl" "$dir/ca.key"
chmod 0644 "$dir/ca.pem" "$dir/server.crt"
chmod 0640 "$dir/server.key"
echo "wrote $dir/ca.pem, server.crt and server.key (made out to postgres)"
