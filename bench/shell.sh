#!/usr/bin/env bash
# The shell language itself: sandsh vs bash (and gosh, mvdan's interpreter,
# when it can be built) on the same scripts, interleaved, median of $REPS.
#
#   bash bench/shell.sh              # 5 runs each
#   REPS=3 bash bench/shell.sh
#   GOSH=/path/to/gosh bash bench/shell.sh   # use this gosh, do not build one
#   GOSH=none bash bench/shell.sh            # skip gosh
#   GOSH_LIMIT=30 bash bench/shell.sh        # give up on a gosh run after 30 s
#
# Each workload is a script run as `SHELL -c SCRIPT` (sandsh with its
# supervised worker, the default), stdout to a file; its output must be the
# same as bash's ("same" column). Times come from bash's `time` keyword
# (millisecond resolution, children included): wall and CPU (user+sys).
# Start-up is 20 launches of `-c 'echo hi'` timed together, reported per
# launch. Ratios are sandsh / bash and gosh / bash, of the medians.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

REPS=${REPS:-5}
export LC_ALL=C
export PATH="$PATH:/usr/local/go/bin"

say() { printf '%s\n' "$*" >&2; }

T=$(mktemp -d "${TMPDIR:-/tmp}/sandsh-shbench.XXXXXX")
trap 'rm -rf "$T"' EXIT

say "building sandsh"
go build -o "$T/sandsh" .
SANDSH=$T/sandsh
# The recursion row goes past the default call-depth limit of 1000.
SFLAGS=(--timeout 0 --max-call-depth 10000)

# gosh is built outside this module: the repo vendors (and edits) mvdan's
# parser through a replace, which must not leak into the reference.
GOSH=${GOSH:-}
if [ -z "$GOSH" ]; then
	say "building gosh (mvdan.cc/sh/v3/cmd/gosh@v3.14.1)"
	if (cd "$T" && GOBIN=$T/bin GOFLAGS=-mod=mod go install mvdan.cc/sh/v3/cmd/gosh@v3.14.1) >"$T/gosh.log" 2>&1; then
		GOSH=$T/bin/gosh
	else
		say "bench: cannot build gosh, skipping it:"
		sed 's/^/    /' "$T/gosh.log" | tail -3 >&2
		GOSH=none
	fi
fi
# gosh is quadratic on some rows (a+=(x) copies the array): one run that
# takes longer than this is stopped and the row says "> LIMIT" for gosh.
GOSH_LIMIT=${GOSH_LIMIT:-60}
SHELLS=(bash sandsh)
[ "$GOSH" = none ] || SHELLS+=(gosh)

say "generating data"
seq 1000000 | sed 's/$/ the quick brown fox/' >"$T/lines.txt"

# name@script; each script prints something checkable.
CASES=(
	"start-up -c 'echo hi' (per launch)@echo hi"
	"100k while loop, [ ] and \$(( ))@i=0; while [ \$i -lt 100000 ]; do i=\$((i+1)); done; echo \$i"
	"fib 20 through functions@fib() { if [ \$1 -lt 2 ]; then r=\$1; return; fi; fib \$((\$1-1)); local a=\$r; fib \$((\$1-2)); r=\$((a+r)); }; fib 20; echo \$r"
	"10k s+=x@s=; for ((i=0;i<10000;i++)); do s+=x; done; echo \${#s}"
	"while read over 1M lines@n=0; while IFS= read -r line; do n=\$((n+1)); done; echo \$n"
	"recursion to depth 5000@f() { if [ \$1 -gt 0 ]; then f \$((\$1-1)); fi; }; f 5000; echo done"
	"100k-element array built and summed@a=(); for ((i=0;i<100000;i++)); do a+=(\$i); done; s=0; for x in \"\${a[@]}\"; do s=\$((s+x)); done; echo \${#a[@]} \$s"
	"20k string slicing and \${x//}@x=abcdefghijklmnopqrstuvwxyz; n=0; for ((i=0;i<20000;i++)); do y=\${x:3:5}; z=\${x//a/bb}; w=\${x#abc}; n=\$((n+\${#y}+\${#z}+\${#w})); done; echo \$n"
)

# run SHELL SCRIPT STDIN: the command line of one run.
run() {
	case $1 in
	bash) bash -c "$2" <"$3" ;;
	sandsh) "$SANDSH" "${SFLAGS[@]}" -c "$2" <"$3" ;;
	gosh) timeout "$GOSH_LIMIT" "$GOSH" -c "$2" <"$3" || [ $? -ne 124 ] || touch "$T/gosh.timeout" ;;
	esac
}

# timed SHELL SCRIPT STDIN LAUNCHES: prints "wall cpu" in seconds per launch.
timed() {
	local TIMEFORMAT='%3R %3U %3S' w u s
	{ time (for ((k = 0; k < $4; k++)); do run "$1" "$2" "$3"; done >"$T/out.$1" 2>"$T/err.$1"); } 2>"$T/time"
	read -r w u s <"$T/time"
	awk -v w="$w" -v u="$u" -v s="$s" -v n="$4" 'BEGIN {printf "%.4f %.4f\n", w / n, (u + s) / n}'
}

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

{
	echo
	echo "sandsh $(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo '?') vs bash $(bash -c 'echo $BASH_VERSION')," \
		"median of $REPS interleaved run(s), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
	echo
	if [ "$GOSH" = none ]; then
		echo '| workload | bash s | sandsh s | wall ratio | bash cpu s | sandsh cpu s | cpu ratio | same |'
		echo '|---|--:|--:|--:|--:|--:|--:|---|'
	else
		echo '| workload | bash s | sandsh s | wall ratio | gosh s | gosh ratio | bash cpu s | sandsh cpu s | cpu ratio | gosh cpu ratio | same |'
		echo '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|'
	fi
} >"$T/table"

for c in "${CASES[@]}"; do
	name=${c%%@*} script=${c#*@}
	in=/dev/null launches=1
	case $name in
	start-up*) launches=20 ;;
	*read*) in=$T/lines.txt ;;
	esac
	say "== $name"
	declare -A W=() C=()
	rm -f "$T/gosh.timeout"
	for ((i = 0; i < REPS; i++)); do
		for sh in "${SHELLS[@]}"; do
			# after one timed-out run, the others would time out too
			[ "$sh" = gosh ] && [ -e "$T/gosh.timeout" ] && continue
			read -r w cpu < <(timed "$sh" "$script" "$in" "$launches")
			W[$sh]+=" $w" C[$sh]+=" $cpu"
		done
	done
	same=yes
	for sh in "${SHELLS[@]}"; do
		[ "$sh" = gosh ] && [ -e "$T/gosh.timeout" ] && continue
		if ! cmp -s "$T/out.bash" "$T/out.$sh" || [ -s "$T/err.$sh" ]; then
			same="NO ($sh)"
			say "$sh differs: $(head -c 200 "$T/out.$sh") $(head -c 200 "$T/err.$sh")"
		fi
	done
	# shellcheck disable=SC2086
	{
		bw=$(median ${W[bash]}) sw=$(median ${W[sandsh]}) bc=$(median ${C[bash]}) sc=$(median ${C[sandsh]})
		gw=0 gc=0
		if [ "$GOSH" != none ]; then gw=$(median ${W[gosh]}) gc=$(median ${C[gosh]}); fi
		[ -e "$T/gosh.timeout" ] && gw=-1 gc=-1
	}
	awk -v name="$name" -v bw="$bw" -v sw="$sw" -v bc="$bc" -v sc="$sc" -v gw="$gw" -v gc="$gc" \
		-v gosh="$GOSH" -v same="$same" -v limit="$GOSH_LIMIT" '
	function r(x, y) { return x < 0 ? "> " limit " s" : y > 0 ? sprintf("%.2f", x / y) : "~" }
	BEGIN {
		gsub(/\|/, "\\|", name)
		if (gosh == "none")
			printf "| %s | %.4f | %.4f | %s | %.4f | %.4f | %s | %s |\n", name, bw, sw, r(sw, bw), bc, sc, r(sc, bc), same
		else
			printf "| %s | %.4f | %.4f | %s | %s | %s | %.4f | %.4f | %s | %s | %s |\n",
				name, bw, sw, r(sw, bw), gw < 0 ? "> " limit : sprintf("%.4f", gw), r(gw, bw), bc, sc, r(sc, bc), r(gc, bc), same
	}' >>"$T/table"
	unset W C
done
cat "$T/table"
