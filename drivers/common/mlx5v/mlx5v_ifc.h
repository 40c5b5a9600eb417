/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Compiler-checked PRM layouts: bit-structs and their accessors.
 *
 * A layout is declared once as a structure in which every member is an array of one byte per
 * bit, in the order the PRM draws the fields (most significant bit of dword 0 first, see
 * prm/mlx5 §0). The compiler then computes each field's bit offset (offsetof) and width
 * (sizeof), so no offset is written by hand:
 *
 * @code
 * MLX5V_IFC(example_in) {
 *	uint8_t opcode[0x10];
 *	uint8_t reserved_at_10[0x10];
 *	uint8_t reserved_at_20[0x10];
 *	uint8_t op_mod[0x10];
 * };
 * MLX5V_IFC_SET(example_in, in, opcode, 0x801);
 * @endcode
 *
 * These structures are never instantiated: buffers are plain byte arrays of
 * MLX5V_IFC_BYTES(type) bytes in the device's big-endian format.
 *
 * A member may also be a nested layout (MLX5V_IFC(eqc) eqc;), reached with MLX5V_IFC_ADDR_OF,
 * or an array of equal elements (uint8_t pas[][0x40]; a flexible array for a list that follows
 * the fixed part), reached with the MLX5V_IFC_ARRAY_* accessors.
 */

#ifndef _MLX5V_IFC_H_
#define _MLX5V_IFC_H_

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>

/** Declare the layout type (a bit-struct; see the file comment). */
#define MLX5V_IFC(type) struct mlx5v_ifc_##type##_bits

/** Bit offset of fld in type, from the most significant bit of dword 0. */
#define MLX5V_IFC_BIT_OFF(type, fld) offsetof(MLX5V_IFC(type), fld)
/** Width of fld in bits. */
#define MLX5V_IFC_BIT_SZ(type, fld) sizeof(((MLX5V_IFC(type) *)0)->fld)
/** Size of a whole layout in bytes (and in dwords). */
#define MLX5V_IFC_BYTES(type) (sizeof(MLX5V_IFC(type)) / 8)
#define MLX5V_IFC_DWORDS(type) (sizeof(MLX5V_IFC(type)) / 32)
/** Byte offset of fld (it must start on a byte boundary). */
#define MLX5V_IFC_BYTE_OFF(type, fld) (MLX5V_IFC_BIT_OFF(type, fld) / 8)
/** Address of fld inside buffer p (arrays, nested layouts, byte strings). */
#define MLX5V_IFC_ADDR_OF(type, p, fld) ((void *)((uint8_t *)(p) + MLX5V_IFC_BYTE_OFF(type, fld)))

/*
 * Dword index, shift and mask of a field of at most 32 bits that does not cross a dword: the
 * PRM packs every such field inside one big-endian dword.
 */
#define MLX5V_IFC_DW(type, fld) (MLX5V_IFC_BIT_OFF(type, fld) / 32)
#define MLX5V_IFC_SHIFT(type, fld) \
	(32 - MLX5V_IFC_BIT_OFF(type, fld) % 32 - MLX5V_IFC_BIT_SZ(type, fld))
#define MLX5V_IFC_MASK(type, fld) \
	((uint32_t)(UINT64_C(0xffffffff) >> (32 - MLX5V_IFC_BIT_SZ(type, fld))))

/** Compile-time check that fld fits one dword (a 64-bit field uses the *64 accessors). */
#define MLX5V_IFC_CHECK32(type, fld) \
	RTE_BUILD_BUG_ON(MLX5V_IFC_BIT_SZ(type, fld) > 32 || \
			 MLX5V_IFC_BIT_OFF(type, fld) / 32 != \
			 (MLX5V_IFC_BIT_OFF(type, fld) + MLX5V_IFC_BIT_SZ(type, fld) - 1) / 32)

static inline uint32_t
mlx5v_ifc_get(const void *p, unsigned int dw, unsigned int shift, uint32_t mask)
{
	uint32_t be;

	memcpy(&be, (const uint8_t *)p + 4 * dw, sizeof(be));
	return (rte_be_to_cpu_32(be) >> shift) & mask;
}

static inline void
mlx5v_ifc_set(void *p, unsigned int dw, unsigned int shift, uint32_t mask, uint32_t v)
{
	uint32_t be, x;

	memcpy(&be, (uint8_t *)p + 4 * dw, sizeof(be));
	x = rte_be_to_cpu_32(be);
	x = (x & ~(mask << shift)) | ((v & mask) << shift);
	be = rte_cpu_to_be_32(x);
	memcpy((uint8_t *)p + 4 * dw, &be, sizeof(be));
}

/** Read field fld (<= 32 bits) of layout type from the big-endian buffer p. */
#define MLX5V_IFC_GET(type, p, fld) __extension__ ({ \
	MLX5V_IFC_CHECK32(type, fld); \
	mlx5v_ifc_get((p), MLX5V_IFC_DW(type, fld), MLX5V_IFC_SHIFT(type, fld), \
		      MLX5V_IFC_MASK(type, fld)); })

/** Write v into field fld (<= 32 bits) of layout type in p; other bits stay. */
#define MLX5V_IFC_SET(type, p, fld, v) do { \
	MLX5V_IFC_CHECK32(type, fld); \
	mlx5v_ifc_set((p), MLX5V_IFC_DW(type, fld), MLX5V_IFC_SHIFT(type, fld), \
		      MLX5V_IFC_MASK(type, fld), (uint32_t)(v)); \
} while (0)

/** Short forms, for command builders (rdma-core's DEVX_GET/DEVX_SET have this shape). */
#define MLX5V_GET(type, p, fld) MLX5V_IFC_GET(type, p, fld)
#define MLX5V_SET(type, p, fld, v) MLX5V_IFC_SET(type, p, fld, v)

/** Read a 64-bit, 64-bit aligned big-endian field. */
#define MLX5V_IFC_GET64(type, p, fld) __extension__ ({ \
	uint64_t be_; \
	RTE_BUILD_BUG_ON(MLX5V_IFC_BIT_SZ(type, fld) != 64 || \
			 MLX5V_IFC_BIT_OFF(type, fld) % 64 != 0); \
	memcpy(&be_, MLX5V_IFC_ADDR_OF(type, p, fld), sizeof(be_)); \
	rte_be_to_cpu_64(be_); })

/** Write a 64-bit, 64-bit aligned big-endian field. */
#define MLX5V_IFC_SET64(type, p, fld, v) do { \
	uint64_t be_ = rte_cpu_to_be_64((uint64_t)(v)); \
	RTE_BUILD_BUG_ON(MLX5V_IFC_BIT_SZ(type, fld) != 64 || \
			 MLX5V_IFC_BIT_OFF(type, fld) % 64 != 0); \
	memcpy(MLX5V_IFC_ADDR_OF(type, p, fld), &be_, sizeof(be_)); \
} while (0)

/*
 * Arrays: fld is declared uint8_t fld[n][bits] (or fld[][bits]); elements are whole bytes.
 */
/** Size of one element of array fld, in bits. */
#define MLX5V_IFC_ELEM_BIT_SZ(type, fld) sizeof(((MLX5V_IFC(type) *)0)->fld[0])
/** Address of element i of array fld inside buffer p. */
#define MLX5V_IFC_ARRAY_ADDR(type, p, fld, i) \
	((void *)((uint8_t *)MLX5V_IFC_ADDR_OF(type, p, fld) + \
		  (size_t)(i) * (MLX5V_IFC_ELEM_BIT_SZ(type, fld) / 8)))

/** Read element i of an array of 64-bit, 64-bit aligned big-endian words. */
#define MLX5V_IFC_ARRAY_GET64(type, p, fld, i) __extension__ ({ \
	uint64_t be_; \
	RTE_BUILD_BUG_ON(MLX5V_IFC_ELEM_BIT_SZ(type, fld) != 64 || \
			 MLX5V_IFC_BIT_OFF(type, fld) % 64 != 0); \
	memcpy(&be_, MLX5V_IFC_ARRAY_ADDR(type, p, fld, i), sizeof(be_)); \
	rte_be_to_cpu_64(be_); })

/** Write element i of an array of 64-bit, 64-bit aligned big-endian words. */
#define MLX5V_IFC_ARRAY_SET64(type, p, fld, i, v) do { \
	uint64_t be_ = rte_cpu_to_be_64((uint64_t)(v)); \
	RTE_BUILD_BUG_ON(MLX5V_IFC_ELEM_BIT_SZ(type, fld) != 64 || \
			 MLX5V_IFC_BIT_OFF(type, fld) % 64 != 0); \
	memcpy(MLX5V_IFC_ARRAY_ADDR(type, p, fld, i), &be_, sizeof(be_)); \
} while (0)

/**
 * Byte offset of the byte holding fld, a field of at most 8 bits that does not cross a byte
 * (an ownership bit the device writes with a single-byte store, read with an atomic load).
 */
#define MLX5V_IFC_BYTE_OF(type, fld) \
	(MLX5V_IFC_BIT_OFF(type, fld) / 8 + 0 * sizeof(char[ \
		MLX5V_IFC_BIT_OFF(type, fld) % 8 + MLX5V_IFC_BIT_SZ(type, fld) <= 8 ? 1 : -1]))

/**
 * Static check of a field against the PRM's (dword, high bit, low bit) drawing, for the key
 * offsets a reader verifies against prm/mlx5.
 */
#define MLX5V_IFC_ASSERT(type, fld, dw, hi, lo) \
	_Static_assert(MLX5V_IFC_BIT_OFF(type, fld) == (dw) * 32 + 31 - (hi) && \
		       MLX5V_IFC_BIT_SZ(type, fld) == (hi) - (lo) + 1, \
		       #type "." #fld " is not at dword " #dw " bits " #hi ":" #lo)

/** Static check that fld starts at byte off (nested layouts, arrays, flexible arrays). */
#define MLX5V_IFC_ASSERT_OFF(type, fld, off) \
	_Static_assert(MLX5V_IFC_BIT_OFF(type, fld) == (off) * 8, \
		       #type "." #fld " is not at byte " #off)

/** Static check that fld starts at byte off and spans n bytes. */
#define MLX5V_IFC_ASSERT_SPAN(type, fld, off, n) \
	_Static_assert(MLX5V_IFC_BIT_OFF(type, fld) == (off) * 8 && \
		       MLX5V_IFC_BIT_SZ(type, fld) == (n) * 8, \
		       #type "." #fld " is not bytes " #off " + " #n)

/*
 * Static check against a (DW, HI, LO) triple macro such as the public header's: the macro
 * expands to its three numbers before MLX5V_IFC_ASSERT sees them.
 */
#define MLX5V_IFC_ASSERT_TRIPLE(type, fld, triple) MLX5V_IFC_ASSERT_(type, fld, triple)
#define MLX5V_IFC_ASSERT_(type, fld, ...) MLX5V_IFC_ASSERT(type, fld, __VA_ARGS__)

/** Static check of a layout's total size in bytes. */
#define MLX5V_IFC_ASSERT_BYTES(type, n) \
	_Static_assert(MLX5V_IFC_BYTES(type) == (n), #type " is not " #n " bytes")

#endif /* _MLX5V_IFC_H_ */
