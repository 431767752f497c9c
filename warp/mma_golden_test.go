package warp

import (
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/smsim/smsim/isa"
)

// The H200's answers to wgmma_probe.cu (testdata/cuda, docs/wgmma.md): one
// wgmma.mma_async per CTA on inputs the host generated; every accumulator
// register of every thread must come out bit for bit.

// wgmmaVariant is one kernel of wgmma_probe.cu (wgmma_gen.py's VARIANTS).
type wgmmaVariant struct {
	acc            isa.Type
	a, b           isa.MMAType
	n              int
	regsA          bool
	negA, negB     bool
	transA, transB bool
	sat            bool
}

var wgmmaVariants = map[string]wgmmaVariant{
	"f16_f32_ss":      {acc: isa.F32, a: isa.MMAF16, b: isa.MMAF16, n: 64},
	"f16_f32_rs":      {acc: isa.F32, a: isa.MMAF16, b: isa.MMAF16, n: 64, regsA: true},
	"f16_f32_rs_tb":   {acc: isa.F32, a: isa.MMAF16, b: isa.MMAF16, n: 64, regsA: true, transB: true},
	"f16_f32_ss_tt":   {acc: isa.F32, a: isa.MMAF16, b: isa.MMAF16, n: 64, transA: true, transB: true},
	"f16_f32_ss_nega": {acc: isa.F32, a: isa.MMAF16, b: isa.MMAF16, n: 64, negA: true},
	"f16_f32_ss_negb": {acc: isa.F32, a: isa.MMAF16, b: isa.MMAF16, n: 64, negB: true},
	"f16_f16_ss":      {acc: isa.F16, a: isa.MMAF16, b: isa.MMAF16, n: 64},
	"bf16_f32_ss":     {acc: isa.F32, a: isa.MMABF16, b: isa.MMABF16, n: 64},
	"bf16_f32_rs":     {acc: isa.F32, a: isa.MMABF16, b: isa.MMABF16, n: 64, regsA: true},
	"tf32_f32_ss":     {acc: isa.F32, a: isa.MMATF32, b: isa.MMATF32, n: 64},
	"tf32_f32_rs":     {acc: isa.F32, a: isa.MMATF32, b: isa.MMATF32, n: 64, regsA: true},
	"e4m3_f32_ss":     {acc: isa.F32, a: isa.MMAE4M3, b: isa.MMAE4M3, n: 64},
	"e5m2_f32_ss":     {acc: isa.F32, a: isa.MMAE5M2, b: isa.MMAE5M2, n: 64},
	"e4m3e5m2_f16_ss": {acc: isa.F16, a: isa.MMAE4M3, b: isa.MMAE5M2, n: 64},
	"e4m3_f32_rs_neg": {acc: isa.F32, a: isa.MMAE4M3, b: isa.MMAE4M3, n: 64, regsA: true, negA: true},
	"s8_s32_ss":       {acc: isa.S32, a: isa.MMAS8, b: isa.MMAS8, n: 64},
	"u8s8_s32_ss":     {acc: isa.S32, a: isa.MMAU8, b: isa.MMAS8, n: 64},
	"s8_s32_ss_sat":   {acc: isa.S32, a: isa.MMAS8, b: isa.MMAS8, n: 64, sat: true},
	"f16_f32_ss_n24":  {acc: isa.F32, a: isa.MMAF16, b: isa.MMAF16, n: 24},
}

// wgmmaCase is one CTA of the probe: a line of wgmma_func.jsonl and its
// record of wgmma_func.bin.
type wgmmaCase struct {
	Variant string `json:"variant"`
	CTA     int    `json:"cta"`
	Kind    string `json:"kind"`
	Mode    string `json:"mode"`
	DescA   string `json:"desc_a"`
	DescB   string `json:"desc_b"`
	ScaleD  int    `json:"scale_d"`
	Base    uint32 `json:"base"`
	NR      int    `json:"nr"`
	Offset  int64  `json:"offset"`
	Det     bool   `json:"deterministic"`

	img          []byte
	aregs, c, d  []uint32
	descA, descB uint64
}

const wgmmaImg = 16384

func loadWgmmaCases(t testing.TB) []*wgmmaCase {
	t.Helper()
	f, err := os.Open("../testdata/cuda/wgmma/wgmma_func.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cs []*wgmmaCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		c := &wgmmaCase{}
		// ref_err, the host's check, is printed with %g: inf and nan are not JSON
		line := strings.NewReplacer(":inf", ":null", ":-nan", ":null", ":nan", ":null").Replace(sc.Text())
		if err := json.Unmarshal([]byte(line), c); err != nil {
			t.Fatal(err)
		}
		cs = append(cs, c)
	}
	bf, err := os.Open("../testdata/cuda/wgmma/wgmma_func.bin.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer bf.Close()
	z, err := gzip.NewReader(bf)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	words := func(b []byte) []uint32 {
		w := make([]uint32, len(b)/4)
		for i := range w {
			w[i] = binary.LittleEndian.Uint32(b[4*i:])
		}
		return w
	}
	for _, c := range cs {
		o := c.Offset
		n := int64(128 * c.NR * 4)
		c.img = raw[o : o+wgmmaImg]
		c.aregs = words(raw[o+wgmmaImg : o+wgmmaImg+2048])
		c.c = words(raw[o+wgmmaImg+2048 : o+wgmmaImg+2048+n])
		c.d = words(raw[o+wgmmaImg+2048+n : o+wgmmaImg+2048+2*n])
		da, _ := strconv.ParseUint(c.DescA[2:], 16, 64)
		db, _ := strconv.ParseUint(c.DescB[2:], 16, 64)
		c.descA, c.descB = da+uint64(c.Base>>4), db+uint64(c.Base>>4) // as the kernel adds the image's address
	}
	return cs
}

// imageReader is a CTA's shared memory holding the probe's image at base.
// The kernel allocated 1 KiB more than the image (for the alignment of
// base); the probe's descriptors that start mid-pattern read up to 256
// bytes of it, which nothing wrote: the H200 read zeros there.
type imageReader struct {
	img  []byte
	base uint32
}

func (r imageReader) LoadShared(addr uint32, n int) (uint64, error) {
	off := int64(addr) - int64(r.base)
	if off >= int64(len(r.img)) && off+int64(n) <= int64(len(r.img))+1024 {
		return 0, nil
	}
	if off < 0 || off+int64(n) > int64(len(r.img)) {
		return 0, fmt.Errorf("shared address %#x outside the image", addr)
	}
	var v uint64
	for i := n - 1; i >= 0; i-- {
		v = v<<8 | uint64(r.img[off+int64(i)])
	}
	return v, nil
}

func (r imageReader) ReadChunks(addrs []uint32, b []byte) error {
	for k, addr := range addrs {
		for i := range 16 {
			v, err := r.LoadShared(addr+uint32(i), 1)
			if err != nil {
				return err
			}
			b[16*k+i] = byte(v)
		}
	}
	return nil
}

// runWgmmaCase runs the four warps of a case's warpgroup and returns the
// accumulators of its 128 threads.
func runWgmmaCase(c *wgmmaCase, m *MMAModel, g *Wgmma) ([]uint32, error) {
	v := wgmmaVariants[c.Variant]
	out := make([]uint32, len(c.d))
	for rank := 0; rank < 4; rank++ {
		*g = Wgmma{A: v.a, B: v.b, N: v.n, K: v.a.K(), Acc: v.acc, ADesc: !v.regsA, TransA: v.transA, TransB: v.transB,
			NegA: v.negA, NegB: v.negB, ScaleD: c.ScaleD != 0, Sat: v.sat, DescA: DecodeMatrixDesc(c.descA),
			DescB: DecodeMatrixDesc(c.descB), NRegs: c.NR}
		for l := 0; l < Lanes; l++ {
			t := 32*rank + l
			copy(g.ARegs[l][:], c.aregs[4*t:4*t+4])
			for j, v := range c.c[c.NR*t : c.NR*(t+1)] {
				g.Regs[j][l] = v
			}
		}
		if err := g.Run(rank, imageReader{c.img, c.Base}, m); err != nil {
			return nil, err
		}
		for l := 0; l < Lanes; l++ {
			t := 32*rank + l
			for j := range c.NR {
				out[c.NR*t+j] = g.Regs[j][l]
			}
		}
	}
	return out, nil
}

func TestWgmmaMatchesH200(t *testing.T) {
	cs := loadWgmmaCases(t)
	m := H200MMAModel()
	var g Wgmma
	for _, c := range cs {
		if !c.Det {
			t.Fatalf("%s cta %d: the H200 gave different results in its two launches", c.Variant, c.CTA)
		}
		got, err := runWgmmaCase(c, &m, &g)
		if err != nil {
			t.Errorf("%s cta %d (%s): %v", c.Variant, c.CTA, c.Mode, err)
			continue
		}
		bad, first := 0, -1
		for i := range got {
			if got[i] != c.d[i] {
				if first < 0 {
					first = i
				}
				bad++
			}
		}
		if bad > 0 {
			th, j := first/c.NR, first%c.NR
			t.Errorf("%s cta %d (%s %s): %d of %d registers differ; first: thread %d register %d: got %#08x, H200 %#08x (accumulator in %#08x)",
				c.Variant, c.CTA, c.Kind, c.Mode, bad, len(got), th, j, got[first], c.d[first], c.c[first])
		}
	}
}
