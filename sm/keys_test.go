package sm

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Every configuration key is declared once, binds a field of its own, loads
// back what it prints, and says where its value comes from; the evidence a
// source names exists in calibration/h200.
func TestEveryKeyIsDeclaredOnce(t *testing.T) {
	def := DefaultConfig()
	if err := def.Validate(); err != nil {
		t.Fatalf("the h200 configuration does not validate: %v", err)
	}
	files := regexp.MustCompile(`[A-Za-z0-9_]+\.(csv|cu|sass)\b`)
	seen := map[string]bool{}
	for _, d := range declarations() {
		if seen[d.key] {
			t.Errorf("%s declared twice", d.key)
		}
		seen[d.key] = true
		if d.doc == "" || d.group == "" || d.kind == 0 || d.src.Basis == 0 || d.src.Text == "" {
			t.Errorf("%s: meaning, group, kind or source missing", d.key)
		}
		for _, f := range files.FindAllString(d.src.Text, -1) {
			_, err := os.Stat(filepath.Join("..", "calibration", "h200", f))
			if err != nil { // the largest listings are kept gzipped
				_, err = os.Stat(filepath.Join("..", "calibration", "h200", f+".gz"))
			}
			if _, err2 := os.Stat(filepath.Join("..", "testdata", "cuda", "wgmma", f)); err != nil && err2 != nil {
				t.Errorf("%s: its source names %s, which calibration/h200 and testdata/cuda/wgmma lack", d.key, f)
			}
		}
		// What Get prints, Set loads back to the same configuration.
		c := def
		v, _ := c.Get(d.key)
		if err := c.Set(d.key, v); err != nil || !reflect.DeepEqual(c, def) {
			t.Errorf("%s = %s does not load back (%v)", d.key, v, err)
		}
	}
	// Each key binds a field no other key binds: changing it changes only
	// its own value.
	was := map[string]string{}
	for _, p := range def.Params() {
		was[p.Key] = p.Value()
	}
	for _, d := range declarations() {
		if _, ok := d.field.(intField); !ok {
			continue
		}
		c := def
		n, _ := strconv.Atoi(was[d.key])
		if err := c.Set(d.key, strconv.Itoa(n+1)); err != nil {
			t.Fatal(err)
		}
		for _, p := range c.Params() {
			if (p.Value() != was[p.Key]) != (p.Key == d.key) {
				t.Errorf("setting %s changed %s from %s to %s", d.key, p.Key, was[p.Key], p.Value())
			}
		}
	}
}

// A model choice loads by its name and by the 0/1 of the switch it was,
// so saved configurations and scripts keep working.
func TestModelChoicesLoadTheirOldSpelling(t *testing.T) {
	for _, tc := range []struct{ key, value, want string }{
		{"syncs.pad_answers", "0", "overlap"},
		{"syncs.pad_answers", "1", "after_answer"},
		{"syncs.pad_answers", "after_answer", "after_answer"},
		{"syncs.try_wait_hold", "0", "none"},
		{"syncs.try_wait_hold", "1", "open_phase"},
		{"syncs.try_wait_hold", "open_phase", "open_phase"},
		{"sched.policy", "lrr", "lrr"},
	} {
		c := DefaultConfig()
		if err := c.Set(tc.key, tc.value); err != nil {
			t.Errorf("%s=%s: %v", tc.key, tc.value, err)
			continue
		}
		if got, _ := c.Get(tc.key); got != tc.want {
			t.Errorf("%s=%s reads back %s, want %s", tc.key, tc.value, got, tc.want)
		}
	}
	c := DefaultConfig()
	if err := c.Set("syncs.pad_answers", "2"); err == nil {
		t.Error("syncs.pad_answers=2 loaded")
	}
}

// Validate refuses settings the model cannot run, each with a message that
// names the keys to change.
func TestValidateRefusesImpossibleSettings(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  func(*Config)
		want string
	}{
		{"remote arrive shorter than its release", func(c *Config) { c.GPU.ArriveLatency, c.GPU.Release = 100, 261 },
			"cluster.arrive_latency must be at least cluster.release"},
		{"no scheduler", func(c *Config) { c.Sched.Count = 0 }, "sched.count must be 1..64"},
		{"negative CTA launch", func(c *Config) { c.GPU.CTALaunchNs = -1 }, "gpu.cta_launch_ns must not be negative"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := DefaultConfig()
			tc.set(&c)
			err := c.Validate()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Validate() = %v, want an error saying %q", err, tc.want)
			}
		})
	}
	c := DefaultConfig()
	c.GPU.ArriveLatency = c.GPU.Release // a trip of no cycles: a what-if, not an impossibility
	if err := c.Validate(); err != nil {
		t.Errorf("arrive_latency = release: %v", err)
	}
}
