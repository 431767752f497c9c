package run

import (
	"fmt"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sm"
)

// The CUDA launch limits of a Hopper GPU, as sm.(*SM).Run enforces them.
// A launch flag past one is a usage error naming the flag; a source whose
// own block or grid is past one is refused by the SM as an impossible launch.
const (
	maxBlockThreads = 1024      // threads of one block
	maxBlockZ       = 64        // a block's z dimension
	maxGridYZ       = 65535     // a grid's y and z dimensions (x: 2^31-1, which dims enforces)
	maxGridBlocks   = 1 << 20   // blocks one simulated SM runs in a launch
	maxSmemFlag     = 1<<31 - 1 // a --smem value that fits the launch's int
)

// checkBlock refuses a --block value past the launch limits.
func checkBlock(s string, d [3]int) error {
	bad := func(msg string, a ...any) error {
		return &UsageError{Msg: fmt.Sprintf("--block %q: ", s) + fmt.Sprintf(msg, a...)}
	}
	if n := d[0] * d[1] * d[2]; d[0] > maxBlockThreads || d[1] > maxBlockThreads || n > maxBlockThreads {
		return bad("%d threads per block, more than the %d a block may have", int64(d[0])*int64(d[1])*int64(d[2]), maxBlockThreads)
	}
	if d[2] > maxBlockZ {
		return bad("z dimension %d is more than %d", d[2], maxBlockZ)
	}
	return nil
}

// checkRegisters refuses a block whose warps need more registers than the
// SM's register file holds (limit.registers), as the CUDA runtime refuses
// the launch ("too many resources requested"). flag is the --block value
// ("": the kernel's own block).
func checkRegisters(flag string, d [3]int, prog *isa.Program, cfg sm.Config) error {
	if prog.RegsPerThread == 0 {
		return nil
	}
	threads := d[0] * d[1] * d[2]
	need := sm.CTARegisters(cfg.Limits, prog.RegsPerThread, (threads+31)/32)
	if need <= cfg.Limits.Registers {
		return nil
	}
	what := "the kernel's block"
	if flag != "" {
		what = fmt.Sprintf("--block %q", flag)
	}
	return &UsageError{Msg: fmt.Sprintf("%s: kernel %s takes %d registers a thread; %d threads need %d, more than the SM's %d (limit.registers)",
		what, prog.Title(), prog.RegsPerThread, threads, need, cfg.Limits.Registers)}
}

// checkGrid refuses a --grid value past the launch limits.
func checkGrid(s string, d [3]int) error {
	bad := func(msg string, a ...any) error {
		return &UsageError{Msg: fmt.Sprintf("--grid %q: ", s) + fmt.Sprintf(msg, a...)}
	}
	for i, name := range []string{"y", "z"} {
		if d[i+1] > maxGridYZ {
			return bad("%s dimension %d is more than %d", name, d[i+1], maxGridYZ)
		}
	}
	// Each factor is at most 2^31-1 or 65535, so the product fits 64 bits.
	if n := uint64(d[0]) * uint64(d[1]) * uint64(d[2]); n > maxGridBlocks {
		return bad("%d blocks, more than the %d one simulated SM runs in a launch", n, maxGridBlocks)
	}
	return nil
}

// smemFlag parses --smem and refuses a size that, with the kernel's static
// shared memory, is more than the configuration lets one block have.
func smemFlag(s string, prog *isa.Program, cfg sm.Config) (int, error) {
	n, err := parseSize(s)
	if err != nil {
		return 0, &UsageError{Msg: fmt.Sprintf("--smem %q: want a byte count such as 49152 or 48KiB", s)}
	}
	limit := uint64(cfg.Smem.MaxPerBlock)
	if n > limit || n > maxSmemFlag {
		return 0, &UsageError{Msg: fmt.Sprintf("--smem %q: %d bytes is more than the %s of shared memory one block may have (smem.per_cta = %d)",
			s, n, byteSize(limit), limit)}
	}
	base := prog.DynSmemBase() - prog.SharedReserved
	if need := uint64(base) + n; need > limit {
		return 0, &UsageError{Msg: fmt.Sprintf("--smem %q: with kernel %s's %d bytes of static shared memory a block needs %d bytes, more than the %s allowed (smem.per_cta = %d)",
			s, prog.Name, base, need, byteSize(limit), limit)}
	}
	return int(n), nil
}

// byteSize writes n bytes the way a reader takes them in: B, KiB or MiB.
func byteSize(n uint64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
