#!/usr/bin/env bash
# gen.sh OUTDIR: rebuilds this folder's files with the CUDA toolkit (no GPU needed; ptxas 13.0 made the
# committed ones, see ptxas-version.txt):
#   attrs.cubin        ptxas -arch=sm_90a -O3 attrs.ptx (kernels that make ptxas emit the launch-shape,
#                      cluster, register-limit, stack, call and jump-table attributes the calibration
#                      cubins lack)
#   attrs.ptxas        its ptxas -v resource report
#   attrs.sass         cuobjdump -sass attrs.cubin
#   attrs.nvdisasm     nvdisasm -c attrs.cubin: the same code with labels, the other text form Parse reads
#   steps.hex.nvdisasm nvdisasm -hex -c of calibration/h200/steps.cubin: labels, encodings, BRX targets
#   *.elf.txt          cuobjdump -elf of attrs.cubin and of calibration/h200/{steps,cpipe}.cubin: NVIDIA's
#                      own names and renderings of every .nv.info record, which the tests hold the
#                      decoding to
set -eu
out=${1:?usage: gen.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
cal=$here/../../../../calibration/h200
ptxas --version | tail -1 > "$out/ptxas-version.txt"
ptxas -arch=sm_90a -O3 -v -o "$out/attrs.cubin" "$here/attrs.ptx" > "$out/attrs.ptxas" 2>&1
cuobjdump -sass "$out/attrs.cubin" > "$out/attrs.sass"
nvdisasm -c "$out/attrs.cubin" > "$out/attrs.nvdisasm"
nvdisasm -hex -c "$cal/steps.cubin" > "$out/steps.hex.nvdisasm"
cuobjdump -elf "$out/attrs.cubin" > "$out/attrs.elf.txt"
for n in steps cpipe; do cuobjdump -elf "$cal/$n.cubin" > "$out/$n.elf.txt"; done
