/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file The class= devarg grammar, shared by the mlx5v and mlx4v common drivers. */

#ifndef _MLXV_CLASS_PARSE_H_
#define _MLXV_CLASS_PARSE_H_

#include <errno.h>
#include <stdio.h>
#include <string.h>

/**
 * Split a class= value into names joined by ':'. known(name, len, arg) returns the canonical
 * (static) name of a known class or NULL. On error, err (errlen bytes) gets one message line.
 * "none" alone means no class. Caller holds whatever lock known() needs.
 * @return the number of names written to names[] (<= max), or -EINVAL.
 */
static inline int
mlxv_class_parse_list(const char *value, const char *(*known)(const char *, size_t, void *),
		      void *arg, const char **names, int max, char *err, size_t errlen)
{
	const char *p = value;
	int n = 0, i;

	if (value == NULL || value[0] == '\0') {
		snprintf(err, errlen, "empty value (expected net, none, or names joined by ':')");
		return -EINVAL;
	}
	if (strcmp(value, "none") == 0)
		return 0;
	for (;;) {
		size_t len = strcspn(p, ":");
		const char *name = len > 0 ? known(p, len, arg) : NULL;

		if (name == NULL) {
			snprintf(err, errlen, "%s: unknown class \"%.*s\" (known: net, none, and "
				 "registered ones)", value, (int)len, p);
			return -EINVAL;
		}
		for (i = 0; i < n; i++) {
			if (names[i] == name) {
				snprintf(err, errlen, "%s: class %s given twice", value, name);
				return -EINVAL;
			}
		}
		if (n == max) {
			snprintf(err, errlen, "%s: more than %d classes", value, max);
			return -EINVAL;
		}
		names[n++] = name;
		if (p[len] == '\0')
			return n;
		p += len + 1;
	}
}

#endif /* _MLXV_CLASS_PARSE_H_ */
