#!/bin/sh
# Builds every conformance program (in parallel), runs each on the GPU and
# collects its PTX, results, SASS and log in directory $1.
out=$(realpath -m "${1:-out}")
shift
files=${*:-conf_int conf_int64 conf_f32 conf_f64 conf_f16 conf_misc conf_ctl conf_probe lib_barrier lib_ptx lib_cg}
mkdir -p "$out"
cd "$(dirname "$0")"
one() {
  f=$1
  flags="-O3 -std=c++17"
  case $f in conf_misc|lib_*) flags="$flags -fmad=false" ;; esac
  nvcc $flags -arch=sm_90a -ptx -o "$out/$f.ptx" $f.cu >"$out/$f.log" 2>&1
  nvcc $flags -gencode=arch=compute_90a,code=sm_90a -o "/tmp/$f" $f.cu >>"$out/$f.log" 2>&1 || echo "BUILD FAILED" >>"$out/$f.log"
}
for f in $files; do
  one $f &
done
wait
for f in $files; do
  if [ -x "/tmp/$f" ]; then
    (cd "$out" && timeout 60 "/tmp/$f" >>"$f.log" 2>&1) || echo "RUN FAILED" >>"$out/$f.log"
    cuobjdump --dump-sass "/tmp/$f" >"$out/$f.sass" 2>/dev/null
  fi
done
nvcc --version >"$out/nvcc.txt"
