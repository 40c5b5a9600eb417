/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file What the mlx5v and mlx4v testpmd command files share. */

#ifndef _MLXV_TESTPMD_H_
#define _MLXV_TESTPMD_H_

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

#endif /* _MLXV_TESTPMD_H_ */
