#!/usr/bin/env bash
# Regenerates docs/examples.md: each example's header comment (what it
# teaches) and the report smsim prints for it. Run from the repository root
# after changing an example or the timing model.
set -euo pipefail
cd "$(dirname "$0")/.."
go build -o /tmp/smsim-doc ./cmd/smsim
out=docs/examples.md
{
  echo "# Examples"
  echo
  echo "One \`.sms\` kernel for each pattern of the CUDA Programming Guide's asynchronous-barrier section, plus a"
  echo "warp-specialised TMA pipeline. Each section says what the example teaches (its header comment) and shows"
  echo "what \`smsim run examples/NAME.sms --report barriers --report phases --report warps\` prints. The numbers come"
  echo "from the built-in \`h200\` configuration; regenerate this page with \`scripts/gen-examples-doc.sh\`."
  echo
  for f in init arrive_wait entangle_converged entangle_half entangle_lanes parity early_exit completion tx_bulk double_buffer tma_pipeline; do
    echo "## $f.sms"
    echo
    sed -n '/^#/!q;s/^# \{0,1\}//p' "examples/$f.sms" | sed 's/^/> /'
    echo
    echo '```'
    /tmp/smsim-doc run "examples/$f.sms" --report summary --report barriers --report phases --report warps 2>&1 | sed -E 's/simulated in [0-9.]+ s \([0-9.]+M warp-instr\/s\)/simulated/'
    echo '```'
    echo
  done
} > "$out"
echo "wrote $out"
