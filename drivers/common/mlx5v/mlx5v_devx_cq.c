/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file DEVX CQs: create, arm, poll, destroy. */


#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#include "mlx5v_devx_priv.h"
#include "mlx5v_prm_eth.h"

/* The smallest CQ ring: one IOMMU page, as rdma-core's iova_min_page_size. */
#define MLX5V_DEVX_MIN_RING 4096u

/* ---- CQs ---- */

/* Unmap both windows of a CQ (either may be unmapped already). */
void
mlx5v_devx_cq_unmap(struct mlx5v_dev *dev, struct mlx5v_devx_cq *cq)
{
	mlx5v_dma_buf_unmap(mlx5v_dev_hw(dev), &cq->dbr_dma);
	mlx5v_dma_buf_unmap(mlx5v_dev_hw(dev), &cq->ring_dma);
}

struct mlx5v_devx_cq *
mlx5v_devx_cq_create(struct mlx5v_dev *dev, unsigned int log_size, uint32_t eqn,
		     const struct rte_pmd_mlx5v_uar *uar)
{
	return mlx5v_devx_cq_create_opts(dev, log_size, eqn, uar, NULL);
}

_Static_assert(MLX5V_DEVX_MINI_CQE_HASH == MLX5V_MINI_CQE_FMT_HASH &&
	       MLX5V_DEVX_MINI_CQE_CSUM == MLX5V_MINI_CQE_FMT_CSUM &&
	       MLX5V_DEVX_MINI_CQE_FTAG == MLX5V_MINI_CQE_FMT_FTAG &&
	       MLX5V_DEVX_MINI_CQE_CSUM_STRIDX == MLX5V_MINI_CQE_FMT_CSUM_STRIDX &&
	       MLX5V_DEVX_MINI_CQE_L34H == MLX5V_MINI_CQE_FMT_L34H,
	       "mini_cqe_res_format values (prm/mlx5_eth §8.5)");

struct mlx5v_devx_cq *
mlx5v_devx_cq_create_opts(struct mlx5v_dev *dev, unsigned int log_size, uint32_t eqn,
			  const struct rte_pmd_mlx5v_uar *uar,
			  const struct mlx5v_devx_cq_opts *opts)
{
	uint8_t out[MLX5V_IFC_BYTES(create_cq_out)];
	struct mlx5v_devx_ctx *ctx;
	struct mlx5v_devx_cq *cq;
	uint8_t *in = NULL;
	size_t ring, inlen;
	uint8_t *cqc;
	unsigned int i;
	int ret;

	/*
	 * Same limit as the EQ: log_size must describe a ring that one naturally aligned PAS can
	 * cover.
	 */
	if (dev == NULL || uar == NULL || log_size < 1 || log_size > 22) {
		rte_errno = EINVAL;
		return NULL;
	}
	cq = mlx5v_devx_obj_begin(dev, MLX5V_DEVX_KIND_CQ, sizeof(*cq), &ctx);
	if (cq == NULL)
		return NULL;
	cq->dev = dev;
	cq->nent = 1u << log_size;
	cq->eqn = eqn;
	cq->uar = *uar;
	/* Ring aligned to its power-of-two size (one PAS), then a page for the dbrec. */
	/*
	 * The dbrec sits in its own 4 KiB page after the ring so that the single PAS (log_page_size
	 * = log2(ring) - 12) covers only CQEs.
	 */
	ring = RTE_MAX((size_t)cq->nent * MLX5V_IFC_BYTES(cqe), (size_t)MLX5V_DEVX_MIN_RING);
	cq->size = ring + MLX5V_DEVX_MIN_RING;
	cq->buf = rte_zmalloc_socket("mlx5v_devx_cq", cq->size, ring, dev->socket);
	if (cq->buf == NULL) {
		ret = -ENOMEM;
		goto err_abort;
	}
	cq->dbrec = (volatile uint32_t *)(cq->buf + ring);
	/*
	 * Every CQE starts invalid and hardware-owned (prm/mlx5 §7.4; §12 #6 is the bug
	 * otherwise).
	 */
	for (i = 0; i < cq->nent; i++) {
		uint8_t *cqe = cq->buf + (size_t)i * MLX5V_IFC_BYTES(cqe);

		MLX5V_IFC_SET(cqe, cqe, opcode, RTE_PMD_MLX5V_CQE_OPCODE_INVALID);
		MLX5V_IFC_SET(cqe, cqe, owner, 1);
	}
	/*
	 * The CQEs as IOVA-contiguous chunks (one PAS each), the dbrec page as a window of its
	 * own: its IOVA is never the ring's plus an offset (prm/mlx5 §7.3, §11.9).
	 */
	ret = mlx5v_dma_buf_map(mlx5v_dev_hw(dev), cq->buf, ring, rte_log2_u64(ring),
				&cq->ring_dma);
	if (ret < 0)
		goto err_buf_free;
	ret = mlx5v_dma_buf_map(mlx5v_dev_hw(dev), cq->buf + ring, MLX5V_DEVX_MIN_RING,
				MLX5V_DMA_PAGE_SHIFT, &cq->dbr_dma);
	if (ret < 0)
		goto err_buf_unmap;
	cq->iova = cq->ring_dma.iova[0];
	inlen = MLX5V_IFC_BYTES(create_cq_in) + 8 * (size_t)cq->ring_dma.n;
	in = calloc(1, inlen);
	if (in == NULL) {
		ret = -ENOMEM;
		goto err_buf_unmap;
	}
	memset(out, 0, sizeof(out));
	MLX5V_IFC_SET(create_cq_in, in, opcode, RTE_PMD_MLX5V_CMD_OP_CREATE_CQ);
	cqc = MLX5V_IFC_ADDR_OF(create_cq_in, in, cqc);
	MLX5V_IFC_SET(cqc, cqc, log_cq_size, log_size);
	MLX5V_IFC_SET(cqc, cqc, uar_page, uar->page_id);
	/*
	 * c_eqn names the EQ that gets completion EQEs while the CQ is armed; binding to the
	 * vector-0 async EQ would lose them (prm/mlx5 §7.2, §6.13).
	 */
	MLX5V_IFC_SET(cqc, cqc, c_eqn_or_apu_element, eqn);
	MLX5V_IFC_SET(cqc, cqc, log_page_size, cq->ring_dma.shift - MLX5V_ADAPTER_PAGE_SHIFT);
	MLX5V_IFC_SET64(cqc, cqc, dbr_addr, cq->dbr_dma.iova[0]);
	if (opts != NULL && opts->cqe_comp_en) {
		/* Sessions of mini-CQEs behind a title CQE (prm/mlx5_eth §8.5). */
		MLX5V_IFC_SET(cqc, cqc, cqe_comp_en, 1);
		/* Formats above 3 take the extension field: L3/L4 is format 0, ext 1. */
		MLX5V_IFC_SET(cqc, cqc, mini_cqe_res_format, opts->mini_cqe_res_format & 3);
		MLX5V_IFC_SET(cqc, cqc, mini_cqe_res_format_ext, opts->mini_cqe_res_format >> 2);
	}
	mlx5v_dma_buf_pas_fill(&cq->ring_dma, in + MLX5V_IFC_BYTE_OFF(create_cq_in, pas));
	/*
	 * cmd_do: the caller gets -EREMOTEIO and the outbox for firmware failures, as with
	 * CREATE_EQ (prm/mlx5 §3.9).
	 */
	ret = mlx5v_cmd_do(dev, in, inlen, out, sizeof(out));
	free(in);
	if (ret == -ETIMEDOUT) {
		/* As for CREATE_EQ: a late CQ may write here until it is destroyed. */
		struct mlx5v_dma_buf dma[] = { cq->ring_dma, cq->dbr_dma };

		mlx5v_dev_quarantine(dev, cq->buf, cq->size, dma, RTE_DIM(dma));
		goto err_abort;
	}
	if (ret < 0)
		goto err_buf_unmap;
	cq->cqn = MLX5V_IFC_GET(create_cq_out, out, cqn);
	MLX5V_DEVX_PUBLISH(MLX5V_DEVX_KIND_CQ, cqs, cq, ctx);
	mlx5v_devx_ctx_put(ctx);
	return cq;

err_buf_unmap:
	mlx5v_devx_cq_unmap(dev, cq);
err_buf_free:
	rte_free(cq->buf);
err_abort:
	mlx5v_devx_obj_abort(MLX5V_DEVX_KIND_CQ, cq, sizeof(*cq), ctx, ret);
	return NULL;
}

int
mlx5v_devx_cq_destroy(struct mlx5v_devx_cq *cq)
{
	struct mlx5v_devx_obj *obj = mlx5v_devx_obj_get_excl(MLX5V_DEVX_KIND_CQ, cq);
	struct mlx5v_devx_ctx *ctx;
	int ret;

	if (obj == NULL)
		return -EINVAL;
	ctx = obj->ctx;
	ret = mlx5v_devx_destroy_cmd(cq->dev, RTE_PMD_MLX5V_CMD_OP_DESTROY_CQ, cq->cqn);
	/*
	 * The CQ stays alive on failure: its memory must not be unmapped while firmware can still
	 * write CQEs into it.
	 */
	if (ret < 0) {
		mlx5v_devx_obj_put_excl(obj);
		return ret;
	}
	MLX5V_DEVX_RETIRE(MLX5V_DEVX_KIND_CQ, cqs, cq, obj, ctx);
	mlx5v_devx_cq_unmap(cq->dev, cq);
	rte_free(cq->buf);
	mlx5v_devx_hmem_free(cq, sizeof(*cq));
	mlx5v_devx_ctx_put(ctx);
	return 0;
}

void
mlx5v_devx_cq_arm_ci(struct mlx5v_devx_cq *cq, uint32_t ci, int solicited)
{
	mlx5v_devx_cq_arm_at(mlx5v_dev_hw(cq->dev), cq->uar.base_addr, cq->dbrec, cq->cqn,
			     cq->arm_sn, ci, solicited);
}

void
mlx5v_devx_cq_arm(struct mlx5v_devx_cq *cq, int solicited)
{
	mlx5v_devx_cq_arm_ci(cq, cq->ci, solicited);
}

void
mlx5v_devx_cq_event(struct mlx5v_devx_cq *cq)
{
	/*
	 * sn advances per completion event consumed, never per arm (libmlx5, Linux and DPDK;
	 * prm/mlx5 §7.3): two arms without an event between carry the same sn.
	 */
	cq->arm_sn++;
}

unsigned int
mlx5v_devx_cq_poll(struct mlx5v_devx_cq *cq)
{
	unsigned int n = 0;

	/*
	 * rte_pmd_mlx5v_cq_next_cqe() applies the CQE owner rule and read barrier; this helper only
	 * consumes, it does not look at the CQE contents.
	 */
	while (rte_pmd_mlx5v_cq_next_cqe(cq->buf, cq->nent, cq->ci) != NULL) {
		cq->ci++;
		n++;
	}
	if (n != 0)
		/*
		 * dbrec[0] = BE32(ci & 0xffffff): the CI that tells the device which CQEs it may
		 * reuse (prm/mlx5 §7.3, §13 CQs).
		 */
		rte_pmd_mlx5v_cq_update_ci(cq->dbrec, cq->ci);
	return n;
}
