package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smsim/smsim/sm"
)

// TestCalibrationLaunchesRunFromSASS makes every launch of the calibration
// suite's recipes (cmd/smsim/calib_*.go: the launches validate makes, with
// their arguments and input buffers; loops shortened as validate --quick
// does) from the kernel's SASS, and requires each to run to completion
// without an error: 1307 launches of 284 kernels, about three minutes of
// one core. With -short, one launch per kernel.
func TestCalibrationLaunchesRunFromSASS(t *testing.T) {
	dir := filepath.Join("..", "..", "calibration", "h200")
	o := suiteOpts{quick: true}
	recipes := append(microbenchRecipes(o), probeRecipes()...)
	recipes = append(recipes, extraRecipes(dir, o)...)
	recipes = append(recipes, moreRecipes(dir)...)
	sources := &sourceCache{dir: dir, m: map[string]*source{}}
	seen := map[string]bool{}
	for _, r := range recipes {
		key := fmt.Sprint(r.file, r.kernel, r.block, r.smem, r.args, r.launches)
		if testing.Short() {
			key = r.file + " " + r.kernel
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		r.file = strings.TrimSuffix(r.file, ".ptx") + ".sass"
		t.Run(r.file+"/"+r.kernel+fmt.Sprint(r.block, r.args), func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			if _, _, err := runRecipe(sources, r, sm.DefaultConfig()); err != nil {
				t.Fatal(err)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Logf("%.1f s", d.Seconds())
			}
		})
	}
}
