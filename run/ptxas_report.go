package run

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"strings"
)

// maxPtxasReport bounds the ptxas report read beside a PTX file.
const maxPtxasReport = 16 << 20

// ptxasRegistersBeside reads NAME.ptxas beside NAME.ptx, if there is one:
// the report `nvcc -Xptxas -v` (or `ptxas -v`) writes, which says how many
// registers ptxas gave each entry function. The PTX path cannot know them
// otherwise, and they bound how many CTAs an SM holds (limit.registers).
// A missing or unreadable report gives none.
func ptxasRegistersBeside(ptxPath string) map[string]int {
	path := strings.TrimSuffix(ptxPath, ".ptx") + ".ptxas"
	if path == ptxPath {
		return nil
	}
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() || st.Size() > maxPtxasReport {
		return nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	return ptxasRegisters(b)
}

// ptxasRegisters parses a ptxas report: each "Compiling entry function
// 'NAME'" line opens an entry, and the "Used N registers" line after it
// gives its registers per thread. Lines of any other form are skipped.
func ptxasRegisters(report []byte) map[string]int {
	regs := map[string]int{}
	entry := ""
	sc := bufio.NewScanner(bytes.NewReader(report))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if _, rest, ok := strings.Cut(line, "Compiling entry function '"); ok {
			entry, _, _ = strings.Cut(rest, "'")
			continue
		}
		if _, rest, ok := strings.Cut(line, "Used "); ok && entry != "" {
			n, unit, _ := strings.Cut(rest, " ")
			if v, err := strconv.Atoi(n); err == nil && v > 0 && v <= 255 && strings.HasPrefix(unit, "registers") {
				regs[entry] = v
			}
			entry = ""
		}
	}
	return regs
}
