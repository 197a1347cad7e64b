#!/usr/bin/env bash
# make-postgres-tls.sh — the TLS files compose's PostgreSQL serves and its nodes check (sslmode=verify-full):
#   deploy/postgres-tls/ca.pem       a certificate authority of this machine's own (the nodes trust it)
#   deploy/postgres-tls/server.crt   the server's certificate, made out to the name "postgres" (compose's host name)
#   deploy/postgres-tls/server.key   its key (never committed: .gitignore keeps *.key out)
# Run once before `docker compose -f deploy/compose.yaml up`; --force makes new ones. Needs only openssl.
# The folder, the server's names and the days may be set (scripts/postgres-test-server.sh makes its test files so):
#   POSTGRES_TLS_DIR=… POSTGRES_TLS_NAMES="DNS:localhost,IP:127.0.0.1" POSTGRES_TLS_DAYS=30 deploy/make-postgres-tls.sh
set -euo pipefail
dir="${POSTGRES_TLS_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/postgres-tls}"
names="${POSTGRES_TLS_NAMES:-DNS:postgres}"
days="${POSTGRES_TLS_DAYS:-825}"
if [ -f "$dir/server.crt" ] && [ "${1:-}" != "--force" ]; then
    echo "$dir holds TLS files already (give --force to make new ones)"
    exit 0
fi
mkdir -p "$dir"
# A certificate authority of its own and the server's certificate, EC P-256; the authority's key is not kept.
ec="-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes"
first="${names%%,*}"
openssl req -x509 $ec -keyout "$dir/ca.key" -out "$dir/ca.pem" -days "$days" -subj "/CN=Passmint PostgreSQL CA" 2>/dev/null
openssl req $ec -keyout "$dir/server.key" -out "$dir/server.csr" -subj "/CN=${first#*:}" 2>/dev/null
printf 'subjectAltName=%s\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' "$names" >"$dir/server.ext"
openssl x509 -req -in "$dir/server.csr" -CA "$dir/ca.pem" -CAkey "$dir/ca.key" -CAcreateserial -days "$days" \
    -extfile "$dir/server.ext" -out "$dir/server.crt" 2>/dev/null
rm -f "$dir/server.csr" "$dir/server.ext" "$dir/ca.srl" "$dir/ca.key"
chmod 0644 "$dir/ca.pem" "$dir/server.crt"
chmod 0640 "$dir/server.key"
echo "wrote $dir/ca.pem, server.crt and server.key (made out to $names)"
