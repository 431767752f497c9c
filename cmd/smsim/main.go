// Command smsim simulates one NVIDIA Hopper streaming multiprocessor running
// a kernel (PTX from nvcc, or the .sms kernel language) and reports where
// warps wait on asynchronous barriers, and why.
package main

import "os"

func main() {
	os.Exit(runCLI(os.Args[1:], os.Stdout, os.Stderr))
}
