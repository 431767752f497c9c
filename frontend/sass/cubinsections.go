package sass

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"strconv"
)

// funcInfo reads the .nv.info.NAME section of function f.
func (r *cubinReader) funcInfo(f *Func, sec string, d []byte) error {
	if f == nil {
		return r.errf("section %s names no function of the cubin", sec)
	}
	var err error
	if f.Info, err = parseAttributes(d, sec); err != nil {
		return r.errf("%v", err)
	}
	if err := f.decodeInfo(sec); err != nil {
		return r.errf("%v", err)
	}
	return nil
}

// parseBankName splits ".nv.constant2.step_latency" into (2, "step_latency").
func parseBankName(n string) (int, string, bool) {
	rest := n[len(".nv.constant"):]
	k := 0
	for k < len(rest) && k < 3 && rest[k] >= '0' && rest[k] <= '9' {
		k++
	}
	if k == 0 {
		return 0, "", false
	}
	bank, _ := strconv.Atoi(rest[:k])
	switch {
	case k == len(rest):
		return bank, "", true
	case rest[k] == '.' && k+1 < len(rest):
		return bank, rest[k+1:], true
	}
	return 0, "", false
}

// cuinfo decodes .note.nv.cuinfo: an ELF note (name "NVIDIA Corp", type 1000) whose descriptor
// holds a u16 version, the u16 SM number and a u32 CUDA API version (in the committed cubins:
// 2, 90, 0x82).
func (r *cubinReader) cuinfo(d []byte) {
	desc := noteDesc(d)
	if len(desc) >= 8 {
		r.c.SM = int(binary.LittleEndian.Uint16(desc[2:]))
		r.c.CUDAAPIVersion = int(binary.LittleEndian.Uint32(desc[4:]))
	}
}

// noteDesc returns the descriptor of the first ELF note in d (namesz, descsz, type, then the
// 4-aligned name and descriptor).
func noteDesc(d []byte) []byte {
	if len(d) < 12 {
		return nil
	}
	nameSz := uint64(binary.LittleEndian.Uint32(d))
	descSz := uint64(binary.LittleEndian.Uint32(d[4:]))
	start := 12 + (nameSz+3)&^3
	if start > uint64(len(d)) || descSz > uint64(len(d))-start {
		return nil
	}
	return d[start : start+descSz]
}

// noteStrings returns the printable NUL-terminated strings of a note's descriptor.
func noteStrings(d []byte) []string {
	var out []string
	for _, s := range bytes.Split(noteDesc(d), []byte{0}) {
		if len(s) < 2 {
			continue
		}
		ok := true
		for _, c := range s {
			if c < 0x20 || c > 0x7e {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, string(bytes.TrimSpace(s)))
		}
	}
	return out
}

// relocs decodes a .rel/.rela section; its sh_info is the section it applies to.
func (r *cubinReader) relocs(s *elf.Section, d []byte) error {
	ent := 16
	if s.Type == elf.SHT_RELA {
		ent = 24
	}
	if len(d)%ent != 0 {
		return r.errf("section %s is %d bytes, not a whole number of %d-byte relocations", s.Name, len(d), ent)
	}
	target := ""
	if int(s.Info) < len(r.ef.Sections) {
		target = r.ef.Sections[s.Info].Name
	}
	for k := 0; k < len(d); k += ent {
		info := binary.LittleEndian.Uint64(d[k+8:])
		rl := Reloc{Section: target, Offset: binary.LittleEndian.Uint64(d[k:]), Type: uint32(info)}
		if si := int(info >> 32); si >= 1 && si <= len(r.syms) {
			rl.Symbol = r.syms[si-1].Name
		} else if si != 0 {
			return r.errf("section %s+0x%x: relocation names symbol %d of %d", s.Name, k, si, len(r.syms))
		}
		if ent == 24 {
			rl.Addend = int64(binary.LittleEndian.Uint64(d[k+16:]))
		}
		r.c.Relocs = append(r.c.Relocs, rl)
	}
	return nil
}
