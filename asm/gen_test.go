package asm

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// genInstructions writes every instruction form with edge operands, in the
// syntax pasmo accepts (SUB B, ADD A,B, ...). Forms pasmo lacks are tested
// against a golden table instead (undocTable).
func genInstructions() []string {
	var out []string
	add := func(f string, a ...any) { out = append(out, "\t"+fmt.Sprintf(f, a...)) }
	r8 := []string{"b", "c", "d", "e", "h", "l", "a"}
	disps := []string{"", "+0", "+1", "+127", "-128", "-1", "+7Fh", "-80h"}
	imm8 := []string{"0", "1", "7Fh", "80h", "0FFh", "-1", "-128", "'A'", "%1010", "$3C"}
	imm16 := []string{"0", "1", "1234h", "0FFFFh", "-1", "lab", "lab+1", "$"}
	idx := []string{"ix", "iy"}
	var mems []string
	mems = append(mems, "(hl)")
	for _, x := range idx {
		for _, d := range disps {
			mems = append(mems, "("+x+d+")")
		}
	}
	out = append(out, "lab:\tnop")
	for _, d := range r8 {
		for _, s := range r8 {
			add("ld %s,%s", d, s)
		}
		for _, m := range mems {
			add("ld %s,%s", d, m)
			add("ld %s,%s", m, d)
		}
		for _, n := range imm8 {
			add("ld %s,%s", d, n)
		}
	}
	for _, x := range idx {
		hl := []string{x + "h", x + "l"}
		for _, h := range hl {
			for _, s := range []string{"b", "c", "d", "e", "a", hl[0], hl[1]} {
				add("ld %s,%s", h, s)
				if s != hl[0] && s != hl[1] {
					add("ld %s,%s", s, h)
				}
			}
			for _, n := range imm8 {
				add("ld %s,%s", h, n)
			}
		}
	}
	for _, m := range mems {
		for _, n := range imm8 {
			add("ld %s,%s", m, n)
		}
	}
	add("ld a,(bc)")
	add("ld a,(de)")
	add("ld (bc),a")
	add("ld (de),a")
	for _, n := range imm16 {
		add("ld a,(%s)", n)
		add("ld (%s),a", n)
		for _, rr := range []string{"bc", "de", "hl", "sp", "ix", "iy"} {
			add("ld %s,%s", rr, n)
			add("ld %s,(%s)", rr, n)
			add("ld (%s),%s", n, rr)
		}
	}
	add("ld a,i")
	add("ld a,r")
	add("ld i,a")
	add("ld r,a")
	add("ld sp,hl")
	add("ld sp,ix")
	add("ld sp,iy")
	for _, rr := range []string{"bc", "de", "hl", "af", "ix", "iy"} {
		add("push %s", rr)
		add("pop %s", rr)
	}
	add("ex de,hl")
	add("ex af,af'")
	add("ex (sp),hl")
	add("ex (sp),ix")
	add("ex (sp),iy")
	srcs := append([]string{}, r8...)
	srcs = append(srcs, "ixh", "ixl", "iyh", "iyl")
	srcs = append(srcs, mems...)
	srcs = append(srcs, imm8...)
	for _, op := range []string{"add", "adc", "sbc"} {
		for _, s := range srcs {
			add("%s a,%s", op, s)
		}
	}
	for _, op := range []string{"sub", "and", "xor", "or", "cp"} {
		for _, s := range srcs {
			add("%s %s", op, s)
		}
	}
	for _, rr := range []string{"bc", "de", "hl", "sp"} {
		add("add hl,%s", rr)
		add("adc hl,%s", rr)
		add("sbc hl,%s", rr)
	}
	for _, x := range idx {
		for _, rr := range []string{"bc", "de", x, "sp"} {
			add("add %s,%s", x, rr)
		}
	}
	for _, op := range []string{"inc", "dec"} {
		for _, s := range append(append([]string{}, srcs[:11+len(mems)]...), "bc", "de", "hl", "sp", "ix", "iy") {
			add("%s %s", op, s)
		}
	}
	cbsrc := append(append([]string{}, r8...), mems...)
	for _, op := range []string{"rlc", "rrc", "rl", "rr", "sla", "sra", "sll", "srl"} {
		for _, s := range cbsrc {
			add("%s %s", op, s)
		}
	}
	for _, op := range []string{"bit", "res", "set"} {
		for b := 0; b < 8; b++ {
			for _, s := range cbsrc {
				add("%s %d,%s", op, b, s)
			}
		}
	}
	conds := []string{"nz", "z", "nc", "c", "po", "pe", "p", "m"}
	for _, n := range imm16 {
		add("jp %s", n)
		add("call %s", n)
		for _, c := range conds {
			add("jp %s,%s", c, n)
			add("call %s,%s", c, n)
		}
	}
	add("jp (hl)")
	add("jp (ix)")
	add("jp (iy)")
	for _, t := range []string{"$", "$+2", "$+129", "$-126"} {
		add("jr %s", t)
		add("djnz %s", t)
		for _, c := range conds[:4] {
			add("jr %s,%s", c, t)
		}
	}
	add("ret")
	for _, c := range conds {
		add("ret %s", c)
	}
	for p := 0; p < 0x40; p += 8 {
		add("rst %d", p)
	}
	add("rst 38h")
	add("im 0")
	add("im 1")
	add("im 2")
	for _, r := range r8 {
		add("in %s,(c)", r)
		add("out (c),%s", r)
	}
	for _, n := range []string{"0", "1", "7Fh", "0FFh"} {
		add("in a,(%s)", n)
		add("out (%s),a", n)
	}
	for _, k := range []string{"NOP", "RLCA", "RRCA", "RLA", "RRA", "DAA", "CPL", "SCF", "CCF", "HALT", "EXX", "DI", "EI",
		"NEG", "RETN", "RETI", "RRD", "RLD", "LDI", "CPI", "INI", "OUTI", "LDD", "CPD", "IND", "OUTD",
		"LDIR", "CPIR", "INIR", "OTIR", "LDDR", "CPDR", "INDR", "OTDR"} {
		add("%s", k)
		add("%s", strings.ToLower(k))
	}
	return out
}

// undocTable holds forms pasmo does not accept, with bytes from the Zilog
// opcode map (DD/FD CB d copies, IN F,(C), OUT (C),0) and lbplus extensions.
var undocTable = []struct{ src, hex string }{
	{"in f,(c)", "ED70"},
	{"in (c)", "ED70"},
	{"out (c),0", "ED71"},
	{"sli b", "CB30"},
	{"sl1 (hl)", "CB36"},
	{"rlc (ix+3),b", "DDCB0300"},
	{"rrc (iy-2),c", "FDCBFE09"},
	{"rl (ix+0),d", "DDCB0012"},
	{"rr (ix+1),e", "DDCB011B"},
	{"sla (ix+1),h", "DDCB0124"},
	{"sra (ix+1),l", "DDCB012D"},
	{"sll (ix+1),a", "DDCB0137"},
	{"srl (iy+127),a", "FDCB7F3F"},
	{"res 1,(iy-2),a", "FDCBFE8F"},
	{"set 7,(ix+5),b", "DDCB05F8"},
	{"bit 0,(ix+1),b", "DDCB0140"},
	{"sub a,b", "90"},
	{"and a,(hl)", "A6"},
	{"cp a,5", "FE05"},
	{"add b", "80"},
	{"adc 5", "CE05"},
	{"sbc (ix+1)", "DD9E01"},
	{"jp hl", "E9"},
	{"jp ix", "DDE9"},
	{"ld a,[hl]", "7E"},
	{"ld a,[ix+2]", "DD7E02"},
	{"ld a,[1234h]", "3A3412"},
}

// runPasmo assembles src with pasmo and returns the binary.
func runPasmo(dir, src string, args ...string) ([]byte, error) {
	in := filepath.Join(dir, "in.asm")
	out := filepath.Join(dir, "out.bin")
	if err := os.WriteFile(in, []byte(src), 0o644); err != nil {
		return nil, err
	}
	cmd := exec.Command("pasmo", append(append(args, "--bin"), in, out)...)
	msg, err := cmd.CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("pasmo: %v: %s", err, msg)
	}
	return os.ReadFile(out)
}
