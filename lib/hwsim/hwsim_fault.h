/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Named, typed fault knobs, settable from code, devargs and testpmd. */

#ifndef _HWSIM_FAULT_H_
#define _HWSIM_FAULT_H_

#include <stddef.h>
#include <stdint.h>

#include <rte_compat.h>

/** A knob's definition. Knobs are 64-bit integers with a range. */
struct hwsim_knob_def {
	const char *name;   /**< [a-z0-9_]+ */
	int64_t def;        /**< initial value */
	int64_t min;
	int64_t max;
	const char *help;
};

struct hwsim_knobs;

/** Create a knob table from n definitions (copied by reference: keep defs static). */
__rte_internal
struct hwsim_knobs *hwsim_knobs_create(const struct hwsim_knob_def *defs, unsigned int n);

__rte_internal
void hwsim_knobs_destroy(struct hwsim_knobs *k);

/** Set by name. @return 0, -ENOENT (unknown name) or -ERANGE. Thread-safe. */
__rte_internal
int hwsim_knobs_set(struct hwsim_knobs *k, const char *name, int64_t v);

/** Get by name. @return 0 or -ENOENT. */
__rte_internal
int hwsim_knobs_get(struct hwsim_knobs *k, const char *name, int64_t *v);

/** Fast read by index (the position in the definition array). */
__rte_internal
int64_t hwsim_knob(struct hwsim_knobs *k, unsigned int idx);

/** Fast write by index; the value is clamped to the range. */
__rte_internal
void hwsim_knob_set(struct hwsim_knobs *k, unsigned int idx, int64_t v);

/**
 * "Fail the next N" helper: if the knob is > 0, atomically decrement it and return 1;
 * otherwise return 0.
 */
__rte_internal
int hwsim_knob_take(struct hwsim_knobs *k, unsigned int idx);

/**
 * Parse "name=value[,name=value...]" (values decimal or 0x-hex, may be negative) and set
 * each. Keys in ignore[] (NULL-terminated, may be NULL) are skipped, so a devargs string
 * that also carries device keys can be passed whole.
 * @return 0, or -EINVAL / -ENOENT / -ERANGE with a log line naming the bad key.
 */
__rte_internal
int hwsim_knobs_parse(struct hwsim_knobs *k, const char *kvlist, const char *const *ignore);

/** @return the number of knobs; hwsim_knobs_def() gives each definition. */
__rte_internal
unsigned int hwsim_knobs_count(const struct hwsim_knobs *k);

__rte_internal
const struct hwsim_knob_def *hwsim_knobs_def(const struct hwsim_knobs *k, unsigned int idx);

#endif /* _HWSIM_FAULT_H_ */
