package sm

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/smsim/smsim/memory"
)

// Kind says what a configuration key describes.
type Kind uint8

// Kinds of keys.
const (
	// Hardware is a property of the H200: a latency, an interval, a size,
	// a bandwidth, a queue depth.
	Hardware Kind = iota + 1
	// CompilerModel is what a PTX program pays for code ptxas adds or
	// schedules (a SASS program carries that code itself).
	CompilerModel
	// ModelChoice chooses between models of one behaviour.
	ModelChoice
	// ToolSetting is how the simulator runs, not what it models.
	ToolSetting
)

// String names the kind.
func (k Kind) String() string {
	switch k {
	case Hardware:
		return "hardware"
	case CompilerModel:
		return "compiler model"
	case ModelChoice:
		return "model choice"
	case ToolSetting:
		return "tool setting"
	}
	return "unknown"
}

// Basis says how the h200 value of a key was obtained.
type Basis uint8

// Bases of values.
const (
	Measured   Basis = iota + 1 // a row of calibration/h200 measures it directly
	Fitted                      // chosen against rows of calibration/h200 (smsim calibrate, a scan, a bound)
	Derived                     // read or counted from ptxas's SASS, or the effective cost behind rows
	Documented                  // NVIDIA's documentation of the H200
	Assumed                     // nothing measured constrains it
	Chosen                      // a setting of the tool, not a property of the hardware
)

// String names the basis.
func (b Basis) String() string {
	switch b {
	case Measured:
		return "measured"
	case Fitted:
		return "fitted"
	case Derived:
		return "derived"
	case Documented:
		return "documented"
	case Assumed:
		return "assumed"
	case Chosen:
		return "chosen"
	}
	return "unknown"
}

// Source says where the h200 value of a key comes from: how it was
// obtained, and the evidence (files and rows of calibration/h200), as
// `smsim config show --markdown` prints it.
type Source struct {
	Basis Basis
	Text  string
}

// Param is one configuration key, bound to a Config's field.
type Param struct {
	Key    string
	Unit   string
	Doc    string // what the value means
	Group  string // the component or behaviour it models
	Kind   Kind
	Source Source
	get    func() string
	set    func(string) error
}

// Value formats the parameter's current value.
func (p Param) Value() string { return p.get() }

// decl declares one configuration key: everything about it but its value
// in a given Config, which field binds.
type decl struct {
	key, unit, doc, group string
	kind                  Kind
	src                   Source
	field                 field
}

// field binds a key to the Config field that holds its value.
type field interface {
	get(c *Config) string
	set(c *Config, s string) error
	reset(c *Config) // to the h200 value
}

// intField is an integer field: counts, cycles, bytes.
type intField struct {
	at  func(*Config) *int
	def int
}

func (f intField) get(c *Config) string { return strconv.Itoa(*f.at(c)) }
func (f intField) reset(c *Config)      { *f.at(c) = f.def }

func (f intField) set(c *Config, s string) error {
	n, err := strconv.ParseInt(strings.ReplaceAll(s, "_", ""), 0, 64)
	if err != nil || n < 0 || n > 1<<40 {
		return fmt.Errorf("want a non-negative integer, got %q", s)
	}
	*f.at(c) = int(n)
	return nil
}

// floatField is a positive real field (a clock rate).
type floatField struct {
	at   func(*Config) *float64
	def  float64
	zero bool // 0 is a value (a duration that may be none), not only positive numbers
}

func (f floatField) get(c *Config) string { return strconv.FormatFloat(*f.at(c), 'g', -1, 64) }
func (f floatField) reset(c *Config)      { *f.at(c) = f.def }

func (f floatField) set(c *Config, s string) error {
	v, err := strconv.ParseFloat(s, 64)
	if f.zero && err == nil && v == 0 {
		*f.at(c) = 0
		return nil
	}
	if err != nil || v <= 0 || v > 1e5 {
		if f.zero {
			return fmt.Errorf("want 0 or a positive number, got %q", s)
		}
		return fmt.Errorf("want a positive number, got %q", s)
	}
	*f.at(c) = v
	return nil
}

// choiceField is a field of named values.
type choiceField[T comparable] struct {
	at      func(*Config) *T
	def     T
	choices []choice[T]
}

// choice is one value of a choiceField: its name, and other spellings a
// configuration may use for it.
type choice[T comparable] struct {
	name    string
	v       T
	aliases []string
}

func (f choiceField[T]) reset(c *Config) { *f.at(c) = f.def }

func (f choiceField[T]) get(c *Config) string {
	v := *f.at(c)
	for _, ch := range f.choices {
		if ch.v == v {
			return ch.name
		}
	}
	return fmt.Sprint(v)
}

func (f choiceField[T]) set(c *Config, s string) error {
	var names []string
	for _, ch := range f.choices {
		if s == ch.name || contains(ch.aliases, s) {
			*f.at(c) = ch.v
			return nil
		}
		names = append(names, ch.name)
	}
	return fmt.Errorf("want %s, got %q", strings.Join(names, " or "), s)
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// DefaultConfig returns the h200 configuration: every key at its declared value.
func DefaultConfig() Config {
	c := Config{Name: "h200"}
	for _, d := range declarations() {
		d.field.reset(&c)
	}
	// Not a key: the copy engine's bound on one copy's shared-memory range
	// at issue, the H200's shared memory per SM (the CTA's own window is
	// checked when the bytes land).
	c.TMA.SmemBytes = 228 << 10
	// Not a key: each launch sizes L1 by its shared-memory carve-out
	// (memory.L1BytesFor, placement.carveout); this is L1 before the first.
	c.Mem.L1Bytes = memory.L1BytesFor(228 << 10)
	return c
}

// Params lists every key of c, bound to c's fields, sorted by key.
func (c *Config) Params() []Param {
	ds := declarations()
	ps := make([]Param, len(ds))
	for i, d := range ds {
		f := d.field
		ps[i] = Param{Key: d.key, Unit: d.unit, Doc: d.doc, Group: d.group, Kind: d.kind, Source: d.src,
			get: func() string { return f.get(c) },
			set: func(s string) error { return f.set(c, s) }}
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].Key < ps[j].Key })
	return ps
}

// Set assigns a key ("syncs.interval=3" split into key and value).
func (c *Config) Set(key, value string) error {
	for _, d := range declarations() {
		if d.key == key {
			if err := d.field.set(c, value); err != nil {
				return fmt.Errorf("config %s: %w", key, err)
			}
			return nil
		}
	}
	return fmt.Errorf("config: unknown key %q (smsim config show lists them)", key)
}

// Get returns a key's value.
func (c *Config) Get(key string) (string, bool) {
	for _, d := range declarations() {
		if d.key == key {
			return d.field.get(c), true
		}
	}
	return "", false
}
