package run_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/smsim/smsim/report"
	"github.com/smsim/smsim/run"
	"github.com/smsim/smsim/sm"
)

// A chain of wgmma groups shows on the timeline as one span per group on the
// warp's track of the tensor pipes, and the wait_group stalls as
// math_pipe_throttle.
func TestWgmmaGroupsOnTheTimeline(t *testing.T) {
	j, err := launch(t, "../calibration/h200/wgmma_probe.ptx", "-k", "tm_f16_f32_n64_ss", "-b", "128", "--smem", "41984",
		"-a", "buf:192", "-a", "4", "-a", "1")
	if err != nil {
		t.Fatal(err)
	}
	tl := report.NewTimeline(j.Prog)
	j.Observer = tl
	out, err := run.Execute(j)
	if err != nil || out.Err != nil {
		t.Fatal(err, out.Err)
	}
	var buf bytes.Buffer
	if err := tl.Write(&buf, out.Result); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		TraceEvents []report.TraceEvent `json:"traceEvents"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	groups, named, throttled := 0, false, uint64(0)
	for _, e := range doc.TraceEvents {
		switch {
		case e.Cat == "wgmma":
			groups++
			if e.Dur == nil || *e.Dur < 40+32 {
				t.Errorf("wgmma group %s lasts %v cycles, less than the pipe's N/2 and tensor.latency", e.Name, e.Dur)
			}
		case e.Ph == "M" && strings.Contains(e.Args["name"].(string), "tensor pipes"):
			named = true
		case e.Cat == sm.ReasonMathPipeThrottle.String() && e.Dur != nil:
			throttled += *e.Dur
		}
	}
	if groups != 4*4 || !named || throttled == 0 {
		t.Errorf("%d wgmma groups (want 4 per warp, 16), tensor track named %v, %d cycles of math_pipe_throttle", groups, named, throttled)
	}
}

// wgmmaMisusePTX: one warpgroup stores zeros to its shared tile, optionally
// fences the generic proxy (FENCE), synchronises and multiplies the tile.
const wgmmaMisusePTX = `.version 8.0
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<8>;
	.reg .f32 %f<8>;
	.reg .b64 %rd<8>;
	.shared .align 128 .b8 tile[4096];
	mov.u32 %r1, %tid.x;
	shl.b32 %r2, %r1, 4;
	mov.u32 %r3, tile;
	add.s32 %r4, %r3, %r2;
	st.shared.v4.u32 [%r4], {%r1, %r1, %r1, %r1};
	FENCE
	bar.sync 0;
	shr.u32 %r5, %r3, 4;
	cvt.u64.u32 %rd1, %r5;
	or.b64 %rd2, %rd1, 0x1000080000;
	wgmma.fence.sync.aligned;
	wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd2, %rd2, 0, 1, 1, 0, 0;
	wgmma.commit_group.sync.aligned;
	wgmma.wait_group.sync.aligned 0;
	ret;
}
`

// The tensor cores read shared memory through the async proxy: ordinary
// stores they read need a fence.proxy.async first.
func TestWgmmaNeedsAProxyFence(t *testing.T) {
	for _, fence := range []string{"", "fence.proxy.async.shared::cta;"} {
		err := runWgmmaPTX(t, strings.Replace(wgmmaMisusePTX, "FENCE", fence, 1), "buf:64")
		if fence != "" {
			if err != nil {
				t.Errorf("with the fence: %v", err)
			}
			continue
		}
		wantDiag(t, err, sm.DiagMisuse, "wgmma-without-proxy-fence", "k.ptx:21:2:", "no fence.proxy.async")
	}
}

// wgmmaCopyPTX: thread 0 starts a bulk copy of 4096 bytes into the tile
// the warpgroup then multiplies, after waiting on the copy's barrier (WAIT)
// or not.
const wgmmaCopyPTX = `.version 8.0
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 src)
{
	.reg .b32 %r<8>;
	.reg .f32 %f<8>;
	.reg .b64 %rd<8>;
	.reg .pred %p<4>;
	.shared .align 128 .b8 tile[4096];
	.shared .align 8 .b64 bar;
	ld.param.u64 %rd3, [src];
	mov.u32 %r1, %tid.x;
	mov.u32 %r3, tile;
	mov.u32 %r6, bar;
	setp.eq.u32 %p1, %r1, 0;
	@%p1 mbarrier.init.shared.b64 [%r6], 1;
	bar.sync 0;
	@%p1 mbarrier.arrive.expect_tx.shared.b64 %rd4, [%r6], 4096;
	@%p1 cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r3], [%rd3], 4096, [%r6];
	WAIT
	shr.u32 %r5, %r3, 4;
	cvt.u64.u32 %rd1, %r5;
	or.b64 %rd2, %rd1, 0x1000080000;
	wgmma.fence.sync.aligned;
	wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd2, %rd2, 0, 1, 1, 0, 0;
	wgmma.commit_group.sync.aligned;
	wgmma.wait_group.sync.aligned 0;
	ret;
}
`

// The tensor cores must not read shared bytes a bulk copy is still
// writing: a wgmma right after the copy starts is a misuse, one after the
// wait on its barrier runs.
func TestWgmmaMustWaitForTheCopy(t *testing.T) {
	wait := "LOOP:\n\tmbarrier.try_wait.parity.shared.b64 %p2, [%r6], 0;\n\t@!%p2 bra LOOP;"
	for _, w := range []string{"", wait} {
		err := runWgmmaPTX(t, strings.Replace(wgmmaCopyPTX, "WAIT", w, 1), "buf:4096:f16int:1")
		if w != "" {
			if err != nil {
				t.Errorf("after the wait: %v", err)
			}
			continue
		}
		wantDiag(t, err, sm.DiagMisuse, "wgmma-during-copy", "k.ptx:26:2:", "a bulk copy is still writing")
	}
}

// A wgmma whose descriptor names rows past the block's shared memory is a
// located misuse, not a read of other bytes.
func TestWgmmaOutsideSharedMemory(t *testing.T) {
	src := strings.Replace(wgmmaMisusePTX, "FENCE", "fence.proxy.async.shared::cta;", 1)
	src = strings.Replace(src, "shr.u32 %r5, %r3, 4;", "mov.u32 %r5, 16000;", 1)
	wantDiag(t, runWgmmaPTX(t, src, "buf:64"), sm.DiagMisuse, "shared-out-of-bounds", "k.ptx:21:2:", "outside")
}

// runWgmmaPTX runs the PTX kernel src as k.ptx on one warpgroup with the
// argument arg and returns the launch's error.
func runWgmmaPTX(t *testing.T, src, arg string) error {
	t.Helper()
	j, err := launch(t, writeFile(t, "k.ptx", src), "-b", "128", "-a", arg)
	if err != nil {
		t.Fatal(err)
	}
	out, err := run.Execute(j)
	if err != nil {
		t.Fatal(err)
	}
	return out.Err
}
