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

// ptxasReport is what the PTX path takes from ptxas's report on a file:
// each entry function's registers, and the entries whose wgmma ptxas
// serialized.
type ptxasReport struct {
	regs       map[string]int
	serialized map[string]bool
}

// ptxasReportBeside reads NAME.ptxas beside NAME.ptx, if there is one: the
// report `nvcc -Xptxas -v` (or `ptxas -v`) writes. It says how many
// registers ptxas gave each entry function, which bound how many CTAs an
// SM holds (limit.registers), and in which functions it serialized the
// wgmma (compiler.SerializeWgmma). The PTX path cannot know either
// otherwise. A missing or unreadable report gives neither.
func ptxasReportBeside(ptxPath string) ptxasReport {
	path := strings.TrimSuffix(ptxPath, ".ptx") + ".ptxas"
	if path == ptxPath {
		return ptxasReport{}
	}
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() || st.Size() > maxPtxasReport {
		return ptxasReport{}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return ptxasReport{}
	}
	return ptxasReport{regs: ptxasRegisters(b), serialized: ptxasSerializedWgmma(b)}
}

// ptxasSerializedWgmma parses a ptxas report's performance notes (C7509 to
// C7520: "wgmma.mma_async instructions are serialized due to ... in the
// function 'NAME'") into the functions they name.
func ptxasSerializedWgmma(report []byte) map[string]bool {
	out := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(report))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if !strings.Contains(line, "wgmma.mma_async instructions are serialized") {
			continue
		}
		if _, rest, ok := strings.Cut(line, "in the function '"); ok {
			if name, _, ok := strings.Cut(rest, "'"); ok && name != "" {
				out[name] = true
			}
		}
	}
	return out
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
