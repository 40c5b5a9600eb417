/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Unit tests of lib/hwsim: DMA windows, MMIO watches, MSI-X eventfds, engine, knobs. */

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_memory.h>

#include "test.h"

#include "hwsim_dma.h"
#include "hwsim_fault.h"
#include "hwsim_irq.h"
#include "hwsim_mmio.h"
#include "hwsim_thread.h"

#include "ut_common.h"

/*
 * DMA windows
 */

static int
test_hwsim_dma_map_unmap(void)
{
	static uint8_t buf[4096];
	struct hwsim_dma *dma;
	uint64_t first = 0;
	size_t len = 0;
	void *va = NULL;

	dma = hwsim_dma_create("ut_map");
	TEST_ASSERT_NOT_NULL(dma, "create failed");
	TEST_ASSERT_EQUAL(hwsim_dma_windows(dma), 0, "new table not empty");

	TEST_ASSERT_EQUAL(hwsim_dma_map(dma, 0x1000, buf, 0), -EINVAL, "len 0 accepted");
	TEST_ASSERT_EQUAL(hwsim_dma_map(dma, UINT64_MAX - 10, buf, 100), -EINVAL,
			  "wrap-around accepted");
	TEST_ASSERT_EQUAL(hwsim_dma_map(dma, 0x1000, NULL, 16), -EINVAL, "NULL va accepted");
	TEST_ASSERT_EQUAL(hwsim_dma_windows(dma), 0, "a failed map left a window");

	TEST_ASSERT_SUCCESS(hwsim_dma_map(dma, 0x10000, buf, 0x1000), "map failed");
	TEST_ASSERT_SUCCESS(hwsim_dma_map(dma, 0x2000, buf, 0x100), "map below failed");
	/* A window may end exactly at the top of the IOVA space. */
	TEST_ASSERT_SUCCESS(hwsim_dma_map(dma, UINT64_MAX - 0xff, buf, 0x100), "top map failed");
	TEST_ASSERT_EQUAL(hwsim_dma_windows(dma), 3, "window count");

	/* Unmap must name the window exactly. */
	TEST_ASSERT_EQUAL(hwsim_dma_unmap(dma, 0x10000, 0x800), -ENOENT, "short unmap accepted");
	TEST_ASSERT_EQUAL(hwsim_dma_unmap(dma, 0x10000, 0x2000), -ENOENT, "long unmap accepted");
	TEST_ASSERT_EQUAL(hwsim_dma_unmap(dma, 0x10800, 0x800), -ENOENT, "inner unmap accepted");
	TEST_ASSERT_EQUAL(hwsim_dma_unmap(dma, 0x3000, 0x100), -ENOENT, "unmapped iova accepted");
	TEST_ASSERT_EQUAL(hwsim_dma_windows(dma), 3, "failed unmap removed a window");
	/* The window holding an IOVA: its first IOVA, length and address, none in a gap. */
	TEST_ASSERT_SUCCESS(hwsim_dma_window(dma, 0x10fff, &first, &len, &va),
			    "window of its last byte");
	TEST_ASSERT(first == 0x10000 && len == 0x1000 && va == buf, "window 0x%" PRIx64 " +0x%zx",
		    first, len);
	TEST_ASSERT_SUCCESS(hwsim_dma_window(dma, UINT64_MAX, &first, &len, &va),
			    "window at the top");
	TEST_ASSERT_EQUAL(first, UINT64_MAX - 0xff, "top window start");
	TEST_ASSERT_EQUAL(hwsim_dma_window(dma, 0x11000, &first, &len, &va), -ENOENT,
			  "a gap has a window");
	TEST_ASSERT_EQUAL(hwsim_dma_window(dma, 0x1fff, &first, &len, &va), -ENOENT,
			  "below the first window");

	TEST_ASSERT_SUCCESS(hwsim_dma_unmap(dma, 0x10000, 0x1000), "unmap failed");
	TEST_ASSERT_EQUAL(hwsim_dma_unmap(dma, 0x10000, 0x1000), -ENOENT, "double unmap");
	TEST_ASSERT_SUCCESS(hwsim_dma_unmap(dma, UINT64_MAX - 0xff, 0x100), "top unmap failed");
	TEST_ASSERT_EQUAL(hwsim_dma_windows(dma), 1, "window count after unmap");
	TEST_ASSERT_SUCCESS(hwsim_dma_unmap(dma, 0x2000, 0x100), "unmap failed");
	TEST_ASSERT_EQUAL(hwsim_dma_windows(dma), 0, "table not empty");
	TEST_ASSERT_EQUAL(hwsim_dma_faults(dma, NULL), 0, "map/unmap recorded a fault");
	hwsim_dma_destroy(dma);
	return TEST_SUCCESS;
}

/*
 * The IOMMU rule of hwsim_dma_map_eal() (doc/guides/sim/mlx5v_sim.rst, "IOMMU"): EAL memory
 * maps at its EAL IOVA; libc memory and external memory outside the container are faults;
 * external memory maps at its container IOVA, page by page, and a window across two IOVA runs
 * is a fault. Each refusal records a map fault and leaves no window.
 */
static int
test_hwsim_dma_map_eal_rule(void)
{
	const uint64_t io0 = UINT64_C(0x7e0000000000), io1 = UINT64_C(0x7f0000000000);
	rte_iova_t iovas[4] = { io0, io0 + 4096, io1, io1 + 4096 };
	struct hwsim_dma_fault f;
	struct hwsim_dma *dma;
	uint8_t *eal, *plain, *ext;
	uint64_t iova;

	dma = hwsim_dma_create("ut_eal");
	TEST_ASSERT_NOT_NULL(dma, "create");
	eal = rte_zmalloc("ut_eal", 8192, 4096);
	plain = aligned_alloc(4096, 8192);
	ext = mmap(NULL, 4 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	TEST_ASSERT(eal != NULL && plain != NULL && ext != MAP_FAILED, "alloc");
	TEST_ASSERT_SUCCESS(hwsim_dma_map_eal(dma, eal + 64, 8000, &iova), "EAL memory refused");
	TEST_ASSERT_EQUAL(iova, rte_mem_virt2iova(eal + 64), "EAL IOVA");
	TEST_ASSERT_SUCCESS(hwsim_dma_unmap(dma, iova, 8000), "unmap");
	TEST_ASSERT_EQUAL(hwsim_dma_faults(dma, NULL), 0u, "fault on EAL memory");
	TEST_ASSERT_EQUAL(hwsim_dma_map_eal(dma, plain, 8192, &iova), -EFAULT, "libc memory");
	TEST_ASSERT_EQUAL(hwsim_dma_faults(dma, &f), 1u, "no fault recorded");
	TEST_ASSERT_EQUAL(f.map, 1, "not a map fault");
	TEST_ASSERT_SUCCESS(rte_extmem_register(ext, 4 * 4096, iovas, 4, 4096), "register");
	TEST_ASSERT_EQUAL(hwsim_dma_map_eal(dma, ext, 4096, &iova), -EFAULT,
			  "external memory outside the container");
	TEST_ASSERT_EQUAL(hwsim_dma_container_map(dma, plain, io0, 8192), -EINVAL,
			  "libc memory into the container");
	TEST_ASSERT_SUCCESS(hwsim_dma_container_map(dma, ext, io0, 8192), "container 0");
	TEST_ASSERT_SUCCESS(hwsim_dma_container_map(dma, ext + 8192, io1, 8192), "container 1");
	TEST_ASSERT_EQUAL(hwsim_dma_container_map(dma, ext + 4096, io0, 4096), -EEXIST, "overlap");
	TEST_ASSERT_SUCCESS(hwsim_dma_map_eal(dma, ext, 8192, &iova), "first run");
	TEST_ASSERT_EQUAL(iova, io0, "container IOVA");
	TEST_ASSERT_EQUAL(hwsim_dma_map_eal(dma, ext + 4096, 8192, &iova), -EFAULT,
			  "a window across two IOVA runs");
	TEST_ASSERT_EQUAL(hwsim_dma_faults(dma, &f), 3u, "faults");
	TEST_ASSERT_EQUAL(f.iova, io1, "the faulting page's IOVA");
	TEST_ASSERT_EQUAL(hwsim_dma_windows(dma), 1, "a refused map left a window");
	TEST_ASSERT_SUCCESS(hwsim_dma_unmap(dma, io0, 8192), "unmap");
	TEST_ASSERT_SUCCESS(hwsim_dma_container_unmap(dma, ext, 8192), "container unmap 0");
	TEST_ASSERT_SUCCESS(hwsim_dma_container_unmap(dma, ext + 8192, 8192), "container unmap 1");
	TEST_ASSERT_EQUAL(hwsim_dma_container_unmap(dma, ext, 8192), -ENOENT, "double unmap");
	TEST_ASSERT_SUCCESS(rte_extmem_unregister(ext, 4 * 4096), "unregister");
	munmap(ext, 4 * 4096);
	free(plain);
	rte_free(eal);
	hwsim_dma_destroy(dma);
	return TEST_SUCCESS;
}

static int
test_hwsim_dma_map_overlap(void)
{
	static uint8_t buf[0x3000];
	struct hwsim_dma *dma;

	dma = hwsim_dma_create("ut_overlap");
	TEST_ASSERT_NOT_NULL(dma, "create failed");
	TEST_ASSERT_SUCCESS(hwsim_dma_map(dma, 0x10000, buf, 0x1000), "map failed");

	TEST_ASSERT_EQUAL(hwsim_dma_map(dma, 0x10000, buf, 0x1000), -EEXIST, "same window");
	TEST_ASSERT_EQUAL(hwsim_dma_map(dma, 0x10800, buf, 0x1000), -EEXIST, "tail overlap");
	TEST_ASSERT_EQUAL(hwsim_dma_map(dma, 0xf800, buf, 0x1000), -EEXIST, "head overlap");
	TEST_ASSERT_EQUAL(hwsim_dma_map(dma, 0x10100, buf, 0x10), -EEXIST, "inside");
	TEST_ASSERT_EQUAL(hwsim_dma_map(dma, 0xf000, buf, 0x3000), -EEXIST, "around");
	TEST_ASSERT_EQUAL(hwsim_dma_map(dma, 0x10fff, buf, 1), -EEXIST, "last byte");
	TEST_ASSERT_EQUAL(hwsim_dma_map(dma, 0xf000, buf, 0x1001), -EEXIST, "first byte");
	TEST_ASSERT_EQUAL(hwsim_dma_windows(dma), 1, "an overlapping map was added");

	/* Adjacent on both sides is not an overlap. */
	TEST_ASSERT_SUCCESS(hwsim_dma_map(dma, 0xf000, buf, 0x1000), "left neighbour");
	TEST_ASSERT_SUCCESS(hwsim_dma_map(dma, 0x11000, buf, 0x1000), "right neighbour");
	TEST_ASSERT_EQUAL(hwsim_dma_windows(dma), 3, "window count");
	/* A hole between two windows is free. */
	TEST_ASSERT_SUCCESS(hwsim_dma_unmap(dma, 0x10000, 0x1000), "unmap middle");
	TEST_ASSERT_EQUAL(hwsim_dma_map(dma, 0x10000, buf, 0x1001), -EEXIST, "hole + 1");
	TEST_ASSERT_SUCCESS(hwsim_dma_map(dma, 0x10000, buf, 0x1000), "refill the hole");

	TEST_ASSERT_SUCCESS(hwsim_dma_unmap(dma, 0xf000, 0x1000), "unmap");
	TEST_ASSERT_SUCCESS(hwsim_dma_unmap(dma, 0x10000, 0x1000), "unmap");
	TEST_ASSERT_SUCCESS(hwsim_dma_unmap(dma, 0x11000, 0x1000), "unmap");
	hwsim_dma_destroy(dma);
	return TEST_SUCCESS;
}

static int
test_hwsim_dma_rw_inside(void)
{
	static uint8_t host[256];
	uint8_t in[16];
	uint8_t out[16];
	struct hwsim_dma *dma;
	unsigned int i;

	memset(host, 0, sizeof(host));
	dma = hwsim_dma_create("ut_rw");
	TEST_ASSERT_NOT_NULL(dma, "create failed");
	TEST_ASSERT_SUCCESS(hwsim_dma_map(dma, 0x4000, host, sizeof(host)), "map failed");

	for (i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)(0xa0 + i);
	TEST_ASSERT_SUCCESS(hwsim_dma_write(dma, 0x4010, in, sizeof(in)), "write failed");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(host + 0x10, in, sizeof(in), "write hit the wrong bytes");
	TEST_ASSERT_EQUAL(host[0x0f], 0, "write spilled before");
	TEST_ASSERT_EQUAL(host[0x20], 0, "write spilled after");

	host[0xf0] = 0x5a;
	TEST_ASSERT_SUCCESS(hwsim_dma_read(dma, 0x40f0, out, 1), "read failed");
	TEST_ASSERT_EQUAL(out[0], 0x5a, "read the wrong byte");
	TEST_ASSERT_SUCCESS(hwsim_dma_read(dma, 0x4010, out, sizeof(out)), "read failed");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(out, in, sizeof(out), "read back differs");

	/* First and last bytes of the window, and the whole window. */
	TEST_ASSERT_SUCCESS(hwsim_dma_read(dma, 0x4000, out, 1), "first byte");
	TEST_ASSERT_SUCCESS(hwsim_dma_read(dma, 0x40ff, out, 1), "last byte");
	TEST_ASSERT_SUCCESS(hwsim_dma_write(dma, 0x40f0, in, 16), "tail write");
	TEST_ASSERT_EQUAL(hwsim_dma_check(dma, 0x4000, sizeof(host)), 1, "whole window");
	TEST_ASSERT_EQUAL(hwsim_dma_faults(dma, NULL), 0, "in-window access faulted");

	TEST_ASSERT_SUCCESS(hwsim_dma_unmap(dma, 0x4000, sizeof(host)), "unmap failed");
	hwsim_dma_destroy(dma);
	return TEST_SUCCESS;
}

static int
test_hwsim_dma_rw_outside(void)
{
	static uint8_t host[256];
	struct hwsim_dma_fault f;
	uint8_t out[8];
	uint8_t in[8];
	struct hwsim_dma *dma;

	memset(host, 0x11, sizeof(host));
	memset(in, 0x77, sizeof(in));
	dma = hwsim_dma_create("ut_fault");
	TEST_ASSERT_NOT_NULL(dma, "create failed");
	TEST_ASSERT_EQUAL(hwsim_dma_read(dma, 0x4000, out, 4), -EFAULT, "empty table read");
	TEST_ASSERT_EQUAL(hwsim_dma_faults(dma, &f), 1, "fault not counted");
	TEST_ASSERT_EQUAL(f.iova, 0x4000, "fault iova");
	TEST_ASSERT_EQUAL(f.len, 4, "fault len");
	TEST_ASSERT_EQUAL(f.write, 0, "fault direction");

	TEST_ASSERT_SUCCESS(hwsim_dma_map(dma, 0x4000, host, sizeof(host)), "map failed");
	TEST_ASSERT_EQUAL(hwsim_dma_write(dma, 0x3ff8, in, 8), -EFAULT, "write below");
	TEST_ASSERT_EQUAL(hwsim_dma_faults(dma, &f), 2, "fault not counted");
	TEST_ASSERT_EQUAL(f.iova, 0x3ff8, "fault iova");
	TEST_ASSERT_EQUAL(f.len, 8, "fault len");
	TEST_ASSERT_EQUAL(f.write, 1, "fault direction");

	/* Starts inside, ends one byte past the window: nothing may be copied. */
	memset(out, 0xee, sizeof(out));
	TEST_ASSERT_EQUAL(hwsim_dma_read(dma, 0x40f9, out, 8), -EFAULT, "read past the end");
	TEST_ASSERT_EQUAL(out[0], 0xee, "a faulting read copied data");
	TEST_ASSERT_EQUAL(hwsim_dma_write(dma, 0x40f9, in, 8), -EFAULT, "write past the end");
	TEST_ASSERT_EQUAL(host[0xf9], 0x11, "a faulting write reached memory");
	TEST_ASSERT_EQUAL(hwsim_dma_write_release(dma, 0x4100, in, 1), -EFAULT, "release past");
	TEST_ASSERT_EQUAL(hwsim_dma_faults(dma, &f), 5, "fault count");
	TEST_ASSERT_EQUAL(f.iova, 0x4100, "last fault iova");
	TEST_ASSERT_EQUAL(f.len, 1, "last fault len");
	TEST_ASSERT_EQUAL(f.write, 1, "last fault direction");

	/* An access that wraps the IOVA space is a fault, not a huge in-window copy. */
	TEST_ASSERT_EQUAL(hwsim_dma_read(dma, 0x4010, out, SIZE_MAX), -EFAULT, "wrapping read");
	TEST_ASSERT_EQUAL(hwsim_dma_faults(dma, &f), 6, "fault count");
	TEST_ASSERT_EQUAL(f.write, 0, "last fault direction");

	/* check() reports without recording. */
	TEST_ASSERT_EQUAL(hwsim_dma_check(dma, 0x40f9, 8), 0, "check past the end");
	TEST_ASSERT_EQUAL(hwsim_dma_check(dma, 0x40f8, 8), 1, "check at the end");
	TEST_ASSERT_EQUAL(hwsim_dma_check(dma, 0x0, 1), 0, "check unmapped");
	TEST_ASSERT_EQUAL(hwsim_dma_faults(dma, NULL), 6, "check recorded a fault");

	/* After unmap the same access faults. */
	TEST_ASSERT_SUCCESS(hwsim_dma_read(dma, 0x4000, out, 8), "read failed");
	TEST_ASSERT_SUCCESS(hwsim_dma_unmap(dma, 0x4000, sizeof(host)), "unmap failed");
	TEST_ASSERT_EQUAL(hwsim_dma_read(dma, 0x4000, out, 8), -EFAULT, "read after unmap");
	TEST_ASSERT_EQUAL(hwsim_dma_faults(dma, NULL), 7, "fault count");
	hwsim_dma_destroy(dma);
	return TEST_SUCCESS;
}

static int
test_hwsim_dma_straddle(void)
{
	static uint8_t a[64];
	static uint8_t b[64];
	struct hwsim_dma_fault f;
	struct hwsim_dma *dma;
	uint8_t out[8];

	dma = hwsim_dma_create("ut_straddle");
	TEST_ASSERT_NOT_NULL(dma, "create failed");
	/* IOVA-contiguous, host-discontiguous: like two separately mapped buffers. */
	TEST_ASSERT_SUCCESS(hwsim_dma_map(dma, 0x1000, a, sizeof(a)), "map a");
	TEST_ASSERT_SUCCESS(hwsim_dma_map(dma, 0x1040, b, sizeof(b)), "map b");
	TEST_ASSERT_EQUAL(hwsim_dma_check(dma, 0x1000, 128), 0, "straddle passes check");
	TEST_ASSERT_EQUAL(hwsim_dma_read(dma, 0x103c, out, 8), -EFAULT, "straddling read");
	TEST_ASSERT_EQUAL(hwsim_dma_write(dma, 0x103c, out, 8), -EFAULT, "straddling write");
	TEST_ASSERT_EQUAL(hwsim_dma_faults(dma, &f), 2, "fault count");
	TEST_ASSERT_EQUAL(f.iova, 0x103c, "fault iova");
	TEST_ASSERT_EQUAL(f.len, 8, "fault len");
	/* Each half alone is fine and lands in its own buffer. */
	b[0] = 0x42;
	TEST_ASSERT_SUCCESS(hwsim_dma_read(dma, 0x1040, out, 1), "read b");
	TEST_ASSERT_EQUAL(out[0], 0x42, "window b maps to buffer b");
	TEST_ASSERT_SUCCESS(hwsim_dma_read(dma, 0x103c, out, 4), "tail of a");
	TEST_ASSERT_SUCCESS(hwsim_dma_unmap(dma, 0x1000, sizeof(a)), "unmap a");
	TEST_ASSERT_SUCCESS(hwsim_dma_unmap(dma, 0x1040, sizeof(b)), "unmap b");
	hwsim_dma_destroy(dma);
	return TEST_SUCCESS;
}

static int
test_hwsim_dma_write_release(void)
{
	static uint64_t host[4];
	uint8_t bytes[3] = { 1, 2, 3 };
	uint64_t v64 = 0x1122334455667788ull;
	uint32_t v32 = 0xcafebabe;
	uint16_t v16 = 0xbeef;
	uint8_t v8 = 0x81;
	struct hwsim_dma *dma;
	uint8_t *h = (uint8_t *)host;

	memset(host, 0, sizeof(host));
	dma = hwsim_dma_create("ut_release");
	TEST_ASSERT_NOT_NULL(dma, "create failed");
	TEST_ASSERT_SUCCESS(hwsim_dma_map(dma, 0x8000, host, sizeof(host)), "map failed");
	TEST_ASSERT_SUCCESS(hwsim_dma_write_release(dma, 0x8000, &v64, 8), "8-byte");
	TEST_ASSERT_EQUAL(host[0], v64, "8-byte value");
	TEST_ASSERT_SUCCESS(hwsim_dma_write_release(dma, 0x8008, &v32, 4), "4-byte");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(h + 8, &v32, 4, "4-byte value");
	TEST_ASSERT_SUCCESS(hwsim_dma_write_release(dma, 0x800c, &v16, 2), "2-byte");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(h + 12, &v16, 2, "2-byte value");
	TEST_ASSERT_SUCCESS(hwsim_dma_write_release(dma, 0x800f, &v8, 1), "1-byte");
	TEST_ASSERT_EQUAL(h[15], v8, "1-byte value");
	/* Misaligned and odd sizes still land, by plain copy. */
	TEST_ASSERT_SUCCESS(hwsim_dma_write_release(dma, 0x8011, &v32, 4), "misaligned");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(h + 0x11, &v32, 4, "misaligned value");
	TEST_ASSERT_SUCCESS(hwsim_dma_write_release(dma, 0x8019, bytes, 3), "3-byte");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(h + 0x19, bytes, 3, "3-byte value");
	TEST_ASSERT_EQUAL(h[0x10], 0, "neighbour byte touched");
	TEST_ASSERT_EQUAL(hwsim_dma_faults(dma, NULL), 0, "in-window release faulted");
	TEST_ASSERT_SUCCESS(hwsim_dma_unmap(dma, 0x8000, sizeof(host)), "unmap failed");
	hwsim_dma_destroy(dma);
	return TEST_SUCCESS;
}

/* hwsim_dma_translate(): the host address inside one window, a recorded fault outside. */
static int
test_hwsim_dma_translate(void)
{
	static uint8_t host[256];
	struct hwsim_dma_fault f;
	struct hwsim_dma *dma;

	dma = hwsim_dma_create("ut_translate");
	TEST_ASSERT_NOT_NULL(dma, "create failed");
	TEST_ASSERT_SUCCESS(hwsim_dma_map(dma, 0x9000, host, sizeof(host)), "map failed");
	TEST_ASSERT(hwsim_dma_translate(dma, 0x9010, 16, 0) == host + 0x10, "inside");
	TEST_ASSERT(hwsim_dma_translate(dma, 0x9000, sizeof(host), 1) == host, "whole window");
	TEST_ASSERT_EQUAL(hwsim_dma_faults(dma, NULL), 0, "faults inside the window");
	TEST_ASSERT_NULL(hwsim_dma_translate(dma, 0x9000, 0, 0), "zero length");
	TEST_ASSERT_EQUAL(hwsim_dma_faults(dma, NULL), 0, "zero length faulted");
	TEST_ASSERT_NULL(hwsim_dma_translate(dma, 0x90f8, 16, 1), "past the end");
	TEST_ASSERT_EQUAL(hwsim_dma_faults(dma, &f), 1, "fault not recorded");
	TEST_ASSERT(f.iova == 0x90f8 && f.len == 16 && f.write == 1, "fault fields");
	TEST_ASSERT_SUCCESS(hwsim_dma_unmap(dma, 0x9000, sizeof(host)), "unmap failed");
	TEST_ASSERT_NULL(hwsim_dma_translate(dma, 0x9010, 16, 0), "after unmap");
	hwsim_dma_destroy(dma);
	return TEST_SUCCESS;
}

static int
test_hwsim_dma_many_windows(void)
{
	static uint32_t host[200];
	struct hwsim_dma *dma;
	unsigned int i;
	uint32_t v;

	dma = hwsim_dma_create(NULL);
	TEST_ASSERT_NOT_NULL(dma, "create failed");
	/* Map in a scrambled order so the table must sort and grow. */
	for (i = 0; i < RTE_DIM(host); i++) {
		unsigned int j = (i * 7) % RTE_DIM(host);

		host[j] = j;
		TEST_ASSERT_SUCCESS(hwsim_dma_map(dma, 0x100000 + (uint64_t)j * 0x1000,
						  &host[j], sizeof(host[j])), "map %u", j);
	}
	TEST_ASSERT_EQUAL(hwsim_dma_windows(dma), RTE_DIM(host), "window count");
	for (i = 0; i < RTE_DIM(host); i++) {
		TEST_ASSERT_SUCCESS(hwsim_dma_read(dma, 0x100000 + (uint64_t)i * 0x1000, &v,
						   sizeof(v)), "read %u", i);
		TEST_ASSERT_EQUAL(v, i, "window %u maps the wrong buffer", i);
		TEST_ASSERT_EQUAL(hwsim_dma_check(dma, 0x100004 + (uint64_t)i * 0x1000, 1), 0,
				  "gap after window %u", i);
	}
	for (i = 0; i < RTE_DIM(host); i += 2)
		TEST_ASSERT_SUCCESS(hwsim_dma_unmap(dma, 0x100000 + (uint64_t)i * 0x1000,
						    sizeof(host[i])), "unmap %u", i);
	TEST_ASSERT_EQUAL(hwsim_dma_windows(dma), RTE_DIM(host) / 2, "window count");
	for (i = 0; i < RTE_DIM(host); i++)
		TEST_ASSERT_EQUAL(hwsim_dma_check(dma, 0x100000 + (uint64_t)i * 0x1000, 4),
				  i % 2, "window %u after partial unmap", i);
	/* Destroying with windows left logs the leaks and frees them. */
	hwsim_dma_destroy(dma);
	return TEST_SUCCESS;
}

/*
 * MMIO pages
 */

struct mmio_seen {
	unsigned int n;
	uint32_t off[8];
	uint64_t raw[8];
	void *arg[8];
};

static void
mmio_cb(void *arg, uint32_t off, uint64_t raw)
{
	struct mmio_seen *s = arg;

	if (s->n < RTE_DIM(s->off)) {
		s->off[s->n] = off;
		s->raw[s->n] = raw;
		s->arg[s->n] = arg;
	}
	s->n++;
}

static int
test_hwsim_mmio_page(void)
{
	struct hwsim_mmio_page *pg;
	const uint8_t *p;
	unsigned int i;

	pg = hwsim_mmio_page_alloc();
	TEST_ASSERT_NOT_NULL(pg, "alloc failed");
	p = hwsim_mmio_page_addr(pg);
	TEST_ASSERT_NOT_NULL(p, "no address");
	TEST_ASSERT_EQUAL((uintptr_t)p % HWSIM_MMIO_PAGE_SIZE, 0, "page not aligned");
	for (i = 0; i < HWSIM_MMIO_PAGE_SIZE; i++)
		TEST_ASSERT_EQUAL(p[i], 0, "byte %u not zero", i);
	TEST_ASSERT_EQUAL(hwsim_mmio_poll(pg), 0, "poll without watches");
	hwsim_mmio_page_free(pg);
	return TEST_SUCCESS;
}

static int
test_hwsim_mmio_watch_errors(void)
{
	struct hwsim_mmio_page *pg;
	struct mmio_seen s;
	unsigned int i;

	pg = hwsim_mmio_page_alloc();
	TEST_ASSERT_NOT_NULL(pg, "alloc failed");
	TEST_ASSERT_EQUAL(hwsim_mmio_watch(pg, 0, 2, mmio_cb, &s), -EINVAL, "width 2");
	TEST_ASSERT_EQUAL(hwsim_mmio_watch(pg, 0, 16, mmio_cb, &s), -EINVAL, "width 16");
	TEST_ASSERT_EQUAL(hwsim_mmio_watch(pg, 0, 0, mmio_cb, &s), -EINVAL, "width 0");
	TEST_ASSERT_EQUAL(hwsim_mmio_watch(pg, 2, 4, mmio_cb, &s), -EINVAL, "4 at 2");
	TEST_ASSERT_EQUAL(hwsim_mmio_watch(pg, 4, 8, mmio_cb, &s), -EINVAL, "8 at 4");
	TEST_ASSERT_EQUAL(hwsim_mmio_watch(pg, HWSIM_MMIO_PAGE_SIZE, 4, mmio_cb, &s), -EINVAL,
			  "off at page end");
	TEST_ASSERT_EQUAL(hwsim_mmio_watch(pg, UINT32_MAX - 3, 4, mmio_cb, &s), -EINVAL,
			  "off near UINT32_MAX");
	TEST_ASSERT_EQUAL(hwsim_mmio_watch(pg, 0, 4, NULL, &s), -EINVAL, "NULL callback");

	TEST_ASSERT_SUCCESS(hwsim_mmio_watch(pg, HWSIM_MMIO_PAGE_SIZE - 8, 8, mmio_cb, &s),
			    "last word");
	TEST_ASSERT_SUCCESS(hwsim_mmio_watch(pg, 0x800, 8, mmio_cb, &s), "8 at 0x800");
	TEST_ASSERT_EQUAL(hwsim_mmio_watch(pg, 0x800, 8, mmio_cb, &s), -EEXIST, "same word");
	TEST_ASSERT_EQUAL(hwsim_mmio_watch(pg, 0x804, 4, mmio_cb, &s), -EEXIST, "inside 8");
	TEST_ASSERT_EQUAL(hwsim_mmio_watch(pg, 0x800, 4, mmio_cb, &s), -EEXIST, "head of 8");
	TEST_ASSERT_SUCCESS(hwsim_mmio_watch(pg, 0x808, 4, mmio_cb, &s), "4 after the 8");

	/* Fill the table: 3 used, so 61 more fit and the next one does not. */
	for (i = 0; i < 61; i++)
		TEST_ASSERT_SUCCESS(hwsim_mmio_watch(pg, i * 8, 8, mmio_cb, &s), "watch %u", i);
	TEST_ASSERT_EQUAL(hwsim_mmio_watch(pg, 0x900, 4, mmio_cb, &s), -ENOSPC, "65th watch");
	hwsim_mmio_page_free(pg);
	return TEST_SUCCESS;
}

static int
test_hwsim_mmio_poll_exchange(void)
{
	struct hwsim_mmio_page *pg;
	struct mmio_seen s4;
	struct mmio_seen s8;
	volatile uint32_t *w32;
	volatile uint64_t *w64;
	uint8_t *base;

	memset(&s4, 0, sizeof(s4));
	memset(&s8, 0, sizeof(s8));
	pg = hwsim_mmio_page_alloc();
	TEST_ASSERT_NOT_NULL(pg, "alloc failed");
	base = hwsim_mmio_page_addr(pg);
	w32 = (volatile uint32_t *)(base + 0x40);
	w64 = (volatile uint64_t *)(base + 0x800);
	TEST_ASSERT_SUCCESS(hwsim_mmio_watch(pg, 0x40, 4, mmio_cb, &s4), "watch 4");
	TEST_ASSERT_SUCCESS(hwsim_mmio_watch(pg, 0x800, 8, mmio_cb, &s8), "watch 8");
	TEST_ASSERT_EQUAL(hwsim_mmio_poll(pg), 0, "nothing rung yet");

	/* Software rings both doorbells with plain stores. */
	*w32 = 0xdeadbeef;
	*w64 = 0x8877665544332211ull;
	*(volatile uint32_t *)(base + 0x44) = 0x1234;	/* unwatched neighbour */
	TEST_ASSERT_EQUAL(hwsim_mmio_poll(pg), 2, "two doorbells");
	TEST_ASSERT_EQUAL(s4.n, 1, "4-byte callback count");
	TEST_ASSERT_EQUAL(s4.off[0], 0x40, "4-byte offset");
	TEST_ASSERT_EQUAL(s4.raw[0], 0xdeadbeef, "4-byte raw value");
	TEST_ASSERT(s4.arg[0] == &s4, "4-byte callback arg");
	TEST_ASSERT_EQUAL(s8.n, 1, "8-byte callback count");
	TEST_ASSERT_EQUAL(s8.off[0], 0x800, "8-byte offset");
	TEST_ASSERT_EQUAL(s8.raw[0], 0x8877665544332211ull, "8-byte raw value, all 64 bits");

	/* The exchange consumed the words; the neighbour is untouched. */
	TEST_ASSERT_EQUAL(*w32, 0, "4-byte word not zeroed");
	TEST_ASSERT_EQUAL(*w64, 0, "8-byte word not zeroed");
	TEST_ASSERT_EQUAL(*(volatile uint32_t *)(base + 0x44), 0x1234, "neighbour consumed");
	TEST_ASSERT_EQUAL(hwsim_mmio_poll(pg), 0, "a store was seen twice");

	/* A zero doorbell is invisible (documented); a later nonzero one is seen. */
	*w32 = 0;
	TEST_ASSERT_EQUAL(hwsim_mmio_poll(pg), 0, "zero doorbell seen");
	*w32 = 1;
	*w32 = 2;	/* two stores between polls: only the last value survives */
	TEST_ASSERT_EQUAL(hwsim_mmio_poll(pg), 1, "second doorbell");
	TEST_ASSERT_EQUAL(s4.n, 2, "4-byte callback count");
	TEST_ASSERT_EQUAL(s4.raw[1], 2, "last store wins");
	TEST_ASSERT_EQUAL(s8.n, 1, "8-byte callback ran without a store");
	hwsim_mmio_page_free(pg);
	return TEST_SUCCESS;
}

/* A second mapping of the page's memfd is the same page: stores through it are doorbells. */
static int
test_hwsim_mmio_second_mapping(void)
{
	struct hwsim_mmio_page *pg;
	struct mmio_seen s;
	volatile uint32_t *alias;
	uint32_t *base;

	memset(&s, 0, sizeof(s));
	pg = hwsim_mmio_page_alloc();
	TEST_ASSERT_NOT_NULL(pg, "alloc");
	TEST_ASSERT(hwsim_mmio_page_fd(pg) >= 0, "no fd");
	alias = mmap(NULL, HWSIM_MMIO_PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		     hwsim_mmio_page_fd(pg), 0);
	TEST_ASSERT(alias != MAP_FAILED, "second mapping");
	base = hwsim_mmio_page_addr(pg);
	TEST_ASSERT_SUCCESS(hwsim_mmio_watch(pg, 0x40, 4, mmio_cb, &s), "watch");
	alias[0x40 / 4] = 7;
	TEST_ASSERT_EQUAL(base[0x40 / 4], 7u, "the store is not in the page");
	TEST_ASSERT_EQUAL(hwsim_mmio_poll(pg), 1, "doorbell through the alias not seen");
	TEST_ASSERT_EQUAL(s.raw[0], 7, "raw");
	TEST_ASSERT_EQUAL(alias[0x40 / 4], 0u, "not consumed in the alias");
	munmap((void *)(uintptr_t)alias, HWSIM_MMIO_PAGE_SIZE);
	hwsim_mmio_page_free(pg);
	return TEST_SUCCESS;
}

/*
 * An alias has the page's watches and words of its own: the same word stored through the
 * page and through another process's mapping of the alias is two doorbells, not one. The
 * alias can go once that mapping is gone, not before it came, nor while it stays.
 */
static int
test_hwsim_mmio_alias(void)
{
	struct hwsim_mmio_page *pg, *al;
	volatile uint32_t *other;
	uint32_t *base;
	struct mmio_seen s;

	memset(&s, 0, sizeof(s));
	pg = hwsim_mmio_page_alloc();
	TEST_ASSERT_NOT_NULL(pg, "alloc");
	TEST_ASSERT_SUCCESS(hwsim_mmio_watch(pg, 0x40, 4, mmio_cb, &s), "watch");
	TEST_ASSERT_EQUAL(hwsim_mmio_page_retire(pg, 1), -EINVAL, "retire a page, not an alias");
	al = hwsim_mmio_page_alias(pg);
	TEST_ASSERT_NOT_NULL(al, "alias");
	TEST_ASSERT(hwsim_mmio_page_fd(al) != hwsim_mmio_page_fd(pg), "the page's own memfd");
	TEST_ASSERT_EQUAL(hwsim_mmio_page_retire(al, 0), -EAGAIN, "retired before it was mapped");
	other = mmap(NULL, HWSIM_MMIO_PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		     hwsim_mmio_page_fd(al), 0);
	TEST_ASSERT(other != MAP_FAILED, "the other process's mapping");
	base = hwsim_mmio_page_addr(pg);
	other[0x40 / 4] = 5;
	base[0x40 / 4] = 6;
	TEST_ASSERT_EQUAL(hwsim_mmio_poll(pg), 1, "the page's store");
	TEST_ASSERT_EQUAL(hwsim_mmio_poll(al), 1, "the alias's store was lost");
	TEST_ASSERT_EQUAL(s.n, 2, "callbacks");
	TEST_ASSERT_EQUAL(s.raw[0] + s.raw[1], 11, "raw");
	TEST_ASSERT_EQUAL(hwsim_mmio_page_retire(al, 1), -EBUSY, "retired while mapped");
	other[0x40 / 4] = 7;
	TEST_ASSERT_EQUAL(hwsim_mmio_poll(al), 1, "a store after the look was lost");
	TEST_ASSERT_EQUAL(s.raw[2], 7, "raw after the look");
	munmap((void *)(uintptr_t)other, HWSIM_MMIO_PAGE_SIZE);
	TEST_ASSERT_EQUAL(hwsim_mmio_page_retire(al, 0), 0, "kept once unmapped");
	TEST_ASSERT_EQUAL(hwsim_mmio_poll(al), 0, "a retired alias polled");
	hwsim_mmio_page_free(al);
	hwsim_mmio_page_free(pg);
	return TEST_SUCCESS;
}

static uint32_t mmio_reg_val;

static uint32_t
mmio_reg_rd(void *arg, uint32_t off)
{
	RTE_SET_USED(arg);
	return mmio_reg_val + off;
}

/* A published register: loads read the device value, a store is taken once, then replaced. */
static int
test_hwsim_mmio_reg(void)
{
	struct hwsim_mmio_page *pg;
	struct mmio_seen s;
	volatile uint32_t *p;

	memset(&s, 0, sizeof(s));
	mmio_reg_val = 0x100;
	pg = hwsim_mmio_page_alloc();
	TEST_ASSERT_NOT_NULL(pg, "alloc");
	p = hwsim_mmio_page_addr(pg);
	TEST_ASSERT_EQUAL(hwsim_mmio_reg(pg, 0x10, NULL, mmio_cb, &s), -EINVAL, "no read cb");
	TEST_ASSERT_EQUAL(hwsim_mmio_reg(pg, 0x12, mmio_reg_rd, mmio_cb, &s), -EINVAL, "align");
	TEST_ASSERT_SUCCESS(hwsim_mmio_reg(pg, 0x10, mmio_reg_rd, mmio_cb, &s), "reg");
	TEST_ASSERT_SUCCESS(hwsim_mmio_reg(pg, 0x14, mmio_reg_rd, NULL, &s), "read-only reg");
	TEST_ASSERT_EQUAL(p[0x10 / 4], 0x110u, "not published at registration");
	mmio_reg_val = 0x200;
	TEST_ASSERT_EQUAL(hwsim_mmio_poll(pg), 0, "a republish counted as a store");
	TEST_ASSERT_EQUAL(p[0x10 / 4], 0x210u, "not republished");
	TEST_ASSERT_EQUAL(p[0x14 / 4], 0x214u, "read-only not republished");
	p[0x10 / 4] = 0xabc;
	p[0x14 / 4] = 0xdef;
	TEST_ASSERT_EQUAL(hwsim_mmio_poll(pg), 2, "stores not seen");
	TEST_ASSERT_EQUAL(s.n, 1, "write callbacks");
	TEST_ASSERT_EQUAL(s.raw[0], 0xabc, "stored value");
	TEST_ASSERT_EQUAL(s.off[0], 0x10, "offset");
	TEST_ASSERT_EQUAL(p[0x10 / 4], 0x210u, "the device value does not replace the store");
	TEST_ASSERT_EQUAL(p[0x14 / 4], 0x214u, "a read-only register kept a store");
	TEST_ASSERT_EQUAL(hwsim_mmio_poll(pg), 0, "a store seen twice");
	hwsim_mmio_page_free(pg);
	return TEST_SUCCESS;
}

/*
 * MSI-X as eventfds
 */

/* @return the eventfd counter (read resets it), 0 if nothing was pending, -1 on error. */
static int64_t
efd_take(int fd)
{
	uint64_t cnt;

	if (read(fd, &cnt, sizeof(cnt)) != (ssize_t)sizeof(cnt))
		return errno == EAGAIN ? 0 : -1;
	return (int64_t)cnt;
}

static int
test_hwsim_irq_attach_raise(void)
{
	struct hwsim_irq_stats st;
	struct hwsim_irq *irq;
	int efd;
	int efd2;

	irq = hwsim_irq_create(4);
	TEST_ASSERT_NOT_NULL(irq, "create failed");
	TEST_ASSERT_EQUAL(hwsim_irq_count(irq), 4, "vector count");
	TEST_ASSERT_EQUAL(hwsim_irq_fd(irq, 2), -1, "new vector attached");
	efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	efd2 = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	TEST_ASSERT(efd >= 0 && efd2 >= 0, "eventfd failed");

	TEST_ASSERT_SUCCESS(hwsim_irq_attach(irq, 2, efd), "attach");
	TEST_ASSERT_SUCCESS(hwsim_irq_attach(irq, 3, efd2), "attach");
	TEST_ASSERT_EQUAL(hwsim_irq_fd(irq, 2), efd, "attached fd");
	TEST_ASSERT_EQUAL(efd_take(efd), 0, "fd signalled by attach");
	TEST_ASSERT_SUCCESS(hwsim_irq_raise(irq, 2), "raise");
	TEST_ASSERT_EQUAL(efd_take(efd), 1, "eventfd must read 1");
	TEST_ASSERT_EQUAL(efd_take(efd2), 0, "other vector signalled");
	TEST_ASSERT_SUCCESS(hwsim_irq_raise(irq, 2), "raise");
	TEST_ASSERT_SUCCESS(hwsim_irq_raise(irq, 2), "raise");
	TEST_ASSERT_EQUAL(efd_take(efd), 2, "two raises add up");
	TEST_ASSERT_SUCCESS(hwsim_irq_stats(irq, 2, &st), "stats");
	TEST_ASSERT_EQUAL(st.raised, 3, "raised");
	TEST_ASSERT_EQUAL(st.dropped + st.duplicated + st.unattached, 0, "other counters");
	TEST_ASSERT_SUCCESS(hwsim_irq_stats(irq, 3, &st), "stats");
	TEST_ASSERT_EQUAL(st.raised, 0, "vector 3 counted vector 2's raises");

	/* Re-attach moves the trigger; detach stops it. */
	TEST_ASSERT_SUCCESS(hwsim_irq_attach(irq, 2, efd2), "re-attach");
	TEST_ASSERT_SUCCESS(hwsim_irq_raise(irq, 2), "raise");
	TEST_ASSERT_EQUAL(efd_take(efd), 0, "old fd signalled");
	TEST_ASSERT_EQUAL(efd_take(efd2), 1, "new fd not signalled");
	TEST_ASSERT_SUCCESS(hwsim_irq_attach(irq, 2, -1), "detach");
	TEST_ASSERT_EQUAL(hwsim_irq_fd(irq, 2), -1, "detached fd");

	hwsim_irq_destroy(irq);
	/* destroy() must not close the driver's fds. */
	TEST_ASSERT_EQUAL(eventfd_write(efd, 1), 0, "fd closed by destroy");
	close(efd);
	close(efd2);
	return TEST_SUCCESS;
}

static int
test_hwsim_irq_unattached(void)
{
	struct hwsim_irq_stats st;
	struct hwsim_irq *irq;
	int efd;

	rte_errno = 0;
	TEST_ASSERT_NULL(hwsim_irq_create(0), "0 vectors accepted");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "rte_errno for 0 vectors");
	irq = hwsim_irq_create(2);
	TEST_ASSERT_NOT_NULL(irq, "create failed");
	efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	TEST_ASSERT(efd >= 0, "eventfd failed");

	TEST_ASSERT_EQUAL(hwsim_irq_raise(irq, 0), -ENODEV, "unattached raise");
	TEST_ASSERT_EQUAL(hwsim_irq_raise(irq, 0), -ENODEV, "unattached raise");
	TEST_ASSERT_SUCCESS(hwsim_irq_stats(irq, 0, &st), "stats");
	TEST_ASSERT_EQUAL(st.unattached, 2, "unattached counter");
	TEST_ASSERT_EQUAL(st.raised, 0, "raised counter");

	TEST_ASSERT_EQUAL(hwsim_irq_raise(irq, 2), -EINVAL, "raise past the table");
	TEST_ASSERT_EQUAL(hwsim_irq_attach(irq, 2, efd), -EINVAL, "attach past the table");
	TEST_ASSERT_EQUAL(hwsim_irq_attach(irq, 0, -2), -EINVAL, "negative fd other than -1");
	TEST_ASSERT_EQUAL(hwsim_irq_fd(irq, 2), -1, "fd past the table");
	TEST_ASSERT_EQUAL(hwsim_irq_stats(irq, 2, &st), -EINVAL, "stats past the table");
	hwsim_irq_drop_next(irq, 5, 1);	/* logged and ignored */
	hwsim_irq_dup_next(irq, 5, 1);

	/* Detaching makes a working vector lose raises again. */
	TEST_ASSERT_SUCCESS(hwsim_irq_attach(irq, 1, efd), "attach");
	TEST_ASSERT_SUCCESS(hwsim_irq_raise(irq, 1), "raise");
	TEST_ASSERT_SUCCESS(hwsim_irq_attach(irq, 1, -1), "detach");
	TEST_ASSERT_EQUAL(hwsim_irq_raise(irq, 1), -ENODEV, "raise after detach");
	TEST_ASSERT_EQUAL(efd_take(efd), 1, "only the attached raise signals");
	TEST_ASSERT_SUCCESS(hwsim_irq_stats(irq, 1, &st), "stats");
	TEST_ASSERT_EQUAL(st.raised, 1, "raised counter");
	TEST_ASSERT_EQUAL(st.unattached, 1, "unattached counter");
	hwsim_irq_destroy(irq);
	close(efd);
	return TEST_SUCCESS;
}

static int
test_hwsim_irq_drop_dup(void)
{
	struct hwsim_irq_stats st;
	struct hwsim_irq *irq;
	int efd;

	irq = hwsim_irq_create(1);
	TEST_ASSERT_NOT_NULL(irq, "create failed");
	efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	TEST_ASSERT(efd >= 0, "eventfd failed");
	TEST_ASSERT_SUCCESS(hwsim_irq_attach(irq, 0, efd), "attach");

	hwsim_irq_drop_next(irq, 0, 2);
	TEST_ASSERT_EQUAL(hwsim_irq_raise(irq, 0), -EAGAIN, "first drop");
	TEST_ASSERT_EQUAL(hwsim_irq_raise(irq, 0), -EAGAIN, "second drop");
	TEST_ASSERT_EQUAL(efd_take(efd), 0, "dropped raise reached the fd");
	TEST_ASSERT_SUCCESS(hwsim_irq_raise(irq, 0), "third raise gets through");
	TEST_ASSERT_EQUAL(efd_take(efd), 1, "third raise");

	/* dup: one raise, two signals; the knob then runs out. */
	hwsim_irq_dup_next(irq, 0, 1);
	TEST_ASSERT_SUCCESS(hwsim_irq_raise(irq, 0), "duplicated raise");
	TEST_ASSERT_EQUAL(efd_take(efd), 2, "duplicated raise signals twice");
	TEST_ASSERT_SUCCESS(hwsim_irq_raise(irq, 0), "plain raise");
	TEST_ASSERT_EQUAL(efd_take(efd), 1, "dup knob did not run out");

	/* The knobs set, not add; 0 cancels. */
	hwsim_irq_drop_next(irq, 0, 5);
	hwsim_irq_drop_next(irq, 0, 0);
	TEST_ASSERT_SUCCESS(hwsim_irq_raise(irq, 0), "drop knob not cancelled");
	TEST_ASSERT_EQUAL(efd_take(efd), 1, "raise after cancel");

	/* An unattached vector does not consume the drop knob. */
	hwsim_irq_drop_next(irq, 0, 1);
	TEST_ASSERT_SUCCESS(hwsim_irq_attach(irq, 0, -1), "detach");
	TEST_ASSERT_EQUAL(hwsim_irq_raise(irq, 0), -ENODEV, "unattached");
	TEST_ASSERT_SUCCESS(hwsim_irq_attach(irq, 0, efd), "attach");
	TEST_ASSERT_EQUAL(hwsim_irq_raise(irq, 0), -EAGAIN, "knob kept while detached");

	TEST_ASSERT_SUCCESS(hwsim_irq_stats(irq, 0, &st), "stats");
	TEST_ASSERT_EQUAL(st.raised, 4, "raised");
	TEST_ASSERT_EQUAL(st.dropped, 3, "dropped");
	TEST_ASSERT_EQUAL(st.duplicated, 1, "duplicated");
	TEST_ASSERT_EQUAL(st.unattached, 1, "unattached");
	hwsim_irq_destroy(irq);
	close(efd);
	return TEST_SUCCESS;
}

static int
test_hwsim_irq_saturated(void)
{
	struct hwsim_irq_stats st;
	struct hwsim_irq *irq;
	int efd;

	irq = hwsim_irq_create(1);
	TEST_ASSERT_NOT_NULL(irq, "create failed");
	efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	TEST_ASSERT(efd >= 0, "eventfd failed");
	/* The largest counter an eventfd holds; one more write gets EAGAIN. */
	TEST_ASSERT_EQUAL(eventfd_write(efd, UINT64_MAX - 1), 0, "saturate");
	TEST_ASSERT_SUCCESS(hwsim_irq_attach(irq, 0, efd), "attach");
	TEST_ASSERT_SUCCESS(hwsim_irq_raise(irq, 0), "EAGAIN must count as raised");
	TEST_ASSERT_SUCCESS(hwsim_irq_stats(irq, 0, &st), "stats");
	TEST_ASSERT_EQUAL(st.raised, 1, "raised");
	TEST_ASSERT_EQUAL((uint64_t)efd_take(efd), UINT64_MAX - 1, "counter changed");
	hwsim_irq_destroy(irq);
	close(efd);
	return TEST_SUCCESS;
}

/*
 * Device engine
 */

struct engine_ctx {
	struct hwsim_engine *e;
	uint64_t calls;         /* atomic */
	uint64_t work_passes;   /* passes that report work before going idle */
	uint64_t stop_at;       /* pass that stops its own engine; 0 = never */
	int self;               /* is_self() seen from the first pass; -1 before */
	char tname[16];
};

static int
engine_poll(void *arg)
{
	struct engine_ctx *c = arg;
	uint64_t n;

	n = __atomic_load_n(&c->calls, __ATOMIC_RELAXED) + 1;
	if (n == 1) {
		c->self = hwsim_engine_is_self(c->e);
		pthread_getname_np(pthread_self(), c->tname, sizeof(c->tname));
	}
	if (n == c->stop_at)
		hwsim_engine_stop(c->e);
	/* Publish last, so a waiter that sees n also sees self and tname. */
	__atomic_store_n(&c->calls, n, __ATOMIC_RELEASE);
	return n <= c->work_passes ? 1 : 0;
}

static int
test_hwsim_engine_start_stop(void)
{
	static struct engine_ctx c;	/* static: outlives a failed test's engine */
	uint64_t before;

	memset(&c, 0, sizeof(c));
	c.self = -1;
	c.work_passes = 1000;
	rte_errno = 0;
	TEST_ASSERT_NULL(hwsim_engine_create("ut_null", NULL, &c), "NULL fn accepted");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "rte_errno for NULL fn");

	c.e = hwsim_engine_create("ut_engine", engine_poll, &c);
	TEST_ASSERT_NOT_NULL(c.e, "create failed");
	hwsim_engine_stop(c.e);	/* not running: a no-op */
	TEST_ASSERT_EQUAL(__atomic_load_n(&c.calls, __ATOMIC_ACQUIRE), 0, "ran before start");

	TEST_ASSERT_SUCCESS(hwsim_engine_start(c.e), "start");
	TEST_ASSERT_EQUAL(hwsim_engine_start(c.e), -EBUSY, "double start");
	/* The work passes, then idle passes: the engine keeps polling while idle. */
	TEST_ASSERT_SUCCESS(ut_wait_counter(&c.calls, c.work_passes + 20), "engine did not poll");
	hwsim_engine_stop(c.e);
	before = __atomic_load_n(&c.calls, __ATOMIC_ACQUIRE);
	ut_sleep_ms(20);
	TEST_ASSERT_EQUAL(__atomic_load_n(&c.calls, __ATOMIC_ACQUIRE), before,
			  "engine ran after stop returned");
	hwsim_engine_stop(c.e);	/* stopping twice is safe */

	/* Restart works, with new back-off bounds. */
	hwsim_engine_set_idle(c.e, 0, 0);	/* clamped to 1 us */
	TEST_ASSERT_SUCCESS(hwsim_engine_start(c.e), "restart");
	TEST_ASSERT_SUCCESS(ut_wait_counter(&c.calls, before + 20), "restarted engine idle");
	hwsim_engine_destroy(c.e);	/* stops first */
	before = __atomic_load_n(&c.calls, __ATOMIC_ACQUIRE);
	ut_sleep_ms(20);
	TEST_ASSERT_EQUAL(__atomic_load_n(&c.calls, __ATOMIC_ACQUIRE), before,
			  "engine ran after destroy");
	return TEST_SUCCESS;
}

/*
 * Engine name on c, idle sleeps of an hour (it polls again only when kicked, or hot),
 * started, its first pass done. @return 0 or -1.
 */
static int
engine_start_sleepy(struct engine_ctx *c, const char *name)
{
	memset(c, 0, sizeof(*c));
	c->self = -1;
	c->e = hwsim_engine_create(name, engine_poll, c);
	if (c->e == NULL)
		return -1;
	hwsim_engine_set_idle(c->e, 3600u * 1000000u, 3600u * 1000000u);
	if (hwsim_engine_start(c->e) != 0)
		return -1;
	return ut_wait_counter(&c->calls, 1);
}

static int
test_hwsim_engine_kick(void)
{
	static struct engine_ctx c;	/* static: outlives a failed test's engine */
	uint64_t n;

	/* Without a working kick each wait below would outlast the limit. */
	TEST_ASSERT_SUCCESS(engine_start_sleepy(&c, "ut_kick"), "start");
	for (n = 2; n <= 5; n++) {
		hwsim_engine_kick(c.e);
		TEST_ASSERT_SUCCESS(ut_wait_counter(&c.calls, n), "kick %" PRIu64 " lost", n);
	}
	/* The completed passes: each counted once the poll function has returned. */
	TEST_ASSERT_SUCCESS(UT_WAIT_FOR(hwsim_engine_passes(c.e) == 5), "passes %" PRIu64,
			    hwsim_engine_passes(c.e));
	/* Stop must wake the sleeping engine too, or this join would take an hour. */
	hwsim_engine_stop(c.e);
	hwsim_engine_destroy(c.e);
	return TEST_SUCCESS;
}

/*
 * A hot engine (hwsim_engine_hot()) keeps polling while idle, without kicks, until its
 * window ends; then it sleeps again.
 */
static int
test_hwsim_engine_hot(void)
{
	static struct engine_ctx c;	/* static: outlives a failed test's engine */
	uint64_t n;

	/* Only a hot engine polls again within the wait limit. */
	TEST_ASSERT_SUCCESS(engine_start_sleepy(&c, "ut_hot"), "start");
	hwsim_engine_hot(c.e, 3600u * 1000000u);
	hwsim_engine_kick(c.e);
	TEST_ASSERT_SUCCESS(ut_wait_counter(&c.calls, 100), "hot engine slept");
	/* The window ends now: after the pass under way the engine sleeps. */
	hwsim_engine_hot(c.e, 0);
	ut_sleep_ms(20);
	n = __atomic_load_n(&c.calls, __ATOMIC_ACQUIRE);
	ut_sleep_ms(20);
	TEST_ASSERT_EQUAL(__atomic_load_n(&c.calls, __ATOMIC_ACQUIRE), n,
			  "engine polled after its hot window");
	hwsim_engine_destroy(c.e);
	return TEST_SUCCESS;
}

static int
test_hwsim_engine_is_self(void)
{
	static struct engine_ctx c;	/* static: outlives a failed test's engine */

	memset(&c, 0, sizeof(c));
	c.self = -1;
	/* Longer than 15 characters: the thread name must be cut, not rejected. */
	c.e = hwsim_engine_create("ut_self_0123456789abcdef", engine_poll, &c);
	TEST_ASSERT_NOT_NULL(c.e, "create failed");
	TEST_ASSERT_EQUAL(hwsim_engine_is_self(c.e), 0, "self before start");
	TEST_ASSERT_SUCCESS(hwsim_engine_start(c.e), "start");
	TEST_ASSERT_SUCCESS(ut_wait_counter(&c.calls, 1), "engine did not poll");
	TEST_ASSERT_EQUAL(c.self, 1, "is_self false on the engine thread");
	TEST_ASSERT_EQUAL(hwsim_engine_is_self(c.e), 0, "is_self true on the test thread");
	TEST_ASSERT(strcmp(c.tname, "ut_self_0123456") == 0, "thread name '%s'", c.tname);
	hwsim_engine_stop(c.e);
	TEST_ASSERT_EQUAL(hwsim_engine_is_self(c.e), 0, "self after stop");
	hwsim_engine_destroy(c.e);
	return TEST_SUCCESS;
}

static int
test_hwsim_engine_stop_from_self(void)
{
	static struct engine_ctx c;	/* static: outlives a failed test's engine */

	memset(&c, 0, sizeof(c));
	c.self = -1;
	c.work_passes = UINT64_MAX;	/* always busy: only the stop flag ends the loop */
	c.stop_at = 5;
	c.e = hwsim_engine_create("ut_selfstop", engine_poll, &c);
	TEST_ASSERT_NOT_NULL(c.e, "create failed");
	TEST_ASSERT_SUCCESS(hwsim_engine_start(c.e), "start");
	TEST_ASSERT_SUCCESS(ut_wait_counter(&c.calls, 5), "engine did not poll");
	ut_sleep_ms(20);
	TEST_ASSERT_EQUAL(__atomic_load_n(&c.calls, __ATOMIC_ACQUIRE), 5,
			  "engine kept running after stopping itself");
	/* The thread has ended but is not joined: start refuses until stop joins it. */
	TEST_ASSERT_EQUAL(hwsim_engine_start(c.e), -EBUSY, "start before join");
	hwsim_engine_stop(c.e);
	c.stop_at = 0;
	TEST_ASSERT_SUCCESS(hwsim_engine_start(c.e), "restart");
	TEST_ASSERT_SUCCESS(ut_wait_counter(&c.calls, 50), "restarted engine did not poll");
	hwsim_engine_destroy(c.e);
	return TEST_SUCCESS;
}

static int
test_hwsim_now_ns(void)
{
	uint64_t t0;
	uint64_t t1;

	t0 = hwsim_now_ns();
	ut_sleep_ms(2);
	t1 = hwsim_now_ns();
	/* A monotonic clock cannot show less than the time slept on that same clock. */
	TEST_ASSERT(t1 >= t0 + 2000000, "clock advanced %" PRIu64 " ns over 2 ms", t1 - t0);
	return TEST_SUCCESS;
}

/*
 * Fault knobs
 */

enum {
	K_FAIL_CREATE,
	K_STATUS,
	K_BIG,
	K_ALWAYS,
	K_NUM,
};

static const struct hwsim_knob_def knob_defs[K_NUM] = {
	[K_FAIL_CREATE] = { "fail_create", 0, 0, 100, "fail the next N creates" },
	[K_STATUS] = { "create_status", -1, -16, 0x10, "status to return" },
	[K_BIG] = { "big", 0, INT64_MIN, INT64_MAX, "full int64_t range" },
	[K_ALWAYS] = { "always", 1, 1, 3, "min above zero" },
};

static int
test_hwsim_knobs_create(void)
{
	static const struct hwsim_knob_def bad_name[] = { { "Fail", 0, 0, 1, NULL } };
	static const struct hwsim_knob_def bad_char[] = { { "fail-x", 0, 0, 1, NULL } };
	static const struct hwsim_knob_def empty_name[] = { { "", 0, 0, 1, NULL } };
	static const struct hwsim_knob_def null_name[] = { { NULL, 0, 0, 1, NULL } };
	static const struct hwsim_knob_def bad_def[] = { { "a", 5, 0, 1, NULL } };
	static const struct hwsim_knob_def bad_range[] = { { "a", 0, 1, 0, NULL } };
	static const struct hwsim_knob_def dup[] = {
		{ "a", 0, 0, 1, NULL }, { "b", 0, 0, 1, NULL }, { "a", 0, 0, 1, NULL },
	};
	static const struct hwsim_knob_def *const bad[] = {
		bad_name, bad_char, empty_name, null_name, bad_def, bad_range,
	};
	struct hwsim_knobs *k;
	unsigned int i;

	for (i = 0; i < RTE_DIM(bad); i++) {
		rte_errno = 0;
		TEST_ASSERT_NULL(hwsim_knobs_create(bad[i], 1), "bad definition %u accepted", i);
		TEST_ASSERT_EQUAL(rte_errno, EINVAL, "rte_errno for bad definition %u", i);
	}
	TEST_ASSERT_NULL(hwsim_knobs_create(dup, RTE_DIM(dup)), "duplicate name accepted");
	TEST_ASSERT_NULL(hwsim_knobs_create(NULL, 1), "NULL definitions accepted");

	k = hwsim_knobs_create(knob_defs, K_NUM);
	TEST_ASSERT_NOT_NULL(k, "create failed");
	TEST_ASSERT_EQUAL(hwsim_knobs_count(k), K_NUM, "count");
	for (i = 0; i < K_NUM; i++) {
		TEST_ASSERT(hwsim_knobs_def(k, i) == &knob_defs[i], "def %u", i);
		TEST_ASSERT_EQUAL(hwsim_knob(k, i), knob_defs[i].def, "default of knob %u", i);
	}
	TEST_ASSERT_NULL(hwsim_knobs_def(k, K_NUM), "def past the table");
	hwsim_knobs_destroy(k);

	k = hwsim_knobs_create(NULL, 0);
	TEST_ASSERT_NOT_NULL(k, "empty table");
	TEST_ASSERT_EQUAL(hwsim_knobs_count(k), 0, "empty count");
	hwsim_knobs_destroy(k);
	return TEST_SUCCESS;
}

static int
test_hwsim_knobs_set_get(void)
{
	struct hwsim_knobs *k;
	int64_t v;

	k = hwsim_knobs_create(knob_defs, K_NUM);
	TEST_ASSERT_NOT_NULL(k, "create failed");
	TEST_ASSERT_SUCCESS(hwsim_knobs_get(k, "create_status", &v), "get");
	TEST_ASSERT_EQUAL(v, -1, "default");
	TEST_ASSERT_SUCCESS(hwsim_knobs_set(k, "create_status", 7), "set");
	TEST_ASSERT_SUCCESS(hwsim_knobs_get(k, "create_status", &v), "get");
	TEST_ASSERT_EQUAL(v, 7, "value after set");
	TEST_ASSERT_EQUAL(hwsim_knob(k, K_STATUS), 7, "fast read");

	/* Range ends are inclusive; one past is -ERANGE and changes nothing. */
	TEST_ASSERT_SUCCESS(hwsim_knobs_set(k, "create_status", -16), "min");
	TEST_ASSERT_SUCCESS(hwsim_knobs_set(k, "create_status", 0x10), "max");
	TEST_ASSERT_EQUAL(hwsim_knobs_set(k, "create_status", 0x11), -ERANGE, "max + 1");
	TEST_ASSERT_EQUAL(hwsim_knobs_set(k, "create_status", -17), -ERANGE, "min - 1");
	TEST_ASSERT_EQUAL(hwsim_knob(k, K_STATUS), 0x10, "failed set changed the value");
	TEST_ASSERT_SUCCESS(hwsim_knobs_set(k, "big", INT64_MIN), "INT64_MIN");
	TEST_ASSERT_EQUAL(hwsim_knob(k, K_BIG), INT64_MIN, "INT64_MIN value");

	TEST_ASSERT_EQUAL(hwsim_knobs_set(k, "nope", 1), -ENOENT, "unknown set");
	TEST_ASSERT_EQUAL(hwsim_knobs_get(k, "nope", &v), -ENOENT, "unknown get");
	TEST_ASSERT_EQUAL(hwsim_knobs_set(k, "fail", 1), -ENOENT, "prefix of a name");
	TEST_ASSERT_EQUAL(hwsim_knobs_set(k, "fail_create_x", 1), -ENOENT, "name + suffix");
	TEST_ASSERT_EQUAL(hwsim_knobs_set(k, NULL, 1), -ENOENT, "NULL name");

	/* Fast write clamps instead of failing. */
	hwsim_knob_set(k, K_FAIL_CREATE, 1000);
	TEST_ASSERT_EQUAL(hwsim_knob(k, K_FAIL_CREATE), 100, "clamped to max");
	hwsim_knob_set(k, K_FAIL_CREATE, -5);
	TEST_ASSERT_EQUAL(hwsim_knob(k, K_FAIL_CREATE), 0, "clamped to min");
	hwsim_knob_set(k, K_FAIL_CREATE, 42);
	TEST_ASSERT_EQUAL(hwsim_knob(k, K_FAIL_CREATE), 42, "in range");
	hwsim_knob_set(k, K_NUM, 1);	/* logged and ignored */
	TEST_ASSERT_EQUAL(hwsim_knob(k, K_NUM), 0, "index past the table reads 0");
	hwsim_knobs_destroy(k);
	return TEST_SUCCESS;
}

static int
test_hwsim_knob_take(void)
{
	struct hwsim_knobs *k;

	k = hwsim_knobs_create(knob_defs, K_NUM);
	TEST_ASSERT_NOT_NULL(k, "create failed");
	TEST_ASSERT_EQUAL(hwsim_knob_take(k, K_FAIL_CREATE), 0, "take at 0");
	hwsim_knob_set(k, K_FAIL_CREATE, 3);
	TEST_ASSERT_EQUAL(hwsim_knob_take(k, K_FAIL_CREATE), 1, "take 1 of 3");
	TEST_ASSERT_EQUAL(hwsim_knob_take(k, K_FAIL_CREATE), 1, "take 2 of 3");
	TEST_ASSERT_EQUAL(hwsim_knob_take(k, K_FAIL_CREATE), 1, "take 3 of 3");
	TEST_ASSERT_EQUAL(hwsim_knob_take(k, K_FAIL_CREATE), 0, "take past 0");
	TEST_ASSERT_EQUAL(hwsim_knob(k, K_FAIL_CREATE), 0, "value after takes");

	/* Negative is "off" for take and is left alone. */
	TEST_ASSERT_EQUAL(hwsim_knob_take(k, K_STATUS), 0, "take at -1");
	TEST_ASSERT_EQUAL(hwsim_knob(k, K_STATUS), -1, "take changed a negative knob");
	/* A knob whose min is 1 fires forever and never leaves its range. */
	hwsim_knob_set(k, K_ALWAYS, 2);
	TEST_ASSERT_EQUAL(hwsim_knob_take(k, K_ALWAYS), 1, "take 2 -> 1");
	TEST_ASSERT_EQUAL(hwsim_knob_take(k, K_ALWAYS), 1, "take at min");
	TEST_ASSERT_EQUAL(hwsim_knob(k, K_ALWAYS), 1, "went below min");
	TEST_ASSERT_EQUAL(hwsim_knob_take(k, K_NUM), 0, "take past the table");
	hwsim_knobs_destroy(k);
	return TEST_SUCCESS;
}

#define TAKE_THREADS 4
#define TAKE_TOTAL 200000

struct take_ctx {
	struct hwsim_knobs *k;
	pthread_barrier_t start;
	uint64_t taken;
};

static void *
take_worker(void *arg)
{
	struct take_ctx *c = arg;
	unsigned int i;

	pthread_barrier_wait(&c->start);
	/* Each thread tries more often than the knob allows; the rest must miss. */
	for (i = 0; i < TAKE_TOTAL; i++)
		if (hwsim_knob_take(c->k, K_BIG))
			__atomic_fetch_add(&c->taken, 1, __ATOMIC_RELAXED);
	return NULL;
}

static int
test_hwsim_knob_take_concurrent(void)
{
	pthread_t tid[TAKE_THREADS];
	pthread_attr_t attr;
	struct take_ctx c;
	cpu_set_t all;
	unsigned int i;

	memset(&c, 0, sizeof(c));
	c.k = hwsim_knobs_create(knob_defs, K_NUM);
	TEST_ASSERT_NOT_NULL(c.k, "create failed");
	hwsim_knob_set(c.k, K_BIG, TAKE_TOTAL);	/* "big": TAKE_TOTAL is in its range */
	TEST_ASSERT_EQUAL(hwsim_knob(c.k, K_BIG), TAKE_TOTAL, "knob set");
	/*
	 * EAL pinned this thread to lcore 0 and new threads inherit that: give the
	 * workers every CPU (the kernel drops those we may not use) and start them
	 * together, so they really race. With one CPU the test still checks the count.
	 */
	memset(&all, 0xff, sizeof(all));
	pthread_attr_init(&attr);
	pthread_attr_setaffinity_np(&attr, sizeof(all), &all);
	pthread_barrier_init(&c.start, NULL, TAKE_THREADS);
	for (i = 0; i < TAKE_THREADS; i++)
		TEST_ASSERT_SUCCESS(pthread_create(&tid[i], &attr, take_worker, &c), "thread");
	for (i = 0; i < TAKE_THREADS; i++)
		pthread_join(tid[i], NULL);
	pthread_barrier_destroy(&c.start);
	pthread_attr_destroy(&attr);
	TEST_ASSERT_EQUAL(c.taken, TAKE_TOTAL, "exactly N takes must succeed");
	TEST_ASSERT_EQUAL(hwsim_knob(c.k, K_BIG), 0, "knob after takes");
	hwsim_knobs_destroy(c.k);
	return TEST_SUCCESS;
}

static int
test_hwsim_knobs_parse_ok(void)
{
	static const char *const ignore[] = { "dev", "queues", "flag", NULL };
	struct hwsim_knobs *k;

	k = hwsim_knobs_create(knob_defs, K_NUM);
	TEST_ASSERT_NOT_NULL(k, "create failed");
	TEST_ASSERT_SUCCESS(hwsim_knobs_parse(k, NULL, NULL), "NULL list");
	TEST_ASSERT_SUCCESS(hwsim_knobs_parse(k, "", NULL), "empty list");

	TEST_ASSERT_SUCCESS(hwsim_knobs_parse(k, "fail_create=1,create_status=-2,big=0x10",
					      NULL), "parse");
	TEST_ASSERT_EQUAL(hwsim_knob(k, K_FAIL_CREATE), 1, "decimal");
	TEST_ASSERT_EQUAL(hwsim_knob(k, K_STATUS), -2, "negative");
	TEST_ASSERT_EQUAL(hwsim_knob(k, K_BIG), 0x10, "hex");

	TEST_ASSERT_SUCCESS(hwsim_knobs_parse(k, "big=-0X1F", NULL), "negative hex");
	TEST_ASSERT_EQUAL(hwsim_knob(k, K_BIG), -0x1f, "negative hex value");
	TEST_ASSERT_SUCCESS(hwsim_knobs_parse(k, "big=010", NULL), "leading zero");
	TEST_ASSERT_EQUAL(hwsim_knob(k, K_BIG), 10, "leading zero is decimal, not octal");
	TEST_ASSERT_SUCCESS(hwsim_knobs_parse(k, "big=+5", NULL), "plus sign");
	TEST_ASSERT_EQUAL(hwsim_knob(k, K_BIG), 5, "plus sign value");
	TEST_ASSERT_SUCCESS(hwsim_knobs_parse(k, "big=9223372036854775807", NULL), "INT64_MAX");
	TEST_ASSERT_EQUAL(hwsim_knob(k, K_BIG), INT64_MAX, "INT64_MAX value");
	TEST_ASSERT_SUCCESS(hwsim_knobs_parse(k, "big=-0x8000000000000000", NULL), "INT64_MIN");
	TEST_ASSERT_EQUAL(hwsim_knob(k, K_BIG), INT64_MIN, "INT64_MIN value");
	TEST_ASSERT_SUCCESS(hwsim_knobs_parse(k, "fail_create=3,fail_create=4", NULL), "repeat");
	TEST_ASSERT_EQUAL(hwsim_knob(k, K_FAIL_CREATE), 4, "last repeat wins");

	/* A whole devargs string: device keys (any value, lists, bare flags) are skipped. */
	TEST_ASSERT_SUCCESS(hwsim_knobs_parse(k,
			"dev=net_x0,queues=[0,1],fail_create=9,flag,create_status=0x10",
			ignore), "devargs with ignored keys");
	TEST_ASSERT_EQUAL(hwsim_knob(k, K_FAIL_CREATE), 9, "knob among device keys");
	TEST_ASSERT_EQUAL(hwsim_knob(k, K_STATUS), 0x10, "knob after a bracket list");
	hwsim_knobs_destroy(k);
	return TEST_SUCCESS;
}

static int
test_hwsim_knobs_parse_errors(void)
{
	static const char *const ignore[] = { "dev", NULL };
	static const struct {
		const char *s;
		int ret;
	} cases[] = {
		/* empty key */
		{ "=1", -EINVAL },
		{ ",fail_create=1", -EINVAL },
		{ "fail_create=1,", -EINVAL },
		{ "fail_create=1,,big=2", -EINVAL },
		/* missing '=' */
		{ "fail_create", -EINVAL },
		{ "big=1,fail_create", -EINVAL },
		/* malformed value, trailing garbage */
		{ "fail_create=", -EINVAL },
		{ "fail_create=1x", -EINVAL },
		{ "fail_create=1.5", -EINVAL },
		{ "fail_create= 1", -EINVAL },
		{ "fail_create=-", -EINVAL },
		{ "fail_create=--1", -EINVAL },
		{ "fail_create=0x", -EINVAL },
		{ "fail_create=0xg", -EINVAL },
		{ "fail_create=abc", -EINVAL },
		{ "fail_create=[1]", -EINVAL },
		{ "fail_create=1=2", -EINVAL },
		/* unknown key */
		{ "nope=1", -ENOENT },
		{ "fail=1", -ENOENT },
		{ "big=1,nope=1", -ENOENT },
		{ "dev=x,nope=1", -ENOENT },
		/* out of the knob's range, or of int64_t */
		{ "fail_create=101", -ERANGE },
		{ "fail_create=-1", -ERANGE },
		{ "create_status=0x11", -ERANGE },
		{ "big=9223372036854775808", -ERANGE },
		{ "big=-9223372036854775809", -ERANGE },
		{ "big=0x8000000000000000", -ERANGE },
	};
	struct hwsim_knobs *k;
	unsigned int i;
	unsigned int j;

	k = hwsim_knobs_create(knob_defs, K_NUM);
	TEST_ASSERT_NOT_NULL(k, "create failed");
	for (i = 0; i < RTE_DIM(cases); i++) {
		TEST_ASSERT_EQUAL(hwsim_knobs_parse(k, cases[i].s, ignore), cases[i].ret,
				  "\"%s\" must give %d", cases[i].s, cases[i].ret);
		/* A rejected string changes no knob, not even the valid keys before the bad one. */
		for (j = 0; j < K_NUM; j++)
			TEST_ASSERT_EQUAL(hwsim_knob(k, j), knob_defs[j].def,
					  "\"%s\" changed knob %s", cases[i].s, knob_defs[j].name);
	}
	hwsim_knobs_destroy(k);
	return TEST_SUCCESS;
}

static struct unit_test_suite hwsim_suite = {
	.suite_name = "hwsim unit tests",
	.setup = NULL,
	.teardown = NULL,
	.unit_test_cases = {
		TEST_CASE(test_hwsim_dma_map_unmap),
		TEST_CASE(test_hwsim_dma_map_overlap),
		TEST_CASE(test_hwsim_dma_map_eal_rule),
		TEST_CASE(test_hwsim_dma_rw_inside),
		TEST_CASE(test_hwsim_dma_rw_outside),
		TEST_CASE(test_hwsim_dma_straddle),
		TEST_CASE(test_hwsim_dma_write_release),
		TEST_CASE(test_hwsim_dma_translate),
		TEST_CASE(test_hwsim_dma_many_windows),
		TEST_CASE(test_hwsim_mmio_page),
		TEST_CASE(test_hwsim_mmio_watch_errors),
		TEST_CASE(test_hwsim_mmio_poll_exchange),
		TEST_CASE(test_hwsim_mmio_second_mapping),
		TEST_CASE(test_hwsim_mmio_alias),
		TEST_CASE(test_hwsim_mmio_reg),
		TEST_CASE(test_hwsim_irq_attach_raise),
		TEST_CASE(test_hwsim_irq_unattached),
		TEST_CASE(test_hwsim_irq_drop_dup),
		TEST_CASE(test_hwsim_irq_saturated),
		TEST_CASE(test_hwsim_engine_start_stop),
		TEST_CASE(test_hwsim_engine_kick),
		TEST_CASE(test_hwsim_engine_hot),
		TEST_CASE(test_hwsim_engine_is_self),
		TEST_CASE(test_hwsim_engine_stop_from_self),
		TEST_CASE(test_hwsim_now_ns),
		TEST_CASE(test_hwsim_knobs_create),
		TEST_CASE(test_hwsim_knobs_set_get),
		TEST_CASE(test_hwsim_knob_take),
		TEST_CASE(test_hwsim_knob_take_concurrent),
		TEST_CASE(test_hwsim_knobs_parse_ok),
		TEST_CASE(test_hwsim_knobs_parse_errors),
		TEST_CASES_END()
	}
};

static int
test_hwsim(void)
{
	return unit_test_suite_runner(&hwsim_suite);
}

REGISTER_TEST_COMMAND(hwsim_autotest, test_hwsim);
