package calibration

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smsim/smsim/run"
	"github.com/smsim/smsim/sm"
)

// TestCalibrationKernelsRunFromSASS runs every kernel of the calibration
// suite from its SASS (the listing with the cubin beside it), once, with the
// launch one of its recipes makes (arguments, input buffers; loops shortened
// as validate --quick does), and requires it to run to completion.
func TestCalibrationKernelsRunFromSASS(t *testing.T) {
	dir := DefaultDir()
	sources := &sourceCache{dir: dir, m: map[string]*run.Source{}}
	seen := map[string]bool{}
	for _, r := range recipes(dir, Options{Quick: true}) {
		key := r.file + " " + r.kernel
		if seen[key] {
			continue
		}
		seen[key] = true
		r.file = strings.TrimSuffix(r.file, ".ptx") + ".sass"
		t.Run(filepath.Base(r.file)+"/"+r.kernel+fmt.Sprint(r.block, r.args), func(t *testing.T) {
			t.Parallel()
			if _, _, err := runRecipe(sources, r, sm.DefaultConfig()); err != nil {
				t.Fatal(err)
			}
		})
	}
	if len(seen) < 250 {
		t.Errorf("%d calibration kernels, want them all", len(seen))
	}
}

// Every application case runs from the SASS the H200 ran, and its outputs
// are the H200's bit for bit (but for inexactApps).
func TestApplicationSetRunsFromSASS(t *testing.T) {
	v, err := ValidateApps(context.Background(), DefaultAppsDir(), []string{"sass"}, nil, sm.DefaultConfig(), 2)
	if err != nil {
		t.Fatal(err)
	}
	checkApps(t, v)
}
