package cpmtest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/internal/golden"
)

func boot(t *testing.T, disks ...*Disk) *Machine {
	t.Helper()
	m, err := New()
	require.NoError(t, err)
	for i, d := range disks {
		require.NoError(t, m.Attach(i, d, i == 0))
	}
	m.Boot()
	return m
}

// The CCP's built-in commands, typed at the console: each scenario's
// transcript is a golden file.
func TestConsole(t *testing.T) {
	text := []byte("Hello from CP/M.\r\nSecond line\tafter a tab.\r\n\x1aNOT SHOWN")
	for _, tc := range []struct {
		name  string
		lines []string
	}{
		{"builtins", []string{
			"dir\r", "SAVE 1 HELLO.TXT\r", "SAVE 3 PROG.COM\r", "DIR\r", "TYPE HELLO.TXT\r",
			"REN GREET.TXT=HELLO.TXT\r", "DIR *.TXT\r", "REN PROG.COM=GREET.TXT\r",
			"REN X.TXT=NONE.TXT\r", "ERA PROG.COM\r", "ERA PROG.COM\r", "DIR\r", "TYPE NONE.TXT\r",
			"FOO\r", "B:\r", "DIR\r", "SAVE 1 B.DAT\r", "A:\r", "DIR B:\r", "\r", "ERA B:*.*\r", "Y\r", "DIR B:\r",
		}},
		{"user", []string{
			"SAVE 1 ZERO.TXT\r", "USER 3\r", "DIR\r", "SAVE 1 THREE.TXT\r", "DIR\r",
			"USER 0\r", "DIR\r", "USER 16\r", "USER X\r",
		}},
		{"editing", []string{
			"SAVE 1 HELLO.TXT\r", "DIX\bR\r", "TYPX\x7fE HELLO.TXT\r", "GARBAGE\x18DIR\r", "JUNK\x15DIR *.TXT\r", "DI\x12R\r",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := boot(t, NewDisk(Amp2), NewDisk(Amp1))
			m.Poke(0x100, text)
			m.Type(tc.lines...)
			require.ErrorIs(t, m.Run(200_000_000), ErrInput)
			golden.Equal(t, "console_"+tc.name+".txt", []byte(m.Transcript()))
		})
	}
}
