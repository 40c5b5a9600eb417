/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file What the mlx5v and mlx4v testpmd command files share. */

#ifndef _MLXV_TESTPMD_H_
#define _MLXV_TESTPMD_H_

#include <stdint.h>
#include <stdio.h>

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
