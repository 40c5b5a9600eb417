/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file What the mlx5v and mlx4v testpmd command files share. */

#ifndef _MLXV_TESTPMD_H_
#define _MLXV_TESTPMD_H_

#include <stdint.h>
#include <stdio.h>

#include <cmdline_parse.h>
#include <cmdline_parse_num.h>
#include <cmdline_parse_string.h>
#include <rte_common.h>
#include <rte_ether.h>

/*
 * Define name_parsed(), the cmdline callback, around name_do().
 * testpmd writes its prompt straight to the terminal, unbuffered, while a command
 * prints through stdio: flush what a command printed before the next prompt, so that
 * scripted sessions (stdout to a file or a pipe) read in order.
 */
#define TP_CMD(name) \
static void \
name ## _parsed(void *parsed_result, struct cmdline *cl, void *data) \
{ \
	name ## _do(parsed_result, cl, data); \
	fflush(stdout); \
}

/*
 * One result shape for every "<family> <word> [<word> [<word>]] ..." command of a command
 * file: all share the offsets, so the family keyword ("mlx5v", "mlx4v"), the numbers and the
 * free word are one set of tokens; each command names its words, its handler and its other
 * tokens. kw[1..3]: the words (a choice such as "qp#wq" leaves the one typed); num[i]: the
 * i-th number of the command line, as its section comment lists them; type, type2: a keyword
 * or a free word (a device name, a state, a hex mask), in order; snum: a signed 64-bit
 * number (a knob value); mac: a MAC address. Handlers give what they read names of their own.
 */
#define TP_NUM_MAX 7

struct tp_num_result {
	cmdline_fixed_string_t kw[4];
	uint32_t num[TP_NUM_MAX];
	cmdline_fixed_string_t type;
	cmdline_fixed_string_t type2;
	int64_t snum;
	struct rte_ether_addr mac;
};

/* The first word of every command of the file, tp_num_family. Once per command file. */
#define TP_NUM_FAMILY(word) \
static cmdline_parse_token_string_t tp_num_family = \
	TOKEN_STRING_INITIALIZER(struct tp_num_result, kw[0], word)

#define TP_NUM_TOKEN(i) \
static cmdline_parse_token_num_t tp_num_ ## i __rte_unused = \
	TOKEN_NUM_INITIALIZER(struct tp_num_result, num[i], RTE_UINT32)

TP_NUM_TOKEN(0);
TP_NUM_TOKEN(1);
TP_NUM_TOKEN(2);
TP_NUM_TOKEN(3);
TP_NUM_TOKEN(4);
TP_NUM_TOKEN(5);
TP_NUM_TOKEN(6);

/* A signed 64-bit number, in snum. */
static cmdline_parse_token_num_t tp_num_s64 __rte_unused =
	TOKEN_NUM_INITIALIZER(struct tp_num_result, snum, RTE_INT64);

/* Any word, in type (then in type2): a device name, a state. */
static cmdline_parse_token_string_t tp_num_any __rte_unused =
	TOKEN_STRING_INITIALIZER(struct tp_num_result, type, NULL);
static cmdline_parse_token_string_t tp_num_any2 __rte_unused =
	TOKEN_STRING_INITIALIZER(struct tp_num_result, type2, NULL);

/*
 * The instruction cmd: "<family> w1" then the tokens given (none or more), calling f with
 * data. w1 may offer choices ("poll#arm#event"): the handler reads the word in kw[1].
 */
#define TP_NUM_CMD1(cmd, f_, w1, data_, help, ...) \
static cmdline_parse_token_string_t cmd ## _w1 = \
	TOKEN_STRING_INITIALIZER(struct tp_num_result, kw[1], w1); \
static cmdline_parse_inst_t cmd = { \
	.f = f_, \
	.data = data_, \
	.help_str = help, \
	.tokens = { (void *)&tp_num_family, (void *)&cmd ## _w1, ##__VA_ARGS__, NULL }, \
}

/* The instruction cmd: "<family> w1 w2" then the tokens given, calling f with data. */
#define TP_NUM_CMD(cmd, f_, w1, w2, data_, help, ...) \
static cmdline_parse_token_string_t cmd ## _w2 = \
	TOKEN_STRING_INITIALIZER(struct tp_num_result, kw[2], w2); \
TP_NUM_CMD1(cmd, f_, w1, data_, help, (void *)&cmd ## _w2, __VA_ARGS__)

/* The instruction cmd: "<family> w1 w2 w3" then the tokens given, calling f with data. */
#define TP_NUM_CMD3(cmd, f_, w1, w2, w3, data_, help, ...) \
static cmdline_parse_token_string_t cmd ## _w3 = \
	TOKEN_STRING_INITIALIZER(struct tp_num_result, kw[3], w3); \
TP_NUM_CMD(cmd, f_, w1, w2, data_, help, (void *)&cmd ## _w3, __VA_ARGS__)

/* @return 0 if type and sub_type fit an EQE's 8-bit fields, else -1 after printing why. */
static inline int
mlxv_tp_event_check(uint32_t type, uint32_t sub_type)
{
	if (type > 0xff || sub_type > 0xff) {
		printf("mlx5v: event type and sub_type are 8-bit values\n");
		return -1;
	}
	return 0;
}

/* The "mlx5v dev show" extension that the simulator's command file installs. */
extern void (*mlx5v_tp_dev_show_ext)(const char *name);

#endif /* _MLXV_TESTPMD_H_ */
