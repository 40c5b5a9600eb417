/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Fuzz target: the testpmd commands of our drivers (mlx5v, mlx4v and the simulators'
 * commands), fed as command lines to DPDK's cmdline parser, which calls the real handlers.
 *
 * The handler files are compiled in as in our testpmd build; this program stands in for
 * testpmd's command registry (testpmd_add_driver_commands()) and builds a parse context
 * of exactly those commands. One mlx5v_sim and one mlx4v_sim device are created once.
 * Input: one command line (up to the first NUL). Findings: sanitizer reports, hangs
 * (doc/guides/testing/fuzzing.rst).
 */

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmdline.h>
#include <cmdline_parse.h>
#include <rte_bus_vdev.h>
#include <rte_common.h>
#include <rte_errno.h>

#include "testpmd.h"

#include "fuzz_common.h"

#define FUZZ_LINE_MAX 512
#define FUZZ_MAX_CMDS 128

static cmdline_parse_ctx_t fuzz_ctx[FUZZ_MAX_CMDS + 1];
static unsigned int fuzz_ncmds;
static struct cmdline *fuzz_cl;

/* testpmd's registry, as the handler files' constructors see it (TESTPMD_ADD_DRIVER_COMMANDS). */
void
testpmd_add_driver_commands(struct testpmd_driver_commands *c)
{
	unsigned int i;

	for (i = 0; c->commands[i].ctx != NULL; i++) {
		if (fuzz_ncmds == FUZZ_MAX_CMDS)
			fuzz_fail("more than %u driver commands", FUZZ_MAX_CMDS);
		fuzz_ctx[fuzz_ncmds++] = c->commands[i].ctx;
	}
}

void
fuzz_setup(void)
{
	const char *lvl = getenv("MLXV_FUZZ_LOG");
	int null_fd;

	if (fuzz_ncmds == 0)
		fuzz_fail("no driver command registered");
	/* Commands time out after 1 s, whatever fault a command line injects. */
	if (rte_vdev_init("mlx5v_sim0", "cmd_to_ms=1000") != 0 ||
	    rte_vdev_init("mlx4v_sim0", "ports=2") != 0)
		fuzz_fail("cannot create the simulated devices: %s", rte_strerror(rte_errno));
	null_fd = open("/dev/null", O_RDWR);
	if (null_fd < 0)
		fuzz_fail("cannot open /dev/null");
	/* The handlers print to stdout: silenced unless logs are asked for. */
	if (lvl == NULL || lvl[0] == '\0')
		dup2(null_fd, STDOUT_FILENO);
	fuzz_cl = cmdline_new(fuzz_ctx, "", null_fd, null_fd);
	if (fuzz_cl == NULL)
		fuzz_fail("cmdline_new failed");
}

void
fuzz_teardown(void)
{
	/* rte_eal_cleanup() removes the devices. */
	cmdline_free(fuzz_cl);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char line[FUZZ_LINE_MAX + 2];
	size_t len = RTE_MIN(size, (size_t)FUZZ_LINE_MAX);

	memcpy(line, data, len);
	line[len] = '\0';
	len = strlen(line);
	line[len] = '\n';
	line[len + 1] = '\0';
	cmdline_parse(fuzz_cl, line);
	return 0;
}
