package main

// extraRecipes describes rows of further calibration CSVs in dir (measured
// for the model beyond the original suite); see calibration/h200/README.md.
func extraRecipes(dir string, o suiteOpts) []recipe { return nil }
