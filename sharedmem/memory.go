package sharedmem

import (
	"encoding/binary"
	"fmt"
)

// Memory is the shared window of one CTA: Size bytes, zeroed at creation,
// plus the barrier guard (barrier.go).
type Memory struct {
	data  []byte
	guard []uint64 // one bit per 8-byte word: a live mbarrier starts there
	live  int      // number of set guard bits
}

// New returns a zeroed shared window of size bytes.
func New(size uint32) *Memory {
	return &Memory{
		data:  make([]byte, size),
		guard: make([]uint64, (uint64(size)+guardWordBytes-1)/guardWordBytes),
	}
}

// Size is the window's size in bytes.
func (m *Memory) Size() uint32 { return uint32(len(m.data)) }

// Bytes is the window's contents, for a caller that checks its accesses
// itself (the SM's warp-wide loads and stores: one bounds and alignment
// check a warp access, not one a lane).
func (m *Memory) Bytes() []byte { return m.data }

// Clear zeroes the contents and drops every barrier mark, as when a new CTA
// takes over the window.
func (m *Memory) Clear() {
	clear(m.data)
	clear(m.guard)
	m.live = 0
}

// AccessError describes a shared-memory access outside the window or not
// naturally aligned.
type AccessError struct {
	Off   uint32 // first byte accessed
	Size  int    // bytes accessed
	Limit uint32 // the window's size
	Align int    // required alignment when the access is misaligned, else 0
	Write bool
}

// Error says what was accessed and why it failed.
func (e *AccessError) Error() string {
	op := "read"
	if e.Write {
		op = "write"
	}
	if e.Align != 0 {
		return fmt.Sprintf("shared %s of %d bytes at offset %#x is not %d-byte aligned", op, e.Size, e.Off, e.Align)
	}
	return fmt.Sprintf("shared %s of %d bytes at offset %#x is out of bounds: the window has %#x bytes",
		op, e.Size, e.Off, e.Limit)
}

// check returns an error unless [off, off+n) lies in the window and off is a
// multiple of align (align 1: no requirement).
func (m *Memory) check(off uint32, n, align int, write bool) error {
	if align > 1 && off%uint32(align) != 0 {
		return &AccessError{Off: off, Size: n, Limit: m.Size(), Align: align, Write: write}
	}
	if uint64(off)+uint64(n) > uint64(len(m.data)) {
		return &AccessError{Off: off, Size: n, Limit: m.Size(), Write: write}
	}
	return nil
}

// Read copies len(b) bytes at off into b.
func (m *Memory) Read(off uint32, b []byte) error {
	if err := m.check(off, len(b), 1, false); err != nil {
		return err
	}
	copy(b, m.data[off:])
	return nil
}

// Write copies b into the window at off.
func (m *Memory) Write(off uint32, b []byte) error {
	if err := m.check(off, len(b), 1, true); err != nil {
		return err
	}
	copy(m.data[off:], b)
	return nil
}

// Load8 reads the byte at off.
func (m *Memory) Load8(off uint32) (uint8, error) {
	if err := m.check(off, 1, 1, false); err != nil {
		return 0, err
	}
	return m.data[off], nil
}

// Load16 reads the little-endian 16-bit value at off (2-byte aligned).
func (m *Memory) Load16(off uint32) (uint16, error) {
	if err := m.check(off, 2, 2, false); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint16(m.data[off:]), nil
}

// Load32 reads the little-endian 32-bit value at off (4-byte aligned).
func (m *Memory) Load32(off uint32) (uint32, error) {
	if err := m.check(off, 4, 4, false); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(m.data[off:]), nil
}

// Load64 reads the little-endian 64-bit value at off (8-byte aligned).
func (m *Memory) Load64(off uint32) (uint64, error) {
	if err := m.check(off, 8, 8, false); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(m.data[off:]), nil
}

// Store8 writes the byte v at off.
func (m *Memory) Store8(off uint32, v uint8) error {
	if err := m.check(off, 1, 1, true); err != nil {
		return err
	}
	m.data[off] = v
	return nil
}

// Store16 writes v little-endian at off (2-byte aligned).
func (m *Memory) Store16(off uint32, v uint16) error {
	if err := m.check(off, 2, 2, true); err != nil {
		return err
	}
	binary.LittleEndian.PutUint16(m.data[off:], v)
	return nil
}

// Store32 writes v little-endian at off (4-byte aligned).
func (m *Memory) Store32(off uint32, v uint32) error {
	if err := m.check(off, 4, 4, true); err != nil {
		return err
	}
	binary.LittleEndian.PutUint32(m.data[off:], v)
	return nil
}

// Store64 writes v little-endian at off (8-byte aligned).
func (m *Memory) Store64(off uint32, v uint64) error {
	if err := m.check(off, 8, 8, true); err != nil {
		return err
	}
	binary.LittleEndian.PutUint64(m.data[off:], v)
	return nil
}
