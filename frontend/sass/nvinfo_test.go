package sass

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"
)

// rec builds one .nv.info record.
func rec(f Format, id AttrID, payload ...uint32) []byte {
	b := []byte{byte(f), byte(id)}
	if f != FormatSVal {
		return binary.LittleEndian.AppendUint16(b, uint16(payload[0]))
	}
	b = binary.LittleEndian.AppendUint16(b, uint16(4*len(payload)))
	for _, w := range payload {
		b = binary.LittleEndian.AppendUint32(b, w)
	}
	return b
}

// TestParseAttributes splits record streams, keeping unknown attribute codes.
func TestParseAttributes(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		want string
	}{
		{"value formats", bytes.Join([][]byte{rec(FormatNVal, AttrExplicitCluster, 0), rec(FormatBVal, AttrNumBarriers, 1),
			rec(FormatHVal, AttrMaxRegCount, 0xff)}, nil),
			"[+0x0 EIATTR_EXPLICIT_CLUSTER EIFMT_NVAL 0x0 +0x4 EIATTR_NUM_BARRIERS EIFMT_BVAL 0x1 +0x8 EIATTR_MAXREG_COUNT EIFMT_HVAL 0xff]"},
		{"sized payload", rec(FormatSVal, AttrExitInstrOffsets, 0x50, 0x60),
			"[+0x0 EIATTR_EXIT_INSTR_OFFSETS EIFMT_SVAL 5000000060000000]"},
		{"unknown code kept", append(rec(FormatSVal, 0xee, 7), rec(FormatHVal, 0x60, 3)...),
			"[+0x0 EIATTR_0xee EIFMT_SVAL 07000000 +0x8 EIATTR_0x60 EIFMT_HVAL 0x3]"},
		{"empty section", nil, "[]"},
		{"truncated record", []byte{3, 0x1b, 0xff}, "s+0x0: truncated attribute record (3 bytes left)"},
		{"payload past the end", []byte{4, 0x1c, 8, 0, 1, 2, 3, 4}, "s+0x0: EIATTR_EXIT_INSTR_OFFSETS payload of 8 bytes runs past the section end"},
		{"unknown format", append(rec(FormatHVal, AttrMaxRegCount, 1), 9, 0x1c, 0, 0), "s+0x4: unknown attribute format 0x09 (EIATTR_EXIT_INSTR_OFFSETS)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			as, err := parseAttributes(tc.in, "s")
			got := ""
			if err != nil {
				got = err.Error()
			} else {
				var parts []string
				for _, a := range as {
					parts = append(parts, dumpAttr(a))
				}
				got = "[" + strings.Join(parts, " ") + "]"
			}
			if got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestDecodeFuncInfo decodes hand-made per-function records: launch shapes (x, y, z as u32; one
// u32 for the cluster rank, as cuobjdump prints them for attrs.cubin), parameters, resources,
// offsets, and the malformed payloads that must fail.
func TestDecodeFuncInfo(t *testing.T) {
	kparam := func(ord, off, size, flags uint32) []uint32 { return []uint32{0, ord | off<<16, size<<18 | flags} }
	tests := []struct {
		name string
		recs [][]byte
		want string
	}{
		{"launch shape", [][]byte{rec(FormatSVal, AttrMaxThreads, 256, 1, 1), rec(FormatSVal, AttrReqNTID, 128, 2, 1),
			rec(FormatSVal, AttrCTAPerCluster, 2, 1, 1), rec(FormatNVal, AttrExplicitCluster, 0), rec(FormatSVal, AttrMaxClusterRank, 8),
			rec(FormatNVal, AttrBlocksAreClusters, 0)},
			"max [256 1 1] req [128 2 1] cluster [2 1 1] explicit true rank 8 blocks true"},
		{"parameters in reverse order", [][]byte{rec(FormatSVal, AttrKParamInfo, kparam(1, 8, 4, 0xf000)...),
			rec(FormatSVal, AttrKParamInfo, kparam(0, 0, 8, 0x1f000|4)...), rec(FormatSVal, AttrParamCBank, 9, 0x0010_0210)},
			"params [{0 0 8 528 4 0 31 true} {1 8 4 536 0 0 15 true}] base 0x210 size 16"},
		{"resources", [][]byte{rec(FormatBVal, AttrNumBarriers, 3), rec(FormatHVal, AttrNumMbarriers, 2), rec(FormatHVal, AttrMaxRegCount, 40),
			rec(FormatSVal, AttrCRSStackSize, 16), rec(FormatSVal, AttrSWWar, 8), rec(FormatSVal, AttrCUDAAPIVersion, 0x82)},
			"barriers 3 mbarriers 2 maxreg 40 crs 16 war 8 api 130"},
		{"shared-memory records read after their names", [][]byte{rec(FormatSVal, AttrSharedScratch, 64), rec(FormatNVal, AttrReservedSmemUsed, 0),
			rec(FormatHVal, AttrReservedSmem0Size, 8), rec(FormatBVal, AttrNumBarriers, 1)},
			"barriers 1 scratch 64 reserved true size 8"},
		{"shared-memory record of an unknown shape is kept raw", [][]byte{rec(FormatSVal, AttrSharedScratch, 1, 2), rec(FormatBVal, AttrNumBarriers, 1)},
			"barriers 1 scratch 0 reserved false size 0"},
		{"offsets and branch tables", [][]byte{rec(FormatSVal, AttrExitInstrOffsets, 0x70, 0x90), rec(FormatSVal, AttrS2RCTAIDInstrOffsets, 0x10),
			rec(FormatSVal, AttrIndirectBranchTargets, 0x370, 0, 2, 0x400, 0x480, 0x500, 0, 1, 0x600)},
			"exits [70 90] ctaid [10] brx [{880 0 [1024 1152]} {1280 0 [1536]}]"},
		{"wrong payload size", [][]byte{rec(FormatSVal, AttrReqNTID, 128, 1)}, "s+0x0: EIATTR_REQNTID has 8 bytes, want 12"},
		{"short parameter record", [][]byte{rec(FormatSVal, AttrKParamInfo, 0, 0)}, "s+0x0: EIATTR_KPARAM_INFO has 8 bytes, want 12"},
		{"missing ordinal", [][]byte{rec(FormatSVal, AttrKParamInfo, kparam(1, 0, 8, 0)...)}, "s: parameter ordinals are not 0..0: found 1 at position 0"},
		{"overlapping parameters", [][]byte{rec(FormatSVal, AttrKParamInfo, kparam(0, 0, 8, 0)...), rec(FormatSVal, AttrKParamInfo, kparam(1, 4, 4, 0)...)},
			"s: parameter 1 at 0x4 overlaps parameter 0"},
		{"truncated branch table", [][]byte{rec(FormatSVal, AttrIndirectBranchTargets, 0x370, 0, 3, 0x400)},
			"s+0x0: EIATTR_INDIRECT_BRANCH_TARGETS entry at word 0 is truncated"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			as, err := parseAttributes(bytes.Join(tc.recs, nil), "s")
			if err != nil {
				t.Fatal(err)
			}
			f := Func{Info: as}
			got := ""
			if err := f.decodeInfo("s"); err != nil {
				got = err.Error()
			} else {
				switch {
				case f.MaxThreads[0] != 0:
					got = fmt.Sprintf("max %v req %v cluster %v explicit %v rank %d blocks %v", f.MaxThreads, f.ReqNTID, f.ClusterDims, f.ExplicitCluster, f.MaxClusterRank, f.BlocksAreClusters)
				case len(f.Params) > 0:
					var ps []string
					for _, p := range f.Params {
						ps = append(ps, fmt.Sprintf("{%d %d %d %d %d %d %d %v}", p.Ordinal, p.Offset, p.Size, p.CBankOffset, p.PointeeLogAlign, p.Space, p.CBank, p.InCBank))
					}
					got = fmt.Sprintf("params [%s] base 0x%x size %d", strings.Join(ps, " "), f.ParamBase, f.ParamSize)
				case f.Barriers == 1:
					got = fmt.Sprintf("barriers 1 scratch %d reserved %v size %d", f.SharedScratch, f.ReservedSmemUsed, f.ReservedSmem0Size)
				case f.Barriers != 0:
					got = fmt.Sprintf("barriers %d mbarriers %d maxreg %d crs %d war %d api %d", f.Barriers, f.Mbarriers, f.MaxRegCount, f.CRSStackSize, f.SWWar, f.CUDAAPIVersion)
				default:
					var bs []string
					for _, b := range f.IndirectBranches {
						bs = append(bs, fmt.Sprint(b.Offset, " ", b.Flags, " ", b.Targets))
					}
					got = fmt.Sprintf("exits %x ctaid %x brx [{%s}]", f.ExitOffsets, f.S2RCTAIDOffsets, strings.Join(bs, "} {"))
				}
			}
			if got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// sectionHeader returns the offset in b of the section header named name.
func sectionHeader(t testing.TB, b []byte, name string) int {
	t.Helper()
	ef, err := elf.NewFile(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	shoff := int(binary.LittleEndian.Uint64(b[0x28:]))
	for i, s := range ef.Sections {
		if s.Name == name {
			return shoff + 64*i
		}
	}
	t.Fatalf("no section %s", name)
	return 0
}

// TestReadCubinErrors corrupts a committed cubin in the ways a damaged or hostile file could be,
// and wants one error naming the file and the place.
func TestReadCubinErrors(t *testing.T) {
	const path = "../../calibration/h200/steps.cubin"
	orig := readFile(t, path)
	info := ".nv.info.step_latency"
	tests := []struct {
		name   string
		mutate func(b []byte) []byte
		want   string
	}{
		{"not an ELF", func(b []byte) []byte { return []byte("hello") }, "steps.cubin: "},
		{"empty", func(b []byte) []byte { return nil }, "steps.cubin: "},
		{"truncated", func(b []byte) []byte { return b[:len(b)/2] }, "steps.cubin: "},
		{"not CUDA", func(b []byte) []byte { b[0x12] = 0x3e; return b }, "steps.cubin: not a 64-bit CUDA ELF"},
		{"section beyond the file", func(b []byte) []byte {
			h := sectionHeader(t, b, info)
			binary.LittleEndian.PutUint64(b[h+0x18:], uint64(len(b))-4)
			return b
		}, "steps.cubin: section " + info + " (offset"},
		{"bad attribute format", func(b []byte) []byte {
			h := sectionHeader(t, b, info)
			b[binary.LittleEndian.Uint64(b[h+0x18:])] = 0x7
			return b
		}, "steps.cubin: " + info + "+0x0: unknown attribute format 0x07"},
		{"odd-sized code", func(b []byte) []byte {
			h := sectionHeader(t, b, ".text.step_latency")
			binary.LittleEndian.PutUint64(b[h+0x20:], binary.LittleEndian.Uint64(b[h+0x20:])-8)
			return b
		}, "steps.cubin: section .text.step_latency is"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := tc.mutate(append([]byte(nil), orig...))
			_, err := ReadCubin("steps.cubin", b)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("got %v, want an error starting %q", err, tc.want)
			}
		})
	}
}
