#!/usr/bin/env bash
# run_on_h200.sh: builds every application kernel of this folder for sm_90a (binary with
# -gencode=arch=compute_90a,code=sm_90a, PTX with -arch=sm_90a -ptx, both -O3 -std=c++17), runs each program
# (one manifest case per line into cases_NAME.jsonl), assembles manifest.json (checking each kernel is an .entry
# of its PTX), and assembles and disassembles each PTX with scripts/sass-from-ptx.sh. Results under $OUT:
# results.tar.gz (PTX, SASS, cubins, ptxas reports, manifest.json, logs). Touches no GPU setting.
# Usage: OUT=/some/dir [NAMES="gemm_wgmma ..."] bash apps/h200/run_on_h200.sh (NAMES: a subset of the programs)
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-$PWD/.h200-apps}
W=$(mktemp -d /tmp/apps.XXXXXX)
mkdir -p "$OUT" "$W/apps/h200" "$W/bin" "$W/logs"
A=apps/h200
names=${NAMES:-"pc_guide reduce_plain softmax_row cpasync_pipe gemm_tma fa3_fwd gemm_wgmma"}
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
  nvcc --version | tail -2
  for n in $names; do
    ( nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o "$W/bin/$n" "$A/$n.cu" -lcuda > "$W/logs/$n.build.txt" 2>&1 &&
      nvcc -O3 -std=c++17 -arch=sm_90a -ptx -o "$W/apps/h200/$n.ptx" "$A/$n.cu" >> "$W/logs/$n.build.txt" 2>&1 &&
      echo "built $n" ) || { echo "FAILED $n"; cat "$W/logs/$n.build.txt"; } &
  done
  wait
  for n in $names; do
    [ -x "$W/bin/$n" ] || continue
    CASES="$W/apps/h200/cases_$n.jsonl" timeout 120 "$W/bin/$n" > "$W/logs/$n.run.txt" 2>&1
    echo "== $n exit $?"; cat "$W/logs/$n.run.txt"
  done
  cp "$W"/apps/h200/*.ptx "$A/" 2>/dev/null
  bash scripts/sass-from-ptx.sh "$W/sass" $(ls "$W"/apps/h200/*.ptx | sed "s#$W/##") && echo "sass ok"
  cp "$W"/sass/apps/h200/* "$W/apps/h200/" 2>/dev/null
  python3 - "$W/apps/h200" <<'PY'
import json, sys, glob, os, re
d = sys.argv[1]
cases = []
for f in sorted(glob.glob(os.path.join(d, 'cases_*.jsonl'))):
    for line in open(f):
        c = json.loads(line)
        ptx = open(os.path.join(d, c['ptx'])).read()
        entries = re.findall(r'\.entry\s+(\S+?)\s*\(', ptx)
        if c['kernel'] not in entries:
            print('kernel %s not an entry of %s: %s' % (c['kernel'], c['ptx'], entries))
        cases.append(c)
json.dump(cases, open(os.path.join(d, 'manifest.json'), 'w'), indent=1)
print('manifest: %d cases' % len(cases))
PY
} 2>&1 | tee "$W/logs/log.txt"
cp "$W/logs/log.txt" "$OUT/log.txt"
(cd "$W" && tar czf "$OUT/results.tar.gz" apps logs)
