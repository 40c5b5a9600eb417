/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The store trap's emulation of a faulting store (emu_trap.c): the plain x86-64 MOV
 * forms a register or doorbell write compiles to (88, 89, C6 /0, C7 /0, with the operand size
 * and REX prefixes) are decoded and carried out through a writable second mapping of the
 * page, the trapped mapping staying read-only. While a page is writable for a single-stepped
 * store, another thread's store to it does not fault and may replace the first one before the
 * model reads it; an emulated store never opens that window. Other instructions (vector
 * stores, string moves) are not decoded: the caller single-steps them.
 */

#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "emu_trap.h"

#ifdef __x86_64__

/* The general registers in x86 encoding order, as the ucontext holds them. */
static const int emu_trap_gregs[16] = {
	REG_RAX, REG_RCX, REG_RDX, REG_RBX, REG_RSP, REG_RBP, REG_RSI, REG_RDI,
	REG_R8, REG_R9, REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15,
};

/** A decoded store: width bytes of val, the instruction len bytes long. */
struct emu_trap_insn {
	unsigned int width;
	unsigned int len;
	uint64_t val;
};

/* @return 1 and *in filled if the instruction at p is a MOV to memory this decodes, else 0. */
static int
emu_trap_decode(const uint8_t *p, const ucontext_t *uc, struct emu_trap_insn *in)
{
	unsigned int i = 0, rex = 0, opsize = 0, mod, reg, rm, imm;
	uint8_t op;
	int64_t r;

	for (;; i++) {
		/* Segment overrides change nothing here: the fault gives the linear address. */
		if (p[i] == 0x66)
			opsize = 1;
		else if (p[i] != 0x2e && p[i] != 0x3e && p[i] != 0x26 && p[i] != 0x36 &&
			 p[i] != 0x64 && p[i] != 0x65)
			break;
		if (i >= 4)
			return 0;
	}
	if ((p[i] & 0xf0) == 0x40)
		rex = p[i++];
	op = p[i++];
	if (op != 0x88 && op != 0x89 && op != 0xc6 && op != 0xc7)
		return 0;
	mod = p[i] >> 6;
	reg = ((p[i] >> 3) & 7) | ((rex & 0x4) << 1);
	rm = p[i] & 7;
	i++;
	/* A register destination never faults on memory; C6 and C7 are MOV only with /0. */
	if (mod == 3 || ((op == 0xc6 || op == 0xc7) && (reg & 7) != 0))
		return 0;
	if (rm == 4) {
		/* SIB: base 5 without displacement means a 32-bit displacement alone. */
		if (mod == 0 && (p[i] & 7) == 5)
			i += 4;
		i++;
	} else if (mod == 0 && rm == 5) {
		i += 4; /* RIP-relative */
	}
	i += mod == 1 ? 1 : mod == 2 ? 4 : 0;
	if (op == 0x88 || op == 0xc6)
		in->width = 1;
	else
		in->width = (rex & 0x8) ? 8 : opsize ? 2 : 4;
	if (op == 0x88 || op == 0x89) {
		/* Without REX, byte registers 4-7 are AH, CH, DH, BH. */
		if (in->width == 1 && rex == 0 && reg >= 4)
			in->val = (uint64_t)uc->uc_mcontext.gregs[emu_trap_gregs[reg - 4]] >> 8;
		else
			in->val = (uint64_t)uc->uc_mcontext.gregs[emu_trap_gregs[reg]];
	} else {
		imm = in->width == 1 ? 1 : in->width == 2 ? 2 : 4;
		r = 0;
		if (imm == 1)
			r = (int8_t)p[i];
		else if (imm == 2)
			r = (int16_t)(p[i] | p[i + 1] << 8);
		else
			r = (int32_t)((uint32_t)p[i] | (uint32_t)p[i + 1] << 8 |
				      (uint32_t)p[i + 2] << 16 | (uint32_t)p[i + 3] << 24);
		/* A 64-bit MOV takes the 32-bit immediate sign-extended. */
		in->val = (uint64_t)r;
		i += imm;
	}
	in->len = i;
	return 1;
}

/* The decoded store to dst. */
static void
emu_trap_put(uint8_t *dst, const struct emu_trap_insn *in)
{
	/* Release: what the program wrote before the store is visible before the store. */
	switch (in->width) {
	case 1:
		__atomic_store_n(dst, (uint8_t)in->val, __ATOMIC_RELEASE);
		break;
	case 2:
		__atomic_store_n((uint16_t *)(void *)dst, (uint16_t)in->val, __ATOMIC_RELEASE);
		break;
	case 4:
		__atomic_store_n((uint32_t *)(void *)dst, (uint32_t)in->val, __ATOMIC_RELEASE);
		break;
	default:
		__atomic_store_n((uint64_t *)(void *)dst, in->val, __ATOMIC_RELEASE);
		break;
	}
}

int
emu_trap_store(void *ucv, uintptr_t addr, uintptr_t page, size_t page_size, int in_place)
{
	ucontext_t *uc = ucv;
	struct emu_trap_insn in;
	uint8_t *alias;
	void *a;

	if (!emu_trap_decode((const uint8_t *)uc->uc_mcontext.gregs[REG_RIP], uc, &in))
		return 0;
	if ((addr & (in.width - 1)) != 0 || addr + in.width > page + page_size)
		return 0;
	if (in_place) {
		/*
		 * No second mapping (valgrind has no mremap() of old size 0): the page itself,
		 * writable for the store alone; valgrind runs one thread at a time, so no other
		 * store can land in that window.
		 */
		alias = (uint8_t *)page;
		if (mprotect(alias, page_size, PROT_READ | PROT_WRITE) != 0)
			return 0;
		emu_trap_put(alias + (addr - page), &in);
		mprotect(alias, page_size, PROT_READ);
		uc->uc_mcontext.gregs[REG_RIP] += in.len;
		return 1;
	}
	/* A second mapping of the same shared page (old size 0), made writable alone. */
	a = mremap((void *)page, 0, page_size, MREMAP_MAYMOVE);
	if (a == MAP_FAILED)
		return 0;
	alias = a;
	if (mprotect(alias, page_size, PROT_READ | PROT_WRITE) != 0) {
		syscall(SYS_munmap, alias, page_size);
		return 0;
	}
	emu_trap_put(alias + (addr - page), &in);
	/* Not the preloads' munmap(): this range was never a trapped one. */
	syscall(SYS_munmap, alias, page_size);
	uc->uc_mcontext.gregs[REG_RIP] += in.len;
	return 1;
}

#else

int
emu_trap_store(void *ucv, uintptr_t addr, uintptr_t page, size_t page_size, int in_place)
{
	(void)in_place;
	(void)ucv;
	(void)addr;
	(void)page;
	(void)page_size;
	return 0;
}

#endif
