#!/usr/bin/env bash
# run_on_h200.sh: the whole GPU batch for testdata/cuda and calibration/h200, in one go.
# Builds every CUDA source (binary with -gencode=arch=compute_90a,code=sm_90a, PTX with -arch=sm_90a -ptx,
# both -O3 -std=c++17), runs the functional programs (each appends manifest cases to cases_<name>.jsonl) and the
# calibration program (CSV), assembles manifest.json, disassembles every binary (cuobjdump --dump-sass), and
# packs the results: $OUT/results.tar.gz (everything but the binaries), plus $OUT/log.txt, $OUT/manifest.json,
# $OUT/pipeline.csv. Touches no GPU setting. Usage (repository root or anywhere): OUT=/some/dir bash run_on_h200.sh
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-$PWD/.h200-results}
mkdir -p "$OUT"
W=$(mktemp -d /tmp/h200batch.XXXXXX)
mkdir -p "$W/testdata" "$W/calibration" "$W/logs" "$W/bin"
NV="-O3 -std=c++17"

# build NAME SRCDIR DSTDIR [FLAGSET ...]: tries each flag set ('-' = none) until binary and PTX both build.
build() {
  local name=$1 src=$2 dst=$3; shift 3
  local sets=("$@"); [ ${#sets[@]} -eq 0 ] && sets=("-")
  local i=0
  for fs in "${sets[@]}"; do
    local f=""; [ "$fs" != "-" ] && f="$fs"
    local log="$W/logs/$name.build$i.txt"; i=$((i + 1))
    if nvcc $NV -gencode=arch=compute_90a,code=sm_90a -Xptxas -v $f -o "$W/bin/$name" "$src/$name.cu" -lcuda > "$log" 2>&1 &&
       nvcc $NV -arch=sm_90a -ptx $f -o "$dst/$name.ptx" "$src/$name.cu" >> "$log" 2>&1; then
      echo "$f" > "$dst/$name.flags"
      echo "built $name (flags: '$f')"
      return 0
    fi
    echo "FAILED to build $name with flags '$f':"; grep -E "error|Error" "$log" | head -20
  done
  return 1
}

{
  echo "== start $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv | tee "$W/gpu.txt"
  nvcc --version | tail -2 | tee "$W/nvcc.txt"

  T=testdata/cuda; C=calibration/h200
  build reduce $T "$W/testdata" &
  build scan $T "$W/testdata" &
  build completion $T "$W/testdata" &
  build tma_pipeline $T "$W/testdata" &
  build libcu $T "$W/testdata" - "-DNO_CDE" "-DNO_CDE -DNO_PTX_INIT" "-DNO_CDE -DNO_PTX_INIT -DNO_CG_SCAN -DNO_PIPELINE" &
  build isa_mix $T "$W/testdata" &
  build pipeline $C "$W/calibration" &
  wait
  echo "== builds done $(date -u +%FT%TZ)"

  for n in reduce scan completion tma_pipeline libcu isa_mix; do
    if [ -x "$W/bin/$n" ]; then
      (cd "$W/testdata" && CASES="$W/testdata/cases_$n.jsonl" timeout 45 "$W/bin/$n") > "$W/logs/$n.run.txt" 2>&1
      echo "== $n exit $?"; cat "$W/logs/$n.run.txt"
    fi
  done
  if [ -x "$W/bin/pipeline" ]; then
    (cd "$W/calibration" && timeout 180 "$W/bin/pipeline" > "$W/calibration/pipeline.csv" 2> "$W/logs/pipeline.err.txt")
    echo "== pipeline exit $?"; cat "$W/logs/pipeline.err.txt"; cat "$W/calibration/pipeline.csv"
  fi

  # SASS without the encoding comments (one line per instruction)
  sass() { cuobjdump --dump-sass "$1" 2>&1 | sed -E 's@ */\* 0x[0-9a-f]{16} \*/@@; s/[[:space:]]+$//' | grep -v '^$'; }
  for n in reduce scan completion tma_pipeline libcu isa_mix; do
    [ -x "$W/bin/$n" ] && sass "$W/bin/$n" > "$W/testdata/$n.sass"
    [ -x "$W/bin/$n" ] && cuobjdump --dump-resource-usage "$W/bin/$n" > "$W/logs/$n.res.txt" 2>&1
  done
  [ -x "$W/bin/pipeline" ] && sass "$W/bin/pipeline" > "$W/calibration/pipeline.sass"
  [ -x "$W/bin/pipeline" ] && cuobjdump --dump-resource-usage "$W/bin/pipeline" > "$W/logs/pipeline.res.txt" 2>&1

  python3 $T/make_manifest.py "$W/testdata" --keep-mismatch > "$W/testdata/manifest.json"
  nvidia-smi --query-gpu=clocks.sm,temperature.gpu --format=csv | tee -a "$W/gpu.txt"
  echo "== end $(date -u +%FT%TZ)"
} 2>&1 | tee "$W/log.txt"

cp "$W/log.txt" "$OUT/log.txt"
cp "$W/testdata/manifest.json" "$OUT/manifest.json" 2>/dev/null
cp "$W/calibration/pipeline.csv" "$OUT/pipeline.csv" 2>/dev/null
tar -czf "$OUT/results.tar.gz" -C "$W" testdata calibration logs gpu.txt nvcc.txt log.txt
ls -la "$OUT"
