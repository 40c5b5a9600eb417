/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * The devargs of one device, parsed once and handed from layer to layer (DPDK mlx5's kvargs
 * control): each layer takes the keys it owns, and what no layer took is refused by name
 * (mlxv_class_reg_args_check()). Shared by the mlx5v and mlx4v front-ends; nothing here is
 * exported (doc/guides/platform/layers.rst, "Devargs").
 */

#ifndef _MLXV_CLASS_ARGS_H_
#define _MLXV_CLASS_ARGS_H_

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_kvargs.h>

/** One device's devargs and which of them a layer took. */
struct mlxv_class_args {
	struct rte_kvargs *kv;      /**< NULL: the device has no devargs */
	uint64_t taken;             /**< bit i: kv->pairs[i] was taken by its owner */
};

/**
 * Parse args (NULL or "": none) into a. A string rte_kvargs cannot parse and a key given
 * twice (which would silently take its last value) are refused, with one line in err.
 * @return 0 or -EINVAL (a then holds nothing).
 */
static inline int
mlxv_class_args_parse(struct mlxv_class_args *a, const char *args, char *err, size_t errlen)
{
	unsigned int i;

	RTE_BUILD_BUG_ON(RTE_KVARGS_MAX > 64);
	memset(a, 0, sizeof(*a));
	if (args == NULL || args[0] == '\0')
		return 0;
	a->kv = rte_kvargs_parse(args, NULL);
	if (a->kv == NULL) {
		snprintf(err, errlen, "cannot parse devargs \"%s\"", args);
		return -EINVAL;
	}
	for (i = 0; i < a->kv->count; i++) {
		if (rte_kvargs_count(a->kv, a->kv->pairs[i].key) > 1) {
			snprintf(err, errlen, "devarg %s given twice", a->kv->pairs[i].key);
			rte_kvargs_free(a->kv);
			a->kv = NULL;
			return -EINVAL;
		}
	}
	return 0;
}

/** Free what mlxv_class_args_parse() made (a zeroed a: nothing). */
static inline void
mlxv_class_args_free(struct mlxv_class_args *a)
{
	rte_kvargs_free(a->kv);
	a->kv = NULL;
}

/**
 * Take key: the caller owns it from now on. *val gets its value (NULL for a bare key).
 * @return 1 if the devargs have key, else 0.
 */
static inline int
mlxv_class_args_take(struct mlxv_class_args *a, const char *key, const char **val)
{
	unsigned int i;

	for (i = 0; a->kv != NULL && i < a->kv->count; i++) {
		if (strcmp(a->kv->pairs[i].key, key) == 0) {
			a->taken |= UINT64_C(1) << i;
			*val = a->kv->pairs[i].value;
			return 1;
		}
	}
	return 0;
}

/** @return the key of the first pair from *i on that no layer took (*i moves past it), or NULL. */
static inline const char *
mlxv_class_args_left(const struct mlxv_class_args *a, unsigned int *i)
{
	for (; a->kv != NULL && *i < a->kv->count; (*i)++)
		if ((a->taken & (UINT64_C(1) << *i)) == 0)
			return a->kv->pairs[(*i)++].key;
	return NULL;
}

/**
 * Take every pair left, for a layer that owns all other keys (a simulator's fault knobs):
 * *out gets them as "key=value,key,..." in their order (free() it), or NULL when none is left.
 * @return 0 or -ENOMEM.
 */
static inline int
mlxv_class_args_rest(struct mlxv_class_args *a, char **out)
{
	size_t len = 0, at = 0;
	unsigned int i;

	for (i = 0; a->kv != NULL && i < a->kv->count; i++)
		len += strlen(a->kv->pairs[i].key) + 2 + (a->kv->pairs[i].value != NULL ?
							  strlen(a->kv->pairs[i].value) : 0);
	*out = len != 0 ? malloc(len) : NULL;
	if (len != 0 && *out == NULL)
		return -ENOMEM;
	for (i = 0; a->kv != NULL && i < a->kv->count; i++) {
		const struct rte_kvargs_pair *p = &a->kv->pairs[i];

		if ((a->taken & (UINT64_C(1) << i)) == 0)
			at += snprintf(*out + at, len - at, "%s%s%s%s", at != 0 ? "," : "",
				       p->key, p->value != NULL ? "=" : "",
				       p->value != NULL ? p->value : "");
		a->taken |= UINT64_C(1) << i;
	}
	if (at == 0) {
		free(*out);
		*out = NULL;
	}
	return 0;
}

#endif /* _MLXV_CLASS_ARGS_H_ */
