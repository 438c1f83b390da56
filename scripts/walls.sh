#!/usr/bin/env bash
# The register of walls: for each claim of SECURITY.md, a mutation that
# removes the wall behind it, and the tests that must then fail. The
# register is walls_test.go (behind the build tag "walls"); this runs it.
# Extra arguments go to go test (e.g. -run 'TestWalls/net-').
set -euo pipefail
cd "$(dirname "$0")/.."
exec go test -tags walls -count=1 -timeout 60m -run '^TestWalls$' -v "$@" .
