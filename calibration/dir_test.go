package calibration

import (
	"os"
	"path/filepath"
	"testing"
)

// The repository's data is found from the package's folder too, where
// calibration/h200 is no path relative to the working directory.
func TestDefaultDirFindsTheDataFromAnyFolder(t *testing.T) {
	if _, err := os.Stat(filepath.Join("calibration", "h200")); err == nil {
		t.Skip("run from the repository's root")
	}
	if err := CheckDir(DefaultDir()); err != nil {
		t.Errorf("DefaultDir %s: %v", DefaultDir(), err)
	}
	if err := CheckDir(t.TempDir()); err == nil {
		t.Error("an empty folder passed the check")
	}
}
