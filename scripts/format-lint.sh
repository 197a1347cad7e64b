#!/usr/bin/env bash
# Checks that every Swift file follows the checked-in .swift-format configuration (140 columns, 4-space indentation);
# exits non-zero and names the file, line and rule of each finding. `swift format -i --recursive Sources Tests`
# applies the fixes it can make.
set -euo pipefail
cd "$(dirname "$0")/.."
exec swift format lint --strict --recursive Sources Tests Fuzz Examples Benchmarks/Sources
