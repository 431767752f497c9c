package run

import (
	"fmt"
	"sort"
	"strings"
	"unicode"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/memory"
)

// SymbolFill is --symbol NAME=FILL: the contents a module-scope variable
// (a __constant__ or __device__ variable, PTX .const or .global) holds
// before the first launch, as the host's cudaMemcpyToSymbol writes them.
// FILL is a buffer fill (zero, byte:0xNN, seq, random:SEED, f32rand:SEED,
// f16int:SEED, e4m3int:SEED) over the whole variable, or file:PATH, whose
// bytes (no more than the variable's) fill it from its start.
type SymbolFill struct {
	Name string
	Fill string
}

// ParseSymbolFill parses NAME=FILL.
func ParseSymbolFill(s string) (SymbolFill, error) {
	name, fill, ok := strings.Cut(s, "=")
	if !ok || name == "" || fill == "" {
		return SymbolFill{}, &UsageError{Msg: fmt.Sprintf("--symbol %q: want NAME=FILL, as ctab=random:7 or ctab=file:table.bin", s)}
	}
	if strings.IndexFunc(s, unicode.IsControl) >= 0 {
		return SymbolFill{}, &UsageError{Msg: fmt.Sprintf("--symbol %q: a control character in the name or fill", s)}
	}
	if path, isFile := strings.CutPrefix(fill, "file:"); isFile {
		if path == "" {
			return SymbolFill{}, &UsageError{Msg: fmt.Sprintf("--symbol %q: file: needs a path", s)}
		}
	} else if _, err := memory.ParseFill(fill); err != nil {
		return SymbolFill{}, &UsageError{Msg: fmt.Sprintf("--symbol %s: %v", name, err)}
	}
	return SymbolFill{Name: name, Fill: fill}, nil
}

// moduleSymbol finds the module-scope variable named name (its source or
// demangled name) among p's symbols.
func moduleSymbol(p *isa.Program, name string) (*isa.Symbol, error) {
	var names []string
	for i := range p.Symbols {
		y := &p.Symbols[i]
		if y.Space != isa.Const && y.Space != isa.Global {
			continue
		}
		if y.Name == name || (y.Display != "" && y.Display == name) {
			return y, nil
		}
		names = append(names, y.Name)
	}
	sort.Strings(names)
	have := "it has none"
	if len(names) > 0 {
		have = "it has " + strings.Join(names, ", ")
	}
	return nil, &UsageError{Msg: fmt.Sprintf("--symbol %s: not a module-scope variable of kernel %s's file (%s)", name, p.Name, have)}
}

// symbolBytes generates the bytes fill puts in a variable of size bytes.
func symbolBytes(f SymbolFill, size uint64) ([]byte, error) {
	b := make([]byte, size)
	if path, ok := strings.CutPrefix(f.Fill, "file:"); ok {
		d, err := ReadInput(path, "--symbol "+f.Name+" file", int64(size))
		if err != nil {
			return nil, &InputError{Err: err}
		}
		copy(b, d)
		return b, nil
	}
	fill, err := memory.ParseFill(f.Fill)
	if err != nil {
		return nil, &UsageError{Msg: fmt.Sprintf("--symbol %s: %v", f.Name, err)}
	}
	fill.Generate(0, b)
	return b, nil
}

// fillSymbols writes the job's --symbol fills: a PTX variable into global
// memory at its address, a SASS __constant__ variable into a copy of its
// constant bank. It returns the launch's banks (nil when no bank changed).
func fillSymbols(j *Job, gm *memory.Global) ([][]byte, error) {
	var banks [][]byte
	for _, f := range j.Symbols {
		y, err := moduleSymbol(j.Prog, f.Name)
		if err != nil {
			return nil, err
		}
		b, err := symbolBytes(f, y.Size)
		if err != nil {
			return nil, err
		}
		if y.Bank == 0 {
			if err := gm.Write(y.Offset, b); err != nil {
				return nil, &InputError{Err: fmt.Errorf("--symbol %s: %w", f.Name, err)}
			}
			continue
		}
		if banks == nil {
			banks = append([][]byte(nil), j.Prog.Banks...)
		}
		for len(banks) <= y.Bank {
			banks = append(banks, nil)
		}
		bank := make([]byte, max(uint64(len(banks[y.Bank])), y.Offset+y.Size))
		copy(bank, banks[y.Bank])
		copy(bank[y.Offset:], b)
		banks[y.Bank] = bank
	}
	return banks, nil
}
