package run

import "testing"

// runBuffer runs spec's launch of file, failing the test on any error (the
// simulation's own included), and returns the first n bytes of the buffer
// passed as parameter param (a name or an index, as Params.Bufs keys it).
func runBuffer(t *testing.T, spec Spec, file, param string, n int) []byte {
	t.Helper()
	j, err := spec.Job(file)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Execute(j)
	if err != nil {
		t.Fatal(err)
	}
	if out.Err != nil {
		t.Fatal(out.Err)
	}
	b := make([]byte, n)
	if err := out.Global.Read(out.Params.Bufs[param].Addr, b); err != nil {
		t.Fatal(err)
	}
	return b
}
