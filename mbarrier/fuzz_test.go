package mbarrier

import "testing"

// ref is the reference model: §1.3/§1.4 of the spec in a dozen lines, written
// without looking at Apply. ok is false when the update is UB (§1.9).
type ref struct {
	valid         bool
	phase         uint64
	exp, pend, tx int64
	done          bool
}

func (r ref) apply(u Update) (ref, bool) {
	n, t, in := int64(u.Count), int64(u.Tx), r
	if !r.valid || (u.Kind != ExpectTx && u.Kind != CompleteTx && (n < 1 || n > MaxCount)) {
		return in, false
	}
	switch u.Kind {
	case CompleteTx:
		r.tx -= t
	case AsyncArriveInc:
		r.pend += n
	default:
		r.tx += t
	}
	if u.Kind == ArriveDrop {
		r.exp -= n
	}
	if u.Kind == Arrive || u.Kind == ArriveDrop {
		r.pend -= n
	}
	r.done = r.pend == 0 && r.tx == 0
	if r.tx < -MaxCount || r.tx > MaxCount || r.exp < 1 || r.pend < 0 || r.pend > MaxCount || (r.done && u.NoComplete) {
		return in, false
	}
	if r.done {
		r.phase, r.pend = r.phase+1, r.exp
	}
	return r, true
}

func (r ref) state() State {
	if !r.valid {
		return State{}
	}
	return State{Valid: true, Phase: r.phase, Pending: int32(r.pend), Expected: int32(r.exp), Tx: int32(r.tx)}
}

// decodeOp turns 3 bytes into an operation. Byte 0 picks the kind (and bit 7
// .noComplete for arrives), byte 1 the count (small, or 2^20 at 255), byte 2
// the bytes (small, or a large multiple of 16 KiB when bit 7 is set).
func decodeOp(op, cnt, tx byte) (u Update, init bool) {
	count := uint32(cnt % 6)
	if cnt == 255 {
		count = MaxCount + 1
	}
	bytes := uint32(tx % 24)
	if tx&0x80 != 0 {
		bytes = uint32(tx&0x7f) << 14
	}
	switch op % 8 {
	case 0, 1:
		return Update{Kind: Arrive, Count: count, Tx: bytes * uint32(op%2), NoComplete: op&0x80 != 0}, false
	case 2:
		return Update{Kind: ArriveDrop, Count: count, NoComplete: op&0x80 != 0}, false
	case 3:
		return Update{Kind: ExpectTx, Tx: bytes}, false
	case 4:
		return Update{Kind: CompleteTx, Tx: bytes}, false
	case 5:
		return Update{Kind: AsyncArriveInc, Count: count}, false
	}
	return Update{Count: count}, true // 6, 7: init(count) or, with count 0, inval
}

// FuzzBarrier compares the barrier with the reference model step by step.
func FuzzBarrier(f *testing.F) {
	f.Add([]byte{6, 1, 0, 1, 0, 16, 4, 0, 16})        // TMA handshake: init(1), arrive.expect_tx(16), complete_tx(16)
	f.Add([]byte{6, 3, 0, 0, 1, 0, 2, 1, 0, 0, 3, 0}) // arrive, drop, over-arrival
	f.Add([]byte{6, 2, 0, 4, 0, 0x85, 0, 2, 0, 3, 0, 0x85})
	f.Add([]byte{6, 4, 0, 0x80, 3, 0, 5, 1, 0, 6, 0, 0, 6, 5, 0})
	f.Add([]byte{6, 1, 0, 3, 0, 0xff, 3, 0, 0xff, 0, 255, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		var b Barrier
		var r ref
		for i := 0; i+2 < len(data); i += 3 {
			u, init := decodeOp(data[i], data[i+1], data[i+2])
			if init {
				fuzzInit(t, &b, &r, u.Count)
				continue
			}
			got, err := b.Apply(u)
			want, ok := r.apply(u)
			if (err == nil) != ok || b.State() != want.state() || (ok && got.Completed != want.done) {
				t.Fatalf("op %d %s(%d,%d) on %+v: got %+v, completed %t, err %v; want %+v, completed %t, legal %t",
					i/3, u.op(), u.Count, u.Tx, r.state(), b.State(), got.Completed, err, want.state(), want.done, ok)
			}
			r = want
			fuzzWait(t, &b, r)
		}
	})
}

// fuzzInit applies init(count), or inval when count is 0, to both models.
func fuzzInit(t *testing.T, b *Barrier, r *ref, count uint32) {
	var err error
	ok := count == 0 && r.valid || count >= 1 && count <= MaxCount && !r.valid
	switch {
	case count == 0:
		err = b.Inval()
		if ok {
			*r = ref{}
		}
	default:
		err = b.Init(count)
		if ok {
			*r = ref{valid: true, exp: int64(count), pend: int64(count)}
		}
	}
	if (err == nil) != ok || b.State() != r.state() {
		t.Fatalf("init/inval(%d): got %+v, err %v; want %+v, legal %t", count, b.State(), err, r.state(), ok)
	}
}

// fuzzWait checks both parities against the reference phase.
func fuzzWait(t *testing.T, b *Barrier, r ref) {
	for p := uint32(0); p < 2 && r.valid; p++ {
		got, err := b.TestParity(p, Faithful)
		if want := p != uint32(r.phase&1); err != nil || got != want {
			t.Fatalf("parity %d at phase %d: got %t, %v; want %t", p, r.phase, got, err, want)
		}
	}
}
