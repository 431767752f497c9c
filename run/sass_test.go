package run

import (
	"strings"
	"testing"
)

// TestCUDAKernelsFromSASSMatchTheH200 runs every kernel of testdata/cuda from
// its SASS, what the H200 ran (the .sass listing with the .cubin beside
// it), and compares what it leaves in global memory with what the H200
// left, as TestCUDAKernelsMatchTheH200 does for the PTX.
func TestCUDAKernelsFromSASSMatchTheH200(t *testing.T) {
	sources := map[string]*Source{}
	for _, c := range loadManifest(t) {
		t.Run(c.Name, func(t *testing.T) {
			runCUDACase(t, sources, strings.TrimSuffix(c.PTX, ".ptx")+".sass", c)
		})
	}
}
