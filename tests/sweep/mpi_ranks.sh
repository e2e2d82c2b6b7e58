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
echo "identical summaries: 1 process and $np MPI ranks"
