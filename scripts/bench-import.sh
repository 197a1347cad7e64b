#!/usr/bin/env bash
# Lazy issuing measured against its limits, all in one run: `passmint batch --register … --no-files` recording N
# member rows (each checked as for a pass, with its token and both links) into a new SQLite file, beside
#   - SQLite's own rate for the same rows: Python's sqlite3 inserting rows of the same size into the same kind of
#     table (WAL, synchronous=FULL, 1,000 rows per transaction) — the store's ceiling;
#   - the signing batch on the same rows (first 2,000), which lazy issuing leaves for the first fetch of each pass.
#   scripts/bench-import.sh [rows, default 100000]
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${1:-100000}
chain=Certificates/dev
[ -f "$chain/signer.pem" ] || Certificates/make-dev-chain.sh >/dev/null
swift build -c release --product passmint >/dev/null
bin=.build/release/passmint
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PASSMINT_LINK_SECRET="bench-import-link-secret-0123456789abcdef"

python3 - "$work/members.csv" "$rows" <<'EOF'
import sys
with open(sys.argv[1], "w") as f:
    f.write("serialNumber,memberId,memberName,tier,nfcMessage,points,pointsToNextReward,memberSince\n")
    for i in range(1, int(sys.argv[2]) + 1):
        f.write(f"M-{i:07d},{100000 + i},Zoë Müller {i},Gold,mlc:{i},{i % 5000},250,2024-03-01T00:00:00+01:00\n")
EOF
head -2001 "$work/members.csv" > "$work/signed.csv"

seconds() { python3 -c 'import sys, time; print(time.monotonic())'; }

# 1. The store's ceiling: the same number of rows of the same size, inserted the way the store inserts them.
sqlite_rate=$(python3 - "$work/ceiling.sqlite" "$rows" <<'EOF'
import os, sqlite3, sys, time
path, rows = sys.argv[1], int(sys.argv[2])
db = sqlite3.connect(path, isolation_level=None)
db.execute("PRAGMA journal_mode=WAL"); db.execute("PRAGMA synchronous=FULL")
db.execute("""CREATE TABLE passes (pass_type_id TEXT NOT NULL, serial_number TEXT NOT NULL, authentication_token TEXT NOT NULL,
    template TEXT NOT NULL, data TEXT NOT NULL, voided INTEGER NOT NULL DEFAULT 0, update_tag INTEGER NOT NULL,
    updated_at INTEGER NOT NULL, last_push TEXT, personalization TEXT, PRIMARY KEY (pass_type_id, serial_number))""")
db.execute("CREATE INDEX passes_by_tag ON passes (pass_type_id, update_tag)")
data = '{"serialNumber":"M-0000001","memberId":100001,"memberName":"Zoë Müller 1","tier":"Gold","nfcMessage":"mlc:1","points":1,"pointsToNextReward":250,"memberSince":"2024-03-01T00:00:00+01:00","authenticationToken":"F1YAscJzKo4M-pCGj2BDFg"}'
start = time.monotonic()
for chunk in range(0, rows, 1000):
    db.execute("BEGIN")
    db.executemany("INSERT INTO passes VALUES (?, ?, ?, 'Loyalty', ?, 0, ?, 0, NULL, NULL) ON CONFLICT DO NOTHING",
                   [("pass.dev.passmint.example", f"M-{i:07d}", os.urandom(16).hex(), data, i) for i in range(chunk, min(rows, chunk + 1000))])
    db.execute("COMMIT")
print(round(rows / (time.monotonic() - start)))
EOF
)

# 2. Lazy issuing: every row checked and recorded, with its links.
start=$(seconds)
/usr/bin/time -f "%M" -o "$work/rss" "$bin" batch PassTemplates/Loyalty.pass --data "$work/members.csv" --out-dir "$work/import" \
    --certificates "$chain" --register "$work/passes.sqlite" --public-url https://passes.example.com/wallet --no-files --quiet
end=$(seconds)
recorded=$(grep -c ',recorded,' "$work/import/batch-report.csv" || true)
lazy_rate=$(python3 -c "print(round($recorded / ($end - $start)))")

# 3. What lazy issuing defers: signing and writing the same passes (first 2,000 rows).
start=$(seconds)
"$bin" batch PassTemplates/Loyalty.pass --data "$work/signed.csv" --out-dir "$work/signed" --certificates "$chain" --quiet
end=$(seconds)
signed_rate=$(python3 -c "print(round(2000 / ($end - $start)))")

printf '%-44s %10s rows/s\n' "SQLite ceiling (python sqlite3, same rows)" "$sqlite_rate"
printf '%-44s %10s rows/s   (%s rows recorded, peak RSS %s MB, %.2f of the SQLite ceiling)\n' "lazy issuing (batch --no-files)" "$lazy_rate" \
    "$recorded" "$(( $(cat "$work/rss") / 1024 ))" "$(python3 -c "print($lazy_rate / $sqlite_rate)")"
printf '%-44s %10s passes/s (signing every pass now: %.0f s for %s rows)\n' "signing batch (same template, 2,000 rows)" \
    "$signed_rate" "$(python3 -c "print($rows / $signed_rate)")" "$rows"
