package run

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/smsim/smsim/sm"
)

// gpuJob loads kernel k of the PTX text src and launches it with the spec's
// other fields.
func gpuJob(t *testing.T, src string, f Spec) *Job {
	t.Helper()
	s, err := LoadBytes("gpu.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	prog, err := s.Kernel(f.Kernel)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := LoadConfig("h200", nil)
	if err != nil {
		t.Fatal(err)
	}
	j := &Job{Source: s, Prog: prog, Config: cfg, Args: f.Args, Launches: 1}
	if j.Block, err = Dims("--block", f.Block, prog.Block, 32); err != nil {
		t.Fatal(err)
	}
	if j.Grid, err = Dims("--grid", f.Grid, prog.Grid, 1); err != nil {
		t.Fatal(err)
	}
	if j.Cluster, err = clusterFlag(f.Cluster, prog, j.Grid, cfg); err != nil {
		t.Fatal(err)
	}
	if j.SMs, err = smsFlag(f.SMs, j.Cluster, cfg); err != nil {
		t.Fatal(err)
	}
	return j
}

const ptxHead = ".version 8.7\n.target sm_90a\n.address_size 64\n"

// whereKernel writes each CTA's %smid and %cluster_ctarank.
const whereKernel = ptxHead + `
.visible .entry where(.param .u64 out)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	setp.ne.u32 %p1, %r1, 0;
	@%p1 bra DONE;
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %smid;
	mov.u32 %r4, %cluster_ctarank;
	mul.wide.u32 %rd2, %r2, 8;
	add.u64 %rd3, %rd1, %rd2;
	st.global.v2.u32 [%rd3], {%r3, %r4};
DONE:
	ret;
}
`

func runDump(t *testing.T, j *Job, dump string) []any {
	t.Helper()
	spec, err := ParseDump(dump)
	if err != nil {
		t.Fatal(err)
	}
	j.Dumps = []DumpSpec{spec}
	out, err := Execute(j)
	if err != nil || out.Err != nil {
		t.Fatalf("execute: %v %v", err, out.Err)
	}
	return out.Dumps[0].Values
}

// TestGPUSpreadsCTAsOverSMs checks the dispatcher's first wave: consecutive
// CTAs in different GPCs, and one CTA on each SM before any SM takes a
// second (264 CTAs of 128 threads: two on each of the 132 SMs, as the H200
// places them).
func TestGPUSpreadsCTAsOverSMs(t *testing.T) {
	j := gpuJob(t, strings.Replace(whereKernel, ".reg .b32", ".reg .pred %p<2>;\n\t.reg .b32", 1),
		Spec{Kernel: "where", Block: "128", Grid: "264", SMs: 132, Args: []string{"buf:2112"}})
	v := runDump(t, j, "0:u32:528")
	per, first8, first66 := map[uint64]int{}, map[int]bool{}, map[int]int{}
	for i := 0; i < 264; i++ {
		smid := uint64(v[2*i].(uint32))
		gpc := j.Config.GPU.GPCOf(int(smid))
		if i < 8 { // a TPC of each GPC first (gpu.dispatchOrder)
			first8[gpc] = true
		}
		if i < 66 {
			first66[gpc]++
		}
		per[smid]++
	}
	if len(first8) != 8 {
		t.Errorf("the first 8 CTAs in %d GPCs, want 8", len(first8))
	}
	for g, n := range first66 { // as the H200 puts 66 CTAs (l2bw_cta.csv): about 8 a GPC
		if n < 6 || n > 10 {
			t.Errorf("GPC %d holds %d of the first 66 CTAs, want 6 to 10", g, n)
		}
	}
	for s, n := range per {
		if n != 2 {
			t.Errorf("SM %d runs %d CTAs, want 2", s, n)
		}
	}
}

// TestGPUClusterOnDistinctSMsOfOneGPC checks cluster placement: the ranks
// of each cluster run on distinct SMs, all of one GPC (gpu.gpc_sms).
func TestGPUClusterOnDistinctSMsOfOneGPC(t *testing.T) {
	for _, c := range []int{2, 4, 8, 16} {
		t.Run(fmt.Sprint(c), func(t *testing.T) {
			grid := 16 * c
			j := gpuJob(t, strings.Replace(whereKernel, ".reg .b32", ".reg .pred %p<2>;\n\t.reg .b32", 1),
				Spec{Kernel: "where", Block: "256", Grid: strconv.Itoa(grid), Cluster: strconv.Itoa(c), Args: []string{fmt.Sprintf("buf:%d", grid*8)}})
			v := runDump(t, j, fmt.Sprintf("0:u32:%d", 2*grid))
			spec := j.Config.GPU
			for k := 0; k < grid/c; k++ {
				seen := map[uint64]bool{}
				gpc := spec.GPCOf(int(v[2*k*c].(uint32)))
				for r := 0; r < c; r++ {
					smid, rank := uint64(v[2*(k*c+r)].(uint32)), uint64(v[2*(k*c+r)+1].(uint32))
					if rank != uint64(r) || seen[smid] || spec.GPCOf(int(smid)) != gpc {
						t.Fatalf("cluster %d: CTA rank %d (want %d) on SM %d (GPC %d, the cluster's %d; SMs so far %v)",
							k, rank, r, smid, spec.GPCOf(int(smid)), gpc, seen)
					}
					seen[smid] = true
				}
			}
		})
	}
}

// TestClusterSpecialRegistersMatchH200 runs cluster_probe.cu's k_sreg and
// compares each CTA's cluster registers with the H200's (cluster.csv
// sreg rows), and mapa's results in rank 0, whose addresses smsim spells
// as the H200 does.
func TestClusterSpecialRegistersMatchH200(t *testing.T) {
	h := h200Probe(t)
	for _, tc := range []struct{ grid, cluster, name, src string }{
		{"4", "2", "g4x1_c2x1", "ptx"}, {"8", "4", "g8x1_c4x1", "ptx"}, {"4,2", "2,2", "g4x2_c2x2", "ptx"},
		{"4", "2", "g4x1_c2x1", "sass"}, {"8", "4", "g8x1_c4x1", "sass"}, {"4,2", "2,2", "g4x2_c2x2", "sass"},
	} {
		t.Run(tc.name+"_"+tc.src, func(t *testing.T) {
			f := Spec{Kernel: "k_sreg", Block: "32", Grid: tc.grid, Cluster: tc.cluster, Launches: 1, Config: "h200", Args: []string{"buf:1536"}}
			path := "../testdata/cuda/cluster_probe.ptx"
			if tc.src == "sass" {
				// ptxas reads the cluster shape from constant bank 0
				// (isa.BuildBank0) and builds mapa with UPRMT.
				path = "../testdata/cluster/cluster_probe.sass"
			}
			j, err := f.Job(path)
			if err != nil {
				t.Fatal(err)
			}
			v := runDump(t, j, "0:hex:384")
			n := j.Grid[0] * j.Grid[1]
			for b := 0; b < n; b++ {
				want := strings.Fields(h[fmt.Sprintf("sreg,%s_b%d", tc.name, b)])
				for i := 0; i < 11; i++ { // rank ... is_explicit_cluster
					got := fmt.Sprintf("0x%x", mustHex(t, v[24*b+i]))
					if got != want[i] {
						t.Errorf("CTA %d word %d: %s, H200 %s", b, i, got, want[i])
					}
				}
				// From SASS, the CTA's own shared address is the H200's
				// itself: rank<<24 | 0x400.
				if got := fmt.Sprintf("0x%x", mustHex(t, v[24*b+12])); tc.src == "sass" && got != want[12] {
					t.Errorf("CTA %d: own shared address %s, H200 %s", b, got, want[12])
				}
				if want[0] != "0x0" {
					continue
				}
				// Rank 0's mapa results less its own shared address (the
				// PTX path places static shared memory at 0, the H200 at
				// 0x400): rank<<24 on both.
				own, hwOwn := mustHex(t, v[24*b+12]), mustHex(t, want[12])
				for r := 0; r < j.Cluster[0]*j.Cluster[1] && r < 4; r++ {
					got, hw := mustHex(t, v[24*b+14+r])-own, mustHex(t, want[14+r])-hwOwn
					if got != hw {
						t.Errorf("CTA %d: mapa to rank %d gives own+0x%x, H200 own+0x%x", b, r, got, hw)
					}
				}
			}
		})
	}
}

func mustHex(t *testing.T, v any) uint64 {
	s, _ := v.(string)
	n, err := strconv.ParseUint(strings.TrimPrefix(s, "0x"), 16, 32)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestClusterMisuseIsLocated checks the diagnostics of cluster misuse: a
// load from the shared memory of a CTA that has exited, a cluster barrier
// that one CTA never reaches, a mapa rank outside the cluster.
func TestClusterMisuseIsLocated(t *testing.T) {
	exited := ptxHead + `
.visible .entry k(.param .u64 out)
{
	.reg .pred %p<2>;
	.reg .b32 %r<8>;
	.shared .align 4 .u32 x;
	mov.u32 %r1, %cluster_ctarank;
	setp.ne.u32 %p1, %r1, 0;
	@%p1 bra DONE;
	nanosleep.u32 5000;
	mov.u32 %r2, x;
	mapa.shared::cluster.u32 %r3, %r2, 1;
	ld.shared::cluster.u32 %r4, [%r3];
DONE:
	ret;
}
`
	deadlock := ptxHead + `
.visible .entry k(.param .u64 out)
{
	.reg .pred %p<2>;
	.reg .b32 %r<8>;
	mov.u32 %r1, %cluster_ctarank;
	setp.ne.u32 %p1, %r1, 0;
	@%p1 bra DONE;
	barrier.cluster.arrive.aligned;
	barrier.cluster.wait.aligned;
DONE:
	bar.sync 0;
	bar.sync 1, 64;
	ret;
}
`
	rank := strings.Replace(exited, "mapa.shared::cluster.u32 %r3, %r2, 1;", "mapa.shared::cluster.u32 %r3, %r2, 2;", 1)
	for _, tc := range []struct {
		name, src, code, pos, msg string
	}{
		{"remote access to an exited CTA", exited, "remote-exited", "gpu.ptx:16:", "which has exited"},
		{"cluster barrier one CTA never reaches", deadlock, "", "gpu.ptx:13:", "waiting in barrier.cluster.wait (32 of the cluster's 64 non-exited threads arrived"},
		{"mapa rank outside the cluster", rank, "cluster-rank", "gpu.ptx:15:", "mapa to CTA rank 2 of a cluster of 2 CTAs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := gpuJob(t, tc.src, Spec{Kernel: "k", Block: "32", Grid: "2", Cluster: "2", Args: []string{"buf:8"}})
			out, err := Execute(j)
			if err != nil {
				t.Fatal(err)
			}
			d, ok := out.Err.(*sm.Diag)
			if !ok {
				t.Fatalf("got %v, want a diagnostic", out.Err)
			}
			text := d.Error() + strings.Join(d.Detail, "\n")
			if (tc.code != "" && d.Code != tc.code) || !strings.Contains(text, tc.pos) || !strings.Contains(text, tc.msg) {
				t.Errorf("got %s [%s] %q, want %s at %s: %s", d.Error(), d.Code, d.Detail, tc.code, tc.pos, tc.msg)
			}
		})
	}
}

// allReduceKernel: each CTA of a cluster stores (rank+1)*(clusterid+1) into
// slot rank of every CTA's shared memory (mapa, st.shared::cluster), passes
// a cluster barrier and sums its slots.
const allReduceKernel = ptxHead + `
.visible .entry allreduce(.param .u64 out)
{
	.reg .pred %p<3>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<4>;
	.shared .align 4 .b32 slots[16];
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %cluster_ctarank;
	mov.u32 %r2, %cluster_nctarank;
	mov.u32 %r3, %clusterid.x;
	add.u32 %r4, %r1, 1;
	add.u32 %r5, %r3, 1;
	mul.lo.u32 %r6, %r4, %r5;
	mov.u32 %r7, slots;
	shl.b32 %r8, %r1, 2;
	add.u32 %r8, %r7, %r8;
	mov.u32 %r9, 0;
SEND:
	mapa.shared::cluster.u32 %r10, %r8, %r9;
	st.shared::cluster.u32 [%r10], %r6;
	add.u32 %r9, %r9, 1;
	setp.lt.u32 %p1, %r9, %r2;
	@%p1 bra SEND;
	barrier.cluster.arrive.release.aligned;
	barrier.cluster.wait.acquire.aligned;
	mov.u32 %r11, 0;
	mov.u32 %r9, 0;
SUM:
	shl.b32 %r12, %r9, 2;
	add.u32 %r12, %r7, %r12;
	ld.shared.u32 %r13, [%r12];
	add.u32 %r11, %r11, %r13;
	add.u32 %r9, %r9, 1;
	setp.lt.u32 %p2, %r9, %r2;
	@%p2 bra SUM;
	mov.u32 %r14, %ctaid.x;
	mul.wide.u32 %rd2, %r14, 4;
	add.u64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r11;
	ret;
}
`

// TestClusterAllReduce runs a DSMEM all-reduce in clusters of 2, 4, 8 and
// 16 CTAs (four clusters each) and checks every CTA's sum.
func TestClusterAllReduce(t *testing.T) {
	for _, n := range []int{2, 4, 8, 16} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			grid := 4 * n
			j := gpuJob(t, allReduceKernel, Spec{Kernel: "allreduce", Block: "32", Grid: strconv.Itoa(grid), Cluster: strconv.Itoa(n),
				Args: []string{fmt.Sprintf("buf:%d", 4*grid)}})
			v := runDump(t, j, fmt.Sprintf("0:u32:%d", grid))
			for cta := 0; cta < grid; cta++ {
				want := uint32((cta/n + 1) * n * (n + 1) / 2)
				if got := v[cta].(uint32); got != want {
					t.Errorf("CTA %d: sum %d, want %d", cta, got, want)
				}
			}
		})
	}
}

// TestClusterLaunchErrors checks the refusals of cluster launches: a shape
// that does not divide the grid, too many CTAs, a kernel that fixes its
// shape, one that needs a cluster, a cluster larger than the simulated GPCs.
func TestClusterLaunchErrors(t *testing.T) {
	fixed := strings.Replace(allReduceKernel, ".visible .entry allreduce(.param .u64 out)", ".visible .entry allreduce(.param .u64 out) .reqnctapercluster 2", 1)
	explicit := strings.Replace(allReduceKernel, ".visible .entry allreduce(.param .u64 out)", ".visible .entry allreduce(.param .u64 out) .explicitcluster", 1)
	for _, tc := range []struct {
		name, src, grid, cluster string
		sms                      int
		want                     string
	}{
		{"not dividing", allReduceKernel, "6", "4", 0, "does not divide grid"},
		{"too many", allReduceKernel, "32", "32", 0, "at most 16 (cluster.max_ctas)"},
		{"fixed shape", fixed, "8", "4", 0, "fixes its cluster at [2 1 1]"},
		{"explicit", explicit, "8", "", 0, "marked .explicitcluster"},
		{"larger than a GPC", allReduceKernel, "16", "16", 8, "cannot be co-scheduled"},
		{"sms", allReduceKernel, "16", "", 133, "--sms 133: want 1..132"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := Spec{Kernel: "allreduce", Block: "32", Grid: tc.grid, Cluster: tc.cluster, SMs: tc.sms, Launches: 1,
				Config: "h200", Args: []string{"buf:256"}}
			dir := t.TempDir()
			path := dir + "/k.ptx"
			if err := os.WriteFile(path, []byte(tc.src), 0o644); err != nil {
				t.Fatal(err)
			}
			j, err := f.Job(path)
			if err == nil {
				var out *Outcome
				out, err = Execute(j)
				if err == nil {
					err = out.Err
				}
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error saying %q", err, tc.want)
			}
		})
	}
}

// waveKernel records each CTA's %smid and its start (%clock64), then spins
// a while.
const waveKernel = ptxHead + `
.visible .entry wave(.param .u64 out)
{
	.reg .pred %p<3>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [out];
	mov.u64 %rd4, %clock64;
	mov.u32 %r1, %tid.x;
	setp.ne.u32 %p1, %r1, 0;
	@%p1 bra SPIN;
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %smid;
	mul.wide.u32 %rd2, %r2, 16;
	add.u64 %rd3, %rd1, %rd2;
	st.global.u64 [%rd3], %rd4;
	st.global.u32 [%rd3+8], %r3;
SPIN:
	nanosleep.u32 1000;
	ret;
}
`

// TestGPUWaves checks a grid of more CTAs than the GPU holds at once:
// 1024-thread CTAs, two an SM, so 264 start at once on 132 SMs and the
// other 36 only when CTAs of the first wave retire.
func TestGPUWaves(t *testing.T) {
	j := gpuJob(t, waveKernel, Spec{Kernel: "wave", Block: "1024", Grid: "300", SMs: 132, Args: []string{"buf:4800"}})
	v := runDump(t, j, "0:u64:600")
	first := uint64(0)
	for cta := 0; cta < 264; cta++ {
		first = max(first, v[2*cta].(uint64))
	}
	for cta := 264; cta < 300; cta++ {
		if s := v[2*cta].(uint64); s <= first+1000 {
			t.Errorf("CTA %d started at cycle %d, not after the first wave (started by %d, sleeping 1000 ns)", cta, s, first)
		}
	}
}

// remoteTxKernel: rank 1 expects 64 bytes on rank 0's barrier and later
// completes them, both through .shared::cluster; rank 0 arrives after a
// cluster barrier that orders the expect_tx, so its phase completes only
// with the complete_tx. out[0] = the phase seen complete right after
// rank 0's arrival (0: the tx kept it open), out[1] = 1 once it completed.
const remoteTxKernel = ptxHead + `
.visible .entry k(.param .u64 out)
{
	.reg .pred %p<4>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	.shared .align 8 .b64 bar;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %cluster_ctarank;
	setp.eq.u32 %p1, %r1, 0;
	mov.u32 %r2, bar;
	@%p1 mbarrier.init.shared::cta.b64 [%r2], 1;
	barrier.cluster.arrive.release.aligned;
	barrier.cluster.wait.acquire.aligned;
	mapa.shared::cluster.u32 %r3, %r2, 0;
	@!%p1 mbarrier.expect_tx.relaxed.cluster.shared::cluster.b64 [%r3], 64;
	barrier.cluster.arrive.release.aligned;
	barrier.cluster.wait.acquire.aligned;
	@!%p1 bra REMOTE;
	mbarrier.arrive.shared::cta.b64 _, [%r2];
	mbarrier.test_wait.parity.shared::cta.b64 %p2, [%r2], 0;
	selp.u32 %r4, 1, 0, %p2;
	st.global.u32 [%rd1], %r4;
WAIT:
	mbarrier.try_wait.parity.shared::cta.b64 %p3, [%r2], 0;
	@!%p3 bra WAIT;
	st.global.u32 [%rd1+4], 1;
	bra DONE;
REMOTE:
	nanosleep.u32 2000;
	mbarrier.complete_tx.relaxed.cluster.shared::cluster.b64 [%r3], 64;
DONE:
	barrier.cluster.arrive.release.aligned;
	barrier.cluster.wait.acquire.aligned;
	ret;
}
`

// TestRemoteExpectCompleteTx checks expect_tx and complete_tx on another
// CTA's barrier, ordered by the cluster barrier between them.
func TestRemoteExpectCompleteTx(t *testing.T) {
	j := gpuJob(t, remoteTxKernel, Spec{Kernel: "k", Block: "1", Grid: "2", Cluster: "2", Args: []string{"buf:8"}})
	v := runDump(t, j, "0:u32:2")
	if v[0].(uint32) != 0 || v[1].(uint32) != 1 {
		t.Errorf("rank 0 saw the phase complete %v right after its arrive (want 0: 64 tx bytes pending) and %v at the end (want 1)", v[0], v[1])
	}
}

// TestClusterKernelDefaultGrid checks that a kernel fixing its cluster
// (.reqnctapercluster) launches one cluster when no grid is given.
func TestClusterKernelDefaultGrid(t *testing.T) {
	f := Spec{Kernel: "k_cluster_func<4>", Block: "128", Launches: 1, Config: "h200",
		Args: []string{"buf:8192", "buf:8192", "buf:2048", "buf:8", "buf:8", "buf:32"}}
	j, err := f.Job("../testdata/cuda/cluster_probe.ptx")
	if err != nil {
		t.Fatal(err)
	}
	if j.Grid != [3]int{4, 1, 1} || j.Cluster != [3]int{4, 1, 1} {
		t.Errorf("grid %v cluster %v, want one cluster of 4", j.Grid, j.Cluster)
	}
}

// dsmemCopyKernel: rank 0 copies its 256-byte array a (a[i] = i) into
// rank 1's array b with cp.async.bulk.shared::cluster.shared::cta,
// completing on rank 1's barrier, which rank 1 armed for 256 bytes; rank 1
// waits and writes b to out.
const dsmemCopyKernel = ptxHead + `
.visible .entry k(.param .u64 out)
{
	.reg .pred %p<4>;
	.reg .b32 %r<12>;
	.reg .b64 %rd<4>;
	.shared .align 128 .b8 a[256];
	.shared .align 128 .b8 b[256];
	.shared .align 8 .b64 bar;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %cluster_ctarank;
	mov.u32 %r2, %tid.x;
	mov.u32 %r3, a;
	mov.u32 %r4, b;
	mov.u32 %r5, bar;
	shl.b32 %r6, %r2, 2;
	add.u32 %r7, %r3, %r6;
	st.shared.u32 [%r7], %r2;
	setp.eq.u32 %p1, %r2, 0;
	@%p1 mbarrier.init.shared::cta.b64 [%r5], 1;
	@%p1 mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r5], 256;
	fence.proxy.async.shared::cta;
	barrier.cluster.arrive.release.aligned;
	barrier.cluster.wait.acquire.aligned;
	setp.eq.u32 %p2, %r1, 0;
	and.pred %p3, %p1, %p2;
	mapa.shared::cluster.u32 %r8, %r4, 1;
	mapa.shared::cluster.u32 %r9, %r5, 1;
	@%p3 cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%r8], [%r3], 256, [%r9];
	@%p2 bra DONE;
WAIT:
	mbarrier.try_wait.parity.shared::cta.b64 %p3, [%r5], 0;
	@!%p3 bra WAIT;
	add.u32 %r10, %r4, %r6;
	ld.shared.u32 %r11, [%r10];
	mul.wide.u32 %rd2, %r2, 4;
	add.u64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r11;
DONE:
	barrier.cluster.arrive.release.aligned;
	barrier.cluster.wait.acquire.aligned;
	ret;
}
`

// TestDSMEMBulkCopy checks cp.async.bulk.shared::cluster.shared::cta: the
// bytes land in the other CTA and complete its barrier.
func TestDSMEMBulkCopy(t *testing.T) {
	j := gpuJob(t, dsmemCopyKernel, Spec{Kernel: "k", Block: "64", Grid: "2", Cluster: "2", Args: []string{"buf:256"}})
	v := runDump(t, j, "0:u32:64")
	for i, x := range v {
		if x.(uint32) != uint32(i) {
			t.Fatalf("b[%d] = %v in rank 1, want %d", i, x, i)
		}
	}
}
