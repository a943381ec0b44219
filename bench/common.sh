# Helpers shared by the benchmark scripts (sourced, not run).

# Runs a command under /usr/bin/time; prints "<wall seconds> <peak RSS KiB>".
# On failure the command's log goes to stderr (stdout is read by the caller).
measure() {
  local log="$1"; shift
  /usr/bin/time -f "%e %M" -o "$log.time" "$@" >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
  cat "$log.time"
}

median() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
