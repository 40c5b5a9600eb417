/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Unit tests of mlx5v_cmd: status tables, mailbox chains, tokens, faults, dead policy. */

#include "test.h"

#include "ut_mlx5v.h"

#define VDEV_NAME "mlx5v_sim0"

static struct mlx5v_dev *g_dev;
static struct mlx5v_sim *g_sim;

/*
 * recovery=dead: the timeouts these cases cause are the caller's errors; under recovery=reset
 * three in a row would reset the device (tests/unit/net/mlx5v/recovery).
 */
static int
cmd_setup(void)
{
	return ut_main_up(VDEV_NAME, "msix=4,cmd_to_ms=2000,recovery=dead", &g_dev, &g_sim) == 0 ?
	       TEST_SUCCESS : TEST_FAILED;
}

static void
cmd_teardown(void)
{
	ut_dev_remove(VDEV_NAME);
	g_dev = NULL;
	g_sim = NULL;
}

/* Restore the default timeouts after a test that shortened them. */
static void
cmd_tout_restore(void)
{
	mlx5v_dev_tout_set(g_dev, MLX5V_TO_CMD, 2000);
	mlx5v_dev_tout_set(g_dev, MLX5V_TO_CMD_RECOVER, 1000);
}

/* QUERY_ISSI: a query every device answers at any time after bring-up. */
static int
query_issi(int general, uint8_t *out, size_t outlen)
{
	uint8_t in[MLX5V_CMD_HDR_SIZE];

	memset(in, 0, sizeof(in));
	MLX5V_IFC_SET(cmd_in_hdr, in, opcode, MLX5V_CMD_OP_QUERY_ISSI);
	if (general)
		return mlx5v_cmd_do(g_dev, in, sizeof(in), out, outlen);
	return mlx5v_cmd_exec(g_dev, in, sizeof(in), out, outlen);
}

/* Every outbox status value, against the one table (prm/mlx5 §3.8). */
static int
test_mlx5v_cmd_status_table(void)
{
	static const struct { uint8_t st; int err; } known[] = {
		{ 0x00, 0 }, { 0x01, -EIO }, { 0x02, -EINVAL }, { 0x03, -EINVAL },
		{ 0x04, -EIO }, { 0x05, -EINVAL }, { 0x06, -EBUSY }, { 0x07, -EAGAIN },
		{ 0x08, -ENOMEM }, { 0x09, -EINVAL }, { 0x0a, -EINVAL }, { 0x0f, -EAGAIN },
		{ 0x10, -EINVAL }, { 0x30, -EINVAL }, { 0x40, -EINVAL }, { 0x50, -EIO },
		{ 0x51, -EIO }, { 0xfe, -ENOLINK },
	};
	unsigned int v, i;

	for (v = 0; v < 256; v++) {
		int expect = -EIO;

		for (i = 0; i < RTE_DIM(known); i++)
			if (known[i].st == v)
				expect = known[i].err;
		TEST_ASSERT_EQUAL(mlx5v_cmd_status_to_errno(v), expect,
				  "status 0x%02x -> %d, expected %d", v,
				  mlx5v_cmd_status_to_errno(v), expect);
	}
	/* NOT_READY is -EAGAIN (the kernel's choice, documented in the table). */
	TEST_ASSERT_EQUAL(mlx5v_cmd_status_to_errno(MLX5V_CMD_STAT_NOT_READY), -EAGAIN, "NR");
	return TEST_SUCCESS;
}

/* Every failing status also comes back through the device, via mlx5v_cmd_exec(). */
static int
test_mlx5v_cmd_status_from_device(void)
{
	static const uint8_t st[] = { 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09,
				      0x0a, 0x0f, 0x10, 0x30, 0x40, 0x50, 0x51, 0x77 };
	uint8_t out[MLX5V_IFC_BYTES(query_issi_out)];
	unsigned int i;

	for (i = 0; i < RTE_DIM(st); i++) {
		TEST_ASSERT_SUCCESS(mlx5v_sim_fail_next_cmd(g_sim, MLX5V_CMD_OP_QUERY_ISSI, st[i],
							    0x100 + i), "arm");
		TEST_ASSERT_EQUAL(query_issi(0, out, sizeof(out)), mlx5v_cmd_status_to_errno(st[i]),
				  "status 0x%02x from the device", st[i]);
	}
	TEST_ASSERT_SUCCESS(query_issi(0, out, sizeof(out)), "QUERY_ISSI after the faults");
	return TEST_SUCCESS;
}

/* Every delivery status value (prm/mlx5 §3.7), and through the device. */
static int
test_mlx5v_cmd_delivery_table(void)
{
	static const struct { uint8_t d; int err; } known[] = {
		{ 0x00, 0 }, { 0x01, -EBADR }, { 0x02, -EBADR }, { 0x03, -EFAULT },
		{ 0x04, -EFAULT }, { 0x05, -EFAULT }, { 0x06, -EIO }, { 0x07, -ENOMSG },
		{ 0x08, -ENOMSG }, { 0x09, -ENOMSG }, { 0x10, -ENOMSG },
	};
	uint8_t out[MLX5V_IFC_BYTES(query_issi_out)];
	unsigned int v, i;

	for (v = 0; v < 128; v++) {
		int expect = -EINVAL;

		for (i = 0; i < RTE_DIM(known); i++)
			if (known[i].d == v)
				expect = known[i].err;
		TEST_ASSERT_EQUAL(mlx5v_cmd_delivery_to_errno(v), expect, "delivery 0x%02x", v);
	}
	for (i = 1; i < RTE_DIM(known); i++) {
		TEST_ASSERT_SUCCESS(mlx5v_sim_fail_next_delivery(g_sim, MLX5V_CMD_OP_QUERY_ISSI,
								 known[i].d), "arm");
		TEST_ASSERT_EQUAL(query_issi(1, out, sizeof(out)), known[i].err,
				  "delivery 0x%02x from the device", known[i].d);
	}
	TEST_ASSERT_SUCCESS(query_issi(1, out, sizeof(out)), "QUERY_ISSI after the faults");
	return TEST_SUCCESS;
}

/* General entry point: -EREMOTEIO with status and syndrome left in the outbox. */
static int
test_mlx5v_cmd_do_eremoteio(void)
{
	uint8_t out[MLX5V_IFC_BYTES(query_issi_out)];

	TEST_ASSERT_SUCCESS(mlx5v_sim_fail_next_cmd(g_sim, MLX5V_CMD_OP_QUERY_ISSI,
						    MLX5V_CMD_STAT_BAD_PARAM_ERR, 0x12345678),
			    "arm");
	TEST_ASSERT_EQUAL(query_issi(1, out, sizeof(out)), -EREMOTEIO, "not EREMOTEIO");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(cmd_out_hdr, out, status), MLX5V_CMD_STAT_BAD_PARAM_ERR,
			  "status not in the outbox");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(cmd_out_hdr, out, syndrome), 0x12345678u,
			  "syndrome not in the outbox");
	TEST_ASSERT_SUCCESS(mlx5v_sim_fail_next_cmd(g_sim, MLX5V_CMD_OP_QUERY_ISSI,
						    MLX5V_CMD_STAT_BAD_PARAM_ERR, 0x1), "arm");
	TEST_ASSERT_EQUAL(query_issi(0, out, sizeof(out)), -EINVAL, "exec must translate");
	TEST_ASSERT_EQUAL(mlx5v_cmd_do(g_dev, out, 4, out, sizeof(out)), -EINVAL, "short in");
	return TEST_SUCCESS;
}

/*
 * Long chains both ways: GIVE 1000 pages (an 8016-byte input, 16 blocks), then TAKE every
 * page the device holds (an 8400-byte output), check ours are all there, and give the
 * core's own pages back.
 */
static int
test_mlx5v_cmd_long_mailbox_8k(void)
{
	const uint32_t n = 1000;
	size_t len = (size_t)n * 4096;
	size_t inmsg = MLX5V_IFC_BYTE_OFF(manage_pages_in, pas) + 8 * (size_t)n;
	uint8_t *pages, *in, *out, *seen;
	struct mlx5v_dma_buf b;
	size_t outmsg;
	uint64_t held;
	uint32_t i, j, got, total, mine = 0, theirs = 0;
	int ret;

	TEST_ASSERT(inmsg >= 8000, "message shorter than 8 KiB");
	/* The model checks mailbox tokens against the entry token (delivery 0x2). */
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "check_token", 1), "check_token");
	held = mlx5v_sim_live_objects(g_sim, MLX5V_SIM_OBJ_PAGES);
	total = n + (uint32_t)held;
	outmsg = MLX5V_IFC_BYTE_OFF(manage_pages_out, pas) + 8 * (size_t)total;
	pages = rte_zmalloc("ut_pages", len, 4096);
	in = calloc(1, outmsg);
	out = calloc(1, outmsg);
	seen = calloc(1, n);
	TEST_ASSERT(pages != NULL && in != NULL && out != NULL && seen != NULL, "alloc");
	/* Page by page: 4 MB of rte_malloc memory is not IOVA-contiguous with IOVA as PA. */
	TEST_ASSERT_SUCCESS(mlx5v_dma_buf_map(mlx5v_dev_hw(g_dev), pages, len, 12, &b),
			    "dma map");
	MLX5V_IFC_SET(manage_pages_in, in, opcode, MLX5V_CMD_OP_MANAGE_PAGES);
	MLX5V_IFC_SET(manage_pages_in, in, op_mod, MLX5V_MANAGE_PAGES_GIVE);
	MLX5V_IFC_SET(manage_pages_in, in, input_num_entries, n);
	for (i = 0; i < n; i++)
		MLX5V_IFC_ARRAY_SET64(manage_pages_in, in, pas, i, b.iova[i]);
	ret = mlx5v_cmd_do(g_dev, in, inmsg, out, MLX5V_CMD_HDR_SIZE);
	TEST_ASSERT_SUCCESS(ret, "8 KiB GIVE failed: %d", ret);
	TEST_ASSERT_EQUAL(mlx5v_sim_live_objects(g_sim, MLX5V_SIM_OBJ_PAGES), held + n,
			  "the device did not take all 1000 pages");
	memset(in, 0, outmsg);
	MLX5V_IFC_SET(manage_pages_in, in, opcode, MLX5V_CMD_OP_MANAGE_PAGES);
	MLX5V_IFC_SET(manage_pages_in, in, op_mod, MLX5V_MANAGE_PAGES_TAKE);
	MLX5V_IFC_SET(manage_pages_in, in, input_num_entries, total);
	ret = mlx5v_cmd_do(g_dev, in, MLX5V_CMD_HDR_SIZE, out, outmsg);
	TEST_ASSERT_SUCCESS(ret, "8 KiB TAKE failed: %d", ret);
	got = MLX5V_IFC_GET(manage_pages_out, out, output_num_entries);
	TEST_ASSERT_EQUAL(got, total, "TAKE returned %u of %u pages", got, total);
	/* Give the core's pages straight back, in the same input buffer. */
	memset(in, 0, outmsg);
	for (i = 0; i < got; i++) {
		uint64_t pa = MLX5V_IFC_ARRAY_GET64(manage_pages_out, out, pas, i);

		for (j = 0; j < n && b.iova[j] != pa; j++)
			;
		if (j < n) {
			TEST_ASSERT_EQUAL(seen[j], 0, "page returned twice");
			seen[j] = 1;
			mine++;
		} else {
			MLX5V_IFC_ARRAY_SET64(manage_pages_in, in, pas, theirs, pa);
			theirs++;
		}
	}
	TEST_ASSERT_EQUAL(mine, n, "%u of the test pages came back", mine);
	MLX5V_IFC_SET(manage_pages_in, in, opcode, MLX5V_CMD_OP_MANAGE_PAGES);
	MLX5V_IFC_SET(manage_pages_in, in, op_mod, MLX5V_MANAGE_PAGES_GIVE);
	MLX5V_IFC_SET(manage_pages_in, in, input_num_entries, theirs);
	ret = mlx5v_cmd_do(g_dev, in, MLX5V_IFC_BYTE_OFF(manage_pages_in, pas) + 8 * (size_t)theirs,
			   out, MLX5V_CMD_HDR_SIZE);
	TEST_ASSERT_SUCCESS(ret, "giving the core's pages back failed: %d", ret);
	TEST_ASSERT_EQUAL(mlx5v_sim_live_objects(g_sim, MLX5V_SIM_OBJ_PAGES), held, "held");
	mlx5v_dma_buf_unmap(mlx5v_dev_hw(g_dev), &b);
	rte_free(pages);
	free(in);
	free(out);
	free(seen);
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "check_token", 0), "check_token");
	TEST_ASSERT_EQUAL(mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_IOMMU_FAULTS), 0u, "IOMMU");
	return TEST_SUCCESS;
}

/*
 * Lengths above what the device takes (16 + 256 x 512 bytes) are EINVAL before anything is
 * allocated or posted; a command at the maximum works, and its long chains are not kept by
 * the slot afterwards.
 */
static int
test_mlx5v_cmd_max_len(void)
{
	const size_t max = MLX5V_CMD_MAX_MSG_LEN;
	struct ut_heap before, after;
	uint8_t *in, *out;
	uint64_t cmds;
	int ret;

	in = calloc(1, max + 1);
	out = calloc(1, max + 1);
	TEST_ASSERT(in != NULL && out != NULL, "alloc");
	MLX5V_IFC_SET(cmd_in_hdr, in, opcode, MLX5V_CMD_OP_QUERY_ISSI);
	ut_heap_get(&before);
	cmds = mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_CMDS);
	TEST_ASSERT_EQUAL(mlx5v_cmd_do(g_dev, in, max + 1, out, MLX5V_CMD_HDR_SIZE), -EINVAL,
			  "inlen above the maximum");
	TEST_ASSERT_EQUAL(mlx5v_cmd_exec(g_dev, in, MLX5V_CMD_HDR_SIZE, out, max + 1), -EINVAL,
			  "outlen above the maximum");
	TEST_ASSERT_EQUAL(mlx5v_cmd_do(g_dev, in, max + 1, out, max + 1), -EINVAL, "both");
	TEST_ASSERT_EQUAL(mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_CMDS), cmds,
			  "an oversized command reached the device");
	ret = mlx5v_cmd_do(g_dev, in, max, out, max);
	TEST_ASSERT_SUCCESS(ret, "a command of the maximum length: %d", ret);
	free(in);
	free(out);
	/* The 256-block chains went with their command: no EAL memory stays pinned. */
	ut_heap_get(&after);
	TEST_ASSERT(after.bytes <= before.bytes,
		    "EAL heap grew from %" PRIu64 " to %" PRIu64 " bytes", before.bytes,
		    after.bytes);
	return TEST_SUCCESS;
}

/* Tokens: 8 bits, one per command, never 0, written to the entry and every block. */
static int
test_mlx5v_cmd_tokens(void)
{
	uint8_t out[MLX5V_IFC_BYTES(query_issi_out)];
	struct mlx5v_cmd_info info;
	uint8_t prev;
	int i;

	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "check_token", 1), "check_token");
	TEST_ASSERT_SUCCESS(mlx5v_cmd_info_get(g_dev, &info), "info");
	prev = info.last_token;
	/* 300 commands: the 8-bit token wraps at least once; 0x70-byte outputs use a block. */
	for (i = 0; i < 300; i++) {
		TEST_ASSERT_SUCCESS(query_issi(0, out, sizeof(out)), "command %d", i);
		TEST_ASSERT_SUCCESS(mlx5v_cmd_info_get(g_dev, &info), "info");
		TEST_ASSERT_NOT_EQUAL(info.last_token, 0, "token 0 used");
		TEST_ASSERT_NOT_EQUAL(info.last_token, prev, "token not advanced");
		prev = info.last_token;
	}
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "check_token", 0), "check_token");
	return TEST_SUCCESS;
}

/* Optional signatures: the model verifies them when checksums are on. */
static int
test_mlx5v_cmd_signatures(void)
{
	uint8_t out[MLX5V_IFC_BYTES(query_issi_out)];
	int ret;

	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "checksums", 1), "checksums");
	/*
	 * An unsigned entry is refused unless its bytes happen to XOR to 0xff (the token and the
	 * mailbox addresses vary: about one command in 256). Then the next one, with another
	 * token, cannot: one of two tries must be refused, and no other error may come.
	 */
	ret = query_issi(1, out, sizeof(out));
	if (ret == 0)
		ret = query_issi(1, out, sizeof(out));
	TEST_ASSERT_EQUAL(ret, -EBADR, "unsigned command accepted by a checking device: %d", ret);
	mlx5v_cmd_checksum_enable(g_dev, 1);
	ret = query_issi(1, out, sizeof(out));
	mlx5v_cmd_checksum_enable(g_dev, 0);
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "checksums", 0), "checksums");
	TEST_ASSERT_SUCCESS(ret, "signed command refused: %d", ret);
	return TEST_SUCCESS;
}

/*
 * With signatures on, the driver also verifies the device's: a bad entry or output-block
 * signature fails the command as delivery status SIGNAT_ERR (-EBADR, prm/mlx5 §3.4,
 * §3.7), counted in bad_out_sigs; the slot is usable again right after.
 */
static int
test_mlx5v_cmd_bad_output_signature(void)
{
	static const char *const where[] = { "entry", "output block" };
	uint8_t out[MLX5V_IFC_BYTES(query_issi_out)];
	struct mlx5v_cmd_info info;
	uint64_t bad0;
	int ret, i;

	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "checksums", 1), "checksums");
	mlx5v_cmd_checksum_enable(g_dev, 1);
	TEST_ASSERT_SUCCESS(mlx5v_cmd_info_get(g_dev, &info), "info");
	bad0 = info.bad_out_sigs;
	ret = query_issi(1, out, sizeof(out));
	TEST_ASSERT_SUCCESS(ret, "correctly signed output refused: %d", ret);
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(query_issi_out, out, supported_issi_dw0) & 0x2, 0x2u,
			  "block data of a signed answer");
	for (i = 0; i < 2; i++) {
		TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "bad_out_sig_block", i), "knob");
		TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "bad_out_sig_opcode",
						       MLX5V_CMD_OP_QUERY_ISSI), "knob");
		ret = query_issi(1, out, sizeof(out));
		TEST_ASSERT_EQUAL(ret, -EBADR, "bad %s signature accepted: %d", where[i], ret);
		ret = query_issi(0, out, sizeof(out));
		TEST_ASSERT_SUCCESS(ret, "the command after a bad %s signature failed: %d",
				    where[i], ret);
	}
	TEST_ASSERT_SUCCESS(mlx5v_cmd_info_get(g_dev, &info), "info");
	TEST_ASSERT_EQUAL(info.bad_out_sigs - bad0, 2u, "bad output signatures not counted");
	TEST_ASSERT_EQUAL(info.busy_mask | info.timedout_mask, 0u, "a slot was left busy");
	mlx5v_cmd_checksum_enable(g_dev, 0);
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "checksums", 0), "checksums");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "bad_out_sig_block", 0), "knob");
	return TEST_SUCCESS;
}

static int
wait_info(uint32_t timedout_mask, uint64_t late_min)
{
	struct mlx5v_cmd_info info;
	uint64_t deadline = ut_now_ms() + UT_WAIT_LIMIT_MS;

	do {
		if (mlx5v_cmd_info_get(g_dev, &info) == 0 && info.timedout_mask == timedout_mask &&
		    info.late_completions >= late_min)
			return 0;
		ut_sleep_ms(1);
	} while (ut_now_ms() < deadline);
	return -1;
}

/*
 * Until the device took the armed drop knob. The driver may time out before the engine thread
 * even read the command (a loaded machine); the next arm must not find the knob still set,
 * or the previous command would take it and the next one would be answered.
 */
static int
wait_drop_taken(void)
{
	uint64_t deadline = ut_now_ms() + UT_WAIT_LIMIT_MS;
	int64_t op;

	do {
		if (mlx5v_sim_knob_get(g_sim, "drop_opcode", &op) == 0 && op == 0)
			return 0;
		ut_sleep_ms(1);
	} while (ut_now_ms() < deadline);
	return -1;
}

/* A device that never answers: -ETIMEDOUT, the slot stays reserved, a late answer frees it. */
static int
test_mlx5v_cmd_timeout_slot_reserved(void)
{
	uint8_t out[MLX5V_IFC_BYTES(query_issi_out)];
	struct mlx5v_cmd_info info;
	struct mlx5v_cmd_stats st;
	uint64_t late;
	int ret, i;

	mlx5v_dev_tout_set(g_dev, MLX5V_TO_CMD, 100);
	mlx5v_dev_tout_set(g_dev, MLX5V_TO_CMD_RECOVER, 100);
	TEST_ASSERT_SUCCESS(mlx5v_cmd_info_get(g_dev, &info), "info");
	late = info.late_completions;
	TEST_ASSERT_SUCCESS(mlx5v_sim_drop_next_completion(g_sim, MLX5V_CMD_OP_QUERY_ISSI, 1),
			    "hold knob");
	ret = query_issi(0, out, sizeof(out));
	TEST_ASSERT_EQUAL(ret, -ETIMEDOUT, "held command returned %d", ret);
	TEST_ASSERT_SUCCESS(mlx5v_cmd_info_get(g_dev, &info), "info");
	TEST_ASSERT_EQUAL(__builtin_popcount(info.timedout_mask), 1, "no slot kept reserved");
	TEST_ASSERT_SUCCESS(mlx5v_cmd_stats_get(g_dev, MLX5V_CMD_OP_QUERY_ISSI, &st), "stats");
	TEST_ASSERT(st.timeouts >= 1, "timeout not counted");
	/* Other slots keep working while one is stalled. */
	for (i = 0; i < 4; i++)
		TEST_ASSERT_SUCCESS(query_issi(0, out, sizeof(out)), "command beside a stall");
	cmd_tout_restore();
	mlx5v_sim_release_held(g_sim);
	TEST_ASSERT_SUCCESS(wait_info(0, late + 1), "late completion never freed the slot");
	TEST_ASSERT_SUCCESS(query_issi(0, out, sizeof(out)), "after the late completion");
	return TEST_SUCCESS;
}

/* Every ordinary slot held by a timed-out command: new commands fail at once, -EAGAIN. */
static int
test_mlx5v_cmd_all_slots_stalled(void)
{
	uint8_t out[MLX5V_IFC_BYTES(query_issi_out)];
	struct mlx5v_cmd_info info;
	unsigned int i;
	int ret;

	TEST_ASSERT_SUCCESS(mlx5v_cmd_info_get(g_dev, &info), "info");
	mlx5v_dev_tout_set(g_dev, MLX5V_TO_CMD, 10);
	mlx5v_dev_tout_set(g_dev, MLX5V_TO_CMD_RECOVER, 10);
	for (i = 0; i < info.page_slot; i++) {
		TEST_ASSERT_SUCCESS(mlx5v_sim_drop_next_completion(g_sim, MLX5V_CMD_OP_QUERY_ISSI,
								   1), "hold");
		ret = query_issi(0, out, sizeof(out));
		TEST_ASSERT_EQUAL(ret, -ETIMEDOUT, "command %u returned %d", i, ret);
		TEST_ASSERT_SUCCESS(wait_drop_taken(), "command %u never reached the device", i);
	}
	TEST_ASSERT_SUCCESS(mlx5v_cmd_info_get(g_dev, &info), "info");
	TEST_ASSERT_EQUAL(info.timedout_mask, (1u << info.page_slot) - 1, "mask 0x%x",
			  info.timedout_mask);
	TEST_ASSERT_EQUAL(query_issi(0, out, sizeof(out)), -EAGAIN, "no -EAGAIN");
	cmd_tout_restore();
	mlx5v_sim_release_held(g_sim);
	TEST_ASSERT_SUCCESS(wait_info(0, info.late_completions + info.page_slot),
			    "late completions did not free every slot");
	TEST_ASSERT_SUCCESS(query_issi(0, out, sizeof(out)), "after the stall");
	return TEST_SUCCESS;
}

/* A delayed completion inside the timeout is waited for; beyond it, reaped late. */
static int
test_mlx5v_cmd_delayed_completion(void)
{
	uint8_t out[MLX5V_IFC_BYTES(query_issi_out)];
	struct mlx5v_cmd_info info;
	int ret;

	TEST_ASSERT_SUCCESS(mlx5v_sim_delay_next_cmd(g_sim, MLX5V_CMD_OP_QUERY_ISSI, 50), "knob");
	TEST_ASSERT_SUCCESS(query_issi(0, out, sizeof(out)), "50 ms delay within the timeout");
	TEST_ASSERT_SUCCESS(mlx5v_cmd_info_get(g_dev, &info), "info");
	mlx5v_dev_tout_set(g_dev, MLX5V_TO_CMD, 50);
	mlx5v_dev_tout_set(g_dev, MLX5V_TO_CMD_RECOVER, 50);
	TEST_ASSERT_SUCCESS(mlx5v_sim_delay_next_cmd(g_sim, MLX5V_CMD_OP_QUERY_ISSI, 1000), "knob");
	ret = query_issi(0, out, sizeof(out));
	cmd_tout_restore();
	TEST_ASSERT_EQUAL(ret, -ETIMEDOUT, "1 s delay with a 100 ms bound returned %d", ret);
	TEST_ASSERT_SUCCESS(wait_info(0, info.late_completions + 1), "late completion not reaped");
	return TEST_SUCCESS;
}

/* The MSI-X of a completion is lost: the waiter polls the EQ and finds the CMD event. */
static int
test_mlx5v_cmd_lost_msi_recovered(void)
{
	uint8_t out[MLX5V_IFC_BYTES(query_issi_out)];
	struct mlx5v_cmd_info before, after;
	int ret, attempt;

	mlx5v_dev_tout_set(g_dev, MLX5V_TO_CMD, 100);
	/*
	 * A late interrupt of an earlier test may still be on its way and take the drop;
	 * then the next attempt is clean. Any attempt must succeed.
	 */
	for (attempt = 0; attempt < 3; attempt++) {
		TEST_ASSERT_SUCCESS(mlx5v_cmd_info_get(g_dev, &before), "info");
		mlx5v_sim_drop_msix(g_sim, MLX5V_ASYNC_EQ_VECTOR, 1);
		ret = query_issi(0, out, sizeof(out));
		TEST_ASSERT_SUCCESS(ret, "lost MSI-X not recovered: %d", ret);
		TEST_ASSERT_SUCCESS(mlx5v_cmd_info_get(g_dev, &after), "info");
		if (after.eq_recoveries > before.eq_recoveries)
			break;
	}
	cmd_tout_restore();
	TEST_ASSERT(after.eq_recoveries > before.eq_recoveries, "no EQ recovery poll");
	TEST_ASSERT_SUCCESS(query_issi(0, out, sizeof(out)), "next command");
	return TEST_SUCCESS;
}

/* The completion EQE itself is lost: ownership came back, the command still completes. */
static int
test_mlx5v_cmd_lost_eqe_owner_returned(void)
{
	uint8_t out[MLX5V_IFC_BYTES(query_issi_out)];
	int ret;

	mlx5v_dev_tout_set(g_dev, MLX5V_TO_CMD, 100);
	TEST_ASSERT_SUCCESS(mlx5v_sim_drop_next_completion(g_sim, MLX5V_CMD_OP_QUERY_ISSI, 0),
			    "knob");
	ret = query_issi(0, out, sizeof(out));
	cmd_tout_restore();
	TEST_ASSERT_SUCCESS(ret, "command with a lost EQE: %d", ret);
	return TEST_SUCCESS;
}

/* A duplicate CMD event is harmless: counted, and the next commands are not confused. */
static int
test_mlx5v_cmd_duplicate_completion(void)
{
	uint8_t out[MLX5V_IFC_BYTES(query_issi_out)];
	struct mlx5v_cmd_info before, after;
	uint64_t deadline = ut_now_ms() + UT_WAIT_LIMIT_MS;
	int i;

	TEST_ASSERT_SUCCESS(mlx5v_cmd_info_get(g_dev, &before), "info");
	TEST_ASSERT_SUCCESS(mlx5v_sim_dup_next_completion(g_sim, MLX5V_CMD_OP_QUERY_ISSI), "knob");
	TEST_ASSERT_SUCCESS(query_issi(0, out, sizeof(out)), "duplicated command");
	for (i = 0; i < 16; i++)
		TEST_ASSERT_SUCCESS(query_issi(0, out, sizeof(out)), "command after a duplicate");
	do {
		TEST_ASSERT_SUCCESS(mlx5v_cmd_info_get(g_dev, &after), "info");
		if (after.spurious > before.spurious)
			break;
		ut_sleep_ms(1);
	} while (ut_now_ms() < deadline);
	TEST_ASSERT(after.spurious > before.spurious, "duplicate event not seen");
	TEST_ASSERT_EQUAL(after.busy_mask, 0u, "slots left busy");
	return TEST_SUCCESS;
}

/*
 * Polled mode (mlx5v_cmd_poll_begin()): in event mode, a command is taken back by its owner
 * bit, even when its interrupt is lost (no EQ recovery, which would take the 100 ms command
 * timeout); the CMD events the device still writes are absorbed later, none counted
 * spurious, and no slot is rung again before the device gave it back (the model counts such
 * doorbells as misuse). Outside the mode, commands complete by their event again.
 */
static int
test_mlx5v_cmd_polled(void)
{
	uint8_t out[MLX5V_IFC_BYTES(query_issi_out)];
	struct mlx5v_cmd_info before, after;
	uint64_t misuse = mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_DB_MISUSE);
	uint64_t deadline;
	int i, ret = 0;

	TEST_ASSERT_SUCCESS(mlx5v_cmd_info_get(g_dev, &before), "info");
	TEST_ASSERT(before.events, "the queue is not in event mode");
	mlx5v_dev_tout_set(g_dev, MLX5V_TO_CMD, 100);
	mlx5v_cmd_poll_begin(g_dev);
	mlx5v_sim_drop_msix(g_sim, MLX5V_ASYNC_EQ_VECTOR, 1);
	for (i = 0; i < 64 && ret == 0; i++)
		ret = query_issi(0, out, sizeof(out));
	mlx5v_cmd_poll_end();
	TEST_ASSERT_SUCCESS(mlx5v_cmd_info_get(g_dev, &after), "info");
	TEST_ASSERT_SUCCESS(ret, "polled command %d: %d", i, ret);
	TEST_ASSERT_EQUAL(after.eq_recoveries, before.eq_recoveries,
			  "a polled command waited for its lost event");
	/*
	 * The EQ, never re-armed after the lost interrupt, holds the events: a command in
	 * event mode recovers them by polling the EQ after its (100 ms) timeout.
	 */
	TEST_ASSERT_SUCCESS(query_issi(0, out, sizeof(out)), "command in event mode");
	cmd_tout_restore();
	deadline = ut_now_ms() + UT_WAIT_LIMIT_MS;
	do {
		TEST_ASSERT_SUCCESS(mlx5v_cmd_info_get(g_dev, &after), "info");
		if (after.polled_eqes - before.polled_eqes == after.polled - before.polled)
			break;
		ut_sleep_ms(1);
	} while (ut_now_ms() < deadline);
	TEST_ASSERT(after.polled > before.polled, "no command taken back by its owner bit");
	TEST_ASSERT_EQUAL(after.polled_eqes - before.polled_eqes, after.polled - before.polled,
			  "%" PRIu64 " events of %" PRIu64 " polled commands absorbed",
			  after.polled_eqes - before.polled_eqes, after.polled - before.polled);
	TEST_ASSERT_EQUAL(after.spurious, before.spurious, "events counted spurious");
	TEST_ASSERT_EQUAL(after.busy_mask, 0u, "slots left busy");
	TEST_ASSERT_EQUAL(mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_DB_MISUSE), misuse,
			  "a slot rung before the device gave it back");
	/* Outside the mode: by the event again. */
	TEST_ASSERT_SUCCESS(mlx5v_cmd_info_get(g_dev, &before), "info");
	for (i = 0; i < 16; i++)
		TEST_ASSERT_SUCCESS(query_issi(0, out, sizeof(out)), "command in event mode");
	TEST_ASSERT_SUCCESS(mlx5v_cmd_info_get(g_dev, &after), "info");
	TEST_ASSERT_EQUAL(after.polled, before.polled, "polled outside the polled mode");
	return TEST_SUCCESS;
}

/* Per-opcode counters. */
static int
test_mlx5v_cmd_opcode_counters(void)
{
	uint8_t out[MLX5V_IFC_BYTES(query_issi_out)];
	struct mlx5v_cmd_stats a, b;
	int i;

	TEST_ASSERT_SUCCESS(mlx5v_cmd_stats_get(g_dev, MLX5V_CMD_OP_QUERY_ISSI, &a), "stats");
	for (i = 0; i < 10; i++)
		TEST_ASSERT_SUCCESS(query_issi(0, out, sizeof(out)), "query");
	TEST_ASSERT_SUCCESS(mlx5v_sim_fail_next_cmd(g_sim, MLX5V_CMD_OP_QUERY_ISSI,
						    MLX5V_CMD_STAT_INT_ERR, 1), "arm");
	TEST_ASSERT_FAIL(query_issi(0, out, sizeof(out)), "fault ignored");
	TEST_ASSERT_SUCCESS(mlx5v_cmd_stats_get(g_dev, MLX5V_CMD_OP_QUERY_ISSI, &b), "stats");
	TEST_ASSERT_EQUAL(b.n, a.n + 11, "n");
	TEST_ASSERT_EQUAL(b.errors, a.errors + 1, "errors");
	TEST_ASSERT(b.ns_total > a.ns_total, "no time accounted");
	TEST_ASSERT_SUCCESS(mlx5v_cmd_stats_get(g_dev, MLX5V_CMD_OP_CREATE_EQ, &b), "stats");
	TEST_ASSERT(b.n >= 1, "CREATE_EQ of bring-up not counted");
	TEST_ASSERT(strcmp(mlx5v_cmd_opcode_name(MLX5V_CMD_OP_MANAGE_PAGES), "MANAGE_PAGES") == 0,
		    "opcode name");
	return TEST_SUCCESS;
}

/* Dead device (prm/mlx5 §3.11): destroy-class succeeds locally, the rest -ENOLINK, nothing sent. */
static int
test_mlx5v_cmd_dead_policy(void)
{
	uint8_t in[MLX5V_CMD_HDR_SIZE];
	uint8_t out[MLX5V_CMD_HDR_SIZE];
	struct ut_heap before, after;
	struct mlx5v_cmd_stats st;
	struct ut_dev u;
	uint64_t cmds;

	ut_heap_get(&before);
	TEST_ASSERT_SUCCESS(ut_dev_create(&u, "ut_cmd_dead", 4, 0, NULL), "create");
	TEST_ASSERT_SUCCESS(mlx5v_dev_load(u.dev), "load");
	mlx5v_dev_set_dead(u.dev, MLX5V_DEAD_USER);
	TEST_ASSERT_EQUAL(mlx5v_dev_is_dead(u.dev), MLX5V_DEAD_USER, "not dead");
	cmds = mlx5v_sim_counter(u.sim, MLX5V_SIM_CTR_CMDS);
	memset(in, 0, sizeof(in));
	MLX5V_IFC_SET(destroy_eq_in, in, opcode, MLX5V_CMD_OP_DESTROY_EQ);
	TEST_ASSERT_SUCCESS(mlx5v_cmd_exec(u.dev, in, sizeof(in), out, sizeof(out)),
			    "destroy-class must succeed locally");
	MLX5V_IFC_SET(dealloc_uar_in, in, opcode, MLX5V_CMD_OP_DEALLOC_UAR);
	TEST_ASSERT_SUCCESS(mlx5v_cmd_do(u.dev, in, sizeof(in), out, sizeof(out)), "dealloc");
	MLX5V_IFC_SET(cmd_in_hdr, in, opcode, MLX5V_CMD_OP_ALLOC_UAR);
	TEST_ASSERT_EQUAL(mlx5v_cmd_exec(u.dev, in, sizeof(in), out, sizeof(out)), -ENOLINK,
			  "create-class must fail with -ENOLINK");
	TEST_ASSERT_EQUAL(mlx5v_cmd_do(u.dev, in, sizeof(in), out, sizeof(out)), -ENOLINK, "do");
	TEST_ASSERT_EQUAL(out[0], MLX5V_CMD_STAT_DRIVER_ABORTED, "status 0xfe");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(cmd_out_hdr, out, syndrome), MLX5V_DRIVER_SYND,
			  "syndrome 0xbadd00de");
	MLX5V_IFC_SET(cmd_in_hdr, in, opcode, 0x7777);
	TEST_ASSERT_EQUAL(mlx5v_cmd_do(u.dev, in, sizeof(in), out, sizeof(out)), -EINVAL,
			  "unknown opcode on a dead device");
	TEST_ASSERT_EQUAL(mlx5v_sim_counter(u.sim, MLX5V_SIM_CTR_CMDS), cmds,
			  "a command reached the dead device");
	TEST_ASSERT_SUCCESS(mlx5v_cmd_stats_get(u.dev, MLX5V_CMD_OP_ALLOC_UAR, &st), "stats");
	TEST_ASSERT_EQUAL(st.local, 2u, "local answers not counted");
	/* Teardown of a dead device completes and frees everything of ours. */
	mlx5v_dev_unload(u.dev);
	ut_dev_destroy(&u);
	ut_heap_get(&after);
	TEST_ASSERT(ut_heap_same(&before, &after), "EAL memory leaked");
	return TEST_SUCCESS;
}

/* ---- asynchronous commands (mlx5v_cmd_post_async()) ---- */

#define ASYNC_MAX 256

/* What the completion callbacks saw, in the order they ran. */
struct async_log {
	unsigned int n;
	uint64_t ticket[ASYNC_MAX];
	int ret[ASYNC_MAX];
	uint8_t status[ASYNC_MAX];
	uint32_t syndrome[ASYNC_MAX];
};

static void
async_record(struct mlx5v_dev *dev, void *arg, uint64_t ticket, int ret, const uint8_t *out)
{
	struct async_log *log = arg;

	RTE_SET_USED(dev);
	if (log->n >= ASYNC_MAX)
		return;
	log->ticket[log->n] = ticket;
	log->ret[log->n] = ret;
	log->status[log->n] = MLX5V_IFC_GET(cmd_out_hdr, out, status);
	log->syndrome[log->n] = MLX5V_IFC_GET(cmd_out_hdr, out, syndrome);
	log->n++;
}

/* @return the index of ticket in log, or -1. */
static int
async_find(const struct async_log *log, uint64_t ticket)
{
	unsigned int i;
	int at = -1;

	for (i = 0; i < log->n; i++)
		if (log->ticket[i] == ticket) {
			if (at >= 0)
				return -2;   /* reported twice */
			at = i;
		}
	return at;
}

static int
post_issi(struct mlx5v_dev *dev, struct async_log *log, uint64_t *ticket)
{
	uint8_t in[MLX5V_CMD_HDR_SIZE];

	memset(in, 0, sizeof(in));
	MLX5V_IFC_SET(cmd_in_hdr, in, opcode, MLX5V_CMD_OP_QUERY_ISSI);
	return mlx5v_cmd_post_async(dev, in, sizeof(in), MLX5V_IFC_BYTES(query_issi_out),
				    async_record, log, ticket);
}

/*
 * Three times as many commands as slots posted without waiting: each is answered once, with
 * its own ticket; waiting on a ticket returns after its callback ran; a synchronous command
 * runs after every posted one; no slot is rung while the device still owns it.
 */
static int
test_mlx5v_cmd_async_post_reap(void)
{
	static struct async_log log;
	uint8_t out[MLX5V_IFC_BYTES(query_issi_out)];
	uint64_t ticket[ASYNC_MAX];
	uint64_t misuse = mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_DB_MISUSE);
	struct mlx5v_cmd_info before, info;
	unsigned int i, n;

	memset(&log, 0, sizeof(log));
	TEST_ASSERT_SUCCESS(mlx5v_cmd_info_get(g_dev, &before), "info");
	n = 3 * before.nslots;
	for (i = 0; i < n; i++) {
		TEST_ASSERT_SUCCESS(post_issi(g_dev, &log, &ticket[i]), "post %u", i);
		TEST_ASSERT(ticket[i] != 0 && (i == 0 || ticket[i] != ticket[i - 1]),
			    "ticket %u", i);
		/* Waiting on an early ticket: its callback has run when the wait returns. */
		if (i == before.nslots) {
			TEST_ASSERT_SUCCESS(mlx5v_cmd_async_wait(g_dev, ticket[1]), "wait");
			TEST_ASSERT(async_find(&log, ticket[1]) >= 0, "ticket not reported");
		}
	}
	TEST_ASSERT(log.n < n, "every command waited for: nothing was in flight");
	/* A synchronous command takes back every posted one first. */
	TEST_ASSERT_SUCCESS(query_issi(0, out, sizeof(out)), "synchronous command");
	TEST_ASSERT_EQUAL(log.n, n, "%u of %u reported before a synchronous command", log.n, n);
	for (i = 0; i < n; i++) {
		int at = async_find(&log, ticket[i]);

		TEST_ASSERT(at >= 0, "ticket %u reported %s", i, at == -1 ? "never" : "twice");
		TEST_ASSERT_SUCCESS(log.ret[at], "ticket %u: %d", i, log.ret[at]);
	}
	TEST_ASSERT_SUCCESS(mlx5v_cmd_info_get(g_dev, &info), "info");
	TEST_ASSERT_EQUAL(info.async_posted - before.async_posted, n, "posted count");
	TEST_ASSERT_EQUAL(info.async_failed, before.async_failed, "failures counted");
	TEST_ASSERT_EQUAL(info.async_pending, 0u, "pending");
	TEST_ASSERT_EQUAL(info.busy_mask, 0u, "slots left busy");
	TEST_ASSERT_EQUAL(mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_DB_MISUSE), misuse,
			  "a slot rung before the device gave it back");
	return TEST_SUCCESS;
}

/* A posted command the device fails is reported with its ticket, status and syndrome. */
static int
test_mlx5v_cmd_async_failure(void)
{
	static struct async_log log;
	uint64_t ticket[4];
	struct mlx5v_cmd_info before, info;
	unsigned int i, failed = 0;

	memset(&log, 0, sizeof(log));
	TEST_ASSERT_SUCCESS(mlx5v_cmd_info_get(g_dev, &before), "info");
	TEST_ASSERT_SUCCESS(mlx5v_sim_fail_next_cmd(g_sim, MLX5V_CMD_OP_QUERY_ISSI,
						    MLX5V_CMD_STAT_BAD_PARAM_ERR, 0x5a5a),
			    "arm");
	for (i = 0; i < RTE_DIM(ticket); i++)
		TEST_ASSERT_SUCCESS(post_issi(g_dev, &log, &ticket[i]), "post %u", i);
	TEST_ASSERT_SUCCESS(mlx5v_cmd_async_wait(g_dev, 0), "wait");
	TEST_ASSERT_EQUAL(log.n, RTE_DIM(ticket), "reported %u", log.n);
	for (i = 0; i < RTE_DIM(ticket); i++) {
		int at = async_find(&log, ticket[i]);

		TEST_ASSERT(at >= 0, "ticket %u not reported once", i);
		if (log.ret[at] == 0)
			continue;
		failed++;
		TEST_ASSERT_EQUAL(log.ret[at], -EINVAL, "ticket %u: %d", i, log.ret[at]);
		TEST_ASSERT_EQUAL(log.status[at], MLX5V_CMD_STAT_BAD_PARAM_ERR, "status");
		TEST_ASSERT_EQUAL(log.syndrome[at], 0x5a5au, "syndrome");
	}
	TEST_ASSERT_EQUAL(failed, 1u, "%u failures for one fault", failed);
	TEST_ASSERT_SUCCESS(mlx5v_cmd_info_get(g_dev, &info), "info");
	TEST_ASSERT_EQUAL(info.async_failed, before.async_failed + 1, "failure not counted");
	return TEST_SUCCESS;
}

/* A posted command never answered: -ETIMEDOUT with its ticket, its slot kept until then. */
static int
test_mlx5v_cmd_async_timeout(void)
{
	static struct async_log log;
	struct mlx5v_cmd_info info;
	uint64_t ticket;
	int at;

	memset(&log, 0, sizeof(log));
	TEST_ASSERT_SUCCESS(mlx5v_cmd_info_get(g_dev, &info), "info");
	mlx5v_dev_tout_set(g_dev, MLX5V_TO_CMD, 50);
	TEST_ASSERT_SUCCESS(mlx5v_sim_drop_next_completion(g_sim, MLX5V_CMD_OP_QUERY_ISSI, 1),
			    "hold knob");
	TEST_ASSERT_SUCCESS(post_issi(g_dev, &log, &ticket), "post");
	TEST_ASSERT_SUCCESS(mlx5v_cmd_async_wait(g_dev, ticket), "wait");
	at = async_find(&log, ticket);
	TEST_ASSERT(at >= 0, "not reported");
	TEST_ASSERT_EQUAL(log.ret[at], -ETIMEDOUT, "returned %d", log.ret[at]);
	cmd_tout_restore();
	TEST_ASSERT_SUCCESS(wait_drop_taken(), "the command never reached the device");
	mlx5v_sim_release_held(g_sim);
	TEST_ASSERT_SUCCESS(wait_info(0, info.late_completions + 1),
			    "late completion never freed the slot");
	return TEST_SUCCESS;
}

static void
async_tally(struct mlx5v_dev *dev, void *arg, uint64_t ticket, int ret, const uint8_t *out)
{
	unsigned int *tally = arg;

	RTE_SET_USED(dev);
	RTE_SET_USED(ticket);
	RTE_SET_USED(out);
	tally[ret == 0 ? 0 : 1]++;
}

/*
 * Posted commands taken back by their owner bit still get their CMD events. With the
 * interrupt thread not draining the async EQ (its interrupt lost), four EQs' worth of posted
 * commands must not overrun it: an overrun is fatal to the device.
 */
static int
test_mlx5v_cmd_async_eq_not_overrun(void)
{
	uint8_t in[MLX5V_CMD_HDR_SIZE];
	unsigned int tally[2] = { 0, 0 };
	unsigned int i, n = 4u << MLX5V_ASYNC_EQ_LOG_SIZE;
	uint64_t ticket, overruns = mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_EQ_OVERRUNS);

	memset(in, 0, sizeof(in));
	MLX5V_IFC_SET(cmd_in_hdr, in, opcode, MLX5V_CMD_OP_QUERY_ISSI);
	mlx5v_sim_drop_msix(g_sim, MLX5V_ASYNC_EQ_VECTOR, 1);
	for (i = 0; i < n; i++)
		TEST_ASSERT_SUCCESS(mlx5v_cmd_post_async(g_dev, in, sizeof(in),
					MLX5V_IFC_BYTES(query_issi_out), async_tally, tally,
					&ticket), "post %u", i);
	TEST_ASSERT_SUCCESS(mlx5v_cmd_async_wait(g_dev, 0), "wait");
	TEST_ASSERT_EQUAL(mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_EQ_OVERRUNS), overruns,
			  "the async EQ overran");
	TEST_ASSERT(!mlx5v_dev_is_dead(g_dev), "the device died");
	TEST_ASSERT_EQUAL(tally[0], n, "%u of %u answered, %u failed", tally[0], n, tally[1]);
	return TEST_SUCCESS;
}

/*
 * Dead device: commands in flight complete with the dead-device result (a query -ENOLINK);
 * a new post sends nothing and returns that result at once (a destroy 0).
 */
static int
test_mlx5v_cmd_async_dead(void)
{
	static struct async_log log;
	uint8_t in[MLX5V_CMD_HDR_SIZE];
	struct mlx5v_cmd_info info;
	struct ut_dev u;
	uint64_t ticket, t2, cmds;
	int at;

	memset(&log, 0, sizeof(log));
	TEST_ASSERT_SUCCESS(ut_dev_create(&u, "ut_cmd_async_dead", 4, 0, NULL), "create");
	TEST_ASSERT_SUCCESS(mlx5v_dev_load(u.dev), "load");
	TEST_ASSERT_SUCCESS(mlx5v_sim_drop_next_completion(u.sim, MLX5V_CMD_OP_QUERY_ISSI, 1),
			    "hold knob");
	TEST_ASSERT_SUCCESS(post_issi(u.dev, &log, &ticket), "post");
	mlx5v_dev_set_dead(u.dev, MLX5V_DEAD_USER);
	TEST_ASSERT_SUCCESS(mlx5v_cmd_async_wait(u.dev, ticket), "wait");
	at = async_find(&log, ticket);
	TEST_ASSERT(at >= 0, "not reported");
	TEST_ASSERT_EQUAL(log.ret[at], -ENOLINK, "returned %d", log.ret[at]);
	TEST_ASSERT_EQUAL(log.status[at], MLX5V_CMD_STAT_DRIVER_ABORTED, "status 0x%x",
			  log.status[at]);
	cmds = mlx5v_sim_counter(u.sim, MLX5V_SIM_CTR_CMDS);
	TEST_ASSERT_EQUAL(post_issi(u.dev, &log, &t2), -ENOLINK, "post on a dead device");
	memset(in, 0, sizeof(in));
	MLX5V_IFC_SET(cmd_in_hdr, in, opcode, MLX5V_CMD_OP_DESTROY_EQ);
	TEST_ASSERT_SUCCESS(mlx5v_cmd_post_async(u.dev, in, sizeof(in), sizeof(in),
						 async_record, &log, &t2),
			    "a destroy must succeed locally");
	TEST_ASSERT_EQUAL(mlx5v_sim_counter(u.sim, MLX5V_SIM_CTR_CMDS), cmds,
			  "a command reached the dead device");
	TEST_ASSERT_SUCCESS(mlx5v_cmd_info_get(u.dev, &info), "info");
	TEST_ASSERT_EQUAL(info.async_pending, 0u, "pending");
	mlx5v_sim_release_held(u.sim);
	mlx5v_dev_unload(u.dev);
	ut_dev_destroy(&u);
	return TEST_SUCCESS;
}

static struct unit_test_suite mlx5v_cmd_suite = {
	.suite_name = "mlx5v_cmd",
	.setup = cmd_setup,
	.teardown = cmd_teardown,
	.unit_test_cases = {
		TEST_CASE(test_mlx5v_cmd_status_table),
		TEST_CASE(test_mlx5v_cmd_status_from_device),
		TEST_CASE(test_mlx5v_cmd_delivery_table),
		TEST_CASE(test_mlx5v_cmd_do_eremoteio),
		TEST_CASE(test_mlx5v_cmd_long_mailbox_8k),
		TEST_CASE(test_mlx5v_cmd_max_len),
		TEST_CASE(test_mlx5v_cmd_tokens),
		TEST_CASE(test_mlx5v_cmd_signatures),
		TEST_CASE(test_mlx5v_cmd_bad_output_signature),
		TEST_CASE(test_mlx5v_cmd_timeout_slot_reserved),
		TEST_CASE(test_mlx5v_cmd_all_slots_stalled),
		TEST_CASE(test_mlx5v_cmd_delayed_completion),
		TEST_CASE(test_mlx5v_cmd_lost_msi_recovered),
		TEST_CASE(test_mlx5v_cmd_lost_eqe_owner_returned),
		TEST_CASE(test_mlx5v_cmd_duplicate_completion),
		TEST_CASE(test_mlx5v_cmd_polled),
		TEST_CASE(test_mlx5v_cmd_opcode_counters),
		TEST_CASE(test_mlx5v_cmd_dead_policy),
		TEST_CASE(test_mlx5v_cmd_async_post_reap),
		TEST_CASE(test_mlx5v_cmd_async_failure),
		TEST_CASE(test_mlx5v_cmd_async_timeout),
		TEST_CASE(test_mlx5v_cmd_async_eq_not_overrun),
		TEST_CASE(test_mlx5v_cmd_async_dead),
		TEST_CASES_END()
	}
};

static int
test_mlx5v_cmd(void)
{
	return unit_test_suite_runner(&mlx5v_cmd_suite);
}

REGISTER_TEST_COMMAND(mlx5v_cmd_autotest, test_mlx5v_cmd);
