package main

import (
	"runtime/debug"
	"strings"
)

// version describes the build as --version prints it: the module version
// ("(devel)" when the build does not know it), then the commit, its time
// and whether the tree had changes, when the build recorded them, and the
// Go toolchain. info is runtime/debug.ReadBuildInfo's answer (nil: none).
func version(info *debug.BuildInfo) string {
	if info == nil {
		return "(devel)"
	}
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, at string
	modified := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	var parts []string
	if rev != "" {
		parts = append(parts, "commit "+rev[:min(len(rev), 12)])
	}
	if at != "" {
		parts = append(parts, at)
	}
	if modified {
		parts = append(parts, "with uncommitted changes")
	}
	if info.GoVersion != "" {
		parts = append(parts, "built with "+info.GoVersion)
	}
	if len(parts) > 0 {
		v += " (" + strings.Join(parts, ", ") + ")"
	}
	return v
}

// buildVersion is version of this binary's build information.
func buildVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return version(nil)
	}
	return version(info)
}
