#!/usr/bin/env bash
# Sessions: what a call costs when the session holds a large workspace
# (issue 17's targets), with bash's own start-up as the anchor. Each row
# is the median of its timed calls; ratios are against the empty case.
#
#   bash bench/session.sh
#   BIG=1000 CALLS=15 bash bench/session.sh     # the 1 GB MCP row too
#   OLD=/path/to/older/sandsh bash bench/session.sh   # the same rows for it
#
# Rows:
#   bash -c 'echo hi'                      the anchor
#   mcp echo hi, session of 0/100/BIG MB   an MCP `run` in a named session
#   repl line, empty / after 100 MB        keystroke to next prompt on a pty
#   --state no-op, 100 MB memory state     sandsh --state s.st -c true
#   overlay state after a 2-byte change    the state file's size, 100 MB base
#   --import 100 MB vs overlay             sandsh --import B -c true / --fs overlay --base B
#   idle session RSS                        the MCP server and its session worker
#   (this build only:)
#   first call, new session, --pool 0/2     an MCP `run` naming a new session
#   call without a session, --pool 0/2      an MCP `run` without a session
#   (this build only, over sandsh mcp --http:)
#   idle session PSS, per session           IDLE (default 64) idle sessions vs none
#   http echo hi calls/s, 1/8/64 clients    each client in its own session
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"
CALLS=${CALLS:-9}
BIG=${BIG:-1000}
T=$(mktemp -d "${TMPDIR:-/tmp}/sandsh-session.XXXXXX")
trap 'rm -rf "$T"' EXIT

echo "building sandsh and the driver" >&2
go build -o "$T/sandsh" .
go build -o "$T/drive" ./bench/sessiondrive
BINS=("$T/sandsh")
[ -n "${OLD:-}" ] && BINS+=("$OLD")
BIGFLAGS="--max-fs-bytes 4GiB --max-file-size 2GiB --max-memory 6GiB --max-files 200000 --timeout 20m"

ms() { # median wall ms of CALLS runs of "$@"
	local i TIMEFORMAT='%3R' t all=()
	for ((i = 0; i < CALLS; i++)); do
		{ time "$@" >/dev/null 2>&1; } 2>"$T/t"
		all+=("$(awk '{printf "%.2f", $1*1000}' "$T/t")")
	done
	printf '%s\n' "${all[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}
field() { sed -n "s/.*$1=\([0-9.a-z]*\).*/\1/p"; }
# drive runs the driver and prints its line, or "failed" with its error
# on stderr (an older sandsh may not survive a large session at all).
drive() { "$T/drive" "$@" 2>"$T/derr" || { echo "  (failed: $(grep -m1 sessiondrive "$T/derr" | cut -c1-200))" >&2; echo "median_ms=failed rss_kb=0"; }; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a+0 > 0 && b+0 > 0) printf "%.2fx", a / b; else print "-" }'; }
row() { printf '%-44s %12s %10s\n' "$1" "$2" "$3"; }

anchor=$(ms bash -c 'echo hi')
# A host tree of 100 random 1 MB files, the base and the import.
mkdir -p "$T/base"
for i in $(seq 100); do head -c 1000000 /dev/urandom >"$T/base/f$i"; done

for B in "${BINS[@]}"; do
	echo
	echo "== $B"
	row "what" "ms (or size)" "ratio"
	row "bash -c 'echo hi' (anchor)" "$anchor" ""
	m0=$(drive -sandsh "$B" -mode mcp -mb 0 -calls "$CALLS")
	mcp0=$(field median_ms <<<"$m0")
	[ "$B" = "$T/sandsh" ] && warm0=$mcp0
	row "mcp echo hi, empty session" "$mcp0" "$(ratio "$mcp0" "$anchor") bash"
	m100=$(drive -sandsh "$B" -mode mcp -mb 100 -calls "$CALLS")
	v=$(field median_ms <<<"$m100")
	row "mcp echo hi, 100 MB session" "$v" "$(ratio "$v" "$mcp0")"
	if [ "$BIG" -gt 0 ]; then
		mbig=$(drive -sandsh "$B" -mode mcp -mb "$BIG" -calls "$CALLS" -flags "$BIGFLAGS")
		v=$(field median_ms <<<"$mbig")
		row "mcp echo hi, $BIG MB session" "$v" "$(ratio "$v" "$mcp0")"
	fi
	r0=$(drive -sandsh "$B" -mode repl -mb 0 -calls "$CALLS")
	rl0=$(field median_ms <<<"$r0")
	row "repl line, empty session" "$rl0" ""
	r100=$(drive -sandsh "$B" -mode repl -mb 100 -calls "$CALLS")
	v=$(field median_ms <<<"$r100")
	row "repl line, after 100 MB" "$v" "$(ratio "$v" "$rl0")"
	rm -f "$T/s.st"
	"$B" --state "$T/s.st" -c 'mkdir -p data && for i in $(seq 100); do head -c 1000000 /dev/urandom > data/f$i; done' >/dev/null
	v=$(ms "$B" --state "$T/s.st" -c true)
	row "--state no-op, 100 MB memory state" "$v" "$(ls -l "$T/s.st" | awk '{printf "%.1f MB", $5/1e6}')"
	rm -f "$T/o.st"
	"$B" --fs overlay --base "$T/base" --state "$T/o.st" -c 'echo x > new' >/dev/null
	row "overlay state, 2-byte change, 100 MB base" "$(ls -l "$T/o.st" | awk '{printf "%.1f kB", $5/1e3}')" ""
	ov=$(ms "$B" --fs overlay --base "$T/base" -c true)
	im=$(ms "$B" --import "$T/base" -c true)
	row "--fs overlay --base (100 MB) -c true" "$ov" ""
	row "--import (100 MB) -c true" "$im" "$(ratio "$im" "$ov")"
	row "idle session RSS, server + worker (MB)" "$(awk -v k="$(field rss_kb <<<"$m0")" 'BEGIN{printf "%.1f", k/1024}')" ""
	row "idle session RSS after 100 MB (MB)" "$(awk -v k="$(field rss_kb <<<"$m100")" 'BEGIN{printf "%.1f", k/1024}')" ""
done

# A new session's first call and a call without a session, with and
# without warm workers (this build only: older ones have no --pool),
# against a warm session's call and bash's start-up. The driver leaves
# 400 ms between calls, as between clients, for the pool to refill, and
# times a warm session's call after the same quiet gap ("warm after a
# gap"): a call after a quiet gap pays for waking the server and its
# worker up, which the back-to-back calls of -mode mcp do not.
echo
echo "== $T/sandsh mcp: first calls"
for p in 0 2; do
	f=$(drive -sandsh "$T/sandsh" -mode first -calls "$CALLS" -flags "--pool $p")
	v=$(field median_ms <<<"$f")
	n=$(field nosession_median_ms <<<"$f")
	g=$(field warm_after_gap_median_ms <<<"$f")
	row "warm session's call after a 400 ms gap, --pool $p" "$g" "$(ratio "$g" "$warm0") warm"
	row "first call, new session, --pool $p" "$v" "$(ratio "$v" "$g") warm after a gap, $(ratio "$v" "$warm0") warm, $(ratio "$v" "$anchor") bash"
	row "call without a session, --pool $p" "$n" "$(ratio "$n" "$g") warm after a gap, $(ratio "$n" "$warm0") warm, $(ratio "$n" "$anchor") bash"
done

# HTTP (this build only: older ones have no --http). Memory per idle
# session is the growth of the server's and its workers' PSS (a shared
# page counts 1/n in each of n processes) from no session to IDLE idle
# ones, divided by IDLE.
IDLE=${IDLE:-64}
HTTPCALLS=${HTTPCALLS:-40}
echo
echo "== $T/sandsh mcp --http"
idle=$("$T/drive" -sandsh "$T/sandsh" -mode idle -sessions "$IDLE")
echo "  ($idle)" >&2
per=$(field per_session_pss_kb <<<"$idle")
row "idle session, PSS per session (MB)" "$(awk -v k="$per" 'BEGIN{printf "%.2f", k/1024}')" ""
row "sessions in 24 GiB by that PSS" "$(awk -v k="$per" 'BEGIN{printf "%d", 24*1024*1024/k}')" ""
for c in 1 8 64; do
	h=$("$T/drive" -sandsh "$T/sandsh" -mode http -clients "$c" -calls "$HTTPCALLS")
	row "http echo hi, $c client(s): calls/s" "$(field calls_per_s <<<"$h")" "median $(field median_ms <<<"$h") ms"
done
