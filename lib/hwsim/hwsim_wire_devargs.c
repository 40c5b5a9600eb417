/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Wire specs and the wire=, wire<N>=, mac=, speed= device arguments. */

#include <ctype.h>
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_ether.h>
#include <rte_kvargs.h>

#include "hwsim_log.h"
#include "hwsim_wire.h"
#include "hwsim_wire_priv.h"

#define HWSIM_WIRE_SPEC_HELP "loop, pair:<device>[.<port>], tap:<ifname> or none"

/*
 * Parse the decimal number that is exactly the string s (digits only: no sign, no
 * blank, no hex). @return 0, or -1 when it is not one or exceeds max.
 */
static int
hwsim_wire_parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	const char *p;
	unsigned long v = 0;

	if (*s == '\0')
		return -1;
	for (p = s; *p != '\0'; p++) {
		if (!isdigit((unsigned char)*p))
			return -1;
		/* v <= max / 10 keeps v * 10 + digit from wrapping for any max we use. */
		if (v > max / 10 || v * 10 + (unsigned long)(*p - '0') > max)
			return -1;
		v = v * 10 + (unsigned long)(*p - '0');
	}
	*out = v;
	return 0;
}

/* Linux rejects these in interface names (dev_valid_name()); so do we, up front. */
static int
hwsim_wire_ifname_ok(const char *name)
{
	const char *p;
	size_t len = strlen(name);

	if (len == 0 || len >= IF_NAMESIZE || strcmp(name, ".") == 0 ||
	    strcmp(name, "..") == 0)
		return 0;
	for (p = name; *p != '\0'; p++)
		if (*p == '/' || *p == ':' || isspace((unsigned char)*p) ||
		    !isprint((unsigned char)*p))
			return 0;
	return 1;
}

int
hwsim_wire_spec_parse(const char *who, const char *spec, struct hwsim_wire_spec *out)
{
	const char *why;
	const char *arg;
	const char *dot;
	unsigned long port;
	size_t len;

	memset(out, 0, sizeof(*out));
	if (spec == NULL || *spec == '\0') {
		why = "empty";
		goto bad;
	}
	if (strcmp(spec, "loop") == 0) {
		out->kind = HWSIM_WIRE_LOOP;
		return 0;
	}
	if (strcmp(spec, "none") == 0) {
		out->kind = HWSIM_WIRE_NONE;
		return 0;
	}
	if (strncmp(spec, "tap:", 4) == 0) {
		arg = spec + 4;
		if (!hwsim_wire_ifname_ok(arg)) {
			why = "not a valid interface name (1-15 characters, no '/', ':' or blank)";
			goto bad;
		}
		out->kind = HWSIM_WIRE_TAP;
		snprintf(out->ifname, sizeof(out->ifname), "%s", arg);
		return 0;
	}
	if (strncmp(spec, "pair:", 5) == 0) {
		arg = spec + 5;
		len = strlen(arg);
		port = 1;
		/* A trailing ".<digits>" is the port; a device name may hold other dots. */
		dot = strrchr(arg, '.');
		if (dot != NULL && dot[1] != '\0' && strspn(dot + 1, "0123456789") ==
		    strlen(dot + 1)) {
			if (hwsim_wire_parse_uint(dot + 1, HWSIM_WIRE_PORTS_MAX, &port) != 0 ||
			    port < 1) {
				why = "port out of range 1.." RTE_STR(HWSIM_WIRE_PORTS_MAX);
				goto bad;
			}
			len = dot - arg;
		}
		if (len == 0) {
			why = "no device name";
			goto bad;
		}
		/* Room for ".<port>" when the port name is built. */
		if (len + 3 > sizeof(out->peer_dev)) {
			why = "device name too long";
			goto bad;
		}
		out->kind = HWSIM_WIRE_PAIR;
		out->peer_port = port;
		snprintf(out->peer_dev, sizeof(out->peer_dev), "%.*s", (int)len, arg);
		return 0;
	}
	why = "unknown kind (expected " HWSIM_WIRE_SPEC_HELP ")";
bad:
	HWSIM_LOG(ERR, "%s: \"%s\": %s", who,
		  spec != NULL ? spec : "", why);
	return -EINVAL;
}

/*
 * @return the port a wire key names (1 for "wire"), 0 if key is not a wire key,
 * or -1 for "wire<N>" with N not a number in 1..nports.
 */
static int
hwsim_wire_key_port(const char *key, unsigned int nports)
{
	unsigned long n;

	if (strncmp(key, "wire", 4) != 0)
		return 0;
	if (key[4] == '\0')
		return 1;
	if (!isdigit((unsigned char)key[4]))
		return 0;	/* e.g. "wireless": someone else's key */
	if (hwsim_wire_parse_uint(key + 4, nports, &n) != 0 || n < 1)
		return -1;
	return (int)n;
}

int
hwsim_wire_devargs_key(const char *key)
{
	if (key == NULL)
		return 0;
	return strcmp(key, "mac") == 0 || strcmp(key, "speed") == 0 ||
	       hwsim_wire_key_port(key, HWSIM_WIRE_PORTS_MAX) != 0;
}

/* One mac= value: a unicast, non-zero address in a form rte_ether_unformat_addr() reads. */
static const char *
hwsim_wire_mac_parse(const char *val, struct rte_ether_addr *mac)
{
	if (rte_ether_unformat_addr(val, mac) != 0)
		return "not a MAC address (xx:xx:xx:xx:xx:xx)";
	if (rte_is_multicast_ether_addr(mac))
		return "a multicast address cannot be a port's MAC";
	if (rte_is_zero_ether_addr(mac))
		return "the zero address cannot be a port's MAC";
	return NULL;
}

int
hwsim_wire_devargs_parse(const struct rte_kvargs *kvl, const char *dev_name,
			 unsigned int nports, uint32_t def_speed,
			 struct hwsim_wire_devargs *out)
{
	const struct rte_kvargs_pair *kv;
	char who[HWSIM_WIRE_NAME_LEN + 16];
	int seen[HWSIM_WIRE_PORTS_MAX + 1] = { 0 };
	int mac_seen = 0;
	int speed_seen = 0;
	struct hwsim_wire_spec spec;
	unsigned long v;
	const char *why;
	unsigned int i;
	int port;

	if (dev_name == NULL || nports < 1 || nports > HWSIM_WIRE_PORTS_MAX ||
	    def_speed < 1 || def_speed > HWSIM_WIRE_SPEED_MAX) {
		HWSIM_LOG(ERR, "wire devargs: bad device parameters");
		return -EINVAL;
	}
	memset(out, 0, sizeof(*out));
	for (i = 0; i < nports; i++)
		snprintf(out->wire[i], sizeof(out->wire[i]), "loop");
	hwsim_wire_mac_default(dev_name, &out->mac);
	out->speed = def_speed;
	for (i = 0; kvl != NULL && i < kvl->count; i++) {
		kv = &kvl->pairs[i];
		port = hwsim_wire_key_port(kv->key, nports);
		if (port == 0 && strcmp(kv->key, "mac") != 0 && strcmp(kv->key, "speed") != 0)
			continue;
		if (port < 0) {
			HWSIM_LOG(ERR, "%s: %s: port out of range (the device has %u port(s))",
				  dev_name, kv->key, nports);
			return -EINVAL;
		}
		if (kv->value == NULL) {
			why = "key without a value";
			goto bad;
		}
		if (kv->value[0] == '\0') {
			why = "empty value";
			goto bad;
		}
		if (port > 0) {
			if (seen[port]) {
				why = "port given twice (wire and wire1 are both port 1)";
				goto bad;
			}
			seen[port] = 1;
			if (strlen(kv->value) >= sizeof(out->wire[0])) {
				why = "value too long";
				goto bad;
			}
			snprintf(who, sizeof(who), "%s: %s", dev_name, kv->key);
			if (hwsim_wire_spec_parse(who, kv->value, &spec) != 0)
				return -EINVAL;	/* logged with the reason */
			snprintf(out->wire[port - 1], sizeof(out->wire[0]), "%s", kv->value);
		} else if (strcmp(kv->key, "mac") == 0) {
			if (mac_seen++) {
				why = "given twice";
				goto bad;
			}
			why = hwsim_wire_mac_parse(kv->value, &out->mac);
			if (why != NULL)
				goto bad;
			out->mac_given = 1;
		} else {
			if (speed_seen++) {
				why = "given twice";
				goto bad;
			}
			if (hwsim_wire_parse_uint(kv->value, HWSIM_WIRE_SPEED_MAX, &v) != 0 ||
			    v < 1) {
				why = "not a speed in 1.." RTE_STR(HWSIM_WIRE_SPEED_MAX) " Mb/s";
				goto bad;
			}
			out->speed = (uint32_t)v;
		}
	}
	return 0;
bad:
	if (kv->value == NULL)
		HWSIM_LOG(ERR, "%s: %s: %s", dev_name, kv->key, why);
	else
		HWSIM_LOG(ERR, "%s: %s=%s: %s", dev_name, kv->key, kv->value, why);
	return -EINVAL;
}

/* FNV-1a, 64 bits: stable across runs and builds, so the default MAC is too. */
static uint64_t
hwsim_wire_name_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s != '\0'; s++) {
		h ^= (uint8_t)*s;
		h *= 0x100000001b3ull;
	}
	return h;
}

void
hwsim_wire_mac_default(const char *dev_name, struct rte_ether_addr *mac)
{
	uint64_t h = hwsim_wire_name_hash(dev_name != NULL ? dev_name : "");
	unsigned int i;

	for (i = 0; i < RTE_ETHER_ADDR_LEN; i++)
		mac->addr_bytes[i] = (uint8_t)(h >> (8 * i));
	/* IEEE 802: bit 1 of byte 0 = locally administered, bit 0 = group; unicast. */
	mac->addr_bytes[0] = (mac->addr_bytes[0] & 0xfc) | RTE_ETHER_LOCAL_ADMIN_ADDR;
}

void
hwsim_wire_mac_port(const struct rte_ether_addr *base, unsigned int port_no,
		    struct rte_ether_addr *mac)
{
	uint32_t v;

	/*
	 * Add port_no - 1 to the low three bytes, wrapping there: byte 0 keeps its
	 * unicast and locally-administered bits whatever the base.
	 */
	*mac = *base;
	v = (uint32_t)base->addr_bytes[3] << 16 | (uint32_t)base->addr_bytes[4] << 8 |
	    base->addr_bytes[5];
	v += port_no > 0 ? port_no - 1 : 0;
	mac->addr_bytes[3] = (uint8_t)(v >> 16);
	mac->addr_bytes[4] = (uint8_t)(v >> 8);
	mac->addr_bytes[5] = (uint8_t)v;
}
