package sass_test

import (
	"fmt"
	"log"
	"os"

	"github.com/smsim/smsim/frontend/sass"
)

// A listing as `cuobjdump -sass` prints it (the spin kernel of calibration/h200/latency3.sass,
// without its NOP padding): each instruction's two encoding words carry the compiler's schedule in
// their control bits.
const listing = `
	code for sm_90a
	.target	sm_90a

		Function : _Z6k_spinxPi
	.headerflags	@"EF_CUDA_ACCELERATORS EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"
        /*0000*/                   LDC R1, c[0x0][0x28] ;                          /* 0x00000a00ff017b82 */
                                                                                   /* 0x000fe20000000800 */
        /*0010*/                   CS2R R2, SR_CLOCKLO ;                           /* 0x0000000000027805 */
                                                                                   /* 0x000fe20000015000 */
        /*0020*/                   ULDC.64 UR4, c[0x0][0x210] ;                    /* 0x0000840000047ab9 */
                                                                                   /* 0x000fcc0000000a00 */
        /*0030*/                   CS2R R4, SR_CLOCKLO ;                           /* 0x0000000000047805 */
                                                                                   /* 0x000fcc0000015000 */
        /*0040*/                   IADD3 R0, P0, -R2, R4, RZ ;                     /* 0x0000000402007210 */
                                                                                   /* 0x000fca0007f1e1ff */
        /*0050*/                   IMAD.X R4, R5, 0x1, ~R3, P0 ;                   /* 0x0000000105047824 */
                                                                                   /* 0x000fe200000e0e03 */
        /*0060*/                   ISETP.GE.U32.AND P0, PT, R0, UR4, PT ;          /* 0x0000000400007c0c */
                                                                                   /* 0x000fc8000bf06070 */
        /*0070*/                   ISETP.GE.AND.EX P0, PT, R4, UR5, PT, P0 ;       /* 0x0000000504007c0c */
                                                                                   /* 0x000fda000bf06300 */
        /*0080*/              @!P0 BRA 0x30 ;                                      /* 0xfffffffc00e88947 */
                                                                                   /* 0x000fea000383ffff */
        /*0090*/                   S2R R0, SR_TID.X ;                              /* 0x0000000000007919 */
                                                                                   /* 0x000e240000002100 */
        /*00a0*/                   ISETP.NE.AND P0, PT, R0, 0x3e8, PT ;            /* 0x000003e80000780c */
                                                                                   /* 0x001fda0003f05270 */
        /*00b0*/               @P0 EXIT ;                                          /* 0x000000000000094d */
                                                                                   /* 0x000fea0003800000 */
        /*00c0*/                   LDC.64 R2, c[0x0][0x218] ;                      /* 0x00008600ff027b82 */
                                                                                   /* 0x000e220000000a00 */
        /*00d0*/                   IMAD.MOV.U32 R5, RZ, RZ, 0x1 ;                  /* 0x00000001ff057424 */
                                                                                   /* 0x000fe200078e00ff */
        /*00e0*/                   ULDC.64 UR4, c[0x0][0x208] ;                    /* 0x0000820000047ab9 */
                                                                                   /* 0x000fc80000000a00 */
        /*00f0*/                   STG.E desc[UR4][R2.64], R5 ;                    /* 0x0000000502007986 */
                                                                                   /* 0x001fe2000c101904 */
        /*0100*/                   EXIT ;                                          /* 0x000000000000794d */
                                                                                   /* 0x000fea0003800000 */
        /*0110*/                   BRA 0x110;                                      /* 0xfffffffc00fc7947 */
                                                                                   /* 0x000fc0000383ffff */
		..........
`

func ExampleParse() {
	f, err := sass.Parse("k_spin.sass", []byte(listing))
	if err != nil {
		log.Fatal(err)
	}
	fn := f.Function("_Z6k_spinxPi")
	for _, in := range fn.Instructions {
		fmt.Printf("%04x  %s  %s\n", in.Addr, in.Ctrl, in.String())
	}
	// Typed operands: the store's address is a descriptor and a 64-bit base register.
	st := fn.Instructions[15].Operands[0]
	fmt.Println(st.Kind == sass.KindMem, st.Desc, st.Reg, st.Suffix)
	// The branch-target map: which instructions jump where.
	for _, l := range fn.Labels {
		fmt.Printf("target 0x%x (instruction %d) from %x\n", l.Addr, l.Index, l.From)
	}
	// The parameter layout from the mangled name alone, where no cubin is at hand.
	types, _ := sass.ParamTypes(fn.Name)
	params, _ := sass.LayoutParams(types)
	for i, p := range params {
		fmt.Printf("param %d %s at c[0x0][0x%x]\n", i, types[i].C, p.CBankOffset)
	}
	// Output:
	// 0000  S01 - wb- rb- wt000000  LDC R1, c[0x0][0x28]
	// 0010  S01 - wb- rb- wt000000  CS2R R2, SR_CLOCKLO
	// 0020  S06 Y wb- rb- wt000000  ULDC.64 UR4, c[0x0][0x210]
	// 0030  S06 Y wb- rb- wt000000  CS2R R4, SR_CLOCKLO
	// 0040  S05 Y wb- rb- wt000000  IADD3 R0, P0, -R2, R4, RZ
	// 0050  S01 - wb- rb- wt000000  IMAD.X R4, R5, 0x1, ~R3, P0
	// 0060  S04 Y wb- rb- wt000000  ISETP.GE.U32.AND P0, PT, R0, UR4, PT
	// 0070  S13 Y wb- rb- wt000000  ISETP.GE.AND.EX P0, PT, R4, UR5, PT, P0
	// 0080  S05 - wb- rb- wt000000  @!P0 BRA 0x30
	// 0090  S02 - wb0 rb- wt000000  S2R R0, SR_TID.X
	// 00a0  S13 Y wb- rb- wt000001  ISETP.NE.AND P0, PT, R0, 0x3e8, PT
	// 00b0  S05 - wb- rb- wt000000  @P0 EXIT
	// 00c0  S01 - wb0 rb- wt000000  LDC.64 R2, c[0x0][0x218]
	// 00d0  S01 - wb- rb- wt000000  IMAD.MOV.U32 R5, RZ, RZ, 0x1
	// 00e0  S04 Y wb- rb- wt000000  ULDC.64 UR4, c[0x0][0x208]
	// 00f0  S01 - wb- rb- wt000001  STG.E desc[UR4][R2.64], R5
	// 0100  S05 - wb- rb- wt000000  EXIT
	// 0110  S00 Y wb- rb- wt000000  BRA 0x110
	// true UR4 R2 .64
	// target 0x30 (instruction 3) from [80]
	// target 0x110 (instruction 17) from [110]
	// param 0 long long at c[0x0][0x210]
	// param 1 int* at c[0x0][0x218]
}

func ExampleReadCubin() {
	b, err := os.ReadFile("../../calibration/h200/steps.cubin")
	if err != nil {
		log.Fatal(err)
	}
	c, err := sass.ReadCubin("steps.cubin", b)
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range c.Funcs {
		fmt.Printf("%s: %d instructions, %d registers, %d bytes static shared, params at c[0x0][0x%x]:",
			f.Name, f.NumInstructions(), f.Registers, f.StaticShared(), f.ParamBase)
		for _, p := range f.Params {
			fmt.Printf(" %d@0x%x", p.Size, p.CBankOffset)
		}
		fmt.Println()
	}
	// Output:
	// _Z6k_spinxPi: 32 instructions, 10 registers, 0 bytes static shared, params at c[0x0][0x210]: 8@0x210 8@0x218
	// step_latency: 416 instructions, 14 registers, 32808 bytes static shared, params at c[0x0][0x210]: 8@0x210 4@0x218 8@0x220 8@0x228
}
