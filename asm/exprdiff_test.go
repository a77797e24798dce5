package asm

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// genExpr builds a random expression in the subset pasmo accepts: prefix
// operators only at the start of an expression or parenthesised, divisors
// never zero, shift counts below 16.
func genExpr(r *rand.Rand, depth int) string {
	var b strings.Builder
	prefixes := []string{"-", "+", "~", "!", "NOT ", "HIGH ", "LOW "}
	if r.IntN(3) == 0 {
		b.WriteString(prefixes[r.IntN(len(prefixes))])
	}
	b.WriteString(genOperand(r, depth))
	binops := []string{"+", "-", "*", " AND ", " OR ", " XOR ", " & ", "|", "=", "!=", "<", ">", "<=", ">=", " EQ ", " NE ", " LT ", " GT ", " LE ", " GE ", "&&", "||"}
	for n := r.IntN(4); n > 0; n-- {
		switch r.IntN(8) {
		case 0:
			op := []string{"/", " MOD ", "%"}[r.IntN(3)]
			fmt.Fprintf(&b, "%s(%s OR 1)", op, genOperand(r, depth))
		case 1:
			op := []string{" SHL ", " SHR ", "<<", ">>"}[r.IntN(4)]
			fmt.Fprintf(&b, "%s(%s AND 15)", op, genOperand(r, depth))
		default:
			b.WriteString(binops[r.IntN(len(binops))])
			b.WriteString(genOperand(r, depth))
		}
	}
	if depth > 0 && r.IntN(6) == 0 {
		return fmt.Sprintf("(%s) ? (%s) : (%s)", b.String(), genExpr(r, depth-1), genExpr(r, depth-1))
	}
	return b.String()
}

func genOperand(r *rand.Rand, depth int) string {
	if depth > 0 && r.IntN(3) == 0 {
		return "(" + genExpr(r, depth-1) + ")"
	}
	switch r.IntN(8) {
	case 0:
		return fmt.Sprintf("0%XH", r.IntN(0x10000))
	case 1:
		return fmt.Sprintf("$%X", r.IntN(0x10000))
	case 2:
		return fmt.Sprintf("%%%b", r.IntN(256))
	case 3:
		return "'" + string(rune('A'+r.IntN(26))) + "'"
	case 4:
		return []string{"$", "sym1", "sym2", "fwd"}[r.IntN(4)]
	case 5:
		return fmt.Sprintf("%d", r.IntN(70000)%65536)
	default:
		return fmt.Sprintf("%d", r.IntN(20))
	}
}

// TestExpressionsAgainstPasmo evaluates a few thousand random expressions
// with both assemblers.
func TestExpressionsAgainstPasmo(t *testing.T) {
	needTool(t, "pasmo")
	r := rand.New(rand.NewPCG(1990, 4))
	var b strings.Builder
	b.WriteString("\torg 1234h\nsym1\tequ 0FFF0h\nsym2\tequ 7\n")
	var exprs []string
	for i := 0; i < 3000; i++ {
		e := genExpr(r, 3)
		exprs = append(exprs, e)
		fmt.Fprintf(&b, "\tdw %s\n", e)
	}
	b.WriteString("fwd:\tnop\n")
	src := b.String()
	res, err := AssembleString(src, Options{})
	require.NoError(t, err)
	want, err := runPasmo(t.TempDir(), src)
	if err != nil {
		var n int
		if i := strings.Index(err.Error(), "on line "); i >= 0 {
			fmt.Sscanf(err.Error()[i+8:], "%d", &n)
		}
		if lines := strings.Split(src, "\n"); n > 0 && n <= len(lines) {
			t.Fatalf("%v\nline %d: %s", err, n, lines[n-1])
		}
		t.Fatal(err)
	}
	require.Equal(t, len(want), len(res.Bytes))
	bad := 0
	for i, e := range exprs {
		g := res.Bytes[2*i : 2*i+2]
		w := want[2*i : 2*i+2]
		if !assert.Equal(t, w, g, "dw %s", e) {
			if bad++; bad > 10 {
				break
			}
		}
	}
}

// TestRandomProgramsAgainstPasmo mixes instruction forms with labels and
// jumps forward and backward, EQUs defined after use and data referring to
// labels, and compares the image with pasmo's.
func TestRandomProgramsAgainstPasmo(t *testing.T) {
	needTool(t, "pasmo")
	forms := genInstructions()[1:] // without the "lab:" line; lab is an EQU here
	for seed := uint64(1); seed <= 3; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 77))
			var b strings.Builder
			fmt.Fprintf(&b, "\torg %d\n", r.IntN(0x8000))
			const n = 2000
			for i := 0; i < n; i++ {
				if i%5 == 0 {
					fmt.Fprintf(&b, "L%d:", i/5)
				}
				near := func() int {
					j := i/5 + r.IntN(9) - 4
					return min(max(j, 0), n/5-1)
				}
				switch r.IntN(10) {
				case 0:
					fmt.Fprintf(&b, "\tjr nz,L%d\n", near())
				case 1:
					fmt.Fprintf(&b, "\tdjnz L%d\n", near())
				case 2:
					fmt.Fprintf(&b, "\tcall L%d\n", r.IntN(n/5))
				case 3:
					fmt.Fprintf(&b, "\tdw L%d, K%d-L%d, $\n", r.IntN(n/5), r.IntN(20), r.IntN(n/5))
				case 4:
					fmt.Fprintf(&b, "\tld hl,K%d*2+L%d\n", r.IntN(20), r.IntN(n/5))
				default:
					b.WriteString(forms[r.IntN(len(forms))] + "\n")
				}
			}
			b.WriteString("lab\tequ 0C000h\n")
			for k := 0; k < 20; k++ {
				fmt.Fprintf(&b, "K%d\tequ %d\n", k, r.IntN(4096))
			}
			src := b.String()
			res, err := AssembleString(src, Options{})
			require.NoError(t, err)
			want, err := runPasmo(t.TempDir(), src)
			require.NoError(t, err)
			if !assert.Equal(t, want, res.Bytes) {
				t.Log(firstDiff(res, want))
			}
		})
	}
}
