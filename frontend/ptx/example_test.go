package ptx_test

import (
	"fmt"

	"github.com/smsim/smsim/frontend/ptx"
)

func ExampleParse() {
	src := `.version 9.0
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 k_param_0)
{
	.reg .b32 %r<3>;
	.reg .b64 %rd<2>;
	.shared .align 8 .u64 bar;
	mov.u32 %r1, bar;
	{
	.reg .pred p;
	mbarrier.try_wait.parity.shared::cta.b64 p, [%r1], %r2;
	}
	@!%p1 bra $L__BB0_1;
$L__BB0_1:
	ret;
}
`
	m, err := ptx.Parse("k.ptx", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, in := range m.Func("k").Instrs() {
		fmt.Printf("%s: %s %q\n", in.Pos, in.Op, in.Mods)
	}
	_, err = ptx.Parse("bad.ptx", []byte(".entry k()\n{\n\tmov.u32 %r1, 1\n}\n"))
	fmt.Println(err)
	// Output:
	// k.ptx:9:2: mov ["u32"]
	// k.ptx:12:2: mbarrier ["try_wait" "parity" "shared::cta" "b64"]
	// k.ptx:14:2: bra []
	// k.ptx:16:2: ret []
	// bad.ptx:4:1: expected ',' or ';', found '}'
}
