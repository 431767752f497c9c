#!/usr/bin/env bash
# pending-probes.sh: build and run H200 probes of calibration/h200 that have no .csv yet (the README lists
# those not run), one after another, on the machine's GPU. For each NAME.cu it writes to OUTDIR:
#   NAME.csv    the probe's standard output (its rows, ending "done,ok,1")
#   NAME.sass   cuobjdump -sass of the binary: what each row ran (an executable's listing, with its PTX:
#               not the cubin form calibration/h200's SASS corpus holds, so it is not copied there)
#   NAME.log    nvcc's and the run's standard error
# Needs the CUDA toolkit and an H200. Usage: scripts/pending-probes.sh OUTDIR NAME... (OUTDIR absolute), e.g.
#   scripts/pending-probes.sh "$OUT" gpcload
set -u
out=${1:?usage: pending-probes.sh OUTDIR NAME...}; shift
[ $# -gt 0 ] || { echo "usage: pending-probes.sh OUTDIR NAME..."; exit 2; }
case $out in /*) ;; *) out=$PWD/$out ;; esac
cd "$(dirname "$0")/../calibration/h200"
mkdir -p "$out"
names=("$@")
nvidia-smi --query-gpu=name,clocks.sm,temperature.gpu --format=csv > "$out/gpu.txt" 2>&1
fail=0
for n in "${names[@]}"; do
  if ! nvcc -O3 -std=c++17 -arch=sm_90a -o "$out/$n" "$n.cu" 2> "$out/$n.log"; then
    echo "nvcc failed: $n"; tail -5 "$out/$n.log"; fail=1; continue
  fi
  cuobjdump -sass "$out/$n" > "$out/$n.sass" 2>> "$out/$n.log"
  if ! "$out/$n" > "$out/$n.csv" 2>> "$out/$n.log"; then
    echo "run failed: $n"; tail -5 "$out/$n.log"; fail=1
  fi
  rm -f "$out/$n"
  echo "$n: $(wc -l < "$out/$n.csv") rows, last: $(tail -1 "$out/$n.csv")"
done
exit $fail
