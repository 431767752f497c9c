package sweep

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/smsim/smsim/report"
	"github.com/smsim/smsim/run"
)

// Record is one grid point's result: one JSON line, or one CSV row.
type Record struct {
	Sweep            string                  `json:"sweep"`  // the sweep's identity: a hash of its file, flags and grid
	Index            int                     `json:"index"`  // the point's index in the grid (row-major, first --grid slowest)
	Points           int                     `json:"points"` // the grid's size
	Params           map[string]string       `json:"params"` // KIND:KEY -> value
	File             string                  `json:"file"`
	Kernel           string                  `json:"kernel"`                   // as the source names it (demangled)
	KernelMangled    string                  `json:"kernel_mangled,omitempty"` // the linker name (JSON lines only)
	Cycles           uint64                  `json:"cycles"`
	StallCycles      uint64                  `json:"stall_cycles"` // every barrier phase's wait cycles, summed
	Phases           int                     `json:"phases"`       // completed barrier phases
	Barriers         []report.BarrierSummary `json:"barriers"`
	WarpInstructions uint64                  `json:"warp_instructions"`
	HostSeconds      float64                 `json:"host_seconds"`
	Exit             int                     `json:"exit"` // the exit status a run of this point alone would have
	Error            string                  `json:"error,omitempty"`
}

// RecordFormat picks jsonl or csv: the flag, else the file's extension.
func RecordFormat(flag, path string) (string, error) {
	switch flag {
	case "jsonl", "csv":
		return flag, nil
	case "":
		if strings.EqualFold(filepath.Ext(path), ".csv") {
			return "csv", nil
		}
		return "jsonl", nil
	}
	return "", &run.UsageError{Msg: fmt.Sprintf("--format %q: want jsonl or csv", flag)}
}

// CSVColumns are a results CSV's columns: the fixed ones around the
// grid's parameter columns (KIND:KEY, in grid order).
func CSVColumns(params []string) []string {
	cols := []string{"sweep", "index", "points"}
	cols = append(cols, params...)
	return append(cols, "file", "kernel", "cycles", "stall_cycles", "phases", "warp_instructions",
		"host_seconds", "exit", "error", "barriers")
}

// EncodeRecord returns the record as one line (JSON, or a CSV row with the
// parameter columns params), newline included.
func EncodeRecord(format string, params []string, r Record) ([]byte, error) {
	if format == "jsonl" {
		b, err := json.Marshal(r)
		return append(b, '\n'), err
	}
	bars, err := json.Marshal(r.Barriers)
	if err != nil {
		return nil, err
	}
	row := []string{r.Sweep, itoa(r.Index), itoa(r.Points)}
	for _, p := range params {
		row = append(row, r.Params[p])
	}
	row = append(row, r.File, r.Kernel, u(r.Cycles), u(r.StallCycles), itoa(r.Phases), u(r.WarpInstructions),
		g(r.HostSeconds), itoa(r.Exit), r.Error, string(bars))
	return CSVLine(row)
}

// CSVLine encodes one CSV row, newline included.
func CSVLine(row []string) ([]byte, error) {
	var buf bytes.Buffer
	cw := csv.NewWriter(&buf)
	_ = cw.Write(row)
	cw.Flush()
	return buf.Bytes(), cw.Error()
}

// Results is what a results file holds: its records, the CSV
// parameter columns, and how many bytes end in a complete line (a record
// cut short by an interruption is not counted).
type Results struct {
	Records []Record
	Params  []string // a CSV file's parameter columns
	Good    int64    // the bytes that end in a complete line
}

// ReadResults reads a JSON-lines or CSV results file. A missing file is
// empty. A final line without its newline (an interrupted write) is left
// out of the records and of good.
func ReadResults(path, format string) (*Results, error) {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return &Results{}, nil
	}
	if err != nil {
		return nil, &run.InputError{Err: fmt.Errorf("%s: cannot read: %w", path, run.UnwrapPath(err))}
	}
	return ParseResults(path, format, data)
}

// ParseResults reads the contents of a results file, as readResults.
func ParseResults(path, format string, data []byte) (*Results, error) {
	var err error
	rf := &Results{Good: int64(bytes.LastIndexByte(data, '\n') + 1)}
	data = data[:rf.Good]
	if format == "csv" {
		err = rf.readCSV(path, data)
	} else {
		err = rf.readJSONL(path, data)
	}
	if err != nil {
		return nil, &run.InputError{Err: err}
	}
	return rf, nil
}

func (rf *Results) readJSONL(path string, data []byte) error {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	line := 0
	for sc.Scan() {
		line++
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var r Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return fmt.Errorf("%s:%d: not a sweep record: %v", path, line, err)
		}
		if r.Sweep == "" || r.Points < 1 || r.Index < 0 || r.Index >= r.Points {
			return fmt.Errorf("%s:%d: not a sweep record (sweep, index and points missing or out of range)", path, line)
		}
		rf.Records = append(rf.Records, r)
	}
	return sc.Err()
}

func (rf *Results) readCSV(path string, data []byte) error {
	if len(data) == 0 {
		return nil
	}
	cr := csv.NewReader(bytes.NewReader(data))
	rows, err := cr.ReadAll()
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	hdr := rows[0]
	if len(hdr) < 13 || hdr[0] != "sweep" || hdr[1] != "index" || hdr[2] != "points" {
		return fmt.Errorf("%s: not a sweep results CSV (want columns sweep,index,points,...)", path)
	}
	rf.Params = append([]string(nil), hdr[3:len(hdr)-10]...)
	if strings.Join(CSVColumns(rf.Params), ",") != strings.Join(hdr, ",") {
		return fmt.Errorf("%s:1: unexpected columns %s", path, strings.Join(hdr, ","))
	}
	np := len(rf.Params)
	for i, row := range rows[1:] {
		bad := func(what string) error { return fmt.Errorf("%s:%d: bad %s", path, i+2, what) }
		r := Record{Sweep: row[0], Params: map[string]string{}, File: row[3+np], Kernel: row[4+np], Error: row[11+np]}
		var err error
		if r.Index, err = strconv.Atoi(row[1]); err != nil {
			return bad("index")
		}
		if r.Points, err = strconv.Atoi(row[2]); err != nil || r.Index < 0 || r.Index >= r.Points {
			return bad("points")
		}
		for k, p := range rf.Params {
			r.Params[p] = row[3+k]
		}
		nums := []struct {
			s string
			p *uint64
		}{{row[5+np], &r.Cycles}, {row[6+np], &r.StallCycles}, {row[8+np], &r.WarpInstructions}}
		for _, n := range nums {
			if *n.p, err = strconv.ParseUint(n.s, 10, 64); err != nil {
				return bad("number " + n.s)
			}
		}
		if r.Phases, err = strconv.Atoi(row[7+np]); err != nil {
			return bad("phases")
		}
		if r.HostSeconds, err = strconv.ParseFloat(row[9+np], 64); err != nil {
			return bad("host_seconds")
		}
		if r.Exit, err = strconv.Atoi(row[10+np]); err != nil {
			return bad("exit")
		}
		if err := json.Unmarshal([]byte(row[12+np]), &r.Barriers); err != nil {
			return bad("barriers")
		}
		rf.Records = append(rf.Records, r)
	}
	return nil
}

// ParamNames lists the parameters of records, sorted (JSON lines carry no
// column order).
func ParamNames(rs []Record) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range rs {
		for k := range r.Params {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	sort.Strings(out)
	return out
}

// WriteResults writes records in the format, with a CSV header first.
func WriteResults(w io.Writer, format string, params []string, rs []Record) error {
	if format == "csv" {
		h, err := CSVLine(CSVColumns(params))
		if err != nil {
			return err
		}
		if _, err := w.Write(h); err != nil {
			return err
		}
	}
	for _, r := range rs {
		b, err := EncodeRecord(format, params, r)
		if err != nil {
			return err
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

func u(x uint64) string  { return strconv.FormatUint(x, 10) }
func itoa(x int) string  { return strconv.Itoa(x) }
func g(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
