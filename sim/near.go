package sim

import "math/bits"

// nearSpan is how many cycles ahead of now the near calendar holds events:
// the latencies that most events are scheduled at (a tick next cycle, a
// barrier-unit update, a pipe's result) are shorter.
const nearSpan = 64

// nearQueue is a calendar of the events due in the next nearSpan cycles: a
// bucket a cycle, each a list in key order (phase, then scheduling order).
// Every event in it is due in [now, now+nearSpan), where now is the
// engine's clock, which only moves forward; so the bucket of cycle c, at c
// mod nearSpan, holds events of cycle c alone. Pushing and popping an event
// take a few operations instead of a heap's walk; events further ahead wait
// in the heap, and the engine takes whichever of the two comes first. The
// lists' nodes come from one pool, which grows to the most events the
// calendar has held at once and is reused from then on.
type nearQueue struct {
	head, tail [nearSpan]int32 // a bucket's first and last node, -1 for none
	nodes      []nearNode
	free       int32  // the first unused node, -1 for none
	occ        uint64 // bit i: bucket i holds an event
	n          int
}

type nearNode struct {
	ev   event
	next int32
}

func newNearQueue() nearQueue {
	q := nearQueue{free: -1}
	for i := range q.head {
		q.head[i], q.tail[i] = -1, -1
	}
	return q
}

// node returns an unused node holding ev.
func (q *nearQueue) node(ev event) int32 {
	if q.free < 0 {
		q.nodes = append(q.nodes, nearNode{ev: ev, next: -1})
		return int32(len(q.nodes) - 1)
	}
	k := q.free
	q.free = q.nodes[k].next
	q.nodes[k] = nearNode{ev: ev, next: -1}
	return k
}

// push puts ev, due within nearSpan cycles of now, in its bucket: after
// the events of its phase and lower ones (its key is the largest so far in
// its phase), before those of a later phase.
func (q *nearQueue) push(ev event) {
	i := ev.at % nearSpan
	k := q.node(ev)
	q.occ |= 1 << i
	q.n++
	t := q.tail[i]
	switch {
	case t < 0:
		q.head[i], q.tail[i] = k, k
	case q.nodes[t].ev.key < ev.key:
		q.nodes[t].next, q.tail[i] = k, k
	case ev.key < q.nodes[q.head[i]].ev.key:
		q.nodes[k].next, q.head[i] = q.head[i], k
	default: // between two: after the last node whose key is lower
		p := q.head[i]
		for q.nodes[q.nodes[p].next].ev.key < ev.key {
			p = q.nodes[p].next
		}
		q.nodes[k].next, q.nodes[p].next = q.nodes[p].next, k
	}
}

// first returns the bucket of the earliest event at or after cycle now, or
// -1 when the calendar is empty.
func (q *nearQueue) first(now Cycle) int {
	if q.occ == 0 {
		return -1
	}
	r := int(now % nearSpan)
	return (r + bits.TrailingZeros64(bits.RotateLeft64(q.occ, -r))) % nearSpan
}

// dueBy reports whether an event is due at or before cycle at (not before
// now): a bucket of the cycles now..at holds one.
func (q *nearQueue) dueBy(now, at Cycle) bool {
	if q.occ == 0 {
		return false
	}
	d := at - now
	if d >= nearSpan-1 {
		return true
	}
	return q.occ&bits.RotateLeft64(1<<(d+1)-1, int(now%nearSpan)) != 0
}

// peek is the first event of bucket i.
func (q *nearQueue) peek(i int) *event { return &q.nodes[q.head[i]].ev }

// take removes and returns the first event of bucket i.
func (q *nearQueue) take(i int) event {
	k := q.head[i]
	ev := q.nodes[k].ev
	q.head[i] = q.nodes[k].next
	if q.head[i] < 0 {
		q.tail[i] = -1
		q.occ &^= 1 << i
	}
	q.nodes[k].next, q.free = q.free, k
	q.n--
	return ev
}
