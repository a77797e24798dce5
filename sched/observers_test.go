package sched

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Observers come and go in any order; each removal takes its own, a second
// call of a remove function changes nothing, and changed runs after every
// add and every removal that removed something.
func TestObservers(t *testing.T) {
	var l Observers[string]
	changes := 0
	changed := func() { changes++ }
	ra := l.Add("a", changed)
	rb := l.Add("b", nil)
	rc := l.Add("c", changed)
	assert.Equal(t, []string{"a", "b", "c"}, l.List())
	assert.Equal(t, 2, changes)
	rb()
	assert.Equal(t, []string{"a", "c"}, l.List())
	ra()
	ra()
	assert.Equal(t, []string{"c"}, l.List())
	assert.Equal(t, 3, changes, "the second ra() removed nothing")
	rd := l.Add("d", nil)
	rc()
	assert.Equal(t, []string{"d"}, l.List())
	rd()
	assert.Zero(t, l.Len())
	assert.Equal(t, 4, changes)
}
