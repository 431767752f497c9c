package sweep

import (
	"fmt"
	"strings"

	"github.com/smsim/smsim/run"
)

// Setting is one parameter of a grid point or variant: a configuration key
// (set:KEY, as --set), a kernel parameter (arg:NAME, as --arg) or a .sms
// constant (const:NAME, which rewrites the file's `const NAME = ...`).
type Setting struct {
	Kind  string // "set", "arg" or "const"
	Key   string
	Value string
}

// Axis is one dimension of a grid: a setting's kind and key and its values.
type Axis struct {
	Kind   string
	Key    string
	Values []string
}

// Name is the axis's column name in results: "set:syncs.interval".
func (a Axis) Name() string { return a.Kind + ":" + a.Key }

// IsKind reports whether kind is a setting's kind: set, arg or const.
func IsKind(kind string) bool { return kind == "set" || kind == "arg" || kind == "const" }

// ParseAxis reads KIND:KEY=V1,V2,... (KIND set, arg or const). flag names
// the flag in error messages.
func ParseAxis(flag, s string) (Axis, error) {
	bad := func(why string) (Axis, error) {
		return Axis{}, &run.UsageError{Msg: fmt.Sprintf("%s %q: %s (want set:KEY=V1,V2,..., arg:NAME=V1,... or const:NAME=V1,...)", flag, s, why)}
	}
	kind, rest, ok := strings.Cut(s, ":")
	if !ok || !IsKind(kind) {
		return bad("the key needs a set:, arg: or const: prefix")
	}
	key, vals, ok := strings.Cut(rest, "=")
	key = strings.TrimSpace(key)
	if !ok || key == "" {
		return bad("no KEY=VALUES")
	}
	a := Axis{Kind: kind, Key: key}
	seen := map[string]bool{}
	for _, v := range strings.Split(vals, ",") {
		v = strings.TrimSpace(v)
		if v == "" {
			return bad("an empty value")
		}
		if seen[v] {
			return bad("value " + v + " appears twice")
		}
		seen[v] = true
		a.Values = append(a.Values, v)
	}
	return a, nil
}

// ParseAxes parses every --grid or --vary flag and refuses repeated keys.
func ParseAxes(flag string, specs []string) ([]Axis, error) {
	var out []Axis
	seen := map[string]bool{}
	for _, s := range specs {
		a, err := ParseAxis(flag, s)
		if err != nil {
			return nil, err
		}
		if seen[a.Name()] {
			return nil, &run.UsageError{Msg: fmt.Sprintf("%s: %s appears twice", flag, a.Name())}
		}
		seen[a.Name()] = true
		out = append(out, a)
	}
	return out, nil
}

// GridSize is the number of points of the axes' cross product (1 for none).
func GridSize(axes []Axis) int {
	n := 1
	for _, a := range axes {
		n *= len(a.Values)
	}
	return n
}

// MaxGridPoints bounds a grid, so that a typo cannot ask for billions of runs.
const MaxGridPoints = 10_000_000

// GridPoint returns point i of the cross product in row-major order: the
// first axis varies slowest, as nested loops written in flag order.
func GridPoint(axes []Axis, i int) []Setting {
	out := make([]Setting, len(axes))
	for k := len(axes) - 1; k >= 0; k-- {
		a := axes[k]
		out[k] = Setting{Kind: a.Kind, Key: a.Key, Value: a.Values[i%len(a.Values)]}
		i /= len(a.Values)
	}
	return out
}

// Label names a point for people: "syncs.interval=2 ITERS=8".
func Label(pt []Setting) string {
	var parts []string
	for _, s := range pt {
		parts = append(parts, s.Key+"="+s.Value)
	}
	return strings.Join(parts, " ")
}
