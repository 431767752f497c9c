package main

import (
	"strings"

	"github.com/smsim/smsim/sweep"
	"github.com/spf13/cobra"
)

// axisList collects --vary values (and axes given to --grid) in command-
// line order, which decides the grid's point order.
type axisList struct{ specs *[]string }

func (a axisList) Set(s string) error { *a.specs = append(*a.specs, s); return nil }
func (a axisList) String() string     { return strings.Join(*a.specs, " ") }
func (a axisList) Type() string       { return "KIND:KEY=V1,V2" }

// gridOrAxis is --grid in sweep and compare: an axis KIND:KEY=V1,V2,...
// (as --vary), or else the launch grid X[,Y[,Z]] as in run.
type gridOrAxis struct {
	dims *string
	axes axisList
}

func (g gridOrAxis) Set(s string) error {
	if kind, _, ok := strings.Cut(s, ":"); ok && sweep.IsKind(kind) {
		return g.axes.Set(s)
	}
	*g.dims = s
	return nil
}
func (g gridOrAxis) String() string { return *g.dims }
func (g gridOrAxis) Type() string   { return "string" }

// bindAxes adds --vary to c and lets its --grid (bound to dims by
// launchFlags.bind) take axes too.
func bindAxes(c *cobra.Command, dims *string, specs *[]string) {
	fs := c.Flags()
	fs.Var(axisList{specs}, "vary", "an axis: set:KEY=V1,V2 (a --set key), arg:NAME=V1,V2 (an --arg) or const:NAME=V1,V2 (a .sms const); repeatable: cross product, first slowest")
	if fl := fs.Lookup("grid"); fl != nil {
		fl.Value = gridOrAxis{dims: dims, axes: axisList{specs}}
		fl.Usage = "blocks X[,Y[,Z]] as in run; or an axis KIND:KEY=V1,V2,... as --vary"
	}
}
