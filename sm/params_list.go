package sm

import (
	"fmt"
	"strconv"
	"strings"
)

// countsField is a list of positive counts written N,N,...: the SMs of each
// GPC. The list is a fixed array so that Config stays comparable; unused
// entries are 0.
type countsField struct {
	at  func(*Config) *[maxGPCs]int
	def [maxGPCs]int
}

func (f countsField) reset(c *Config) { *f.at(c) = f.def }

func (f countsField) get(c *Config) string {
	var parts []string
	for _, n := range f.at(c) {
		if n > 0 {
			parts = append(parts, strconv.Itoa(n))
		}
	}
	return strings.Join(parts, ",")
}

func (f countsField) set(c *Config, s string) error {
	var v [maxGPCs]int
	parts := strings.Split(s, ",")
	if len(parts) > maxGPCs {
		return fmt.Errorf("want at most %d counts, got %d", maxGPCs, len(parts))
	}
	for i, p := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 1 || n > 1024 {
			return fmt.Errorf("want counts 1..1024 separated by commas, got %q", s)
		}
		v[i] = n
	}
	*f.at(c) = v
	return nil
}
