package sass

import (
	"debug/elf"
	"strings"

	"github.com/smsim/smsim/isa"
)

// constSymbols are the cubin's __constant__ variables: the data objects of
// its module-level constant banks (.nv.constantN, N ≥ 1), each at its
// offset in bank N, for the run API to fill (smsim run --symbol).
func constSymbols(c *Cubin) []isa.Symbol {
	var out []isa.Symbol
	for _, y := range c.Symbols {
		if !strings.HasPrefix(y.Section, ".nv.constant") || elf.ST_TYPE(y.Info) != elf.STT_OBJECT {
			continue
		}
		bank, owner, ok := parseBankName(y.Section)
		if !ok || owner != "" || bank == 0 {
			continue
		}
		out = append(out, isa.Symbol{Name: y.Name, Space: isa.Const, Offset: y.Value, Size: y.Size, Bank: bank})
	}
	return out
}
