#!/usr/bin/env bash
# sandsh vs bash + GNU tools on big files: wall time (median of $REPS runs)
# and peak memory (max RSS of the sandsh process tree).
#
#   bash bench/run.sh            # 20 MB and 100 MB text, 20 MB JSON, 3 runs each
#   bash bench/run.sh --quick    # 20 MB only, 1 run each
#   REPS=5 SIZES="20 100" bash bench/run.sh
#
# Every command runs three ways, on the same bytes (bench/gen.go, seeded):
#   GNU      bash -c CMD in a host temp directory (LC_ALL=C; awk is gawk)
#   overlay  sandsh --fs overlay --base DIR -c CMD: the file is read from
#            the read-only host base, through the overlay
#   mem      sandsh --fs mem: the data is first copied from stdin into the
#            in-memory filesystem, then CMD runs on it; the time is taken
#            inside the sandbox around CMD alone ($EPOCHREALTIME), the RSS
#            is the whole run's (so it includes the file itself, 1x)
# Output goes to /dev/null; one extra, untimed run per command checks that
# sandsh's output is byte-identical to GNU's ("same" column).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

REPS=${REPS:-3}
SIZES=${SIZES:-20 100}
if [ "${1:-}" = --quick ]; then
	REPS=1
	SIZES=20
fi
export LC_ALL=C
export PATH="$PATH:/usr/local/go/bin"

say() { printf '%s\n' "$*" >&2; }

# Tools: GNU time for max RSS, gawk (GNU awk) and jq as the references.
need=()
[ -x /usr/bin/time ] || need+=(time)
command -v gawk >/dev/null 2>&1 || need+=(gawk)
command -v jq >/dev/null 2>&1 || need+=(jq)
if [ ${#need[@]} -gt 0 ]; then
	say "installing ${need[*]}"
	(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}") >/dev/null 2>&1 ||
		{ say "bench: cannot install ${need[*]}"; exit 1; }
fi

T=$(mktemp -d "${TMPDIR:-/tmp}/sandsh-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/data" "$T/gnubin"
ln -s "$(command -v gawk)" "$T/gnubin/awk"
GNUPATH="$T/gnubin:$PATH"

say "building sandsh"
# The binary is copied once built: a file the Go linker wrote (through
# mmap) is mapped in bigger pieces when it runs than one written with
# write(2), which showed as up to 4 MB more peak RSS for the same bytes,
# depending on the build, not on the code.
go build -o "$T/sandsh.built" .
cp "$T/sandsh.built" "$T/sandsh"
SANDSH=$T/sandsh
FLAGS=(--timeout 0 --max-output 4GiB --max-memory 16GiB --max-fs-bytes 2GiB --max-file-size 1GiB --env LC_ALL=C)

say "generating data"
for mb in $SIZES; do
	go run bench/gen.go text $((mb * 1000000)) "$mb" >"$T/data/text$mb.txt"
done
go run bench/gen.go json 20000000 7 >"$T/data/json20.json"

# file@command@time target (x GNU); FILE is replaced by the file name.
CASES=()
for mb in $SIZES; do
	f=text$mb.txt
	CASES+=(
		"$f@grep -c kaab FILE@2"
		"$f@grep -oE '[a-z]+ing' FILE | sort | uniq -c | sort -rn | head@3"
		"$f@awk '{s+=\$1} END {print s}' FILE@3"
		"$f@sed 's/a/b/g' FILE@2"
		"$f@sort -k2 FILE@3"
		"$f@wc -l FILE@2"
		"$f@cut -f2 FILE | sort -u@2"
	)
done
CASES+=(
	"json20.json@jq 'map(.x) | add' FILE@-"
	"json20.json@jq -c '.[] | select(.n > 5)' FILE | wc -l@-"
)

# timed OUT_TIME OUT_CPU OUT_RSS cmd...: runs cmd once under GNU time,
# stdout to a host file (not /dev/null: GNU grep stops at the first match
# when its output is /dev/null).
timed() {
	local tv=$1 cv=$2 rv=$3 # (callers' variable names: not _e _u _s _m)
	shift 3
	if ! /usr/bin/time -f '%e %U %S %M' -o "$T/time" "$@" >"$T/out" 2>"$T/err"; then
		say "FAILED: $*"
		sed 's/^/    /' "$T/err" | head -5 >&2
		printf -v "$tv" '%s' NaN
		printf -v "$cv" '%s' NaN
		printf -v "$rv" '%s' 0
		return
	fi
	local _e _u _s _m
	read -r _e _u _s _m <"$T/time"
	printf -v "$tv" '%s' "$_e"
	printf -v "$cv" '%s' "$(awk -v u="$_u" -v s="$_s" 'BEGIN {print u + s}')"
	printf -v "$rv" '%s' "$_m"
}

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
maxof() { printf '%s\n' "$@" | sort -n | tail -1; }

# The in-memory run: load stdin into the sandbox, then time CMD inside.
MEMSCRIPT='cat >"$1"; t0=$EPOCHREALTIME; eval "$2" >/dev/null; st=$?; t1=$EPOCHREALTIME
echo "BENCH $t0 $t1" >&2; exit $st'

rows=()
for c in "${CASES[@]}"; do
	IFS='@' read -r file cmdt target <<<"$c"
	cmd=${cmdt//FILE/$file}
	bytes=$(stat -c %s "$T/data/$file")
	say "== $cmd  ($(((bytes + 500000) / 1000000)) MB)"
	g=() gc=() o=() oc=() m=() orss=() mrss=()
	for ((i = 0; i < REPS; i++)); do
		PATH=$GNUPATH timed t u r bash -c "cd \"\$1\" && $cmd" sh "$T/data"
		g+=("$t") gc+=("$u")
		timed t u r "$SANDSH" "${FLAGS[@]}" --fs overlay --base "$T/data" -c "$cmd"
		o+=("$t") oc+=("$u") orss+=("$r")
		if /usr/bin/time -f '%e %M' -o "$T/time" "$SANDSH" "${FLAGS[@]}" --fs mem -c "$MEMSCRIPT" sh "$file" "$cmd" \
			<"$T/data/$file" >"$T/out" 2>"$T/err"; then
			m+=("$(awk '/^BENCH /{printf "%.3f", $3-$2}' "$T/err")")
			mrss+=("$(awk '{print $2}' "$T/time")")
		else
			say "FAILED (mem): $cmd"
			m+=(NaN) mrss+=(0)
		fi
	done
	gsum=$(cd "$T/data" && PATH=$GNUPATH bash -c "$cmd" 2>/dev/null | md5sum)
	ssum=$("$SANDSH" "${FLAGS[@]}" --fs overlay --base "$T/data" -c "$cmd" 2>/dev/null | md5sum)
	same=yes
	[ "$gsum" = "$ssum" ] || same=NO
	rows+=("$(printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s' "$cmd" "$bytes" \
		"$(median "${g[@]}")" "$(median "${o[@]}")" "$(median "${m[@]}")" "$(median "${gc[@]}")" "$(median "${oc[@]}")" \
		"$(maxof "${orss[@]}")" "$(maxof "${mrss[@]}")" "$target" "$same")")
done

# The table (markdown). ratio = sandsh / GNU (wall time; cpu = user+sys);
# RSS in MB and as a multiple of the data size; the last column says
# whether the time target (overlay and mem wall time) and RSS <= 3x data
# (both runs) are met.
{
	echo
	echo "sandsh $(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo '?') vs GNU, median of $REPS run(s)," \
		"$(nproc) cores, LC_ALL=C, load average $(cut -d' ' -f1-3 /proc/loadavg)"
	echo
	echo '| command | MB | GNU s | overlay s | ratio | mem s | ratio | GNU cpu s | overlay cpu s | cpu ratio | RSS overlay MB (x data) | RSS mem MB (x data) | same | targets |'
	echo '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|---|'
	for row in "${rows[@]}"; do
		IFS=$'\t' read -r cmd bytes gt ot mt gct oct orss mrss target same <<<"$row"
		CMD=$cmd awk -v b="$bytes" -v g="$gt" -v o="$ot" -v m="$mt" -v gc="$gct" -v oc="$oct" \
			-v ors="$orss" -v mrs="$mrss" -v tg="$target" -v same="$same" '
		function ratio(x, y) { return y > 0.005 ? sprintf("%.2f", x / y) : "~" }
		BEGIN {
			cmd = ENVIRON["CMD"]
			gsub(/\|/, "\\|", cmd)
			xo = ors * 1024 / b; xm = mrs * 1024 / b
			ok = "mem " (xo <= 3 && xm <= 3 ? "ok" : "MISS")
			if (tg != "-") {
				lim = tg * g
				if (lim < 0.05) lim = 0.05  # below 50 ms the process start dominates
				ok = sprintf("%sx: %s, %s", tg, (o <= lim && m <= lim) ? "ok" : "MISS", ok)
			}
			printf "| `%s` | %d | %.2f | %.2f | %s | %.2f | %s | %.2f | %.2f | %s | %.0f (%.1fx) | %.0f (%.1fx) | %s | %s |\n",
				cmd, b / 1e6 + 0.5, g, o, ratio(o, g), m, ratio(m, g), gc, oc, ratio(oc, gc),
				ors / 1024, xo, mrs / 1024, xm, same, ok
		}'
	done
}
