package sched

import "slices"

// Observers is a list of observers of one kind (a func, or a struct with
// a func and what it watches) that can leave again: every chip, device and
// the board keep theirs in one. Telling them is a range over List, which
// costs one length check when nobody listens.
type Observers[T any] struct {
	list []T
	ids  []uint64
	next uint64
}

// Add appends o and returns the function that removes it (a second call
// does nothing). changed, if not nil, runs after the add and after the
// removal: an owner that keeps a summary of what its observers watch
// (registers, lines, ports) recomputes it there.
func (l *Observers[T]) Add(o T, changed func()) (remove func()) {
	l.next++
	id := l.next
	l.list = append(l.list, o)
	l.ids = append(l.ids, id)
	if changed != nil {
		changed()
	}
	return func() {
		i := slices.Index(l.ids, id)
		if i < 0 {
			return
		}
		l.list = slices.Delete(l.list, i, i+1)
		l.ids = slices.Delete(l.ids, i, i+1)
		if changed != nil {
			changed()
		}
	}
}

// List is the observers in the order they were added. The caller ranges
// over it and must not keep or change it.
func (l *Observers[T]) List() []T { return l.list }

// Len is the number of observers.
func (l *Observers[T]) Len() int { return len(l.list) }
