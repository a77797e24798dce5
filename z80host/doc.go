// Package z80host is a cycle-exact Z80A: koron-go/z80 v0.10.2 supplies the
// instruction semantics, z80host owns time and the bus.
//
// # Timing
//
// Every memory and I/O access reaches the Bus at the absolute T-state at
// which its machine cycle starts (the FUSE test-vector convention; the
// cycle positions come from package optable, [F Z80UM] counts). I/O cycles
// carry the full 16-bit port address (A on A15-A8 for IN A,(n)/OUT (n),A,
// B for the (C) forms; B before the decrement for INI/IND, after it for
// OUTI/OUTD, docs/HARDWARE.md 2.1) and include the automatic wait state; extra
// wait states a device returns stretch the instruction and every later
// access in it. Conditional and repeating forms take their two counts
// (JR cc 12/7, DJNZ 13/8, CALL cc 17/10, RET cc 11/5, LDIR/CPIR/INIR/OTIR
// 21/16).
//
// Interrupts (docs/HARDWARE.md 2.2): /INT is a level (SetINT), accepted before
// an instruction when IFF1 = 1 and the previous instruction was not EI.
// The acknowledge is an M1 cycle with two automatic waits; IFF1 and IFF2 are
// cleared. IM 0 with RST p 13 T, IM 1 13 T to 0038h, IM 2 19 T through the
// word at I*256 + the byte the daisy chain returns from Acknowledge (bit 0
// not masked). NMI (edge) 11 T to 0066h with IFF2 keeping IFF1. HALT leaves
// PC after the HALT opcode, so the interrupt returns past it. RETI (ED 4D)
// calls InterruptAck.RETI at the T-state the 4Dh byte is fetched, and
// restores IFF1 from IFF2 as RETN does.
//
// # How it wraps koron
//
// z80host fetches the opcode and prefix bytes itself (for DDCB/FDCB also
// the displacement and the final opcode), picks the instruction's cycle
// list, then lets koron execute it from a buffer holding those bytes.
// koron's later Memory.Get/Set calls are mapped in order onto the remaining
// cycles; a 16-bit store that the Z80 makes high byte first (PUSH, CALL, RST,
// EX (SP),HL) is reordered by address, because koron's order varies. koron is
// not forked; instructions it gets wrong or lacks are executed here: every
// I/O instruction (port address, INI/IND reading port C rather than B,
// block-I/O flags per [F Young]), HALT, EI (one-instruction delay), the
// undefined ED opcodes (8 T no-ops), IN F,(C), OUT (C),0, and a DD/FD
// prefix before an opcode that does not use HL (a 4 T no-op, taken within
// the same Step so nothing comes between prefix and opcode). ED duplicates
// (NEG, RETN, IM) and the DDCB/FDCB register-copy forms are fed to koron as
// their documented twin and then completed. After koron runs, z80host fixes
// R (koron counts prefixes differently), the MEMPTR (WZ) register, the flags
// that show it (BIT n,(HL), BIT n,(IX+d)), and flags 3/5 of SCF/CCF
// (A OR (F AND NOT Q), Q being the flags the previous instruction computed,
// as on Zilog NMOS parts; with Q = 0 this is FUSE's A OR F), the flags of a
// repeating block instruction (5 and 3 from PC; H and P/V of the I/O forms
// from B, per the 2018 analysis of interrupted block instructions,
// docs/HARDWARE.md 2.4), and clears P/V when an interrupt is accepted right
// after LD A,I / LD A,R (the NMOS quirk). koron's IO interface and
// interrupt fields are never used.
//
// # State
//
// State and SetState carry the whole CPU between instructions: every
// register including R's bit 7 and MEMPTR, the latches (Q, the EI shadow,
// the LD A,I/R P/V latch, HALT), the pending NMI edge, the /INT level and
// the T-state counter. Restoring a State into a fresh CPU on an equal Bus
// continues bit-identically (tested on random instruction streams).
//
// A Bus that also implements Pages lets plain RAM/ROM be read and written
// without a Bus call; that is the fast path the board uses.
//
// # Speed
//
// Run reads each instruction's opcode from its page (for CB, ED, DD and FD
// also the second byte) and takes one of three paths:
//
//   - plain: an unprefixed instruction koron executes exactly, with one
//     T-state count and nothing to correct (loads, ALU operations, INC/DEC,
//     PUSH/POP, EX, JP (HL), ...): koron's Step, then the T-state sum and Q;
//   - quick (quickKind): jumps, calls, returns and RST (MEMPTR = the new
//     PC), JP cc, JR/CALL/RET cc and DJNZ (their condition is read after
//     koron ran: they leave F alone), ADD/ADC/SBC HL|IX|IY,rr, (IX+d)
//     accesses, CB and ED instructions koron gets right, LDIR/LDDR:
//     koron's Step and a few operations of completion;
//   - the rest (I/O, HALT, EI, undefined ED, DDCB, SCF/CCF, the (nn) and
//     (BC)/(DE) loads, an opcode byte on the Bus): execBase and execFull,
//     with the prefetch buffer described above.
//
// On the first two koron's Memory is plainMem: koron's re-read of the
// opcode comes from the page again, and each access is only counted (the
// count is the cycle a Bus access would need the time of) and served from
// its page. While no page is nil (below), pagedMem serves every access
// without the count; while the read pages are one array's (FlatMemory)
// and a write page is the Bus's (a watched write), readFlatMem reads the
// array and counts. Only an access that reaches the Bus computes its
// T-state.
//
// The no-Bus loop (runNoBus): while no page is nil (a FlatMemory Bus, so
// it reports every change of its tables) no memory access can reach the
// Bus, so none needs its time, none can lower the limit or raise /INT,
// and nothing needs counting. With no Hook, Run then stays in one loop
// that keeps T and Q in locals and looks each instruction up once
// (fastOps, four bytes an opcode: the completion, both T-state counts,
// the Q mask; for CB, ED, DD and FD a second lookup with the next byte):
// the plain and quick instructions above and, because nothing can reach
// the Bus between koron's accesses, also EX (SP),HL|IX|IY, the (nn) and
// (BC)/(DE) loads and stores (nn read before koron runs), SCF/CCF,
// BIT n,(HL) and RLD/RRD. I/O, HALT, EI, DDCB, LD A,I/R and the
// substituted forms leave the loop for one instruction of the general
// path. koron's Memory there is pagedMem, a copy of the page tables that
// PagesChanged keeps: two loads an access, on the ROM overlay and on flat
// RAM alike (on flat RAM it measured some 5 % faster on W2 than indexing
// the array directly, for reasons not found).
//
// Loop replay (spin.go): a program waiting for a device spends most of
// its time in a few instructions that read a port, test it, count a
// timeout and jump back. On a Bus that implements SteadyBus, when Run
// comes back to the same IN A,(n) or IN r,(C) and the Bus says the port
// will not change for at least eight more iterations, Run records the
// next iteration as koron executes it. At the arrival after that it
// decodes the instructions from the IN back to it and checks the
// decode: run from the recorded state on the recorded port values, it
// must end in exactly the state koron reached (every register, R,
// MEMPTR, Q, T). Then it repeats the decoded loop itself while whole
// iterations fit before its limit and the Bus's horizon, making the
// same Bus calls (the IN cycles) at the same T-states. Only a small set
// of instructions is decoded (LD r,r' and r,n; AND/XOR/OR/CP r and n;
// INC/DEC r and rr; the four rotates of A; EXX, EX AF,AF', EX DE,HL; JR,
// JP, CALL and RET with and without conditions, DJNZ; IN A,(n), IN
// r,(C); BIT b,r), whose effects TestReplayOpsMatchStep compares with
// Step's over their whole input ranges. An iteration that does not go as
// the checked one did (another branch, another port value, a wait, a
// return to elsewhere, a push that would change memory, /INT, NMI, a new
// limit or new pages after a Bus call) is executed again from its start,
// instruction by instruction, up to that point, and Run takes over
// there. A plan made from the checked iteration (spinPlan) lets replay
// skip what every iteration computes alike: only the INs, what reads a
// value that changes from one iteration to the next (a counter and what
// is computed from it) and the conditions of the branches on those are
// executed, with the checked iteration's values stored where a skipped
// instruction's result is read or must be restored. TestReplayChangesNothing
// runs loops of every kind on a port that changes at random times and
// compares every register and every In with Run's without replay.
//
// `lbplus bench speed` measures the idle board and z80host alone against
// koron's bare Step loop on its own array in one run (docs/PERFORMANCE.md
// has the tables). With the no-Bus loop and a profile of it
// (cmd/lbplus/default.pgo), in alternating runs on a shared 2-core host
// (2026-12-02, nine runs of each build alternating, medians): W1 from RAM
// 1.11, from the ROM overlay 1.10, W2 from RAM 1.01, from the ROM 1.01
// (before: 1.08, 0.94, 0.91, 0.88);
// ratios above 1 come from the profile, which inlines along z80host's
// loop and not along the bare loop. BenchmarkPeerSideBySide measures the
// peer workload the same way inside go test (without the profile).
//
// The remaining cost is the wrapping itself, which the design keeps (koron
// is the instruction engine and is not forked): every instruction is
// looked up twice (z80host's 4-byte fastOps entry, koron's switch), the
// loop keeps time and Q per instruction, and every access koron makes is
// an interface call, as on bare koron: koron cannot import z80host's
// types, so a profile cannot devirtualise those calls.
//
// # Verification
//
// The FUSE core test vectors (1356 tests: final registers including MEMPTR,
// final T-state, the time of every MR/MW/PR/PW event) all pass, except that
// on a repeating LDxR/CPxR/INxR/OTxR iteration the flags and MEMPTR that
// the 2018 analysis corrected are checked by z80host's own vectors
// instead; ZEXDOC and ZEXALL pass through z80host (make test-zex); a sweep
// checks every opcode's accesses against its cycle list, and another that
// serving a random half of memory from pages leaves the Bus accesses of
// the other half and their T-states unchanged.
//
// The SingleStepTests z80 v1 vectors (1,604,000 single instructions, run
// locally by TestSingleStepTests with LBPLUS_SST set to their folder; they
// are not in the repository) match on registers, MEMPTR,
// Q, the EI and LD A,I/R latches, memory and T-state count, alike through
// Step and through Run on paged and on flat memory, except 885 cases of
// DD 37, DD 3F, FD 37 and FD 3F: the vectors let Q pass through the
// prefix, the Zilog part clears it (docs/HARDWARE.md 2.4;
// TestPrefixedSCFCCFClearQ).
//
// # Known inaccuracies / assumptions
//
//   - While halted the CPU performs 4 T M1 cycles at PC (the address after
//     HALT; real chips fetch there and ignore the byte [A]); Step presents
//     them to the Bus, Run skips to its limit without Bus calls when no
//     interrupt can be taken. FUSE keeps PC on the HALT opcode instead; the
//     pushed return address (HALT+1) is the same.
//   - IM 0 executes one-byte opcodes from the data bus (RST p is what Z80
//     peripherals supply); a multi-byte opcode would read its operands from
//     memory at PC instead of from the bus [A].
//   - Memory cycles cannot be stretched by WAIT (the Bus memory methods
//     return no wait count); only I/O cycles can.
//   - INT and NMI are sampled when Step begins, i.e. after the previous
//     instruction, which equals sampling at its last T-state only if the
//     board raises them no later than the end of that instruction; BUSREQ
//     is not modelled. An NMI is accepted right after EI [A].
//   - The M1 cycle of an NMI is presented to the Bus as an opcode fetch at
//     PC whose byte is ignored; the INTA cycle of INT is not a memory cycle
//     and is only seen through InterruptAck.Acknowledge.
//   - A JR cc or DJNZ that is not taken reads its displacement (M2, 3 T), as
//     the Z80 does; the FUSE harness logs no MR for it (the test accepts
//     that one difference).
//   - Q (for SCF/CCF flags 3/5) is the F an instruction leaves after
//     z80host's corrections, 0 after one that computes no flags (loads,
//     jumps, POP AF, EX AF,AF', a lone DD/FD prefix), an interrupt
//     acknowledge or a halted cycle. A prefix clearing Q was found on
//     real Zilog parts (docs/HARDWARE.md 2.4), so DD/FD SCF and CCF take
//     flags 3/5 from A OR F; the SingleStepTests vectors predate that and
//     expect Q to pass through the prefix.
//   - Where internal T-states sit inside a machine cycle rather than after
//     it (e.g. LD (IX+d),n) only the start of each bus cycle is modelled.
package z80host
