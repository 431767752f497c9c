#!/usr/bin/env bash
# sass-from-ptx.sh: the SASS the H200 runs for every PTX file of the calibration suite and testdata/cuda.
# Each committed NAME.ptx is assembled by ptxas for sm_90a (the step nvcc runs after -ptx, so the SASS is the
# one the measured binary ran, whatever the host code) and disassembled with its encodings:
#   NAME.cubin   ptxas -arch=sm_90a -O3 NAME.ptx
#   NAME.sass    cuobjdump -sass NAME.cubin (encodings kept: each instruction's control bits are in them)
#   NAME.ptxas   ptxas -v: registers, shared memory, stack per entry
# Needs the CUDA toolkit (no GPU). Usage: scripts/sass-from-ptx.sh OUTDIR [PTX ...]
set -u
out=${1:?usage: sass-from-ptx.sh OUTDIR [PTX ...]}; shift
cd "$(dirname "$0")/.."
mkdir -p "$out"
files=("$@")
[ ${#files[@]} -eq 0 ] && files=(calibration/h200/*.ptx testdata/cuda/*.ptx)
ptxas --version | tail -1 > "$out/ptxas-version.txt"
fail=0
for p in "${files[@]}"; do
  d=$(dirname "$p"); n=$(basename "$p" .ptx)
  mkdir -p "$out/$d"
  if ptxas -arch=sm_90a -O3 -v -o "$out/$d/$n.cubin" "$p" > "$out/$d/$n.ptxas" 2>&1; then
    cuobjdump -sass "$out/$d/$n.cubin" > "$out/$d/$n.sass" || { echo "cuobjdump failed: $p"; fail=1; }
  else
    echo "ptxas failed: $p"; tail -5 "$out/$d/$n.ptxas"; fail=1
  fi
done
exit $fail
