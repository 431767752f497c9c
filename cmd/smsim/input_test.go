//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fifo makes a named pipe that no process writes to.
func fifo(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "fifo.ptx")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	return p
}

// sparse makes a file of size bytes that takes no disk space.
func sparse(t *testing.T, name string, size int64) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return p
}

// cliWithin runs the command line and fails if it takes longer than d: a
// FIFO without a writer must not block the run.
func cliWithin(t *testing.T, d time.Duration, args ...string) (int, string) {
	t.Helper()
	type res struct {
		code int
		errs string
	}
	ch := make(chan res, 1)
	go func() {
		code, _, errs := cli(t, args...)
		ch <- res{code, errs}
	}()
	select {
	case r := <-ch:
		return r.code, r.errs
	case <-time.After(d):
		t.Fatalf("smsim %s still running after %v", strings.Join(args, " "), d)
	}
	return 0, ""
}

// Every input smsim reads is a regular file within a size limit: devices,
// FIFOs (even without a writer), sockets and directories are refused at
// once, and oversized files before they are read, with one line and the
// input error status.
func TestInputsAreRegularFilesWithinALimit(t *testing.T) {
	ex := filepath.Join("..", "..", "examples", "arrive_wait.sms")
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	for _, tc := range []struct {
		name string
		args func(t *testing.T) []string
		want string
	}{
		{"kernel file /dev/zero", func(*testing.T) []string { return []string{"run", "/dev/zero"} }, "/dev/zero: is a character device; a kernel file must be a regular file"},
		{"kernel file a FIFO without a writer", func(t *testing.T) []string { return []string{"run", fifo(t)} }, "is a FIFO (named pipe); a kernel file must be a regular file"},
		{"kernel file a directory", func(t *testing.T) []string { return []string{"run", t.TempDir()} }, "is a directory; a kernel file must be a regular file"},
		{"kernel file over 64 MiB", func(t *testing.T) []string { return []string{"list", sparse(t, "big.ptx", 64<<20+1)} }, "larger than 64 MiB, the limit for a kernel file"},
		{"sweep of /dev/zero", func(t *testing.T) []string {
			return []string{"sweep", "/dev/zero", "--vary", "set:syncs.latency=1,2", "--out", filepath.Join(t.TempDir(), "none.jsonl")}
		}, "/dev/zero: is a character device"},
		{"file fill /dev/zero", func(*testing.T) []string { return []string{"run", ex, "--arg", "out=buf:4096:file:/dev/zero"} }, "/dev/zero: is a character device; a file: fill must be a regular file"},
		{"file fill a FIFO without a writer", func(t *testing.T) []string { return []string{"run", ex, "--arg", "out=buf:4096:file:" + fifo(t)} }, "is a FIFO (named pipe); a file: fill must be a regular file"},
		{"file fill over 1 GiB into a larger buffer", func(t *testing.T) []string {
			return []string{"run", ex, "--arg", "out=buf:2GiB:file:" + sparse(t, "fill.bin", 1<<30+1)}
		}, "larger than 1 GiB, the limit for a file: fill"},
		{"config /dev/zero", func(*testing.T) []string { return []string{"run", ex, "--config", "/dev/zero"} }, "/dev/zero: is a character device; a --config file must be a regular file"},
		{"config a FIFO without a writer", func(t *testing.T) []string { return []string{"run", ex, "--config", fifo(t)} }, "a --config file must be a regular file"},
		{"config over 1 MiB", func(t *testing.T) []string { return []string{"run", ex, "--config", sparse(t, "c.cfg", 1<<20+1)} }, "larger than 1 MiB, the limit for a --config file"},
		{"stats of a FIFO report", func(t *testing.T) []string {
			p := filepath.Join(t.TempDir(), "r.json")
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
			return []string{"stats", p}
		}, "a JSON report must be a regular file"},
		{"stats of a report over 256 MiB", func(t *testing.T) []string { return []string{"stats", sparse(t, "r.json", 256<<20+1)} }, "larger than 256 MiB, the limit for a JSON report"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, errs := cliWithin(t, 20*time.Second, tc.args(t)...)
			if code != exitInput {
				t.Errorf("got exit %d, want %d (%q)", code, exitInput, errs)
			}
			if !strings.Contains(errs, tc.want) || strings.Count(errs, "\n") != 1 {
				t.Errorf("got stderr %q, want one line containing %q", errs, tc.want)
			}
		})
	}
}

// A file: fill copies the file's bytes into the buffer, cut at the
// buffer's size when the file is longer.
func TestFileFillCopiesTheFileUpToTheBufferSize(t *testing.T) {
	const src = "kernel k\nblock 32\nglobal out[16]\ncompute 1\n"
	k := writeFile(t, "k.sms", src)
	for _, tc := range []struct {
		name, data, want string
	}{
		{"shorter file", "ABCD", "[\"0x44434241\",\"0x00000000\",\"0x00000000\",\"0x00000000\"]"},
		{"longer file", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "[\"0x44434241\",\"0x48474645\",\"0x4c4b4a49\",\"0x504f4e4d\"]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := writeFile(t, "fill.bin", tc.data)
			code, out, errs := cli(t, "run", k, "--arg", "out=buf:16:file:"+f, "--dump", "out:hex", "-o", "json")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			if got := strings.Join(strings.Fields(out[strings.Index(out, "\"dumps\""):strings.Index(out, "\"warnings\"")]), ""); !strings.Contains(got, tc.want) {
				t.Errorf("dump %s, want %s", got, tc.want)
			}
		})
	}
}
