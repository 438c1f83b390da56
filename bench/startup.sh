#!/usr/bin/env bash
# Start-up, taken apart: `-c 'echo hi'` under bash, a Go hello-world (the
# floor of any Go process on this machine), sandsh --no-worker (one
# sandsh process) and sandsh with its supervised worker (the default: two
# sandsh processes), interleaved, median of $REPS runs of $N launches
# each, per launch. The worker's price is the last row minus the third;
# two Go floors are the least any supervised design of this kind costs.
#
#   bash bench/startup.sh
#   REPS=9 N=40 bash bench/startup.sh
#   OLD=/path/to/older/sandsh bash bench/startup.sh   # add a row for it
#
# Times come from bash's `time` (wall, and CPU = user+sys, children
# included). Quote the load average with the numbers: on a shared
# machine CPU time is the steadier of the two.
set -euo pipefail
cd "$(dirname "$0")/.."

REPS=${REPS:-7}
N=${N:-20}
export PATH="$PATH:/usr/local/go/bin"

T=$(mktemp -d "${TMPDIR:-/tmp}/sandsh-startup.XXXXXX")
trap 'rm -rf "$T"' EXIT

echo "building sandsh and a Go hello-world" >&2
go build -o "$T/sandsh" .
mkdir "$T/hello"
printf 'package main\n\nimport "os"\n\nfunc main() { os.Stdout.WriteString("hi\\n") }\n' >"$T/hello/main.go"
printf 'module hello\n\ngo 1.24\n' >"$T/hello/go.mod"
(cd "$T/hello" && go build -o "$T/go-hello" .)

ROWS=("bash" "go hello-world" "sandsh --no-worker" "sandsh (worker)")
[ -n "${OLD:-}" ] && ROWS+=("old sandsh (worker)")

run() {
	case $1 in
	"bash") bash -c 'echo hi' ;;
	"go hello-world") "$T/go-hello" ;;
	"sandsh --no-worker") "$T/sandsh" --no-worker -c 'echo hi' ;;
	"sandsh (worker)") "$T/sandsh" -c 'echo hi' ;;
	"old sandsh (worker)") "$OLD" -c 'echo hi' ;;
	esac
}

timed() {
	local TIMEFORMAT='%3R %3U %3S' w u s
	{ time (for ((k = 0; k < N; k++)); do run "$1"; done >"$T/out" 2>"$T/err"); } 2>"$T/time"
	read -r w u s <"$T/time"
	[ "$(head -1 "$T/out")" = hi ] && ! [ -s "$T/err" ] || {
		echo "$1: wrong output: $(head -c 200 "$T/out" "$T/err")" >&2
		exit 1
	}
	awk -v w="$w" -v u="$u" -v s="$s" -v n="$N" 'BEGIN {printf "%.2f %.2f\n", w * 1000 / n, (u + s) * 1000 / n}'
}

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

declare -A W C
for ((i = 0; i < REPS; i++)); do
	for r in "${ROWS[@]}"; do
		read -r w c < <(timed "$r")
		W[$r]+=" $w" C[$r]+=" $c"
	done
done

echo
echo "start-up per launch, median of $REPS x $N interleaved, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo '| command | wall ms | wall / bash | cpu ms | cpu / bash |'
echo '|---|--:|--:|--:|--:|'
# shellcheck disable=SC2086
bw=$(median ${W[bash]}) bc=$(median ${C[bash]})
for r in "${ROWS[@]}"; do
	# shellcheck disable=SC2086
	w=$(median ${W[$r]}) c=$(median ${C[$r]})
	awk -v r="$r" -v w="$w" -v c="$c" -v bw="$bw" -v bc="$bc" \
		'BEGIN {printf "| %s | %.2f | %.2f | %.2f | %.2f |\n", r, w, w / bw, c, c / bc}'
done
