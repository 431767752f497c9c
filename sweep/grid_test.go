package sweep

import (
	"reflect"
	"strings"
	"testing"
)

func TestSweepGridExpandsRowMajorFirstAxisSlowest(t *testing.T) {
	axes, err := ParseAxes("--vary", []string{"set:syncs.interval=1,2,4", "arg:ITERS=8,16"})
	if err != nil {
		t.Fatal(err)
	}
	if n := GridSize(axes); n != 6 {
		t.Fatalf("grid size %d, want 6", n)
	}
	want := []string{"syncs.interval=1 ITERS=8", "syncs.interval=1 ITERS=16", "syncs.interval=2 ITERS=8",
		"syncs.interval=2 ITERS=16", "syncs.interval=4 ITERS=8", "syncs.interval=4 ITERS=16"}
	for i, w := range want {
		if got := Label(GridPoint(axes, i)); got != w {
			t.Errorf("point %d = %q, want %q", i, got, w)
		}
	}
	if n := GridSize(nil); n != 1 || len(GridPoint(nil, 0)) != 0 {
		t.Errorf("no axes: %d points, want one empty point", n)
	}
}

func TestSweepAxisParsing(t *testing.T) {
	tests := []struct {
		in   string
		want Axis
		bad  string
	}{
		{in: "set:syncs.interval=1,2", want: Axis{"set", "syncs.interval", []string{"1", "2"}}},
		{in: "arg:ITERS= 8 , 16", want: Axis{"arg", "ITERS", []string{"8", "16"}}},
		{in: "const:S=1", want: Axis{"const", "S", []string{"1"}}},
		{in: "ITERS=1,2", bad: "prefix"},
		{in: "foo:X=1", bad: "prefix"},
		{in: "set:=1", bad: "no KEY"},
		{in: "set:a=1,,2", bad: "empty value"},
		{in: "set:a=1,1", bad: "appears twice"},
	}
	for _, tc := range tests {
		got, err := ParseAxis("--vary", tc.in)
		if tc.bad != "" {
			if err == nil || !strings.Contains(err.Error(), tc.bad) {
				t.Errorf("%q: error %v, want one saying %q", tc.in, err, tc.bad)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q = %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
}

func TestSweepShardsAreDeterministicDisjointAndCovering(t *testing.T) {
	for _, n := range []int{1, 2, 5, 17, 100} {
		for _, count := range []int{1, 2, 3, 4, 8, 200} {
			owner := make([]int, n)
			for i := range owner {
				owner[i] = -1
			}
			for s := 0; s < count; s++ {
				sh := Shard{s, count}
				size := 0
				for i := 0; i < n; i++ {
					if sh.Has(i) != (Shard{s, count}).Has(i) {
						t.Fatalf("shard %d/%d is not deterministic", s, count)
					}
					if !sh.Has(i) {
						continue
					}
					size++
					if owner[i] >= 0 {
						t.Fatalf("n=%d: point %d in shards %d and %d of %d", n, i, owner[i], s, count)
					}
					owner[i] = s
				}
				if size != sh.Size(n) {
					t.Errorf("n=%d shard %d/%d: %d points, size() says %d", n, s, count, size, sh.Size(n))
				}
			}
			for i, o := range owner {
				if o < 0 {
					t.Fatalf("n=%d count=%d: point %d in no shard", n, count, i)
				}
			}
		}
	}
}

func TestSweepShardFromFlagAndSlurmEnvironment(t *testing.T) {
	if s, err := ParseShard("2/4"); err != nil || s != (Shard{2, 4}) {
		t.Errorf("2/4 = %v, %v", s, err)
	}
	for _, bad := range []string{"4/4", "-1/2", "1", "a/b", "0/0"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("--shard %s accepted", bad)
		}
	}
	tests := []struct {
		env  map[string]string
		want Shard
		ok   bool
		err  bool
	}{
		{env: map[string]string{}, ok: false},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4"}, want: Shard{3, 4}, ok: true},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "2"}, want: Shard{3, 4}, ok: true},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "4"}, err: true},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_COUNT": "4"}, err: true},
	}
	for _, tc := range tests {
		s, ok, err := SlurmShard(func(k string) string { return tc.env[k] })
		if (err != nil) != tc.err || ok != tc.ok || s != tc.want {
			t.Errorf("env %v: %v %v %v; want %v %v err=%v", tc.env, s, ok, err, tc.want, tc.ok, tc.err)
		}
	}
}
