package ptx

import (
	"reflect"
	"testing"
)

const header = ".version 9.0\n.target sm_90a\n.address_size 64\n"

func mustParse(t *testing.T, src string) *Module {
	t.Helper()
	m, err := Parse("t.ptx", []byte(src))
	if err != nil {
		t.Fatalf("Parse: %v\n%s", err, src)
	}
	return m
}

func initInts(t *testing.T, in *Init) []int64 {
	t.Helper()
	var out []int64
	for _, e := range in.List {
		out = append(out, e.Value.(*Imm).Int)
	}
	return out
}

func TestModuleDeclarations(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		check func(t *testing.T, m *Module)
	}{
		{"extern unsized shared array", ".extern .shared .align 16 .b8 smem[];", func(t *testing.T, m *Module) {
			d := m.Decls[0]
			want := VarDecl{Pos: Pos{"t.ptx", 4, 31}, Linkage: "extern", Space: "shared", Align: 16, Type: "b8", Name: "smem", Array: []int{-1}}
			if !reflect.DeepEqual(*d, want) {
				t.Errorf("got %+v\nwant %+v", *d, want)
			}
		}},
		{"initializer list", ".global .align 4 .u32 tbl[3] = {1, 2, 3};", func(t *testing.T, m *Module) {
			if got := initInts(t, m.Decls[0].Init); !reflect.DeepEqual(got, []int64{1, 2, 3}) {
				t.Errorf("init = %v", got)
			}
		}},
		{"scalar initializers", ".const .f32 c = 0f3F800000;\n.global .s32 g = -5;", func(t *testing.T, m *Module) {
			if imm := m.Decls[0].Init.Value.(*Imm); imm.Kind != ImmF32 || imm.Float() != 1 {
				t.Errorf("c = %#v", imm)
			}
			if imm := m.Decls[1].Init.Value.(*Imm); imm.Int != -5 {
				t.Errorf("g = %#v", imm)
			}
		}},
		{"nested initializer braces", ".global .u32 mat[2][2] = {{1, 2}, {3, 4}};", func(t *testing.T, m *Module) {
			d := m.Decls[0]
			if !reflect.DeepEqual(d.Array, []int{2, 2}) || len(d.Init.List) != 2 ||
				!reflect.DeepEqual(initInts(t, d.Init.List[1]), []int64{3, 4}) {
				t.Errorf("decl = %+v", d)
			}
		}},
		{"symbol address initializers", ".global .align 8 .u64 ptrs[3] = {generic($str), generic($str$1)+4, tbl+8};", func(t *testing.T, m *Module) {
			l := m.Decls[0].Init.List
			s0, s1, s2 := l[0].Value.(*Sym), l[1].Value.(*Sym), l[2].Value.(*Sym)
			if !l[0].Generic || s0.Name != "$str" || !l[1].Generic || s1.Name != "$str$1" || s1.Offset != 4 ||
				l[2].Generic || s2.Name != "tbl" || s2.Offset != 8 {
				t.Errorf("inits = %+v %+v %+v", l[0], l[1], l[2])
			}
		}},
		{"mask initializers", ".global .align 1 .b8 bytes[2] = {0xFF(generic(g)), 0xFF00(g+2)};", func(t *testing.T, m *Module) {
			l := m.Decls[0].Init.List
			if l[0].Mask != 0xFF || !l[0].Generic || l[1].Mask != 0xFF00 || l[1].Value.(*Sym).Offset != 2 {
				t.Errorf("inits = %+v %+v", l[0], l[1])
			}
		}},
		{"managed attribute", ".visible .global .attribute(.managed) .align 4 .u32 mg;", func(t *testing.T, m *Module) {
			d := m.Decls[0]
			if !reflect.DeepEqual(d.Attrs, []string{"managed"}) || d.Linkage != "visible" || d.Align != 4 {
				t.Errorf("decl = %+v", d)
			}
		}},
		{"vector type", ".global .align 8 .v2 .u32 vv;", func(t *testing.T, m *Module) {
			if d := m.Decls[0]; d.Vec != 2 || d.Type != "u32" {
				t.Errorf("decl = %+v", d)
			}
		}},
		{"several names in one declaration", ".weak .global .u32 a, b[4] = {1, 2, 3, 4};", func(t *testing.T, m *Module) {
			if len(m.Decls) != 2 || m.Decls[0].Name != "a" || m.Decls[1].Name != "b" ||
				m.Decls[1].Linkage != "weak" || m.Decls[1].Init == nil || m.Decls[0].Init != nil {
				t.Errorf("decls = %+v %+v", m.Decls[0], m.Decls[1])
			}
		}},
		{"func with return parameter", `.visible .func  (.param .b32 func_retval0) _Z3fooi(
	.param .b32 _Z3fooi_param_0
)
{
	.reg .b32 	%r<3>;
	ld.param.u32 	%r1, [_Z3fooi_param_0];
	add.s32 	%r2, %r1, 1;
	st.param.b32 	[func_retval0], %r2;
	ret;
}`, func(t *testing.T, m *Module) {
			f := m.Func("_Z3fooi")
			if f.Entry || sigs(f.Returns) != "b32" || f.Returns[0].Name != "func_retval0" || sigs(f.Params) != "b32" || len(f.Instrs()) != 4 {
				t.Errorf("func = %+v", f)
			}
			if len(m.Entries()) != 0 {
				t.Errorf("Entries() lists a .func")
			}
		}},
		{"extern noreturn declaration", ".extern .func __assertfail\n(\n\t.param .b64 a0,\n\t.param .b64 a1\n)\n.noreturn;", func(t *testing.T, m *Module) {
			f := m.Funcs[0]
			if f.Body != nil || f.Linkage != "extern" || f.Attr("noreturn") == nil || len(f.Params) != 2 {
				t.Errorf("func = %+v", f)
			}
		}},
		{"extern prototype with return", ".extern .func  (.param .b32 func_retval0) vprintf\n(\n.param .b64 p0,\n.param .b64 p1\n)\n;", func(t *testing.T, m *Module) {
			if f := m.Func("vprintf"); f == nil || f.Body != nil || len(f.Returns) != 1 || f.Instrs() != nil {
				t.Errorf("func = %+v", f)
			}
		}},
		{"pointer parameter attributes", ".visible .entry k(\n.param .u64 .ptr .align 1 k_param_0,\n.param .u64 .ptr .global .align 16 k_param_1\n)\n{\nret;\n}", func(t *testing.T, m *Module) {
			p0, p1 := m.Funcs[0].Params[0], m.Funcs[0].Params[1]
			if !p0.Ptr || p0.PtrAlign != 1 || p0.Align != 0 || p0.PtrSpace != "" || !p1.Ptr || p1.PtrSpace != "global" || p1.PtrAlign != 16 {
				t.Errorf("params = %+v %+v", p0, p1)
			}
		}},
		{"entry attributes", ".visible .entry k()\n.maxntid 128, 1, 1\n.minnctapersm 2\n.explicitcluster\n.reqnctapercluster 2, 1, 1\n.maxnreg 64\n.maxclusterrank 8\n{\nret;\n}", func(t *testing.T, m *Module) {
			f := m.Funcs[0]
			var names []string
			for _, a := range f.Attrs {
				names = append(names, a.Name)
			}
			if !reflect.DeepEqual(names, []string{"maxntid", "minnctapersm", "explicitcluster", "reqnctapercluster", "maxnreg", "maxclusterrank"}) ||
				!reflect.DeepEqual(f.Attr("maxntid").Args, []int64{128, 1, 1}) || f.Attr("explicitcluster").Args != nil || len(f.Params) != 0 {
				t.Errorf("attrs = %+v", f.Attrs)
			}
		}},
		{"debug directives", `.file	1 "/tmp/a.cu", 1700000000, 1234
.file	2 "/usr/include/x.h"
.visible .entry k()
{
	.loc	1 5 3
	ret;
	.loc	2 6 7, function_name $L__info_string0, inlined_at 1 5 3
	$L__func_end0:
}
.section	.debug_str
{
$L__info_string0:
.b8 95,90,0
}`, func(t *testing.T, m *Module) {
			if m.Files[1] != "/tmp/a.cu" || m.Files[2] != "/usr/include/x.h" {
				t.Errorf("files = %v", m.Files)
			}
			b := m.Funcs[0].Body.Stmts
			l0, l1 := b[0].(*Loc), b[2].(*Loc)
			if *l0 != (Loc{Pos{"t.ptx", 8, 2}, 1, 5, 3}) || l1.File != 2 || l1.Line != 6 || l1.Col != 7 {
				t.Errorf("locs = %+v %+v", l0, l1)
			}
			if len(b) != 4 || b[3].(*Label).Name != "$L__func_end0" {
				t.Errorf("body = %#v", b)
			}
		}},
		{"Func prefers the definition", ".func f(.param .b32 a);\n.func f(.param .b32 a)\n{\nret;\n}\n.func f(.param .b32 a);", func(t *testing.T, m *Module) {
			if f := m.Func("f"); f == nil || f.Body == nil || m.Func("g") != nil {
				t.Errorf("Func(f) = %+v", f)
			}
		}},
		{"module pragma and common linkage", ".pragma \"abc\", \"d\\\"e\";\n.common .global .align 8 .u64 cm;", func(t *testing.T, m *Module) {
			if !reflect.DeepEqual(m.Pragmas, []string{"abc", `d"e`}) || m.Decl("cm").Linkage != "common" {
				t.Errorf("pragmas = %q decl = %+v", m.Pragmas, m.Decl("cm"))
			}
		}},
		{"comments of both kinds", "/* a\n block */ .global /* inline */ .u32 x; // tail\n// whole line", func(t *testing.T, m *Module) {
			if d := m.Decl("x"); d == nil || d.Pos != (Pos{"t.ptx", 5, 37}) {
				t.Errorf("decl = %+v", d)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.check(t, mustParse(t, header+tt.src+"\n"))
		})
	}
}

func TestHeaderDirectives(t *testing.T) {
	m := mustParse(t, ".version 8.7\n.target sm_90a, texmode_independent, debug\n.address_size 32\n")
	if m.Version != "8.7" || !reflect.DeepEqual(m.Target, []string{"sm_90a", "texmode_independent", "debug"}) || m.AddressSize != 32 {
		t.Errorf("module = %+v", m)
	}
	if m.File != "t.ptx" || len(m.Funcs) != 0 || len(m.Entries()) != 0 {
		t.Errorf("module = %+v", m)
	}
}
