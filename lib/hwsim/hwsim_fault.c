/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Named, typed fault knobs: an atomic value table and a "k=v,k=v" parser. */

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>

#include "hwsim_fault.h"
#include "hwsim_log.h"

/*
 * Values are read and written with relaxed atomics: a knob is an independent
 * flag or counter, and no other data is published through it.
 */
struct hwsim_knobs {
	const struct hwsim_knob_def *defs;  /* the caller's static array */
	unsigned int n;
	int64_t val[];
};

/* @return 1 if name is a valid knob name: [a-z0-9_]+. */
static int
hwsim_knob_name_ok(const char *name)
{
	const char *p;

	if (name == NULL || *name == '\0')
		return 0;
	for (p = name; *p != '\0'; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_'))
			return 0;
	return 1;
}

/* @return the index of the knob whose name is the len bytes at name, or -1. */
static int
hwsim_knobs_find(const struct hwsim_knobs *k, const char *name, size_t len)
{
	unsigned int i;

	for (i = 0; i < k->n; i++)
		if (strncmp(k->defs[i].name, name, len) == 0 && k->defs[i].name[len] == '\0')
			return (int)i;
	return -1;
}

/** @return the table, or NULL with rte_errno EINVAL (bad definitions) or ENOMEM. */
struct hwsim_knobs *
hwsim_knobs_create(const struct hwsim_knob_def *defs, unsigned int n)
{
	const struct hwsim_knob_def *d;
	struct hwsim_knobs *k;
	unsigned int i;

	if (defs == NULL && n > 0) {
		rte_errno = EINVAL;
		return NULL;
	}
	/* libc calloc: process-local state, usable without EAL. */
	k = calloc(1, sizeof(*k) + (size_t)n * sizeof(k->val[0]));
	if (k == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	k->defs = defs;
	for (i = 0; i < n; i++) {
		d = &defs[i];
		if (!hwsim_knob_name_ok(d->name) || d->min > d->max ||
				d->def < d->min || d->def > d->max) {
			HWSIM_LOG(ERR, "knob #%u '%s': bad definition", i,
				  d->name != NULL ? d->name : "(null)");
			goto error;
		}
		/* k->n counts the knobs checked so far, so find() sees only earlier names. */
		if (hwsim_knobs_find(k, d->name, strlen(d->name)) >= 0) {
			HWSIM_LOG(ERR, "knob '%s': defined twice", d->name);
			goto error;
		}
		k->val[i] = d->def;
		k->n = i + 1;
	}
	return k;
error:
	free(k);
	rte_errno = EINVAL;
	return NULL;
}

void
hwsim_knobs_destroy(struct hwsim_knobs *k)
{
	free(k);
}

int
hwsim_knobs_set(struct hwsim_knobs *k, const char *name, int64_t v)
{
	int idx;

	if (name == NULL)
		return -ENOENT;
	idx = hwsim_knobs_find(k, name, strlen(name));
	if (idx < 0)
		return -ENOENT;
	if (v < k->defs[idx].min || v > k->defs[idx].max)
		return -ERANGE;
	__atomic_store_n(&k->val[idx], v, __ATOMIC_RELAXED);
	return 0;
}

int
hwsim_knobs_get(struct hwsim_knobs *k, const char *name, int64_t *v)
{
	int idx;

	if (name == NULL)
		return -ENOENT;
	idx = hwsim_knobs_find(k, name, strlen(name));
	if (idx < 0)
		return -ENOENT;
	*v = __atomic_load_n(&k->val[idx], __ATOMIC_RELAXED);
	return 0;
}

/* An index out of range reads as 0 (knob off): this is the fast path, so nothing is logged. */
int64_t
hwsim_knob(struct hwsim_knobs *k, unsigned int idx)
{
	if (idx >= k->n)
		return 0;
	return __atomic_load_n(&k->val[idx], __ATOMIC_RELAXED);
}

void
hwsim_knob_set(struct hwsim_knobs *k, unsigned int idx, int64_t v)
{
	if (idx >= k->n) {
		HWSIM_LOG(ERR, "knob index %u out of range (%u knobs)", idx, k->n);
		return;
	}
	if (v < k->defs[idx].min)
		v = k->defs[idx].min;
	else if (v > k->defs[idx].max)
		v = k->defs[idx].max;
	__atomic_store_n(&k->val[idx], v, __ATOMIC_RELAXED);
}

/*
 * The decrement never leaves the knob's range: a knob whose min is above 0
 * stays at its floor and keeps firing (an "always fail" knob).
 */
int
hwsim_knob_take(struct hwsim_knobs *k, unsigned int idx)
{
	int64_t v;

	if (idx >= k->n)
		return 0;
	v = __atomic_load_n(&k->val[idx], __ATOMIC_RELAXED);
	while (v > 0) {
		if (v - 1 < k->defs[idx].min)
			return 1;
		/* On failure v is reloaded, and the loop re-checks it against 0. */
		if (__atomic_compare_exchange_n(&k->val[idx], &v, v - 1, 1,
						__ATOMIC_RELAXED, __ATOMIC_RELAXED))
			return 1;
	}
	return 0;
}

/*
 * Parse one integer occupying exactly the len bytes at s: optional sign, then
 * decimal digits or 0x/0X and hex digits. No whitespace, no octal.
 * @return 0, -EINVAL (malformed) or -ERANGE (beyond int64_t).
 */
static int
hwsim_knob_parse_int(const char *s, size_t len, int64_t *out)
{
	const char *p = s;
	char *end;
	long long v;
	int base = 10;

	if (len == 0)
		return -EINVAL;
	if (*p == '-' || *p == '+')
		p++;
	/* strtoll() would skip whitespace and take a second sign; we do not. */
	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		base = 16;
	errno = 0;
	v = strtoll(s, &end, base);
	/* The item ends at ',' or NUL, neither a digit, so strtoll() cannot run past it. */
	if (end != s + len)
		return -EINVAL;
	if (errno == ERANGE)
		return -ERANGE;
	*out = v;
	return 0;
}

/* One "key[=value]" item, as pointers into the caller's string. */
struct hwsim_kv {
	const char *key;
	const char *val;   /* NULL when the item has no '=' */
	size_t klen;
	size_t vlen;
};

/*
 * Split the item at p. A value ends at a ',' outside brackets, so a device key's
 * list value ("queues=[0,1]") stays whole, as rte_kvargs reads it.
 * @return the end of the item: a ',' or the terminating NUL.
 */
static const char *
hwsim_kv_split(const char *p, struct hwsim_kv *kv)
{
	const char *q = p;
	int depth = 0;

	while (*q != '\0' && *q != '=' && *q != ',')
		q++;
	kv->key = p;
	kv->klen = q - p;
	kv->val = NULL;
	kv->vlen = 0;
	if (*q != '=')
		return q;
	kv->val = ++q;
	for (; *q != '\0'; q++) {
		if (*q == '[')
			depth++;
		else if (*q == ']' && depth > 0)
			depth--;
		else if (*q == ',' && depth == 0)
			break;
	}
	kv->vlen = q - kv->val;
	return q;
}

static int
hwsim_kv_ignored(const struct hwsim_kv *kv, const char *const *ignore)
{
	unsigned int i;

	if (ignore == NULL)
		return 0;
	for (i = 0; ignore[i] != NULL; i++)
		if (strncmp(ignore[i], kv->key, kv->klen) == 0 && ignore[i][kv->klen] == '\0')
			return 1;
	return 0;
}

/*
 * One pass over kvlist. The first pass (apply = 0) validates everything and logs
 * the first bad key; the second (apply = 1) only runs on a valid list, so a bad
 * string changes no knob at all.
 */
static int
hwsim_knobs_parse_pass(struct hwsim_knobs *k, const char *kvlist,
		       const char *const *ignore, int apply)
{
	struct hwsim_kv kv;
	const char *p = kvlist;
	const char *why;
	int64_t v;
	int idx;
	int ret;

	for (;;) {
		p = hwsim_kv_split(p, &kv);
		if (kv.klen == 0) {
			ret = -EINVAL;
			why = "empty key";
			goto bad;
		}
		if (hwsim_kv_ignored(&kv, ignore))
			goto next;
		if (kv.val == NULL) {
			ret = -EINVAL;
			why = "missing '='";
			goto bad;
		}
		idx = hwsim_knobs_find(k, kv.key, kv.klen);
		if (idx < 0) {
			ret = -ENOENT;
			why = "unknown knob";
			goto bad;
		}
		ret = hwsim_knob_parse_int(kv.val, kv.vlen, &v);
		if (ret == 0 && (v < k->defs[idx].min || v > k->defs[idx].max))
			ret = -ERANGE;
		if (ret != 0) {
			why = ret == -ERANGE ? "value out of range" : "bad integer";
			goto bad;
		}
		if (apply)
			__atomic_store_n(&k->val[idx], v, __ATOMIC_RELAXED);
next:
		if (*p == '\0')
			return 0;
		p++;	/* skip ','; a trailing ',' yields an empty key next */
	}
bad:
	HWSIM_LOG(ERR, "knobs \"%s\": key '%.*s': %s", kvlist, (int)kv.klen, kv.key, why);
	return ret;
}

int
hwsim_knobs_parse(struct hwsim_knobs *k, const char *kvlist, const char *const *ignore)
{
	int ret;

	if (kvlist == NULL || *kvlist == '\0')
		return 0;
	ret = hwsim_knobs_parse_pass(k, kvlist, ignore, 0);
	if (ret != 0)
		return ret;
	return hwsim_knobs_parse_pass(k, kvlist, ignore, 1);
}

unsigned int
hwsim_knobs_count(const struct hwsim_knobs *k)
{
	return k != NULL ? k->n : 0;
}

/* @return the definition, or NULL when idx is out of range. */
const struct hwsim_knob_def *
hwsim_knobs_def(const struct hwsim_knobs *k, unsigned int idx)
{
	if (k == NULL || idx >= k->n)
		return NULL;
	return &k->defs[idx];
}
