package report

import (
	"math"
	"testing"
)

func TestStatsDistributionOfAKnownSample(t *testing.T) {
	d := Distribution([]float64{5, 1, 4, 2, 3})
	want := Dist{N: 5, Mean: 3, Std: math.Sqrt(2.5), Min: 1, P25: 2, P50: 3, P75: 4, P95: 5, P99: 5, Max: 5}
	if d != want {
		t.Fatalf("got %+v, want %+v", d, want)
	}
	if (Distribution(nil) != Dist{}) {
		t.Error("an empty sample is not the zero dist")
	}
}

func TestStatsHistogramCountsEveryValueOnce(t *testing.T) {
	tests := []struct {
		name  string
		x     []float64
		bins  int
		wantN int
	}{
		{"integers", []float64{49, 60, 64, 66, 66, 69, 72, 72, 72, 74}, 5, 5},
		{"one value", []float64{33, 33, 33}, 10, 1},
		{"narrow integers get unit bins", []float64{1, 2, 3}, 10, 3},
		{"integers at most n bins", []float64{0, 100}, 3, 3},
		{"fractions", []float64{0.1, 0.25, 0.7}, 4, 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			bs := Histogram(tc.x, tc.bins)
			if len(bs) != tc.wantN {
				t.Fatalf("%d bins, want %d: %+v", len(bs), tc.wantN, bs)
			}
			total := 0
			for i, b := range bs {
				total += b.Count
				if i > 0 && b.Lo != bs[i-1].Hi {
					t.Errorf("bins %d and %d do not touch", i-1, i)
				}
			}
			if total != len(tc.x) {
				t.Errorf("bins hold %d values, want %d", total, len(tc.x))
			}
		})
	}
}
