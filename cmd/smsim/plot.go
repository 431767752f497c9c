package main

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/smsim/smsim/report"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"
)

func init() {
	// Sans-serif text reads better on screen than gonum/plot's serif default.
	plot.DefaultFont.Variant = "Sans"
	plotter.DefaultFont = plot.DefaultFont
}

// maxSeries bounds the barriers or lines one plot shows, so its colours
// and legend stay distinguishable.
const maxSeries = 10

// palette holds maxSeries distinct colours (matplotlib's tab10).
var palette = []color.RGBA{{31, 119, 180, 255}, {255, 127, 14, 255}, {44, 160, 44, 255}, {214, 39, 40, 255},
	{148, 103, 189, 255}, {140, 86, 75, 255}, {227, 119, 194, 255}, {127, 127, 127, 255}, {188, 189, 34, 255},
	{23, 190, 207, 255}}

// glyphs tell series apart where colours do not (printouts, colour blindness).
var glyphs = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{},
	draw.PlusGlyph{}, draw.RingGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}}

func seriesColor(i int) color.Color { return palette[i%len(palette)] }

// cleanTicks label 4 to 10 round values (steps of 1, 2 or 5 times a
// power of ten), without trailing zeros: cycle counts read as integers.
// With integer set, steps are whole numbers (phase numbers, counts).
type cleanTicks struct{ integer bool }

// Ticks implements plot.Ticker.
func (c cleanTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) {
		return []plot.Tick{{Value: lo, Label: tickLabel(lo)}}
	}
	mag := math.Pow(10, math.Floor(math.Log10((hi-lo)/4)))
	step := mag
	for _, m := range []float64{1, 2, 5, 10} {
		if (hi-lo)/(m*mag) <= 10 {
			step = m * mag
			break
		}
	}
	if c.integer {
		step = math.Max(1, step)
	}
	var ts []plot.Tick
	for v := math.Ceil(lo/step) * step; v <= hi+step*1e-9; v += step {
		ts = append(ts, plot.Tick{Value: v, Label: tickLabel(v)})
		if minor := v + step/2; minor < hi && (!c.integer || step > 1) {
			ts = append(ts, plot.Tick{Value: minor})
		}
	}
	return ts
}

func tickLabel(v float64) string {
	if math.Abs(v) < 1e-9 {
		return "0"
	}
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// series is one named line of a plot.
type series struct {
	name string
	xys  plotter.XYs
}

// legendSpace is the width of the strip on the right of a figure that
// holds its legend: enough for the longest entry, at most 40% of w.
func legendSpace(leg *plot.Legend, dc draw.Canvas) vg.Length {
	r := leg.Rectangle(dc)
	// 20% spare: viewers without Liberation Sans substitute wider fonts.
	return min(1.2*(r.Max.X-r.Min.X)+0.3*vg.Inch, 0.4*(dc.Max.X-dc.Min.X))
}

// newPlot returns a plot with a title, axis labels and a light grid.
func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.Padding = vg.Points(6)
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.Y.Min = 0
	p.X.Tick.Marker = cleanTicks{}
	p.Y.Tick.Marker = cleanTicks{}
	g := plotter.NewGrid()
	g.Vertical.Color = color.Gray{Y: 225}
	g.Horizontal.Color = color.Gray{Y: 225}
	p.Add(g)
	return p
}

// addSeries draws each series as a line with points in the i-th colour and
// shape, and returns a legend naming them.
func addSeries(p *plot.Plot, ss []series, lines bool) (plot.Legend, error) {
	leg := plot.NewLegend()
	leg.Top, leg.Left = true, true
	for i, s := range ss {
		sc, err := plotter.NewScatter(s.xys)
		if err != nil {
			return leg, err
		}
		sc.GlyphStyle.Color = seriesColor(i)
		sc.GlyphStyle.Shape = glyphs[i%len(glyphs)]
		sc.GlyphStyle.Radius = vg.Points(2.5)
		p.Add(sc)
		if lines && len(s.xys) > 1 {
			l, err := plotter.NewLine(s.xys)
			if err != nil {
				return leg, err
			}
			l.LineStyle.Color = seriesColor(i)
			l.LineStyle.Width = vg.Points(1.2)
			p.Add(l)
			leg.Add(s.name, l, sc)
		} else {
			leg.Add(s.name, sc)
		}
	}
	return leg, nil
}

// pngDPI is the resolution of PNG plots: a 9-inch figure 1350 pixels wide.
const pngDPI = 150

// plotFormat is the image format path's extension names: svg, png or pdf.
// Any other extension is refused, naming flag, before anything runs.
func plotFormat(flag, path string) (string, error) {
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(path), "."))
	switch ext {
	case "svg", "png", "pdf":
		return ext, nil
	}
	return "", &usageError{Msg: fmt.Sprintf("%s %s: want a .svg, .png or .pdf file (the extension names the image format)", flag, path)}
}

// plotCanvas is a canvas of w by h that writes the format.
func plotCanvas(format string, w, h vg.Length) vg.CanvasWriterTo {
	switch format {
	case "png":
		return vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(pngDPI))}
	case "pdf":
		return vgpdf.New(w, h)
	}
	return vgsvg.New(w, h)
}

// saveFigure writes plots stacked vertically, with one legend to their
// right, to path (the file flag named) in the format its extension names.
func saveFigure(flag, path string, plots []*plot.Plot, leg *plot.Legend, heightPerPlot vg.Length) error {
	format, err := plotFormat(flag, path)
	if err != nil {
		return err
	}
	w := 9 * vg.Inch
	h := heightPerPlot * vg.Length(len(plots))
	c := plotCanvas(format, w, h)
	dc := draw.New(c)
	area := dc
	if leg != nil {
		area.Max.X -= legendSpace(leg, dc)
		la := dc
		la.Min.X = area.Max.X + 0.15*vg.Inch
		la.Max.Y -= 0.5 * vg.Inch
		leg.Draw(la)
	}
	rows := make([][]*plot.Plot, len(plots))
	for i, p := range plots {
		rows[i] = []*plot.Plot{p}
	}
	tiles := draw.Tiles{Rows: len(plots), Cols: 1, PadX: vg.Millimeter, PadY: 6 * vg.Millimeter,
		PadTop: 2 * vg.Millimeter, PadBottom: 2 * vg.Millimeter, PadLeft: 2 * vg.Millimeter}
	canvases := plot.Align(rows, tiles, area)
	for i, p := range plots {
		p.Draw(canvases[i][0])
	}
	return writeOutput(flag, path, func(w io.Writer) error {
		_, err := c.WriteTo(w)
		return err
	})
}

// writeRunPlot draws a run's barriers: stall cycles per phase, phase
// durations over time, and the distribution of phase durations.
func writeRunPlot(flag, path string, r *report.Report) error {
	if len(r.Barriers) == 0 {
		return &usageError{Msg: fmt.Sprintf("%s %s: kernel %s used no mbarriers, nothing to plot", flag, path, r.Kernel)}
	}
	stats := report.BarrierStats(r, false)
	shown := stats
	note := ""
	if len(stats) > maxSeries {
		// The barriers with the most stall cycles, in declaration order.
		byStall := append([]*report.BarrierStat(nil), stats...)
		sort.SliceStable(byStall, func(a, b int) bool { return byStall[a].StallCycles > byStall[b].StallCycles })
		keep := map[*report.BarrierStat]bool{}
		for _, s := range byStall[:maxSeries] {
			keep[s] = true
		}
		shown = nil
		for _, s := range stats {
			if keep[s] {
				shown = append(shown, s)
			}
		}
		note = fmt.Sprintf(" (the %d of %d barriers with most stall)", maxSeries, len(stats))
	}
	// Per-phase stalls, summed over CTAs, and (opened, duration) pairs.
	stalls := map[string]map[uint64]float64{}
	for _, b := range r.Barriers {
		if stalls[b.Name] == nil {
			stalls[b.Name] = map[uint64]float64{}
		}
		for _, p := range b.Phases {
			stalls[b.Name][p.Phase] += float64(p.StallCycles)
		}
	}
	var stallSeries, durSeries []series
	var allDurs []float64
	for _, s := range shown {
		var xy plotter.XYs
		for ph, v := range stalls[s.Name] {
			xy = append(xy, plotter.XY{X: float64(ph), Y: v})
		}
		sort.Slice(xy, func(a, b int) bool { return xy[a].X < xy[b].X })
		stallSeries = append(stallSeries, series{s.Name, xy})
		var d plotter.XYs
		for k := range s.Durations {
			d = append(d, plotter.XY{X: s.Opened[k], Y: s.Durations[k]})
		}
		sort.Slice(d, func(a, b int) bool { return d[a].X < d[b].X })
		durSeries = append(durSeries, series{s.Name, d})
		allDurs = append(allDurs, s.Durations...)
	}
	p1 := newPlot(fmt.Sprintf("%s: stall cycles per phase%s", r.Kernel, note), "phase", "stall cycles (all waiting warps)")
	p1.X.Tick.Marker = cleanTicks{integer: true}
	leg, err := addSeries(p1, stallSeries, true)
	if err != nil {
		return err
	}
	p2 := newPlot("phase durations over time", "cycle the phase opened", "phase duration (cycles)")
	if _, err := addSeries(p2, durSeries, true); err != nil {
		return err
	}
	plots := []*plot.Plot{p1, p2}
	if len(allDurs) > 0 {
		d := report.Distribution(allDurs)
		p3 := newPlot(fmt.Sprintf("histogram of phase durations (n=%d, mean %.0f, p50 %.0f, p95 %.0f)", d.N, d.Mean, d.P50, d.P95),
			"phase duration (cycles)", "phases")
		p3.Y.Tick.Marker = cleanTicks{integer: true}
		p3.Add(histPlotter(report.Histogram(allDurs, 30)))
		plots = append(plots, p3)
	}
	return saveFigure(flag, path, plots, &leg, 3.2*vg.Inch)
}

// histPlotter draws bins (from gonum/stat, via histogram) as bars.
func histPlotter(bins []report.Bin) *plotter.Histogram {
	h := &plotter.Histogram{FillColor: color.RGBA{R: 110, G: 150, B: 200, A: 255}, LineStyle: plotter.DefaultLineStyle}
	for _, b := range bins {
		h.Bins = append(h.Bins, plotter.HistogramBin{Min: b.Lo, Max: b.Hi, Weight: float64(b.Count)})
		h.Width = b.Hi - b.Lo
	}
	return h
}
