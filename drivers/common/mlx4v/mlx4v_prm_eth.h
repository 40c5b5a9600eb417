/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * The Ethernet bits of the ConnectX-3 data-path formats that rdma-core's mlx4dv.h leaves out:
 * the receive CQE status flags (packet kind and checksum verdicts) and the send-side TXBB and
 * stamp constants (doc/guides/prm/mlx4.rst §4.2, §4.6). Shared by the simulated device, which
 * writes them, and the net_mlx4v PMD, which reads them. Constants only, not installed.
 */

#ifndef _MLX4V_PRM_ETH_H_
#define _MLX4V_PRM_ETH_H_

#include <infiniband/mlx4dv.h>

/** Receive CQE status (struct mlx4_cqe::status, BE32 at byte 16), prm/mlx4 §4.6. */
enum mlx4v_cqe_status {
	/** TCP or UDP checksum verified good (mlx4dv.h MLX4_CQE_STATUS_TCP_UDP_CSUM_OK). */
	MLX4V_CQE_STATUS_L4_CSUM_OK = 1u << 2,
	/** IPv6 with a fragment header. */
	MLX4V_CQE_STATUS_IPV6F = 1u << 12,
	/** IPv4 (mlx4dv.h MLX4_CQE_STATUS_IPV4_PKT). */
	MLX4V_CQE_STATUS_IPV4 = 1u << 22,
	/** IPv4 fragment (more fragments or an offset). */
	MLX4V_CQE_STATUS_IPV4F = 1u << 23,
	/** IPv6. */
	MLX4V_CQE_STATUS_IPV6 = 1u << 24,
	/** IPv4 header with options. */
	MLX4V_CQE_STATUS_IPV4OPT = 1u << 25,
	/** TCP. */
	MLX4V_CQE_STATUS_TCP = 1u << 26,
	/** UDP. */
	MLX4V_CQE_STATUS_UDP = 1u << 27,
	/** IP header verified good (mlx4dv.h MLX4_CQE_STATUS_IP_HDR_CSUM_OK). */
	MLX4V_CQE_STATUS_IP_CSUM_OK = 1u << 28,
};

_Static_assert((int)MLX4V_CQE_STATUS_L4_CSUM_OK == (int)MLX4_CQE_STATUS_TCP_UDP_CSUM_OK,
	       "mlx4dv.h");
_Static_assert((int)MLX4V_CQE_STATUS_IPV4 == (int)MLX4_CQE_STATUS_IPV4_PKT, "mlx4dv.h");
_Static_assert((int)MLX4V_CQE_STATUS_IP_CSUM_OK == (int)MLX4_CQE_STATUS_IP_HDR_CSUM_OK,
	       "mlx4dv.h");

/** Bytes of a send basic block (TXBB): the unit of SQ positions and owner bits (prm/mlx4 §4.2). */
#define MLX4V_TXBB_SIZE 64u
/** log2 of MLX4V_TXBB_SIZE. */
#define MLX4V_TXBB_SHIFT 6
/** Bytes software keeps free ahead of the producer for the device's prefetch (prm/mlx4 §4.2). */
#define MLX4V_TX_HEADROOM 2048u
/**
 * First dword of a freed TXBB: invalid for the device on the next pass of the ring when the
 * owner bit of the pass it was used in is ORed in (prm/mlx4 §4.2, Stamping). CPU order.
 */
#define MLX4V_TXBB_STAMP 0x7fffffffu
/** Owner bit of a send control segment's owner_opcode, CPU order (prm/mlx4 §4.2). */
#define MLX4V_WQE_OWNER (1u << 31)

#endif /* _MLX4V_PRM_ETH_H_ */
