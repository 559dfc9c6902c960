# The machine's fixture cache, shared by every clone (sourced by
# tests/lib.sh and scripts/js-deps.sh; POSIX sh, as dash runs it).
#
# A fixture too slow to build in every clone (criterion's benchmark, minutes
# the first time; the npm packages of the JS harnesses, from the network) is
# built once per machine into $XDG_CACHE_HOME/benchtui/fixtures
# (~/.cache/benchtui/fixtures), as the entry NAME-HASH: HASH is a hash of
# its key, a text naming everything that goes into it (its sources, the
# build command, the toolchain's version). A second clone reuses it; a
# changed source, command or toolchain makes another entry.
#
# An entry is built into NAME-HASH.tmp.PID, listed in a manifest (the
# sha256 of every file, then of the manifest itself) and renamed into place:
# it is whole or absent. Every use checks the manifest: an entry that does
# not check (damaged, or left half-written by an older layout) is built
# again, never trusted. One run at a time builds an entry, holding
# NAME-HASH.lock (flock); another run that needs it waits, and says so
# every 30 s with what the builder last said (NAME-HASH.status).

# cache_root: the cache's directory, made if needed; where it cannot be
# made (no writable home), build/cache in the clone
cache_root() {
	_cr=${XDG_CACHE_HOME:-${HOME:-/nonexistent}/.cache}/benchtui
	case $_cr in /*) ;; *) _cr=${HOME:-/nonexistent}/.cache/benchtui ;; esac
	if ! mkdir -p "$_cr/fixtures" 2>/dev/null || [ ! -w "$_cr/fixtures" ]; then
		_cr=$(pwd)/build/cache
		mkdir -p "$_cr/fixtures" || return 1
	fi
	echo "$_cr"
}

# cache_ok DIR: DIR is a whole entry (every file as its manifest says)
cache_ok() {
	[ -s "$1/.manifest" ] && [ -s "$1/.manifest.sum" ] &&
		(cd "$1" && sha256sum .manifest | cmp -s - .manifest.sum &&
			sha256sum --quiet --strict -c .manifest) >/dev/null 2>&1
}

# ticking LABEL STATUSFILE CMD...: run CMD; every 30 s while it runs, say on
# stderr how long it has run and what `eval "$TICK_STATUS"` prints (if
# TICK_STATUS is set), and write that into STATUSFILE for the runs that
# wait. Neither CMD nor the ticking has fd 8 (cache_entry's lock): the
# lock goes with the shell that took it.
ticking() {
	_tk_label=$1 _tk_file=$2
	shift 2
	_tk_t0=$(date +%s)
	(
		trap 'kill $_tk_sleep 2>/dev/null; exit 0' TERM
		while kill -0 $$ 2>/dev/null; do
			sleep 30 &
			_tk_sleep=$!
			wait $_tk_sleep
			_tk_s=$(eval "${TICK_STATUS:-:}" 2>/dev/null)
			_tk_s="$(($(date +%s) - _tk_t0)) s${_tk_s:+, $_tk_s}"
			echo "   ... $_tk_label: $_tk_s" >&2
			echo "pid $$, $_tk_s" >"$_tk_file"
		done
	) 8>&- &
	_tk_pid=$!
	"$@" 8>&-
	_tk_rc=$?
	kill $_tk_pid 2>/dev/null
	wait $_tk_pid 2>/dev/null
	return $_tk_rc
}

# cache_entry NAME KEY BUILDER [ARGS...]: print the directory of the entry
# NAME for KEY, after building it if there is none (or a damaged one):
# BUILDER ARGS... OUT writes it into the new, empty directory OUT, its
# output on stderr, where the time it takes is said every 30 s.
# CACHE_ENTRY is the entry's final directory while BUILDER runs: what
# BUILDER must keep beside the entry (the sources its debug information
# names) goes into CACHE_ENTRY.src. Entries unused for 30 days are removed
# when another entry of NAME is built.
cache_entry() {
	_ce_name=$1 _ce_key=$2
	shift 2
	_ce_root=$(cache_root) || return 1
	_ce_hash=$(printf '%s\n' "$_ce_key" | sha256sum | cut -c1-16)
	_ce_dir=$_ce_root/fixtures/$_ce_name-$_ce_hash
	if cache_ok "$_ce_dir"; then
		touch -c "$_ce_dir" "$_ce_dir.src"
		echo "$_ce_dir"
		return 0
	fi
	# fd 8 holds the lock (BUILDER runs without it: ticking)
	exec 8>>"$_ce_dir.lock" || return 1
	if ! flock -n 8; then
		_ce_t0=$(date +%s)
		echo "   waiting for $_ce_name: another run is building it into $_ce_dir" >&2
		until flock -w 30 8; do
			echo "   ... waiting for $_ce_name: $(($(date +%s) - _ce_t0)) s (the builder: $(cat "$_ce_dir.status" 2>/dev/null))" >&2
		done
	fi
	if cache_ok "$_ce_dir"; then
		exec 8>&-
		touch -c "$_ce_dir" "$_ce_dir.src"
		echo "$_ce_dir"
		return 0
	fi
	# under the lock: what is there is a damaged entry or an interrupted build
	rm -rf "$_ce_dir" "$_ce_dir".tmp.*
	_ce_tmp=$_ce_dir.tmp.$$
	mkdir -p "$_ce_tmp" || { exec 8>&-; return 1; }
	echo "pid $$, starting" >"$_ce_dir.status"
	echo "   building $_ce_name into $_ce_dir (once per machine; progress every 30 s)" >&2
	_ce_t0=$(date +%s)
	CACHE_ENTRY=$_ce_dir
	ticking "building $_ce_name" "$_ce_dir.status" "$@" "$_ce_tmp" >&2
	_ce_rc=$?
	if [ $_ce_rc = 0 ]; then
		(cd "$_ce_tmp" && find . -type f ! -name .manifest ! -name .manifest.sum |
			LC_ALL=C sort | sed 's|^\./||' | tr '\n' '\0' | xargs -0 sha256sum >.manifest &&
			sha256sum .manifest >.manifest.sum) &&
			[ -s "$_ce_tmp/.manifest" ] && mv -T "$_ce_tmp" "$_ce_dir" || _ce_rc=1
	fi
	if [ $_ce_rc != 0 ]; then
		rm -rf "$_ce_tmp"
		echo "   cannot build $_ce_name (after $(($(date +%s) - _ce_t0)) s)" >&2
		exec 8>&-
		return 1
	fi
	echo "   built $_ce_name in $(($(date +%s) - _ce_t0)) s" >&2
	rm -f "$_ce_dir.status"
	# the entries of NAME (and what their builders kept beside them) that no
	# run has used for 30 days go
	find "$_ce_root/fixtures" -mindepth 1 -maxdepth 1 -type d -name "$_ce_name-*" \
		-mtime +30 -exec rm -rf {} + 2>/dev/null
	exec 8>&-
	echo "$_ce_dir"
}

# cache_sum PATH...: a hash of the files under PATHs (names and contents),
# for a key (a Cargo.lock or a target directory cargo left there is not
# a source)
cache_sum() {
	find "$@" -type f ! -name Cargo.lock ! -path '*/target/*' | LC_ALL=C sort | tr '\n' '\0' |
		xargs -0 sha256sum | sha256sum | cut -c1-32
}
