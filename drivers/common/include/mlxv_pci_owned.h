/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * Which PCI functions the primary process took through a PCI front-end (mlx5v_pci, mlx4v_pci),
 * for its secondaries: a table of their names in a memzone the primary makes, which a
 * secondary reads before taking a function (doc/guides/howto/device_selection.rst, "Secondary
 * processes"). A secondary cannot choose differently from the primary: the primary owns the
 * function, its queues and its ports.
 */

#ifndef _MLXV_PCI_OWNED_H_
#define _MLXV_PCI_OWNED_H_

#include <errno.h>
#include <string.h>

#include <rte_common.h>
#include <rte_dev.h>
#include <rte_eal.h>
#include <rte_memzone.h>
#include <rte_string_fns.h>

/* Functions one front-end of one primary can own at once. */
#define MLXV_PCI_OWNED_MAX 64

struct mlxv_pci_owned {
	struct {
		uint32_t used; /* 1 while name is the primary's (written last, read first) */
		char name[RTE_DEV_NAME_MAX_LEN];
	} fn[MLXV_PCI_OWNED_MAX];
};

/*
 * Primary: record (own 1) or forget (own 0) the function name in the table of memzone mz
 * (made at the first record). @return 0, -ENOMEM or -ENOSPC.
 */
static inline int
mlxv_pci_owned_set(const char *mz, const char *name, int own)
{
	const struct rte_memzone *z = rte_memzone_lookup(mz);
	struct mlxv_pci_owned *t;
	unsigned int i;

	if (z == NULL && !own)
		return 0;
	if (z == NULL) {
		z = rte_memzone_reserve(mz, sizeof(*t), SOCKET_ID_ANY, 0);
		if (z == NULL)
			return -ENOMEM;
		memset(z->addr, 0, sizeof(*t));
	}
	t = z->addr;
	for (i = 0; i < MLXV_PCI_OWNED_MAX; i++) {
		if (!own) {
			if (t->fn[i].used && strcmp(t->fn[i].name, name) == 0)
				/* Release: a secondary that still reads the name sees it whole. */
				__atomic_store_n(&t->fn[i].used, 0, __ATOMIC_RELEASE);
			continue;
		}
		if (t->fn[i].used)
			continue;
		strlcpy(t->fn[i].name, name, sizeof(t->fn[i].name));
		/* Release: a secondary that sees the slot used sees its whole name. */
		__atomic_store_n(&t->fn[i].used, 1, __ATOMIC_RELEASE);
		return 0;
	}
	return own ? -ENOSPC : 0;
}

/* Secondary: whether the primary owns the function name (in the table of memzone mz). */
static inline int
mlxv_pci_owned(const char *mz, const char *name)
{
	const struct rte_memzone *z = rte_memzone_lookup(mz);
	const struct mlxv_pci_owned *t;
	unsigned int i;

	if (z == NULL)
		return 0;
	t = z->addr;
	for (i = 0; i < MLXV_PCI_OWNED_MAX; i++)
		/* Acquire: pairs with the primary's release in mlxv_pci_owned_set(). */
		if (__atomic_load_n(&t->fn[i].used, __ATOMIC_ACQUIRE) &&
		    strcmp(t->fn[i].name, name) == 0)
			return 1;
	return 0;
}

#endif /* _MLXV_PCI_OWNED_H_ */
