package main

import "strconv"

// Number formats of the tables and CSV rows the commands print.
func f0(x float64) string { return strconv.FormatFloat(x, 'f', 0, 64) }
func f1(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }
func u(x uint64) string   { return strconv.FormatUint(x, 10) }
func itoa(x int) string   { return strconv.Itoa(x) }

// plural is "s" unless n is 1.
func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
