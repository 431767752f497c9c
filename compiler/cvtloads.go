package compiler

import "github.com/smsim/smsim/isa"

// NarrowConversionsOfLoads converts a narrow loaded integer to f32 at full rate.
var NarrowConversionsOfLoads = Pass{
	Name: "NarrowConversionsOfLoads",
	Doc: "ptxas converts an 8- or 16-bit integer to f32 with the full-rate I2FP.F32.U32/S32 when the value " +
		"comes straight from a load, which has already zero- or sign-extended it to 32 bits (SASS: " +
		"calibration/h200 convert.sass, wspipe.cu's `(float)tile[i]` of a shared u16 is LDS.U16 then " +
		"I2FP.F32.U32); a 16-bit value from anything else takes I2F.U16 on the MUFU unit (isa.ClassOf's " +
		"ClassSFU).",
	Run: narrowConversionsOfLoads,
}

// narrowConversionsOfLoads makes ClassALU each `cvt.rn.f32.{u,s}{8,16}`
// whose source register is written only by loads of that signedness and no
// wider than it.
func narrowConversionsOfLoads(p *isa.Program, _ *Options) {
	var narrow []int
	for i := range p.Instrs {
		in := &p.Instrs[i]
		if in.Op == isa.OpCvt && in.Class == isa.ClassSFU && in.Type == isa.F32 && !in.Type2.Float() &&
			in.Type2.Bits() < 32 && (in.Rnd == isa.RNone || in.Rnd == isa.RN) && len(in.Ops) == 2 && in.Ops[1].Kind == isa.KReg {
			narrow = append(narrow, i)
		}
	}
	if len(narrow) == 0 {
		return
	}
	for _, i := range narrow {
		cv := &p.Instrs[i]
		src, st := cv.Ops[1].Reg, cv.Type2
		loaded, other := false, false
		for j := range p.Instrs {
			in := &p.Instrs[j]
			if !in.Writes(isa.RegLoc(src)) {
				continue
			}
			if in.Op == isa.OpLd && !in.Type.Float() && in.Type.Bits() <= st.Bits() && in.Type.Signed() == st.Signed() {
				loaded = true
			} else {
				other = true
			}
		}
		if loaded && !other {
			cv.Class = isa.ClassALU
		}
	}
}
