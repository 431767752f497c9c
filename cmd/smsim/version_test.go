package main

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionNamesModuleCommitAndToolchain(t *testing.T) {
	vcs := []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "0123456789abcdef0123"},
		{Key: "vcs.time", Value: "2026-01-02T03:04:05Z"}, {Key: "vcs.modified", Value: "true"}}
	tests := []struct {
		name string
		info *debug.BuildInfo
		want string
	}{
		{"no build information", nil, "(devel)"},
		{"no module version", &debug.BuildInfo{}, "(devel)"},
		{"devel with toolchain", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}},
			"(devel) (built with go1.26.8)"},
		{"tagged release", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.3"}},
			"v1.2.3 (built with go1.26.8)"},
		{"commit, time and changes", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: vcs},
			"(devel) (commit 0123456789ab, 2026-01-02T03:04:05Z, with uncommitted changes, built with go1.26.8)"},
		{"clean commit", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20260102030405-0123456789ab"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "false"}}},
			"v0.0.0-20260102030405-0123456789ab (commit 0123456789ab)"},
	}
	for _, tc := range tests {
		if got := version(tc.info); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestVersionFlagPrintsOneLine(t *testing.T) {
	code, out, errs := cli(t, "--version")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if want := "smsim " + buildVersion() + "\n"; out != want {
		t.Errorf("got %q, want %q", out, want)
	}
	if !strings.HasPrefix(out, "smsim (devel)") && !strings.HasPrefix(out, "smsim v") {
		t.Errorf("got %q, want a module version or (devel) first", out)
	}
}
