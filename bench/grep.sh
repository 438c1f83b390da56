#!/usr/bin/env bash
# grep -c in a loop, sandsh against GNU grep: the shape issue 22 measured,
#   for i in 1 2 3 4 5; do grep -c PATTERN data.txt; done
# over 20 MB of text (bench/gen.go, seeded), for a common literal, a
# rare one, one that is absent, and an expression with a literal in it.
# Each is run $REPS times, interleaved (GNU, then sandsh reading the file
# through the overlay from the host), and the medians are compared as a
# ratio: sandsh / GNU, where at or below 1.00 means as fast or faster.
# The whole sandsh run (start-up and worker included) is timed.
#
#   bash bench/grep.sh
#   REPS=9 MB=100 bash bench/grep.sh
#   OLD=/path/to/older/sandsh bash bench/grep.sh   # add its column
#
# Output goes to a host file, not /dev/null: GNU grep stops at the first
# match when its output is /dev/null. Quote the load average with the
# numbers; on a shared machine, take the ratio, not the seconds.
set -euo pipefail
cd "$(dirname "$0")/.."

REPS=${REPS:-5}
MB=${MB:-20}
export LC_ALL=C
export PATH="$PATH:/usr/local/go/bin"

T=$(mktemp -d "${TMPDIR:-/tmp}/sandsh-grep.XXXXXX")
trap 'rm -rf "$T"' EXIT
echo "building sandsh, generating ${MB} MB" >&2
go build -o "$T/sandsh" .
go run bench/gen.go text $((MB * 1000000)) "$MB" >"$T/data.txt"

FLAGS=(--timeout 0 --max-memory 4GiB --fs overlay --base "$T")

# secs CMD...: wall seconds of one run, stdout to a host file.
secs() {
	local s e
	s=$EPOCHREALTIME
	"$@" >"$T/out" 2>"$T/err" || [ $? -eq 1 ] || { echo "FAILED: $*" >&2; sed 's/^/    /' "$T/err" >&2; }
	e=$EPOCHREALTIME
	awk -v s="$s" -v e="$e" 'BEGIN {printf "%.3f", e - s}'
}
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

printf 'load: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-10s %8s %8s %7s' pattern GNU sandsh ratio
[ -n "${OLD:-}" ] && printf ' %8s %7s' old ratio
printf '\n'
for pat in ing kaab word 'ru.*ab'; do
	loop="for i in 1 2 3 4 5; do grep -c '$pat' data.txt; done"
	g=() s=() o=()
	for ((r = 0; r < REPS; r++)); do
		g+=("$(cd "$T" && secs bash -c "$loop")")
		s+=("$(secs "$T/sandsh" "${FLAGS[@]}" -c "$loop")")
		[ -n "${OLD:-}" ] && o+=("$(secs "$OLD" "${FLAGS[@]}" -c "$loop")")
	done
	# The counts must be GNU's.
	want=$(cd "$T" && bash -c "$loop" || true)
	got=$("$T/sandsh" "${FLAGS[@]}" -c "$loop" || true)
	[ "$want" = "$got" ] || echo "DIFFERENT OUTPUT for $pat: GNU $want, sandsh $got" >&2
	gm=$(median "${g[@]}") sm=$(median "${s[@]}")
	printf '%-10s %8s %8s %7s' "$pat" "$gm" "$sm" "$(awk -v a="$sm" -v b="$gm" 'BEGIN {printf "%.2f", a / b}')"
	if [ -n "${OLD:-}" ]; then
		om=$(median "${o[@]}")
		printf ' %8s %7s' "$om" "$(awk -v a="$om" -v b="$gm" 'BEGIN {printf "%.2f", a / b}')"
	fi
	printf '\n'
done
