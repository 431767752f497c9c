package sharedmem

import (
	"errors"
	"strings"
	"testing"
)

func TestReadWriteRoundTrip(t *testing.T) {
	m := New(1024)
	in := []byte{1, 2, 3, 4, 5, 6, 7, 8, 9}
	if err := m.Write(100, in); err != nil {
		t.Fatal(err)
	}
	out := make([]byte, len(in))
	if err := m.Read(100, out); err != nil {
		t.Fatal(err)
	}
	if string(out) != string(in) {
		t.Errorf("got %v, want %v", out, in)
	}
	if err := m.Store32(8, 0xdeadbeef); err != nil {
		t.Fatal(err)
	}
	if v, err := m.Load32(8); err != nil || v != 0xdeadbeef {
		t.Errorf("Load32: got %#x, %v, want 0xdeadbeef", v, err)
	}
	if v, err := m.Load16(10); err != nil || v != 0xdead {
		t.Errorf("Load16 of the high half: got %#x, %v, want 0xdead", v, err)
	}
	if err := m.Store64(16, 0x0102030405060708); err != nil {
		t.Fatal(err)
	}
	if v, err := m.Load8(16); err != nil || v != 0x08 {
		t.Errorf("Load8 is little endian: got %#x, %v, want 0x08", v, err)
	}
}

func TestAccessErrors(t *testing.T) {
	m := New(256)
	tests := []struct {
		name    string
		do      func() error
		wantOff uint32
		align   int
		msg     string
	}{
		{"read past the end", func() error { return m.Read(250, make([]byte, 8)) }, 250, 0, "out of bounds"},
		{"write starting past the end", func() error { return m.Write(256, []byte{1}) }, 256, 0, "out of bounds"},
		{"offset near 2^32 does not wrap", func() error { return m.Read(0xfffffffc, make([]byte, 8)) }, 0xfffffffc, 0, "out of bounds"},
		{"misaligned Load32", func() error { _, err := m.Load32(2); return err }, 2, 4, "not 4-byte aligned"},
		{"misaligned Store64", func() error { return m.Store64(4, 1) }, 4, 8, "not 8-byte aligned"},
		{"Load64 of the last 8 bytes plus one", func() error { _, err := m.Load64(256); return err }, 256, 0, "out of bounds"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.do()
			var ae *AccessError
			if !errors.As(err, &ae) {
				t.Fatalf("got %v, want *AccessError", err)
			}
			if ae.Off != tt.wantOff || ae.Align != tt.align || ae.Limit != 256 {
				t.Errorf("got off %#x align %d limit %d, want %#x %d 256", ae.Off, ae.Align, ae.Limit, tt.wantOff, tt.align)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("message %q does not say %q", err, tt.msg)
			}
		})
	}
}

func TestZeroLengthAccessAtEndIsFine(t *testing.T) {
	m := New(64)
	if err := m.Read(64, nil); err != nil {
		t.Errorf("got %v, want nil", err)
	}
}

func TestClearZeroesAndDropsBarriers(t *testing.T) {
	m := New(64)
	_ = m.Store32(0, 7)
	_ = m.MarkBarrier(8)
	m.Clear()
	if v, _ := m.Load32(0); v != 0 {
		t.Errorf("got %d after Clear, want 0", v)
	}
	if _, ok := m.IsBarrier(0, 64); ok || m.LiveBarriers() != 0 {
		t.Errorf("barrier survived Clear")
	}
}

func TestConfigValidateNamesField(t *testing.T) {
	tests := []struct {
		name  string
		mod   func(*Config)
		field string
	}{
		{"default is valid", func(*Config) {}, ""},
		{"zero capacity", func(c *Config) { c.Capacity = 0 }, "Capacity"},
		{"per-block above capacity", func(c *Config) { c.MaxPerBlock = c.Capacity + 1 }, "MaxPerBlock"},
		{"banks not a power of two", func(c *Config) { c.Banks = 24 }, "Banks"},
		{"too many banks", func(c *Config) { c.Banks = 128 }, "Banks"},
		{"narrow banks", func(c *Config) { c.BankBytes = 2 }, "BankBytes"},
		{"negative conflict cost", func(c *Config) { c.ConflictCycles = -1 }, "ConflictCycles"},
		{"negative wavefront time", func(c *Config) { c.WavefrontCycles = -1 }, "WavefrontCycles"},
		{"negative queue", func(c *Config) { c.Queue = -1 }, "Queue"},
		{"negative atomic cost", func(c *Config) { c.AtomicCycles = -1 }, "AtomicCycles"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := DefaultConfig()
			tt.mod(&c)
			err := c.Validate()
			if tt.field == "" {
				if err != nil {
					t.Fatalf("got %v, want nil", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.field) {
				t.Errorf("got %v, want an error naming %s", err, tt.field)
			}
		})
	}
}
