#!/usr/bin/env bash
# test-local.sh: run scripts/slurm/sweep.sbatch as a real Slurm job array and
# check that the shards merge into the complete grid; then lose one task's
# results, see merge name the missing points, rerun that one shard and merge
# again. Not part of `go test` (it needs a Slurm cluster); start a one-node
# cluster first with `sudo scripts/slurm/local-cluster.sh start`.
# Run from anywhere; it works in a temporary directory and prints what it does.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
command -v sbatch >/dev/null || { echo "test-local: no sbatch; run scripts/slurm/local-cluster.sh start" >&2; exit 1; }
sinfo -h >/dev/null || { echo "test-local: Slurm is not answering; run scripts/slurm/local-cluster.sh start" >&2; exit 1; }

work=$(mktemp -d /tmp/smsim-slurm.XXXXXX)
echo "== building smsim into $work/bin"
(cd "$repo" && go build -o "$work/bin/smsim" ./cmd/smsim)
cp -r "$repo/examples" "$repo/scripts" "$work/"
cd "$work"

echo "== sbatch --wait --array=0-3 scripts/slurm/sweep.sbatch"
sbatch --wait --array=0-3 scripts/slurm/sweep.sbatch
for f in slurm-*.out; do echo "-- $f"; cat "$f"; done
wc -l results/part-*.jsonl

echo "== bin/smsim merge results/part-*.jsonl --out results/sweep.jsonl"
bin/smsim merge results/part-*.jsonl --out results/sweep.jsonl
n=$(wc -l <results/sweep.jsonl)
[ "$n" -eq 18 ] || { echo "test-local: FAIL: $n merged records, want 18" >&2; exit 1; }
head -c 300 results/sweep.jsonl; echo " ..."

echo "== losing task 1's results: merge must name the missing points"
mv results/part-1.jsonl lost-part-1.jsonl
if bin/smsim merge results/part-*.jsonl --out results/sweep.jsonl; then
	echo "test-local: FAIL: merge did not report the missing points" >&2; exit 1
fi

echo "== rerunning shard 1/4 alone: sbatch --wait --array=1 --export=ALL,SMSIM_SHARD=1/4"
sbatch --wait --array=1 --export=ALL,SMSIM_SHARD=1/4 scripts/slurm/sweep.sbatch
bin/smsim merge results/part-*.jsonl --out results/sweep.jsonl
cmp <(cut -d, -f1-3 lost-part-1.jsonl | sort) <(cut -d, -f1-3 results/part-1.jsonl | sort) ||
	{ echo "test-local: FAIL: the rerun shard holds other points" >&2; exit 1; }

echo "== resubmitting the whole array: every point is already there, nothing runs"
mkdir -p logs && mv slurm-*.out logs/
sbatch --wait --array=0-3 scripts/slurm/sweep.sbatch
cat slurm-*.out
if grep -h "points in shard" slurm-*.out | grep -v " 0 run "; then
	echo "test-local: FAIL: a resubmitted task ran points again" >&2; exit 1
fi
echo "test-local: PASS (results in $work/results)"
