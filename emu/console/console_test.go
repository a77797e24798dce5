package console

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/sched"
)

// echoBoard stands in for the board: each RunUntil step takes one queued
// character, echoes it to the transcript a character time later and, on
// CR, prints a prompt.
type echoBoard struct {
	now   sched.Time
	queue []byte
	tr    *Transcript
	steps int
}

const charTime = 1042 * sched.Microsecond // 9600 baud, 10 bits

func (b *echoBoard) ConsoleInput(p []byte) { b.queue = append(b.queue, p...) }
func (b *echoBoard) ConsoleQueued() int    { return len(b.queue) }

func (b *echoBoard) RunUntil(cond func() bool, limit sched.Time) (bool, error) {
	end := b.now + limit
	for !cond() {
		if b.now+charTime > end {
			b.now = end
			return false, nil
		}
		b.now += charTime
		b.steps++
		if len(b.queue) == 0 {
			continue
		}
		c := b.queue[0]
		b.queue = b.queue[1:]
		b.tr.Out(b.now, c)
		if c == '\r' {
			for _, p := range []byte("\nA>") {
				b.tr.Out(b.now, p)
			}
		}
	}
	return true, nil
}

func TestTypistTypesAndWaits(t *testing.T) {
	tr := &Transcript{}
	b := &echoBoard{tr: tr}
	ty := &Typist{B: b, T: tr}
	tr.Out(0, 'A')
	tr.Out(0, '>')
	require.NoError(t, ty.Command("A>", "DIR"))
	require.NoError(t, ty.WaitFor("A>"), "the prompt after the command, not the first one")
	assert.Equal(t, "A>DIR\r\nA>", tr.String())
	assert.Equal(t, tr.Len(), len(tr.Times))
	assert.Equal(t, 4*charTime, tr.Times[len(tr.Times)-1], "each echoed byte carries the time it was sent")
}

func TestTypistWaitFailsAtItsLimit(t *testing.T) {
	tr := &Transcript{}
	b := &echoBoard{tr: tr}
	ty := &Typist{B: b, T: tr, Limit: sched.Second}
	tr.Out(0, 'x')
	err := ty.WaitFor("A>")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"A>" did not appear within`)
	assert.Contains(t, err.Error(), `got "x"`)
	assert.Equal(t, sched.Second, b.now, "the wait gives up at its limit of simulated time")
}

func TestTypistMarkMovesPastWhatWasFound(t *testing.T) {
	tr := &Transcript{}
	ty := &Typist{B: &echoBoard{tr: tr}, T: tr, Limit: sched.Second}
	for _, c := range []byte("A> A>") {
		tr.Out(0, c)
	}
	require.NoError(t, ty.WaitFor("A>"))
	require.NoError(t, ty.WaitFor("A>"))
	assert.Error(t, ty.WaitFor("A>"), "both prompts were used up")
}

func TestTailKeepsTheEnd(t *testing.T) {
	long := strings.Repeat("a", 300) + "END\xff"
	got := tail([]byte(long))
	assert.True(t, strings.HasPrefix(got, "..."))
	assert.True(t, strings.HasSuffix(got, "END?"), "invalid UTF-8 is replaced")
	assert.Len(t, got, 203)
}
