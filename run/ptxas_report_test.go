package run

import (
	"errors"
	"maps"
	"strings"
	"testing"
)

func TestPtxasRegisters(t *testing.T) {
	for _, c := range []struct {
		name   string
		report string
		want   map[string]int
	}{
		{"two entries", `ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function '_Z4k_fcILi12EEvPfPKfPx' for 'sm_90a'
ptxas info    : Function properties for _Z4k_fcILi12EEvPfPKfPx
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 14 registers, used 0 barriers, 20 bytes smem
ptxas info    : Compiling entry function 'k2' for 'sm_90a'
ptxas info    : Used 168 registers, used 16 barriers, 1024 bytes smem
`, map[string]int{"_Z4k_fcILi12EEvPfPKfPx": 14, "k2": 168}},
		{"a Used line with no entry before it", "ptxas info    : Used 8 registers\n", map[string]int{}},
		{"registers out of range", "Compiling entry function 'k' for 'sm_90a'\nUsed 999 registers\n", map[string]int{}},
		{"not a report", "hello\n'\x00", map[string]int{}},
	} {
		if got := ptxasRegisters([]byte(c.report)); !maps.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestPtxasSerializedWgmma(t *testing.T) {
	for _, c := range []struct {
		name   string
		report string
		want   map[string]bool
	}{
		{"two notes", `ptxas info    : (C7515) Potential Performance Loss: wgmma.mma_async instructions are serialized due to non wgmma instructions defining accumulator registers of a wgmma between start and end of the pipeline stage in the function 'tm_s8_s32_n128_ss'
ptxas info    : Compiling entry function 'tm_s8_s32_n128_ss' for 'sm_90a'
ptxas info    : (C7518) Potential Performance Loss: wgmma.mma_async instructions are serialized due to program dependence on compiler-inserted WG.DP in divergent path in the function '_Z10gemm_partsILb1ELi4EEv14CUtensorMap_stS0_PKvS2_PfiiiiPxS4_'
`, map[string]bool{"tm_s8_s32_n128_ss": true, "_Z10gemm_partsILb1ELi4EEv14CUtensorMap_stS0_PKvS2_PfiiiiPxS4_": true}},
		{"another note", "ptxas info    : (C7500) something else in the function 'k'\n", map[string]bool{}},
		{"no function named", "wgmma.mma_async instructions are serialized due to x in the function ''\n", map[string]bool{}},
		{"cut short", "wgmma.mma_async instructions are serialized due to x in the function 'k", map[string]bool{}},
	} {
		if got := ptxasSerializedWgmma([]byte(c.report)); !maps.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestPTXKernelTakesSerializedWgmmaFromItsReport: the timing kernels of
// wgmma_probe.cu are serialized (their report's C7514/C7515 notes), the
// app's GEMM is not.
func TestPTXKernelTakesSerializedWgmmaFromItsReport(t *testing.T) {
	for _, c := range []struct {
		file, kernel string
		want         bool
	}{
		{"../calibration/h200/wgmma_probe.ptx", "tm_f16_f32_n8_ss", true},
		{"../apps/h200/gemm_wgmma.ptx", "", false},
	} {
		src, err := Load(c.file)
		if err != nil {
			t.Fatal(err)
		}
		name := c.kernel
		if name == "" {
			name = src.Kernels[0].Name
		}
		p, err := src.Kernel(name)
		if err != nil {
			t.Fatal(err)
		}
		if p.WgmmaSerialized != c.want {
			t.Errorf("%s %s: serialized %v, want %v", c.file, name, p.WgmmaSerialized, c.want)
		}
	}
}

// TestPTXKernelTakesRegistersFromItsReport: the PTX path reads NAME.ptxas
// beside NAME.ptx for each kernel's registers (limit.registers).
func TestPTXKernelTakesRegistersFromItsReport(t *testing.T) {
	src, err := Load("../apps/h200/gemm_grid.ptx")
	if err != nil {
		t.Fatal(err)
	}
	p, err := src.Kernel("gemm_grid<4>")
	if err != nil {
		t.Fatal(err)
	}
	if p.RegsPerThread != 168 {
		t.Errorf("gemm_grid<4> from PTX: %d registers a thread, want 168 (gemm_grid.ptxas)", p.RegsPerThread)
	}
}

func FuzzPtxasRegisters(f *testing.F) {
	f.Add([]byte("ptxas info    : Compiling entry function 'k' for 'sm_90a'\nptxas info    : Used 40 registers\n"))
	f.Add([]byte("ptxas info    : (C7515) wgmma.mma_async instructions are serialized due to x in the function 'k'\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for name, n := range ptxasRegisters(b) {
			if n < 1 || n > 255 {
				t.Errorf("%q: %d registers", name, n)
			}
		}
		for name := range ptxasSerializedWgmma(b) {
			if name == "" || strings.Contains(name, "'") {
				t.Errorf("serialized function %q", name)
			}
		}
	})
}

// TestLaunchBeyondTheRegisterFileIsRefused: 1024 threads of a 72-register
// kernel need 73,728 registers; the H200 refuses the launch (probe.csv's
// lane_serial_warps32 row is the launch before's result), and so does
// smsim, from SASS (the cubin's count) and from PTX (hwprobe.ptxas): a
// usage error naming the block, as for --smem past its limit.
func TestLaunchBeyondTheRegisterFileIsRefused(t *testing.T) {
	for _, path := range []string{"../calibration/h200/hwprobe.sass", "../calibration/h200/hwprobe.ptx"} {
		f := Spec{Kernel: "p_arrive_throughput<true>", Block: "1024", Launches: 1, Config: "h200", Args: []string{"buf:8"}}
		_, err := f.Job(path)
		var ue *UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), "1024 threads need 73728") {
			t.Errorf("%s: %v, want a usage error: 1024 threads need 73728 registers", path, err)
		}
		f.Block = "896" // 28 warps: 64,512 registers
		if _, err := f.Job(path); err != nil {
			t.Errorf("%s with 896 threads: %v", path, err)
		}
	}
}
