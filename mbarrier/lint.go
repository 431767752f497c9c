package mbarrier

// lint returns the warnings of an update that passed its preconditions. It
// runs before the update changes the barrier, so b still shows the state the
// update found. It allocates only when it has something to report.
func (b *Barrier) lint(u Update) []Warning {
	var w []Warning
	if b.phase > 0 && !b.observedDone && !b.warned && u.Kind != AsyncArriveInc {
		b.warned = true // once per phase: later updates of the phase would repeat the same finding
		w = append(w, b.phaseOrderWarning(u))
	}
	if u.Kind == ExpectTx && b.pending == 0 {
		w = append(w, newWarning(ExpectAfterLastArrival,
			"expect_tx of %d bytes with pending 0 and tx-count %d (phase %d): it completes the phase if it brings tx-count to 0 (§5.1), "+
				"but a complete_tx reaching 0 before it would already have completed the phase (§1.5)",
			u.Tx, b.tx, b.phase))
	}
	return w
}

// phaseOrderWarning is the finding for an update on phase k+1 while no wait
// has returned true for phase k.
func (b *Barrier) phaseOrderWarning(u Update) Warning {
	if u.Kind.arrives() {
		return newWarning(EarlyArrive, "%s on phase %d before any wait returned true for phase %d (§1.9 #7)",
			u.op(), b.phase, b.phase-1)
	}
	return newWarning(TxAfterCompletion,
		"%s of %d bytes on phase %d before any wait returned true for phase %d, which completed by %s: "+
			"if these bytes belong to phase %d, it completed prematurely (§4 #20, #22)",
		u.Kind, u.Tx, b.phase, b.phase-1, b.lastCompletedBy, b.phase-1)
}
