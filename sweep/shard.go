package sweep

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/smsim/smsim/run"
)

// Shard is a deterministic share of a grid: point i belongs to shard
// i mod count. Shards are disjoint and together cover the grid.
type Shard struct{ Index, Count int }

// Has reports whether grid point i belongs to the shard.
func (s Shard) Has(i int) bool { return i%s.Count == s.Index }

// ParseShard reads I/N with 0 <= I < N.
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return Shard{}, &run.UsageError{Msg: fmt.Sprintf("--shard %q: want I/N with 0 <= I < N, e.g. 0/4", s)}
	}
	return Shard{Index: i, Count: n}, nil
}

// SlurmShard derives the shard from a Slurm job array's environment:
// SLURM_ARRAY_TASK_ID minus SLURM_ARRAY_TASK_MIN (when set) of
// SLURM_ARRAY_TASK_COUNT. ok is false outside a job array.
func SlurmShard(getenv func(string) string) (Shard, bool, error) {
	id, count := getenv("SLURM_ARRAY_TASK_ID"), getenv("SLURM_ARRAY_TASK_COUNT")
	if id == "" || count == "" {
		return Shard{}, false, nil
	}
	i, err1 := strconv.Atoi(id)
	n, err2 := strconv.Atoi(count)
	lo := 0
	if m := getenv("SLURM_ARRAY_TASK_MIN"); m != "" {
		var err error
		if lo, err = strconv.Atoi(m); err != nil {
			err1 = err
		}
	}
	i -= lo
	if err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return Shard{}, false, &run.UsageError{Msg: fmt.Sprintf("SLURM_ARRAY_TASK_ID=%s SLURM_ARRAY_TASK_COUNT=%s: want consecutive task ids (--array=0-%d); or give --shard I/N", id, count, max(n, 1)-1)}
	}
	return Shard{Index: i, Count: n}, true, nil
}

// Size is the number of the n grid points that belong to the shard.
func (s Shard) Size(n int) int {
	if s.Index >= n {
		return 0
	}
	return (n-1-s.Index)/s.Count + 1
}
