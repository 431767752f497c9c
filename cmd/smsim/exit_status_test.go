package main

import (
	"path/filepath"
	"testing"
)

// TestExitStatusAndFirstLine holds every command-line mistake a new user
// met to the documented exit status (docs/cli.md, smsim --help) and to the
// first line it prints on stderr, which names the flag or file at fault.
func TestExitStatusAndFirstLine(t *testing.T) {
	half := filepath.Join("..", "..", "examples", "entangle_half.sms")
	tests := []struct {
		name string
		args []string
		code int
		line string // stderr's first line ("" for none)
	}{
		{"block over 1024 threads", []string{"run", half, "--block", "5000"}, exitUsage,
			`smsim: --block "5000": 5000 threads per block, more than the 1024 a block may have`},
		{"block of 2048 threads in three dimensions", []string{"run", half, "--block", "32,32,2"}, exitUsage,
			`smsim: --block "32,32,2": 2048 threads per block, more than the 1024 a block may have`},
		{"block z over 64", []string{"run", half, "--block", "1,1,128"}, exitUsage,
			`smsim: --block "1,1,128": z dimension 128 is more than 64`},
		{"block zero", []string{"run", half, "--block", "0"}, exitUsage,
			`smsim: --block "0": dimensions are at least 1`},
		{"block past int32", []string{"run", half, "--block", "99999999999"}, exitUsage,
			`smsim: --block "99999999999": dimension 99999999999 is more than 2147483647`},
		{"block not a number", []string{"run", half, "--block", "a"}, exitUsage,
			`smsim: --block "a": want X[,Y[,Z]], each a positive integer`},
		{"grid y over 65535", []string{"run", half, "--grid", "1,100000"}, exitUsage,
			`smsim: --grid "1,100000": y dimension 100000 is more than 65535`},
		{"grid of too many blocks", []string{"run", half, "--grid", "2000000"}, exitUsage,
			`smsim: --grid "2000000": 2000000 blocks, more than the 1048576 one simulated SM runs in a launch`},
		{"smem of 10GiB", []string{"run", half, "--smem", "10GiB"}, exitUsage,
			`smsim: --smem "10GiB": 10737418240 bytes is more than the 227.0 KiB of shared memory one block may have (smem.per_cta = 232448)`},
		{"smem of 3GiB", []string{"run", half, "--smem", "3GiB"}, exitUsage,
			`smsim: --smem "3GiB": 3221225472 bytes is more than the 227.0 KiB of shared memory one block may have (smem.per_cta = 232448)`},
		{"smem with static past the limit", []string{"run", half, "--smem", "227KiB"}, exitUsage,
			`smsim: --smem "227KiB": with kernel entangle_half's 16 bytes of static shared memory a block needs 232464 bytes, more than the 227.0 KiB allowed (smem.per_cta = 232448)`},
		{"smem under a smaller configured limit", []string{"run", half, "--smem", "64KiB", "--set", "smem.per_cta=49152"}, exitUsage,
			`smsim: --smem "64KiB": 65536 bytes is more than the 48.0 KiB of shared memory one block may have (smem.per_cta = 49152)`},
		{"smem not a size", []string{"run", half, "--smem", "lots"}, exitUsage,
			`smsim: --smem "lots": want a byte count such as 49152 or 48KiB`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := cli(t, tc.args...)
			if code != tc.code || firstLine(errs) != tc.line {
				t.Errorf("smsim %q:\ngot  exit %d, %q\nwant exit %d, %q", tc.args, code, firstLine(errs), tc.code, tc.line)
			}
		})
	}
}
