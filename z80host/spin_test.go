package z80host

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/asm"
)

// pollBus is RAM with one port whose value changes at given T-states, as
// a device's status does at its events. It logs every In.
type pollBus struct {
	*ramBus
	port    uint8
	changes []portChange // ascending
	log     []inCall
}

type portChange struct {
	at uint64 // from this T-state on
	v  uint8
}

type inCall struct {
	port uint16
	t    uint64
	v    uint8
}

func (b *pollBus) value(port uint16, t uint64) uint8 {
	if uint8(port) != b.port {
		return 0xff
	}
	v := uint8(0)
	for _, c := range b.changes {
		if t >= c.at {
			v = c.v
		}
	}
	return v
}

func (b *pollBus) In(port uint16, t uint64) (uint8, int) {
	v := b.value(port, t)
	b.log = append(b.log, inCall{port, t, v})
	return v, 0
}

// steadyPollBus adds the hint: steady until the next change.
type steadyPollBus struct{ *pollBus }

func (b steadyPollBus) SteadyUntil(port uint8, t uint64) uint64 {
	if port != b.port {
		return 0
	}
	for _, c := range b.changes {
		if c.at > t {
			return c.at
		}
	}
	return ^uint64(0)
}

// pollLoops are loops that wait for a port: the first shaped like
// scsilib's status poll (roms/scsilib: read, mask, compare, count a
// timeout in HL' through a subroutine that returns NZ until it runs out),
// the others using the rest of the instructions replay executes. Port 25h
// changes at random times in the test; each loop leaves, or changes its
// path, on some values.
// pollTick is scsilib's timeout count: NZ until HL' runs out.
const pollTick = `
tick:	exx
	dec hl
	ld a,h
	or l
	exx
	ret nz
	scf
	ret`

var pollLoops = []string{`
	ld sp,0f000h
	exx
	ld hl,0
	exx
loop:	in a,(25h)
	and 7ch
	cp 4ch
	jr z,done
	call tick
	jr nc,loop
	halt
done:	halt
` + pollTick, `
	ld hl,0
	ld c,25h
poll:	in e,(c)
	bit 3,e
	jr nz,quit
	inc hl
	ld a,h
	or l
	jp nz,poll
quit:	halt`, `
	ld bc,4000h
poll:	in a,(25h)
	rra
	jr c,quit
	djnz poll
	dec c
	jp nz,poll
quit:	halt`, `
	ld sp,8000h
poll:	in a,(25h)
	xor 55h
	ex af,af'
	inc e
	ex de,hl
	ex de,hl
	ex af,af'
	or a
	call z,back
	rlca
	rrca
	rla
	nop
	inc de
	dec bc
	ld a,d
	or e
	jr nz,poll
	halt
back:	ret`, `
	ld sp,8000h
poll:	in a,(25h)
	cp 1
	ret z
	ld l,a
	inc h
	dec l
	ld a,h
	and 3fh
	jp nz,poll
	jr poll`, `
	ld sp,8000h
	ld hl,poll
	push hl
poll:	in a,(25h)
	and 80h
	ret m
	jp pe,poll
	call c,0
	jr poll`, `
	ld sp,8000h
	ld hl,0
poll:	in a,(25h)
	cp 80h
	jr z,quit
	ld e,3
	ld d,h
	ld a,l
	or e
	ld d,7
	inc hl
	ld b,a
	jr poll
quit:	halt`,
}

func assemble(t testing.TB, src string) *asm.Result {
	t.Helper()
	r, err := asm.AssembleString("\torg 0\n"+src+"\n", asm.Options{})
	require.NoError(t, err)
	return r
}

// runPoll runs prog on a pollBus (with the hint or without) in chunks
// ending at the given limits and returns the final state and the Ins.
func runPoll(prog []byte, changes []portChange, limits []uint64, steady bool) (State, []inCall, ReplayStats) {
	pb := &pollBus{ramBus: newRAMBus(), port: 0x25, changes: changes}
	pb.load(0, prog)
	var bus Bus = pb
	if steady {
		bus = steadyPollBus{pb}
	}
	c := New(bus)
	for _, l := range limits {
		c.Run(l)
	}
	return c.State(), pb.log, c.Replay()
}

// Replay leaves every register, the T-state and every In (port, T-state,
// value) as Run without it, wherever the port changes and the runs end.
func TestReplayChangesNothing(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for pi, src := range pollLoops {
		prog := assemble(t, src).Bytes
		var replayed uint64
		for trial := 0; trial < 100; trial++ {
			var changes []portChange
			at := uint64(0)
			for range 1 + rng.Intn(5) {
				at += uint64(rng.Intn(200_000))
				changes = append(changes, portChange{at, uint8(rng.Intn(256))})
			}
			var limits []uint64
			l := uint64(0)
			for range 1 + rng.Intn(6) {
				l += uint64(1 + rng.Intn(300_000))
				limits = append(limits, l)
			}
			name := fmt.Sprintf("prog %d trial %d", pi, trial)
			want, wantLog, none := runPoll(prog, changes, limits, false)
			got, gotLog, st := runPoll(prog, changes, limits, true)
			require.Zero(t, none.Iterations, name)
			require.Equal(t, want, got, name)
			require.Equal(t, wantLog, gotLog, name)
			assert.Zero(t, st.Rejected, name)
			replayed += st.Iterations
		}
		assert.Greater(t, replayed, uint64(10_000), "loop %d: replay must have run", pi)
	}
}

// fixedInBus answers every In with v and keeps the T-state it was asked at.
type fixedInBus struct {
	*ramBus
	v   uint8
	inT uint64
	ins int
}

func (b *fixedInBus) In(port uint16, t uint64) (uint8, int) {
	b.inT, b.ins = t, b.ins+1
	return b.v, 0
}

// Each instruction replay executes gives what Step gives: every register,
// R, MEMPTR, Q, the T-state and the T-state of its IN cycle. The inputs
// its flags depend on are swept whole (A and the operand, or the operand
// and F), the other registers are random; a CALL whose push would change
// memory is refused with nothing changed.
func TestReplayOpsMatchStep(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	bus := &fixedInBus{ramBus: newRAMBus()}
	c := New(bus)
	const pc = 0x4000
	kinds := map[uint8]int{}
	for enc := 0; enc < 3*256; enc++ {
		b0, b1 := uint8(enc), uint8(rng.Intn(256))
		switch enc >> 8 {
		case 1:
			b0, b1 = 0xcb, uint8(enc)
		case 2:
			b0, b1 = 0xed, uint8(enc)
		}
		bus.load(pc, []byte{b0, b1, uint8(rng.Intn(256)), 0})
		op, ok := c.spinDecodeOne(pc)
		if !ok {
			continue
		}
		kinds[op.kind]++
		sweep := 0 // inputs: 1 A and operand, 2 operand and F, 3 F and B
		switch op.kind {
		case skALU:
			sweep = 1
		case skINC, skDEC, skBIT, skRot, skINn, skINrC:
			sweep = 2
		case skJRcc, skJPcc, skCALLcc, skRETcc, skDJNZ:
			sweep = 3
		}
		// The whole sweep where the operand is B, A or an immediate;
		// the other registers are routed alike, so a sample of it.
		n, whole := 2000, false
		if sweep != 0 {
			n, whole = 4096, true
			if (op.kind == skALU && op.b != rB && op.b != rA && op.b != 0xff) ||
				((op.kind == skINC || op.kind == skDEC || op.kind == skBIT || op.kind == skINrC) && op.a != rB && op.a != rA) {
				whole = false
			} else {
				n = 65536
			}
		}
		for i := 0; i < n; i++ {
			r := Regs{
				AF: uint16(rng.Intn(65536)), BC: uint16(rng.Intn(65536)), DE: uint16(rng.Intn(65536)), HL: uint16(rng.Intn(65536)),
				AltAF: uint16(rng.Intn(65536)), AltBC: uint16(rng.Intn(65536)), AltDE: uint16(rng.Intn(65536)), AltHL: uint16(rng.Intn(65536)),
				IX: uint16(rng.Intn(65536)), IY: uint16(rng.Intn(65536)), SP: 0x8000 + uint16(rng.Intn(0x4000)), PC: pc,
				I: uint8(rng.Intn(256)), R: uint8(rng.Intn(256)), IM: 1, MEMPTR: uint16(rng.Intn(65536)), Q: uint8(rng.Intn(256)),
			}
			bus.v = uint8(rng.Intn(256))
			x, y := uint8(i>>8), uint8(i)
			if !whole {
				x, y = uint8(rng.Intn(256)), uint8(rng.Intn(256))
			}
			switch sweep {
			case 1:
				r.AF = uint16(x)<<8 | r.AF&0xff
				if op.b == 0xff {
					bus.load(pc+1, []byte{y})
				} else {
					setSpinReg(&r, op.b, y)
				}
			case 2:
				r.AF = r.AF&0xff00 | uint16(y)
				switch op.kind {
				case skINn, skINrC:
					bus.v = x
				case skRot:
					r.AF = uint16(x)<<8 | uint16(y)
				default:
					setSpinReg(&r, op.a, x)
				}
			case 3:
				r.AF = r.AF&0xff00 | uint16(x)
				r.BC = uint16(y)<<8 | r.BC&0xff
			}
			refuse := false
			if op.kind == skCALL || op.kind == skCALLcc {
				ret := uint16(pc) + uint16(op.len)
				if rng.Intn(8) == 0 {
					ret ^= 1 << uint(rng.Intn(16))
					refuse = true
				}
				bus.load(r.SP-2, []byte{uint8(ret), uint8(ret >> 8)})
			} else {
				bus.load(r.SP, []byte{uint8(rng.Intn(256)), uint8(rng.Intn(256))})
			}
			bus.load(pc, op.code[:op.len])
			c.SetRegs(r)
			c.SetT(1000)
			op, _ = c.spinDecodeOne(pc)
			var st spinRegs
			c.spinLoad(&st)
			before := st
			n, status := c.spinRun(&st, []spinOp{op}, &spinSource{v: []uint8{bus.v}, w: []uint8{0}}, 0, true)
			done := n == 1 && status == spinOK
			bus.ins = 0
			c.Step()
			if refuse && (op.kind == skCALL || condition(uint8(r.AF), op.a)) {
				require.False(t, done, "%x %x: a push that changes memory", b0, b1)
				require.Equal(t, before, st, "%x %x: refused, unchanged", b0, b1)
				continue
			}
			require.True(t, done, "%x %x", b0, b1)
			var want spinRegs
			c.spinLoad(&want)
			require.Equal(t, want, st, "%x %x from %+v", b0, b1, r)
			if bus.ins != 0 {
				require.Equal(t, bus.inT, before.t+uint64(op.io), "%x %x: the IN cycle", b0, b1)
			}
		}
	}
	// Every kind was met: LD r,r' and LD r,n, the four ALU forms, INC,
	// DEC, INC rr, DEC rr, the rotates, the exchanges, the jumps, calls
	// and returns, both INs and BIT.
	assert.Len(t, kinds, skBIT+1)
}

// setSpinReg sets the register in slot i (B C D E H L F A) in r.
func setSpinReg(r *Regs, i, v uint8) {
	p := []*uint16{&r.BC, &r.DE, &r.HL, &r.AF}[i/2]
	if i == rF || i == rA {
		p = &r.AF
	}
	hi := i%2 == 0
	if i == rF {
		hi = false
	}
	if i == rA {
		hi = true
	}
	if hi {
		*p = uint16(v)<<8 | *p&0xff
	} else {
		*p = *p&0xff00 | uint16(v)
	}
}

// benchPoll is pollLoops[0] waiting for ever: the timeout starts again.
const benchPoll = `
	ld sp,0f000h
poll0:	exx
	ld hl,0
	exx
poll:	in a,(25h)
	and 7ch
	cp 4ch
	jr z,done
	call tick
	jr nc,poll
	jr poll0
done:	halt
` + pollTick

// BenchmarkReplayPoll runs scsilib's poll shape on a port that never
// changes, with the Bus's hint (replay) and without (every iteration
// through koron).
func BenchmarkReplayPoll(b *testing.B) {
	prog := assemble(b, benchPoll).Bytes
	for _, steady := range []bool{false, true} {
		b.Run(fmt.Sprintf("replay=%v", steady), func(b *testing.B) {
			pb := &pollBus{ramBus: newRAMBus(), port: 0x25}
			pb.load(0, prog)
			var bus Bus = &noLogBus{pb}
			if steady {
				bus = steadyNoLog{&noLogBus{pb}}
			}
			c := New(bus)
			rate(b, func() float64 {
				for i := 0; i < b.N; i++ {
					c.Run(c.T() + benchChunk)
				}
				return float64(c.T())
			})
			b.ReportMetric(float64(c.Replay().Iterations)*94/float64(c.T()), "replayed")
		})
	}
}

// noLogBus is pollBus without the log (a benchmark would measure append).
type noLogBus struct{ *pollBus }

func (b *noLogBus) In(port uint16, t uint64) (uint8, int) { return b.value(port, t), 0 }

type steadyNoLog struct{ *noLogBus }

func (b steadyNoLog) SteadyUntil(port uint8, t uint64) uint64 { return ^uint64(0) }

// A plan skips what every iteration computes alike: scsilib's poll runs
// 8 of its 12 instructions (not the mask, the compare, the JR Z on the
// port's value and the CALL; of the RET NZ and the JR NC only the
// condition), and the last loop needs a value stored before an
// instruction and two at the end of the iteration.
func TestReplayPlanSkips(t *testing.T) {
	for _, tc := range []struct {
		loop       int
		path, fast int
		pre, ends  int
	}{
		{0, 12, 8, 0, 1}, // MEMPTR: the JR NC is only checked
		{6, 11, 6, 1, 2}, // D and MEMPTR (the JR is skipped, the IN sets it)
	} {
		pb := &pollBus{ramBus: newRAMBus(), port: 0x25}
		pb.load(0, assemble(t, pollLoops[tc.loop]).Bytes)
		c := New(steadyPollBus{pb})
		c.Run(2_000_000)
		s := c.spin
		require.True(t, s.planned, "loop %d", tc.loop)
		assert.Len(t, s.path, tc.path, "loop %d", tc.loop)
		assert.Len(t, s.fast, tc.fast, "loop %d", tc.loop)
		pre := 0
		for _, op := range s.fast {
			pre += int(op.npre)
		}
		assert.Equal(t, tc.pre, pre, "loop %d: pre-stores", tc.loop)
		assert.Len(t, s.ends, tc.ends, "loop %d: end stores", tc.loop)
		assert.Greater(t, c.Replay().Iterations, uint64(10_000), "loop %d", tc.loop)
	}
}
