#!/usr/bin/env bash
# make-secrets.sh — the secrets compose's services read as files (compose secrets, mounted at /run/secrets/…):
#   deploy/secrets/api-key             the issuing API's key (PASSMINT_API_KEY_FILE)
#   deploy/secrets/link-secret         the key of the public download links (PASSMINT_LINK_SECRET_FILE)
#   deploy/secrets/postgres-password   the database's password (POSTGRES_PASSWORD_FILE)
#   deploy/secrets/database-url        the nodes' database URL with that password (PASSMINT_DATABASE_URL_FILE)
# Run once before `docker compose -f deploy/compose.yaml up`; --force makes new ones (the database keeps the password
# it was created with). PASSMINT_SECRETS_DIR writes them elsewhere. Needs only openssl. The folder is 0700 and out of
# git; its files are 0644 because the containers read them as their own users (the folder keeps others out).
set -euo pipefail
dir="${PASSMINT_SECRETS_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/secrets}"
if [ -f "$dir/api-key" ] && [ "${1:-}" != "--force" ]; then
    echo "$dir holds secrets already (give --force to make new ones)"
    exit 0
fi
mkdir -p "$dir"
chmod 0700 "$dir"
openssl rand -base64 32 >"$dir/api-key"
openssl rand -base64 48 >"$dir/link-secret"
openssl rand -hex 16 >"$dir/postgres-password"
printf 'postgres://passmint:%s@postgres:5432/passmint?sslmode=verify-full&sslrootcert=/etc/passmint/postgres-ca.pem\n' \
    "$(cat "$dir/postgres-password")" >"$dir/database-url"
chmod 0644 "$dir/api-key" "$dir/link-secret" "$dir/postgres-password" "$dir/database-url"
echo "wrote api-key, link-secret, postgres-password and database-url in $dir"
