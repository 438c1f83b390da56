#!/usr/bin/env bash
# What one jailed `python3 -c pass` costs against a direct one (README,
# "Host programs in a jail"). Builds sandsh, then runs N direct and N
# jailed calls, interleaved ROUNDS times, per backend, and prints the
# median per-call wall and CPU (user+sys, sandsh and the jail included)
# overhead in ms. Wall times are only as steady as the machine is idle.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-10} ROUNDS=${ROUNDS:-5} PROG=${PROG:-python3}
tmp=$(mktemp -d)
chmod 755 "$tmp" # bwrap, run as nobody under root, binds sandsh from here
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/sandsh" .
backends=(ns)
command -v bwrap >/dev/null && backends+=(bwrap)
# t CMD...: wall and CPU milliseconds of CMD, children included.
t() {
	local s e c0 c1 me=$BASHPID
	c0=$(awk '{print $14+$15+$16+$17}' /proc/$me/stat)
	s=$(date +%s%N)
	"$@" >/dev/null
	e=$(date +%s%N)
	c1=$(awk '{print $14+$15+$16+$17}' /proc/$me/stat)
	echo "$(( (e - s) / 1000000 )) $(( (c1 - c0) * 1000 / $(getconf CLK_TCK) ))"
}
# The direct calls use the program the jail runs: the first in the
# system directories, as sandsh resolves it.
for d in /usr/local/bin /usr/bin /bin; do
	[ -x "$d/$PROG" ] && { path=$d/$PROG; break; }
done
direct="for i in \$(seq $N); do $path -c pass; done"
loop="for i in \$(seq $N); do $PROG -c pass; done"
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for b in "${backends[@]}"; do
	: >"$tmp/wall" && : >"$tmp/cpu"
	for r in $(seq "$ROUNDS"); do
		read -r dw dc < <(t bash -c "$direct")
		read -r bw bc < <(t "$tmp/sandsh" -c "for i in \$(seq $N); do :; done")
		read -r jw jc < <(t "$tmp/sandsh" --jail-backend "$b" --allow-run "$PROG" -c "$loop")
		echo $(( (jw - bw - dw) / N )) >>"$tmp/wall"
		echo $(( (jc - bc - dc) / N )) >>"$tmp/cpu"
		echo "round $r ($b): direct ${dw}ms, sandsh alone ${bw}ms, jailed ${jw}ms wall for $N calls" >&2
	done
	echo "$b: one jailed '$PROG -c pass' costs $(median <"$tmp/wall") ms wall, $(median <"$tmp/cpu") ms CPU more than a direct one (median of $ROUNDS rounds of $N; load $(cut -d' ' -f1 /proc/loadavg))"
done
