// Package calibration is smsim's H200 calibration suite: the measured
// rows of calibration/h200 (CSV files, each beside the CUDA and PTX it was
// measured with) and, for each row, the recipe that reproduces it on the
// simulator — the launch the suite's host code makes (kernel, block, shared
// memory, arguments, launches, inputs the host writes) and how the row's
// value is computed from the kernel's out buffer (recipe.go; one function
// per CSV family in the file of its theme, families.go listing them).
//
// Validate runs the recipes through the run API and compares predicted
// with measured: per row, per family and overall, with the simulator's
// slowdown; Missed judges the calibration targets; Fit searches
// configuration values that minimise the error (Nelder–Mead). DefaultDir
// finds the repository's data. The commands `smsim validate` and `smsim
// calibrate` are thin wrappers of these.
package calibration
