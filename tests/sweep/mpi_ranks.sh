#!/usr/bin/env bash
# `mpirun -np K obliq sweep STUDY` must give the same summary as one process: every statistic,
# quantiles included, compared as JSON text with the run-dependent "run" object removed.
# Usage: mpi_ranks.sh MPIRUN K OBLIQ STUDY
set -euo pipefail
mpirun=$1 np=$2 obliq=$3 study=$4
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
extra=()
[ "$(id -u)" = 0 ] && extra+=(--allow-run-as-root)
"$obliq" sweep "$study" -o "$dir/one" --no-plots --quiet --threads 1 > /dev/null
"$mpirun" "${extra[@]}" --oversubscribe -np "$np" "$obliq" sweep "$study" -o "$dir/many" --no-plots --quiet --threads 1 > /dev/null
strip() { python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); s.pop("run"); print(json.dumps(s, sort_keys=True))' "$1"; }
ranks=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["run"]["ranks"])' "$dir/many/summary.json")
if [ "$ranks" != "$np" ]; then echo "summary says $ranks ranks, expected $np"; exit 1; fi
if [ "$(strip "$dir/one/summary.json")" != "$(strip "$dir/many/summary.json")" ]; then
  echo "summaries differ between 1 process and $np ranks"
  diff <(strip "$dir/one/summary.json" | python3 -m json.tool) <(strip "$dir/many/summary.json" | python3 -m json.tool) | head -40
  exit 1
fi
# No null anywhere (JSON has no Infinity or NaN; a summary never carries one), and the status
# counts add up to the samples done.
python3 - "$dir/many/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
def walk(j, path):
    if j is None: sys.exit("null in summary.json at " + path)
    if isinstance(j, dict):
        for k, v in j.items(): walk(v, path + "." + k)
    if isinstance(j, list):
        for k, v in enumerate(j): walk(v, path + "[%d]" % k)
walk(s, "")
if sum(s["counts"]["status"].values()) != s["samples_done"]: sys.exit("status counts do not add up to samples_done")
PY
echo "identical summaries: 1 process and $np MPI ranks"
