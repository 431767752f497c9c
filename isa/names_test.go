package isa

import "testing"

func TestSymbolNames(t *testing.T) {
	full := Symbol{Name: "_ZZ10pipe_benchE4full", Display: "pipe_bench::full", Elem: 8, Size: 32}
	smem := Symbol{Name: "smem", Size: 1 << 20}
	tests := []struct {
		name       string
		y          Symbol
		off        uint64
		at, linkAt string
	}{
		{"array element", full, 8, "pipe_bench::full[1]", "_ZZ10pipe_benchE4full+8"},
		{"first element", full, 0, "pipe_bench::full[0]", "_ZZ10pipe_benchE4full"},
		{"inside an element", full, 12, "pipe_bench::full[1]+4", "_ZZ10pipe_benchE4full+12"},
		{"bytes without an element size", smem, 16384, "smem+16384", "smem+16384"},
		{"start without an element size", smem, 0, "smem", "smem"},
	}
	for _, tt := range tests {
		if got := tt.y.At(tt.off); got != tt.at {
			t.Errorf("%s: At(%d) = %q, want %q", tt.name, tt.off, got, tt.at)
		}
		if got := tt.y.LinkAt(tt.off); got != tt.linkAt {
			t.Errorf("%s: LinkAt(%d) = %q, want %q", tt.name, tt.off, got, tt.linkAt)
		}
	}
	if full.Title() != "pipe_bench::full" || smem.Title() != "smem" {
		t.Errorf("titles %q %q, want the display name, else the name", full.Title(), smem.Title())
	}
	p := &Program{Name: "_Z1kv"}
	if p.Title() != "_Z1kv" {
		t.Errorf("program title %q without a display name, want its name", p.Title())
	}
	p.Display = "k()"
	if p.Title() != "k()" {
		t.Errorf("program title %q, want its display name", p.Title())
	}
}
