package calibration

import (
	"context"
	"strings"
	"testing"

	"github.com/smsim/smsim/sm"
)

// inexactApps are the cases whose outputs smsim does not yet reproduce bit
// for bit, and why (none now: softmax_rows's __expf left it when MUFU.EX2
// was tabled, warp/mufu.go). A case leaving this list (now exact) fails the
// test too, so that the list says what is true.
var inexactApps = map[string]string{}

// Every application case runs from its PTX to completion, and its outputs
// are the H200's bit for bit (but for inexactApps).
func TestApplicationSetRunsFromPTX(t *testing.T) {
	v, err := ValidateApps(context.Background(), DefaultAppsDir(), []string{"ptx"}, nil, sm.DefaultConfig(), 2)
	if err != nil {
		t.Fatal(err)
	}
	checkApps(t, v)
}

// checkApps holds a validation of the application set to running every case
// and reproducing its outputs (but for inexactApps).
func checkApps(t *testing.T, v *AppValidation) {
	t.Helper()
	if len(v.Results) < 54 {
		t.Fatalf("%d cases, want the manifest's 54", len(v.Results))
	}
	for _, r := range v.Results {
		if r.Err != "" {
			t.Errorf("%s: %s", r.App, r.Err)
			continue
		}
		bench, _, _ := strings.Cut(r.App, "/")
		why, known := inexactApps[bench]
		switch {
		case !r.Exact && !known:
			t.Errorf("%s: %s", r.App, r.Mismatch)
		case r.Exact && known:
			t.Errorf("%s is now exact: drop it from inexactApps (%s)", r.App, why)
		}
		if r.Predicted <= 0 {
			t.Errorf("%s: %v cycles", r.App, r.Predicted)
		}
	}
}
