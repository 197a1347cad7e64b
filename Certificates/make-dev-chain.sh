#!/usr/bin/env bash
# make-dev-chain.sh — create a DEVELOPMENT signing chain shaped like Apple's:
#
#   Passmint Development Root CA            (stands in for Apple Root CA)
#     └─ Passmint Development WWDR CA, OU=G4 (stands in for Apple WWDR G4)
#          └─ Pass Type ID: <uid>            (stands in for your Pass Type ID certificate)
#
# Passes signed with this chain are NEVER accepted by Apple Wallet; the chain is for demos and tests.
# Needs only bash and openssl (3.x). Private keys never pass through the command line: passphrases are
# handed to openssl with -passin/-passout env:VAR.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PROG="$(basename "${BASH_SOURCE[0]}")"

usage() {
    cat <<EOF
Usage: $PROG [--out DIR] [--uid PASS_TYPE_ID] [--team TEAM_ID] [--org NAME] [--issuer DIR] [--expired] [--nfc] [--force]

Create a development root CA, a WWDR-G4-shaped intermediate and a Pass Type ID signer certificate.

  --out DIR        output directory (default: $SCRIPT_DIR/dev)
  --uid ID         pass type identifier (default: pass.dev.passmint.example); an order type identifier
                   (order.…) makes an Order Type ID certificate (CN "Order Type ID: <uid>")
  --team ID        team identifier, written as the signer's OU (default: DEVTEAM123)
  --org NAME       organization name of the signer (default: "Passmint Development")
  --issuer DIR     sign with the root and WWDR-shaped CA of an earlier chain in DIR (root.pem, root.key, wwdr.pem,
                   wwdr.key) instead of making new ones: several pass types under one development WWDR, as Apple
                   issues them (e.g. --out Certificates/dev/pass.dev.passmint.tickets --issuer Certificates/dev)
  --expired        signer valid 2020-01-01 .. 2021-01-01 (CA certificates then start 2019-12-01)
  --nfc            signer CN "Pass Type ID with NFC: <uid>"
  --force          regenerate everything even if DIR/signer.pem exists
  -h, --help       show this help

Passphrase for signer-encrypted.key, signer.p12 and signer-legacy.p12: environment variable
PASSMINT_DEV_PASSPHRASE (default: passmint-dev).
EOF
}

die() { echo "$PROG: error: $*" >&2; exit 1; }
usage_error() { echo "$PROG: $*" >&2; echo "Try '$PROG --help'." >&2; exit 2; }

out_dir="$SCRIPT_DIR/dev"
uid="pass.dev.passmint.example"
team="DEVTEAM123"
org="Passmint Development"
issuer_dir=""
expired=false
nfc=false
force=false

while [[ $# -gt 0 ]]; do
    case "$1" in
        --out|--uid|--team|--org|--issuer)
            [[ $# -ge 2 && -n "$2" ]] || usage_error "option $1 needs a non-empty value"
            case "$1" in
                --out) out_dir="$2" ;;
                --uid) uid="$2" ;;
                --team) team="$2" ;;
                --org) org="$2" ;;
                --issuer) issuer_dir="$2" ;;
            esac
            shift 2 ;;
        --out=*) out_dir="${1#*=}"; shift ;;
        --uid=*) uid="${1#*=}"; shift ;;
        --team=*) team="${1#*=}"; shift ;;
        --org=*) org="${1#*=}"; shift ;;
        --issuer=*) issuer_dir="${1#*=}"; shift ;;
        --expired) expired=true; shift ;;
        --nfc) nfc=true; shift ;;
        --force) force=true; shift ;;
        -h|--help) usage; exit 0 ;;
        *) usage_error "unknown argument: $1" ;;
    esac
done

# The pass type ID and team ID end up in an openssl config file and a -subj string: keep them to the
# characters Apple allows (reverse-DNS identifier; alphanumeric team ID).
[[ "$uid" =~ ^[A-Za-z0-9][A-Za-z0-9.-]*$ ]] \
    || die "--uid '$uid' is not a pass type identifier (letters, digits, '.' and '-', e.g. pass.com.example.membership)"
[[ "$team" =~ ^[A-Za-z0-9]+$ ]] || die "--team '$team' must be letters and digits only (e.g. A93A5CM278)"
[[ -n "$org" && "$org" != *$'\n'* ]] || die "--org must be a non-empty single line"
[[ -n "$out_dir" ]] || die "--out must not be empty"

command -v openssl >/dev/null 2>&1 || die "openssl not found in PATH"

if [[ -e "$out_dir/signer.pem" && "$force" != true ]]; then
    echo "$PROG: $out_dir/signer.pem already exists; nothing to do (use --force to regenerate)."
    exit 0
fi

export PASSMINT_DEV_PASSPHRASE="${PASSMINT_DEV_PASSPHRASE:-passmint-dev}"

umask 077
work="$(mktemp -d "${TMPDIR:-/tmp}/passmint-dev-chain.XXXXXX")"
trap 'rm -rf -- "$work"' EXIT
stage="$work/out"
mkdir -p "$stage" "$work/newcerts"
: >"$work/index.txt"

# Escape characters that are special in openssl's -subj syntax (\ / + =).
escape_dn() { printf '%s' "$1" | sed -e 's/[\\/+=]/\\&/g'; }

if [[ "$uid" == order.* ]]; then
    signer_cn="Order Type ID: $uid"
elif [[ "$nfc" == true ]]; then
    signer_cn="Pass Type ID with NFC: $uid"
else
    signer_cn="Pass Type ID: $uid"
fi
# Same RDN order as Apple's certificates: the root C, O, CN; WWDR G4 CN, OU, O, C; the Pass Type ID
# certificate UID, CN, OU, O, C.
root_subj="/C=US/O=Passmint Development/CN=Passmint Development Root CA"
wwdr_subj="/CN=Passmint Development Worldwide Developer Relations Certification Authority/OU=G4/O=Passmint Development/C=US"
signer_subj="/UID=$uid/CN=$(escape_dn "$signer_cn")/OU=$team/O=$(escape_dn "$org")/C=US"

# Minimal CA configuration for `openssl ca` (the only command in OpenSSL 3.0 that can set arbitrary
# start/end dates). -preserveDN keeps the request's subject (order and the UID attribute) as it is.
cat >"$work/ca.cnf" <<EOF
# The brief's intermediate CN (74 characters) is longer than the 64 that OpenSSL's string table allows
# for commonName (RFC 5280's ub-common-name); raise that limit for this config only.
openssl_conf = passmint_init

[ passmint_init ]
stbl_section = passmint_string_table

[ passmint_string_table ]
commonName = min:1,max:128

[ ca ]
default_ca = passmint_dev_ca

[ passmint_dev_ca ]
database        = $work/index.txt
new_certs_dir   = $work/newcerts
rand_serial     = yes
default_md      = sha256
policy          = policy_any
unique_subject  = no
email_in_dn     = no
copy_extensions = none

[ policy_any ]
userId                 = optional
commonName             = optional
organizationalUnitName = optional
organizationName       = optional
countryName            = optional

[ req ]
distinguished_name = req_dn
string_mask        = utf8only
utf8               = yes
prompt             = no

[ req_dn ]
CN = placeholder

[ v3_root ]
basicConstraints       = critical, CA:TRUE
keyUsage               = critical, keyCertSign, cRLSign
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always

[ v3_wwdr ]
basicConstraints       = critical, CA:TRUE, pathlen:0
keyUsage               = critical, keyCertSign, cRLSign
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always
# Apple marks its WWDR intermediates with this extension (value NULL).
1.2.840.113635.100.6.2.1 = ASN1:NULL

[ v3_pass ]
basicConstraints       = CA:FALSE
keyUsage               = critical, digitalSignature
# clientAuth: the same certificate is the TLS client identity for APNs pass-update pushes.
extendedKeyUsage       = clientAuth, 1.2.840.113635.100.4.14
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always
# Apple's Pass Type ID marker; its value carries the pass type identifier.
1.2.840.113635.100.6.1.16 = ASN1:UTF8String:$uid
EOF

run_quiet() {
    # Run an openssl command; show its output only when it fails.
    local log="$work/openssl.log"
    if ! "$@" >"$log" 2>&1; then
        cat "$log" >&2
        die "command failed: $*"
    fi
}

new_key() { run_quiet openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$1"; }

new_csr() { # key subject out
    run_quiet openssl req -new -config "$work/ca.cnf" -utf8 -key "$1" -subj "$2" -out "$3"
}

sign() { # csr out extensions issuer-cert issuer-key [date options...]
    local csr="$1" out="$2" ext="$3" cert="$4" key="$5"
    shift 5
    local issuer=(-cert "$cert" -keyfile "$key")
    [[ "$cert" == selfsign ]] && issuer=(-selfsign -keyfile "$key")
    run_quiet openssl ca -batch -config "$work/ca.cnf" -preserveDN -notext -md sha256 \
        "${issuer[@]}" -extensions "$ext" -in "$csr" -out "$out" "$@"
}

if [[ "$expired" == true ]]; then
    # The CA certificates start before the expired signer, so a chain check at a time in 2020
    # (openssl verify -attime) succeeds and only "now" shows the signer as expired.
    ca_start=(-startdate 20191201000000Z)
    signer_dates=(-startdate 20200101000000Z -enddate 20210101000000Z)
else
    ca_start=()
    signer_dates=(-days 365)
fi

if [[ -n "$issuer_dir" ]]; then
    # An earlier chain's CAs sign this Pass Type ID certificate too.
    for f in root.pem root.key wwdr.pem wwdr.key; do
        [[ -f "$issuer_dir/$f" ]] || die "--issuer $issuer_dir has no $f: give a folder written by $PROG"
        cp -p -- "$issuer_dir/$f" "$stage/$f"
    done
else
    # Root CA (self-signed, 10 years).
    new_key "$stage/root.key"
    new_csr "$stage/root.key" "$root_subj" "$work/root.csr"
    sign "$work/root.csr" "$stage/root.pem" v3_root selfsign "$stage/root.key" ${ca_start[@]+"${ca_start[@]}"} -days 3650

    # Intermediate shaped like Apple WWDR G4 (~8 years).
    new_key "$stage/wwdr.key"
    new_csr "$stage/wwdr.key" "$wwdr_subj" "$work/wwdr.csr"
    sign "$work/wwdr.csr" "$stage/wwdr.pem" v3_wwdr "$stage/root.pem" "$stage/root.key" ${ca_start[@]+"${ca_start[@]}"} -days 2922
fi

# Pass Type ID signer.
new_key "$stage/signer.key"
new_csr "$stage/signer.key" "$signer_subj" "$work/signer.csr"
sign "$work/signer.csr" "$stage/signer.pem" v3_pass "$stage/wwdr.pem" "$stage/wwdr.key" "${signer_dates[@]}"

# Encrypted copy of the signer key: PKCS#8, AES-256-CBC, PBKDF2 with HMAC-SHA256.
run_quiet openssl pkcs8 -topk8 -v2 aes-256-cbc -v2prf hmacWithSHA256 \
    -in "$stage/signer.key" -out "$stage/signer-encrypted.key" -passout env:PASSMINT_DEV_PASSPHRASE

# PKCS#12 bundles: signer certificate + key + WWDR. The first uses OpenSSL 3 defaults (AES-256-CBC,
# PBKDF2, SHA-256 MAC); the legacy one uses RC2/3DES with a SHA-1 MAC, like a macOS Keychain export.
friendly_name="$signer_cn"
run_quiet openssl pkcs12 -export -in "$stage/signer.pem" -inkey "$stage/signer.key" \
    -certfile "$stage/wwdr.pem" -name "$friendly_name" \
    -passout env:PASSMINT_DEV_PASSPHRASE -out "$stage/signer.p12"
run_quiet openssl pkcs12 -export -legacy -in "$stage/signer.pem" -inkey "$stage/signer.key" \
    -certfile "$stage/wwdr.pem" -name "$friendly_name" \
    -passout env:PASSMINT_DEV_PASSPHRASE -out "$stage/signer-legacy.p12"

cat >"$stage/README.txt" <<EOF
This folder holds a DEVELOPMENT signing chain made by Certificates/make-dev-chain.sh: a self-signed
"Passmint Development Root CA", an intermediate shaped like Apple's WWDR G4 (wwdr.pem) and a Pass Type ID
certificate for $uid, team $team (signer.pem, with its key in signer.key, signer-encrypted.key,
signer.p12 and signer-legacy.p12). Apple Wallet never trusts this chain: passes signed with it will not
install on a device; use it only for demos and tests, and never for real passes. The encrypted key and
both .p12 files are protected by the passphrase in the environment variable PASSMINT_DEV_PASSPHRASE
(default "passmint-dev" when the variable is unset or empty). The keys here are private: do not commit them.
EOF

# Sanity checks before anything is installed.
verify_time=()
[[ "$expired" == true ]] && verify_time=(-attime 1593561600) # 2020-07-01T00:00:00Z
run_quiet openssl verify ${verify_time[@]+"${verify_time[@]}"} -CAfile "$stage/root.pem" \
    -untrusted "$stage/wwdr.pem" "$stage/signer.pem"
[[ "$(openssl x509 -in "$stage/signer.pem" -noout -pubkey)" == "$(openssl pkey -in "$stage/signer.key" -pubout)" ]] \
    || die "signer.pem does not match signer.key"

chmod 644 "$stage"/*.pem "$stage/README.txt"
chmod 600 "$stage"/*.key "$stage"/*.p12

# Install. signer.pem is the "already generated" marker: remove it first and write it last, so an
# interrupted run is redone by the next run instead of being taken as complete.
if [[ ! -d "$out_dir" ]]; then
    mkdir -p "$out_dir" || die "cannot create $out_dir"
    chmod 700 "$out_dir"
fi
rm -f -- "$out_dir/signer.pem"
files=(root.pem root.key wwdr.pem wwdr.key signer.key signer-encrypted.key signer.p12 signer-legacy.p12 README.txt
       signer.pem)
for f in "${files[@]}"; do
    cp -p -f -- "$stage/$f" "$out_dir/$f.tmp.$$"
    mv -f -- "$out_dir/$f.tmp.$$" "$out_dir/$f"
done

out_abs="$(cd "$out_dir" && pwd)"
echo "Development signing chain written to $out_abs (never trusted by Apple Wallet):"
for f in "${files[@]}"; do printf '  %s/%s\n' "$out_abs" "$f"; done
echo "Signer:"
openssl x509 -in "$out_abs/signer.pem" -noout -subject -issuer -startdate -enddate | sed 's/^/  /'
echo "Passphrase (signer-encrypted.key, signer.p12, signer-legacy.p12): \$PASSMINT_DEV_PASSPHRASE (default passmint-dev)"
