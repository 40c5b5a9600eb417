/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The uverbs file's objects as the command handlers of the other files of the preload
 * see them (verbs_preload_dev.c owns the files and their handles).
 */

#ifndef _VERBS_PRELOAD_DEV_H_
#define _VERBS_PRELOAD_DEV_H_

#include <stddef.h>
#include <stdint.h>

/** What a handle of a uverbs file names. */
enum verbs_dev_htype {
	VERBS_H_FREE = 0,
	VERBS_H_PD,
	VERBS_H_MR,
	VERBS_H_CQ,
	VERBS_H_QP,
	VERBS_H_FLOW,
	VERBS_H_WQ,
	VERBS_H_IND,
	VERBS_H_SRQ,
};

struct verbs_dev_fd;
struct mlx4v_ctx;
struct mlx4v_ind;
struct mlx4v_qp;
struct mlx4v_sim;
struct mlx4v_verbs_ops;

/** The file's context (NULL before GET_CONTEXT) and the model's verbs operations. */
struct mlx4v_ctx *verbs_dev_ctx(const struct verbs_dev_fd *f);
const struct mlx4v_verbs_ops *verbs_dev_ops(const struct verbs_dev_fd *f);

/** The model of the fd's function. */
struct mlx4v_sim *verbs_dev_sim(const struct verbs_dev_fd *f);

/** The object of handle h of that type, or NULL (the kernel's EINVAL). */
void *verbs_dev_handle_get(struct verbs_dev_fd *f, uint32_t h, enum verbs_dev_htype type);

/** Copy a response to the user's buffer of out_len bytes. @return 0 or -ENOSPC. */
int verbs_dev_resp(uint64_t response, size_t out_len, const void *resp, size_t len);

/**
 * Publish obj under a new handle and answer with resp, whose handle word is at byte hoff.
 * @return 0 or -errno, with no handle left on failure.
 */
int verbs_dev_publish(struct verbs_dev_fd *f, enum verbs_dev_htype type, void *obj,
		      uint64_t response, size_t out_len, void *resp, size_t len, size_t hoff);

/* ---- indirection tables and RSS QPs (verbs_preload_rss.c) ---- */

struct ib_uverbs_ex_query_device_resp;
struct mlx4_uverbs_ex_query_device_resp;

/** The RSS capabilities of EX_QUERY_DEVICE: the core's, and all of mlx4's part (zeroed). */
void verbs_rss_caps(struct ib_uverbs_ex_query_device_resp *core,
		    struct mlx4_uverbs_ex_query_device_resp *drv);

/** EX_CREATE_RWQ_IND_TBL. @return 0 or -errno. */
int verbs_rss_cmd_create_ind(struct verbs_dev_fd *f, const void *in, size_t in_len,
			     uint64_t response, size_t out_len);

/**
 * EX_CREATE_QP (core_len bytes of core command, then mlx4's): an RSS QP over an indirection
 * table; the other QPs come by the legacy command. @return 0 or -errno.
 */
int verbs_rss_cmd_create_qp(struct verbs_dev_fd *f, const void *in, size_t core_len,
			    size_t in_len, uint64_t response, size_t out_len);

/** A table's handle is destroyed: the model's, then its references to its WQs. */
int verbs_rss_ind_destroy(struct verbs_dev_fd *f, struct mlx4v_ind *ind);

/** A QP was destroyed: drop the references it held (its CQs and PD, or its table and PD). */
void verbs_rss_qp_unref(struct mlx4v_qp *qp);

/* ---- SRQ limit (verbs_preload_srq.c) ---- */

/** MODIFY_SRQ: arm the SRQ limit (a new max_wr is refused, as mlx4_ib). @return 0 or -errno. */
int verbs_srq_cmd_modify(struct verbs_dev_fd *f, const void *in, size_t in_len);

/** QUERY_SRQ: max_wr and max_sge as granted, the armed limit. @return 0 or -errno. */
int verbs_srq_cmd_query(struct verbs_dev_fd *f, const void *in, size_t in_len, size_t out_len);

#endif /* _VERBS_PRELOAD_DEV_H_ */
