package sms_test

import (
	"fmt"
	"os"

	"github.com/smsim/smsim/frontend/sms"
)

// Lane 0 initialises a barrier for its warp; after the warp sync every lane
// arrives and waits on its token with the try_wait loop. Errors are one line,
// file:line:col: message.
func ExampleCompile() {
	src := `block 32
barrier bar
if lane == 0 { init bar, 32 }
syncwarp
arrive_and_wait bar
`
	p, err := sms.Compile("hello.sms", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := p.Disasm(os.Stdout); err != nil {
		fmt.Println(err)
	}
	_, err = sms.Compile("bad.sms", []byte("barrier bar\nwait bar parity 2\n"))
	fmt.Println(err)
	// Output:
	// // hello (hello.sms): 9 instructions, 2 regs, 1 preds, 8 B static shared
	//     0  mov.u32 r0, %laneid                                          // special hello.sms:3:1
	//     1  setp.eq.s64 p0, r0, 0                                        // alu hello.sms:3:1
	//     2  @!p0 bra -> 4 (reconverge 4)                                 // branch hello.sms:3:1
	//     3  mbarrier.init.shared.b64 [0x0], 32                           // syncs hello.sms:3:16
	//     4  bar.warp.sync.b32 4294967295                                 // warpsync hello.sms:4:1
	//     5  mbarrier.arrive.shared.b64 r1, [0x0]                         // syncs hello.sms:5:1
	//     6  mbarrier.try_wait.shared.b64 p0, [0x0], r1                   // syncs hello.sms:5:1
	//     7  @!p0 bra -> 6 (reconverge 8)                                 // branch hello.sms:5:1
	//     8  exit                                                         // branch hello.sms:6:1
	// bad.sms:2:17: parity must be 0 or 1, found 2
}
