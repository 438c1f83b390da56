#!/usr/bin/env bash
# Runs the Oils spec corpus (../shared/conformance) on sandsh.
#
#   scripts/conformance.sh [host|sandbox] [harness args...]
#
# host (default): unrestricted on the host disk with the host environment
# passed through (the corpus's helper programs need it), as an
# unprivileged user when run as root, since a case gone wrong writes at
# absolute paths (a uid and gid of its own, that no user, group or process
# has: free_id). sandbox: the default restricted in-memory sandbox, with
# the case's scratch directory and $REPO_ROOT imported at their host
# paths (below); CONFORMANCE_SANDBOX=bare gives an empty sandbox instead,
# with TMP=/tmp (the cases keep scratch files in $TMP).
# Options go to spec_harness.py (--show-failures, --json FILE, ...); other
# words name spec files (word-split, var-op-*). Without names it runs the
# files of SUBSET.txt.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
conf=${CONFORMANCE_DIR:-$top/../shared/conformance}
if [ ! -d "$conf/oils/spec" ]; then
	echo "conformance: $conf not found; skipping" >&2
	exit 0
fi
mode=host
case ${1:-} in host | sandbox) mode=$1; shift ;; esac

bin=$(mktemp -d /tmp/sandsh-conf.XXXXXX)
trap 'rm -rf "$bin"' EXIT
(cd "$top" && go build -o "$bin/sandsh" .)
cat >"$bin/sandsh-host" <<'WRAP'
#!/bin/bash
args=()
while IFS= read -r -d '' kv; do
  n=${kv%%=*}; case $n in _|SHLVL|PWD|OLDPWD) continue;; esac; args+=(--env "$n")
done < <(env -0)
exec "$(dirname "$0")/sandsh" --fs disk "${args[@]}" "$@"
WRAP
chmod -R a+rX "$bin"
chmod +x "$bin/sandsh-host"

opts=() names=() json=
while [ $# -gt 0 ]; do
	case $1 in
	--json)
		# absolute: the run happens elsewhere, maybe with a /tmp of its own
		case $2 in /*) json=$2 ;; *) json=$PWD/$2 ;; esac
		opts+=("$1" "$json"); shift 2 ;;
	--timeout | --jobs | --baseline | --env | --label | --repo-root | --subset | --sh-name)
		opts+=("$1" "$2"); shift 2 ;;
	-*) opts+=("$1"); shift ;;
	*) names+=("$1"); shift ;;
	esac
done
subset=()
[ ${#names[@]} -eq 0 ] && subset=(--subset "$conf/SUBSET.txt")

# free_id prints an id that no user, group or process has (every real,
# effective, saved and filesystem uid and gid in /proc), inside this
# namespace's uid and gid maps: the cases run as their own user, so a
# case that signals or kills "its" user's processes reaches only the
# run's own (nobody is shared with other services and tests). The start
# is random, so that two runs at once pick apart; a run that starts
# later sees the earlier one's processes.
free_id() {
	local used id i m
	used=$({
		cut -d: -f3 /etc/passwd /etc/group
		awk '/^[UG]id:/ { print $2; print $3; print $4; print $5 }' /proc/[0-9]*/status 2>/dev/null
	} | sort -un)
	# 20000-65533: clear of distributions' system and login ranges, and
	# held by most maps (65536 ids from 0 in a rootless container).
	id=$((20000 + (RANDOM * 32768 + RANDOM) % 45534))
	for ((i = 0; i < 45534; i++)); do
		id=$((20000 + (id - 20000 + 1) % 45534))
		grep -qx "$id" <<<"$used" && continue
		for m in /proc/self/uid_map /proc/self/gid_map; do
			awk -v id="$id" '$1 <= id && id < $1 + $3 { ok = 1 } END { exit !ok }' "$m" || continue 2
		done
		echo "$id"
		return 0
	done
	return 1
}

if [ "$mode" = host ]; then
	run=(python3 "$conf/spec_harness.py" --shell "$bin/sandsh-host" --sh "$bin/sandsh-host"
		"${subset[@]}" --jobs "${JOBS:-2}" --baseline "$conf/bash-baseline.json" "${opts[@]}" "$conf/oils/spec" "${names[@]}")
	if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
		id=$(free_id) || { echo "conformance: no uid and gid free for the run" >&2; exit 1; }
		echo "conformance: running as uid and gid $id, which no user, group or process has" >&2
		drop=(setpriv --reuid="$id" --regid="$id" --clear-groups env HOME=/tmp)
		cd /
		# A few cases call python2. root's may live in ~/.pyenv, which the
		# unprivileged user cannot reach: bind its installation into the
		# scratch directory, in a mount namespace of this run only. The
		# line "python2: ..." tells the ratchet whether the cases had one.
		py2= py2dir=
		for c in "$(command -v python2)" "$HOME"/.pyenv/versions/2.*/bin/python2; do
			[ -x "$c" ] && "$c" -c pass 2>/dev/null && { py2=$c; break; }
		done
		mkdir -p "$bin/py2" "$bin/py2bin"
		if ! command -v unshare >/dev/null || ! unshare -m --propagation private true 2>/dev/null; then
			# No mount namespace: the cases share the host's /tmp.
			echo "python2: none" >&2
			"${drop[@]}" "${run[@]}"
			exit
		fi
		if [ -n "$py2" ]; then
			py2dir=$(dirname "$(dirname "$(readlink -f "$py2")")")
			unshare -m --propagation private mount --bind "$py2dir" "$bin/py2" 2>/dev/null || py2dir=
		fi
		if [ -n "$py2dir" ]; then
			echo "python2: $py2dir" >&2
			# pyenv's python2 finds libpython by its absolute install path.
			printf '#!/bin/sh\nLD_LIBRARY_PATH=%s/py2/lib exec %s/py2/bin/python2 "$@"\n' "$bin" "$bin" >"$bin/py2bin/python2"
			chmod a+rx "$bin/py2bin" "$bin/py2bin/python2"
			drop+=(PATH="$bin/py2bin:$PATH")
		else
			echo "python2: none" >&2
		fi
		# The cases also get a /tmp of their own ($bin/tmp, removed with
		# $bin): some write fixed paths there (/tmp/oil-spec-test), which
		# another run as another uid, or other users, may hold. What the
		# run needs under the host's /tmp is bound at its place in it.
		mkdir -m 1777 "$bin/tmp"
		keep=("$bin")
		for k in "$conf" "${json:+$(dirname "$json")}"; do
			case $k in /tmp/*) keep+=("$k") ;; esac
		done
		unshare -m --propagation private bash -c '
			set -e
			py2dir=$1 bin=$2
			shift 2
			[ -z "$py2dir" ] || mount --bind "$py2dir" "$bin/py2"
			while [ "$1" != -- ]; do
				mkdir -p "$bin/tmp/${1#/tmp/}"
				mount --rbind "$1" "$bin/tmp/${1#/tmp/}"
				shift
			done
			shift
			mount --rbind "$bin/tmp" /tmp
			exec "$@"' _ "$py2dir" "$bin" "${keep[@]}" -- "${drop[@]}" "${run[@]}" || st=$?
		# A --json file right in /tmp was written to the run's own /tmp.
		if [ -n "$json" ] && [ "$(dirname "$json")" = /tmp ] && [ -f "$bin/tmp/${json##*/}" ]; then
			cp "$bin/tmp/${json##*/}" "$json"
		fi
		exit "${st:-0}"
	else
		# The harness finds a python2 in this user's PATH or ~/.pyenv.
		py2=none
		for c in "$(command -v python2)" "$HOME"/.pyenv/versions/2.*/bin/python2; do
			[ -x "$c" ] && "$c" -c pass 2>/dev/null && { py2=$c; break; }
		done
		echo "python2: $py2" >&2
		"${run[@]}"
	fi
elif [ "${CONFORMANCE_SANDBOX:-}" = bare ]; then
	# The earlier measurement: an empty sandbox, the case as a script
	# file, TMP=/tmp (the sandbox's own scratch directory), no $REPO_ROOT.
	python3 "$conf/spec_harness.py" --shell "$bin/sandsh run --env TMP=/tmp --env SH --env LC_ALL {file}" --sh "$bin/sandsh" \
		"${subset[@]}" --jobs "${JOBS:-2}" "${opts[@]}" "$conf/oils/spec" "${names[@]}"
else
	# What a user gives a script that needs its files: the case's own
	# directory (the harness's cNNNNN/, holding the scratch directory
	# tmp/ where the case starts, which is $TMP) imported at its host
	# path, with a copy of the corpus as $REPO_ROOT inside it (hard
	# links to one copy per run: the import shows symlinks as symlinks,
	# so the harness's repo/spec -> corpus link would lead nowhere).
	# Everything else is the default sandbox: restricted, in memory
	# (writes to the import stay there), no host program; $PATH is the
	# sandbox's own plus the corpus's bin/ (the harness's python helpers
	# cannot run there, and its bash wrapper would name a host binary).
	repo=$bin/repo
	mkdir -p "$repo/bin" "$repo/_tmp/spec-tmp"
	cp -r "$conf/oils/spec" "$repo/spec"
	chmod -R u+w "$repo"
	cat >"$bin/sandsh-sandbox" <<WRAP
#!/bin/bash
w=\$(dirname "\$PWD")
cp -al "$repo" "\$w/repo" 2>/dev/null || cp -r "$repo" "\$w/repo" || exit 125
exec "$bin/sandsh" run --import "\$w" --import-at "\$w" --cwd "\$PWD" \\
	--env TMP --env SH --env LC_ALL --env REPO_ROOT="\$w/repo" \\
	--env PATH="\$w/repo/spec/bin:/usr/local/bin:/usr/bin:/bin" -
WRAP
	chmod +x "$bin/sandsh-sandbox"
	# The code goes on standard input, as in host mode and for bash's
	# baseline (bash then has "s" in $-).
	python3 "$conf/spec_harness.py" --shell "$bin/sandsh-sandbox" --sh "$bin/sandsh" \
		"${subset[@]}" --jobs "${JOBS:-2}" "${opts[@]}" "$conf/oils/spec" "${names[@]}"
fi
