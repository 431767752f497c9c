package ptx_test

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/smsim/smsim/tma"
)

// tmapKernelHead declares the kernels below: out (a 128-byte tensor map
// slot, then 2 x 512 bytes of loaded tiles), two 32 x 4 u32 tensors a and
// b, and the map over a; thread i copies word i of the map into smap, and
// %rd1 = out, %rd2 = a, %rd3 = b, %r1 = tid.
const tmapKernelHead = `
.visible .entry k(.param .u64 k_out, .param .u64 k_a, .param .u64 k_b, .param .align 64 .b8 k_map[128])
{
	.reg .pred %p<4>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<16>;
	.shared .align 128 .b8 smap[128];
	.shared .align 128 .b8 tile[1024];
	.shared .align 8 .b64 bar;
	ld.param.u64 %rd1, [k_out];
	ld.param.u64 %rd2, [k_a];
	ld.param.u64 %rd3, [k_b];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd4, %r1, 4;
	mov.b64 %rd5, k_map;
	add.s64 %rd5, %rd5, %rd4;
	ld.param.u32 %r2, [%rd5];
	mov.u32 %r3, smap;
	shl.b32 %r4, %r1, 2;
	add.u32 %r5, %r3, %r4;
	st.shared.u32 [%r5], %r2;
	add.s64 %rd6, %rd1, %rd4;
	setp.eq.u32 %p1, %r1, 0;
	@%p1 mbarrier.init.shared::cta.b64 [bar], 1;
	bar.sync 0;
`

// tmapLoad loads the box at (0, 0) through the map at %rd1 into tile+OFF and
// waits for it (phase PH), in thread 0.
const tmapLoad = `
	@%p1 mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 512;
	mov.u32 %r6, 0;
	@%p1 cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [tile+OFF], [%rd1, {%r6, %r6}], [bar];
WAITPH:
	mbarrier.try_wait.parity.shared::cta.b64 %p2, [bar], PH;
	@!%p2 bra WAITPH;
`

// tmapTail copies the two tiles to out+128 and returns.
const tmapTail = `
	add.s64 %rd7, %rd6, 128;
	mov.u32 %r9, 0;
COPY:
	shl.b32 %r10, %r9, 7;
	add.u32 %r11, %r10, %r4;
	mov.u32 %r12, tile;
	add.u32 %r12, %r12, %r11;
	ld.shared.u32 %r13, [%r12];
	cvt.u64.u32 %rd8, %r10;
	add.s64 %rd9, %rd7, %rd8;
	st.global.u32 [%rd9], %r13;
	add.u32 %r9, %r9, 1;
	setp.lt.u32 %p3, %r9, 8;
	@%p3 bra COPY;
	ret;
}
`

func load(off, phase string) string {
	return strings.NewReplacer("OFF", off, "PH", phase).Replace(tmapLoad)
}

func tmapArgs() (out, a, b []byte, m tma.Map) {
	out, a, b = make([]byte, 128+1024), make([]byte, 512), make([]byte, 512)
	for i := 0; i < 128; i++ {
		binary.LittleEndian.PutUint32(a[4*i:], uint32(1000+i))
		binary.LittleEndian.PutUint32(b[4*i:], uint32(2000+i))
	}
	m = tma.Map{DType: tma.U32, Rank: 2, Dims: [5]uint64{32, 4}, Strides: [4]uint64{128},
		Box: [5]uint32{32, 4}, ElemStrides: [5]uint32{1, 1}}
	return
}

// TestRunTensormapReplaceInShared is the PTX ISA's example: the map is copied
// to shared memory, its global address (to b) and first dimension (to 20:
// columns 20..31 fall outside the tensor) replaced there, copied to global
// memory with tensormap.cp_fenceproxy, acquired with fence.proxy.tensormap,
// and a tensor load through it reads b with the new bounds.
func TestRunTensormapReplaceInShared(t *testing.T) {
	src := tmapKernelHead + `
	@%p1 tensormap.replace.tile.global_address.shared::cta.b1024.b64 [smap], %rd3;
	mov.u32 %r7, 20;
	@%p1 tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [smap], 0, %r7;
	bar.warp.sync -1;
	tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%rd1], [smap], 128;
	fence.proxy.tensormap::generic.acquire.gpu [%rd1], 128;
` + load("0", "0") + tmapTail
	out, a, b, m := tmapArgs()
	res, err := runArgs(t, src, 32, karg{buf: out}, karg{buf: a}, karg{buf: b}, karg{tmap: &m, onBuf: 1})
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	got, err := tma.Decode(res[0][:128])
	if err != nil {
		t.Fatalf("the map in global memory: %v", err)
	}
	if got.Dims[0] != 20 || got.Dims[1] != 4 || got.Rank != 2 || got.Box != m.Box {
		t.Errorf("map after replace: %+v", got)
	}
	tile := res[0][128:]
	for row := 0; row < 4; row++ {
		for col := 0; col < 32; col++ {
			want := uint32(0) // outside the new bounds: zero fill
			if col < 20 {
				want = uint32(2000 + row*32 + col) // b, not a
			}
			if g := binary.LittleEndian.Uint32(tile[4*(row*32+col):]); g != want {
				t.Errorf("tile (%d, %d): got %d, want %d", col, row, g, want)
			}
		}
	}
}

// TestRunTensormapReplaceInGlobal replaces a map in global memory that a copy
// has already used: the next copy needs fence.proxy.tensormap (the stale
// tensor map misuse without it), and with it reads the new tensor.
func TestRunTensormapReplaceInGlobal(t *testing.T) {
	src := tmapKernelHead + `
	ld.shared.u32 %r8, [%r5];
	st.global.u32 [%rd6], %r8;
	bar.sync 0;
	fence.proxy.tensormap::generic.acquire.gpu [%rd1], 128;
` + load("0", "0") + `
	@%p1 tensormap.replace.tile.global_address.global.b1024.b64 [%rd1], %rd3;
	FENCE
` + load("512", "1") + tmapTail
	out, a, b, m := tmapArgs()
	good := strings.Replace(src, "FENCE", "fence.proxy.tensormap::generic.acquire.gpu [%rd1], 128;", 1)
	res, err := runArgs(t, good, 32, karg{buf: out}, karg{buf: a}, karg{buf: b}, karg{tmap: &m, onBuf: 1})
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	for i := 0; i < 128; i++ {
		if g := binary.LittleEndian.Uint32(res[0][128+4*i:]); g != uint32(1000+i) {
			t.Fatalf("first tile word %d: got %d, want a's %d", i, g, 1000+i)
		}
		if g := binary.LittleEndian.Uint32(res[0][128+512+4*i:]); g != uint32(2000+i) {
			t.Fatalf("second tile word %d: got %d, want b's %d", i, g, 2000+i)
		}
	}
	bad := strings.Replace(src, "FENCE", "", 1)
	_, err = runArgs(t, bad, 32, karg{buf: out}, karg{buf: a}, karg{buf: b}, karg{tmap: &m, onBuf: 1})
	wantMisuse(t, err, "stale-tensor-map", "used without fence.proxy.tensormap [§4 #52]")
}

// TestRunTensormapMisuse: a replace on bytes that are not a tensor map, one
// that does not fit smsim's encoding, and a replace through a generic
// address of local memory are misuse diagnostics.
func TestRunTensormapMisuse(t *testing.T) {
	for _, tc := range []struct{ body, code, want string }{
		{"@%p1 tensormap.replace.tile.rank.shared::cta.b1024.b32 [tile], 1;", "tensormap-replace",
			"not a tensor map built with --arg tensormap"},
		{"mov.u32 %r7, 70000;\n\t@%p1 tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [smap], 0, %r7;", "tensormap-replace",
			"tensormap.replace .box_dim: 70000 does not fit the map"},
		{"mov.u64 %rd9, 0x7f0000000000;\n\t@%p1 tensormap.replace.tile.rank.b1024.b32 [%rd9], 1;", "tensormap-space",
			"not in global or shared::cta memory"},
	} {
		out, a, b, m := tmapArgs()
		src := tmapKernelHead + "\t" + tc.body + "\n\tret;\n}\n"
		_, err := runArgs(t, src, 32, karg{buf: out}, karg{buf: a}, karg{buf: b}, karg{tmap: &m, onBuf: 1})
		wantMisuse(t, err, tc.code, tc.want)
	}
}
