package calibration

// family is a calibration kernel file and the recipes of the rows measured
// with it (each family's recipes are in the file of its theme: latency.go,
// bandwidth.go, steps.go, elect.go, copies.go, gmem.go, rates.go,
// trywait.go, pipelines.go, probe.go, microbench.go, tensor.go).
type family struct {
	ptx     string // the PTX file in the calibration folder; a folder without it leaves the family out
	recipes func(Options) []recipe
}

// families lists the suite's families in the order their launches run and
// their rows print (validate's JSON keeps that order).
func families() []family {
	plain := func(f func() []recipe) func(Options) []recipe { return func(Options) []recipe { return f() } }
	return []family{
		{"microbench.ptx", microbenchRecipes},
		{"hwprobe.ptx", plain(probeRecipes)},
		{"pipeline.ptx", plain(pipelineRecipes)},
		{"latency2.ptx", plain(latency2Recipes)},
		{"membw.ptx", plain(membwRecipes)},
		{"issue.ptx", plain(issueRecipes)},
		{"divcode.ptx", plain(divcodeRecipes)},
		{"prodonly.ptx", plain(prodonlyRecipes)},
		{"steps.ptx", plain(stepsRecipes)},
		{"elect.ptx", plain(electRecipes)},
		{"elect.ptx", plain(electSweepRecipes)},
		{"exitwait.ptx", plain(exitwaitRecipes)},
		{"align.ptx", plain(alignRecipes)},
		{"tmadesc.ptx", plain(tmadescRecipes)},
		{"gmem.ptx", plain(gmemRecipes)},
		{"branch.ptx", plain(branchRecipes)},
		{"waitdelay.ptx", plain(waitdelayRecipes)},
		{"dsweep.ptx", plain(dsweepRecipes)},
		{"throughput.ptx", plain(throughputRecipes)},
		{"convert.ptx", plain(convertRecipes)},
		{"smem.ptx", plain(smemRecipes)},
		{"ldg.ptx", plain(ldgRecipes)},
		{"trywait.ptx", plain(trywaitRecipes)},
		{"wspipe.ptx", plain(wspipeRecipes)},
		{"stgport.ptx", plain(stgportRecipes)},
		{"ptxpipe.ptx", plain(ptxpipeRecipes)},
		{"cpipe.ptx", plain(cpipeRecipes)},
		{"window.ptx", plain(windowRecipes)},
		{"store.ptx", plain(storeRecipes)},
		{"sel.ptx", plain(selRecipes)},
		{"latency3.ptx", plain(latency3Recipes)},
		{"latency4.ptx", plain(latency4Recipes)},
		{"latency5.ptx", plain(latency5Recipes)},
		{"waterfall.ptx", plain(waterfallRecipes)},
		{"smemshare.ptx", plain(smemShareRecipes)},
		{"reqcost.ptx", plain(reqCostRecipes)},
		{"bulkbw.ptx", plain(bulkBWRecipes)},
		{"fence.ptx", plain(fenceRecipes)},
		{"epilogue.ptx", plain(epilogueRecipes)},
		{"pingpong.ptx", plain(pingpongRecipes)},
		{"stamps.ptx", plain(stampsRecipes)},
		{"syncwarp.ptx", plain(syncwarpRecipes)},
		{"libpipe.ptx", plain(libpipeRecipes)},
		{"libcopy.ptx", plain(libcopyRecipes)},
		{"wgmma_probe.ptx", plain(wgmmaTimingRecipes)},
		{"wgmma_rate.ptx", plain(wgmmaRateRecipes)},
		{"wgmma_share.ptx", plain(wgmmaShareRecipes)},
		{"stg_wgmma.ptx", plain(stgWgmmaRecipes)},
		{"tma_swizzle.ptx", plain(tmaSwizzleRecipes)},
	}
}

// recipes are the recipes of every family whose PTX file dir holds.
func recipes(dir string, o Options) []recipe {
	var rs []recipe
	for _, f := range families() {
		if hasFile(dir, f.ptx) {
			rs = append(rs, f.recipes(o)...)
		}
	}
	return rs
}
