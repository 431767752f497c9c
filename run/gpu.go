package run

import (
	"fmt"

	"github.com/smsim/smsim/gpu"
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/memory"
	"github.com/smsim/smsim/sm"
)

// runner runs launches on a machine: one SM, or a GPU of several.
type runner interface {
	Run(l *sm.Launch) (*sm.Result, error)
}

// gpuRunner runs launches on a GPU and reports the merged result.
type gpuRunner struct{ g *gpu.GPU }

func (r gpuRunner) Run(l *sm.Launch) (*sm.Result, error) {
	res, err := r.g.Run(l)
	if res == nil {
		var le *gpu.LaunchError
		if asLaunchError(err, &le) {
			return nil, &sm.Diag{Kind: sm.DiagInput, Code: "bad-launch", Warp: -1, Phase: -1, Msg: le.Msg}
		}
		return nil, err
	}
	return res.Result, err
}

func asLaunchError(err error, le **gpu.LaunchError) bool {
	e, ok := err.(*gpu.LaunchError)
	*le = e
	return ok
}

// launcher wires the job's machine: the SM alone (one SM), or a GPU of
// j.SMs SMs sharing L2 and DRAM.
func launcher(j *Job, gm *memory.Global, ps *Params) (runner, error) {
	if j.SMs <= 1 && j.Cluster == [3]int{} {
		return machine(j, gm, ps)
	}
	h, err := hierarchy(j, ps)
	if err != nil {
		return nil, err
	}
	g, err := gpu.New(j.Config, j.SMs, gm, h)
	if err != nil {
		return nil, &InputError{Err: err}
	}
	if j.Observer != nil {
		g.SetObserver(j.Observer)
	}
	g.SetThreads(j.Threads)
	g.SetSMThreads(j.SMThreads)
	return gpuRunner{g}, nil
}

// clusterFlag resolves the launch's cluster shape: --cluster, else the
// source's (.reqnctapercluster, the cubin's), else none. A kernel with a
// fixed shape takes only that one; one marked .explicitcluster needs one.
func clusterFlag(s string, prog *isa.Program, grid [3]int, cfg sm.Config) ([3]int, error) {
	c := prog.Cluster
	if s != "" {
		d, err := Dims("--cluster", s, [3]int{}, 1)
		if err != nil {
			return d, err
		}
		if prog.Cluster != [3]int{} && d != prog.Cluster {
			return d, &UsageError{Msg: fmt.Sprintf("--cluster %q: kernel %s fixes its cluster at %v (.reqnctapercluster)", s, prog.Name, prog.Cluster)}
		}
		c = d
	}
	if c == [3]int{} {
		if prog.ExplicitCluster {
			return c, &UsageError{Msg: fmt.Sprintf("kernel %s is marked .explicitcluster: give its cluster shape with --cluster X[,Y[,Z]]", prog.Name)}
		}
		return c, nil
	}
	if n := c[0] * c[1] * c[2]; n > cfg.GPU.MaxClusterCTAs {
		return c, &UsageError{Msg: fmt.Sprintf("cluster %v of %d CTAs: a cluster has at most %d (cluster.max_ctas)", c, n, cfg.GPU.MaxClusterCTAs)}
	}
	for i := range c {
		if grid[i]%c[i] != 0 {
			return c, &UsageError{Msg: fmt.Sprintf("cluster %v does not divide grid %v: each grid dimension must be a multiple of the cluster's", c, grid)}
		}
	}
	return c, nil
}

// smsFlag resolves --sms: 0 is one SM for a launch without clusters (the
// SM runs the whole grid, as every calibration measurement was taken per
// SM) and the configuration's gpu.sms for a cluster launch, which needs
// SMs enough for its clusters.
func smsFlag(n int, cluster [3]int, cfg sm.Config) (int, error) {
	switch {
	case n < 0 || n > cfg.GPU.SMs:
		return 0, &UsageError{Msg: fmt.Sprintf("--sms %d: want 1..%d (gpu.sms)", n, cfg.GPU.SMs)}
	case n > 0:
		return n, nil
	case cluster != [3]int{}:
		return cfg.GPU.SMs, nil
	}
	return 1, nil
}
