package tma

import "github.com/smsim/smsim/sim"

// groups is one thread's bulk async-groups (PTX §9.7.9.25.1.1): the stores
// issued since the last commit (open) and the committed groups still
// pending, oldest first. Groups complete in commit order, so each committed
// group's cycles are at least its predecessor's (§2.5, §4 #51).
type groups struct {
	openRead, openDone sim.Cycle
	read, done         []sim.Cycle // committed, oldest first, non-decreasing
}

func (u *Unit) group(thread uint64) *groups {
	g := u.groups[thread]
	if g == nil {
		g = &groups{}
		u.groups[thread] = g
	}
	return g
}

// Forget drops thread's bulk groups: the thread has exited, and nothing
// can wait on them again (a grid's threads would otherwise each keep an
// entry to the end of the run).
func (u *Unit) Forget(thread uint64) { delete(u.groups, thread) }

// Groups returns how many threads have bulk groups recorded.
func (u *Unit) Groups() int { return len(u.groups) }

// add records a store of the open group.
func (g *groups) add(read, done sim.Cycle) {
	g.openRead, g.openDone = max(g.openRead, read), max(g.openDone, done)
}

// Commit closes thread's open group (cp.async.bulk.commit_group). With no
// store since the last commit it commits an empty group, which completes
// with its predecessor.
func (u *Unit) Commit(thread uint64) {
	g := u.group(thread)
	g.prune(u.eng.Now())
	read, done := g.openRead, g.openDone
	if n := len(g.done); n > 0 {
		read, done = max(read, g.read[n-1]), max(done, g.done[n-1])
	}
	g.read, g.done = append(g.read, read), append(g.done, done)
	g.openRead, g.openDone = 0, 0
}

// WaitGroup returns the cycle at which at most n of thread's committed
// groups are pending (cp.async.bulk.wait_group n); with readOnly, at which
// the sources of all but the n most recent groups have been read
// (wait_group.read). It returns now when that is already so. Stores not yet
// committed are not waited for.
func (u *Unit) WaitGroup(now sim.Cycle, thread uint64, n int, readOnly bool) sim.Cycle {
	g := u.groups[thread]
	if g == nil {
		return now
	}
	g.prune(now)
	k := len(g.done) - 1 - max(n, 0) // the newest group that must be complete
	if k < 0 {
		return now
	}
	if readOnly {
		return max(now, g.read[k])
	}
	return max(now, g.done[k])
}

// prune drops groups complete by now; they no longer count as pending.
func (g *groups) prune(now sim.Cycle) {
	i := 0
	for i < len(g.done) && g.done[i] <= now {
		i++
	}
	if i > 0 {
		g.read = append(g.read[:0], g.read[i:]...)
		g.done = append(g.done[:0], g.done[i:]...)
	}
}
