/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The rte_flow rules of the mlx5v PMD on the device's NIC RX steering (prm/mlx5_eth
 * §4.10, §10.1). Group 0 is the root table (level 0): its entries come first, a miss goes on
 * to the PMD's destination MAC table (level 1, then the traffic class table at level 2), or
 * is dropped in isolated mode, where that table is not made. Group g > 0 is a table at level
 * g + 2 made with its first rule or jump, whose miss drops. Priority p of a group is a band
 * of entries of its table, the device taking the first matching entry in index order; the
 * rules of one priority and mask share flow groups (mlx5v_rte_flow_layout.c), so a rule
 * costs one SET_FLOW_TABLE_ENTRY, and the first rule of a group one CREATE_FLOW_GROUP more.
 * Rules live while the port is started (no RTE_ETH_DEV_CAPA_FLOW_RULE_KEEP): stop destroys
 * them. doc/guides/nics/mlx5v.rst, "Flow rules (rte_flow)".
 */

#include <errno.h>
#include <string.h>

#include <rte_malloc.h>

#include "mlx5v_ethdev.h"
#include "mlx5v_rte_flow.h"

static struct mlx5v_rte_flow_port *
port_of(const struct rte_eth_dev *eth_dev)
{
	return &((struct mlx5v_ethdev_priv *)eth_dev->data->dev_private)->rflow;
}

/*
 * The commands of a rule are short and come back to back: the calling thread takes each
 * back by its owner bit rather than through the interrupt thread's event (polled mode of
 * the command layer, doc/guides/bench/flow_perf.rst), until mlx5v_cmd_poll_end().
 */
static void
poll_begin(struct rte_eth_dev *eth_dev)
{
	struct mlx5v_dev *dev = mlx5v_ethdev_core(eth_dev);

	if (dev != NULL)
		mlx5v_cmd_poll_begin(dev);
}

/* Take a reference on the table of group g, made now if it does not exist. */
static int
table_get(struct mlx5v_dev *dev, struct mlx5v_rte_flow_port *p, uint32_t g)
{
	struct mlx5v_rte_flow_table *t = &p->table[g];
	int ret;

	if (t->ft == 0) {
		ret = mlx5v_rte_flow_hw_table(dev, MLX5V_RTE_FLOW_LEVEL(g), 0, &t->ft);
		if (ret != 0)
			return ret;
	}
	t->refs++;
	return 0;
}

/* Drop a reference; a group above 0 loses its table with the last one. */
static void
table_put(struct mlx5v_dev *dev, struct mlx5v_rte_flow_port *p, uint32_t g)
{
	struct mlx5v_rte_flow_table *t = &p->table[g];

	if (t->refs > 0)
		t->refs--;
	if (g != 0 && t->refs == 0 && t->ft != 0) {
		mlx5v_ethdev_cmd_ft_destroy(dev, t->ft);
		t->ft = 0;
	}
}

/*
 * Take a reference on the direct TIR of Rx queue q, made with its first QUEUE rule: every rule
 * to the queue forwards to that one TIR (as DPDK's mlx5 shares its Rx hash queues), so a rule
 * costs its group and entry commands only.
 */
static int
qtir_get(struct rte_eth_dev *eth_dev, struct mlx5v_dev *dev, uint16_t q)
{
	struct mlx5v_ethdev_priv *priv = eth_dev->data->dev_private;
	struct mlx5v_rte_flow_port *p = port_of(eth_dev);
	const struct mlx5v_rxq *rxq = eth_dev->data->rx_queues[q];
	int ret;

	RTE_BUILD_BUG_ON(MLX5V_RTE_FLOW_QUEUES < MLX5V_ETH_MAX_QUEUES);
	if (p->qtir[q] == 0) {
		ret = mlx5v_rte_flow_hw_tir(dev, priv->obj.td, rxq->rqn, &p->qtir[q]);
		if (ret != 0)
			return ret;
	}
	p->qtir_refs[q]++;
	return 0;
}

/* Drop a reference; the TIR goes with the last one (its entries deleted before). */
static void
qtir_put(struct mlx5v_dev *dev, struct mlx5v_rte_flow_port *p, uint16_t q)
{
	if (p->qtir_refs[q] > 0)
		p->qtir_refs[q]--;
	if (p->qtir_refs[q] == 0 && p->qtir[q] != 0) {
		mlx5v_ethdev_cmd_destroy(dev, MLX5V_ETHDEV_OBJ_TIR, p->qtir[q]);
		p->qtir[q] = 0;
	}
}

/* Every Rx queue reads the flow tag of its CQEs from now on. */
static void
mark_enable(struct rte_eth_dev *eth_dev)
{
	struct mlx5v_rxq *rxq;
	unsigned int i;

	for (i = 0; i < eth_dev->data->nb_rx_queues; i++) {
		rxq = eth_dev->data->rx_queues[i];
		if (rxq != NULL)
			rxq->mark = 1;
	}
}

/*
 * The result of a rule's posted SET_FLOW_TABLE_ENTRY, on the thread that reaps it. A failure
 * leaves the rule without its entry: logged now, counted, reported by its next query or
 * destroy. Issues no command (mlx5v_cmd_done_cb).
 */
static void
entry_done(struct mlx5v_dev *dev, void *arg, uint64_t ticket, int ret, const uint8_t *out)
{
	struct rte_flow *f = arg;

	RTE_SET_USED(out);
	if (f->ticket == ticket)
		f->ticket = 0;
	if (ret == 0)
		return;
	f->broken = ret;
	f->fte = 0;
	__atomic_fetch_add(&f->port->async_failed, 1, __ATOMIC_RELAXED);
	MLX5V_ETH_LOG(ERR, "%s: rule %p (group %u, entry %u): its posted flow entry failed: %s",
		      dev->name, (void *)f, f->spec.group, f->index, strerror(-ret));
}

/* A rule whose entry is still posted: wait for it (bounded by the command timeout). */
static void
entry_wait(struct mlx5v_dev *dev, struct rte_flow *f)
{
	if (f->ticket != 0 && dev != NULL)
		mlx5v_cmd_async_wait(dev, f->ticket);
	f->ticket = 0;
}

/* Undo flow_apply() as far as it went (each number 0 = not made). */
static void
flow_release(struct rte_eth_dev *eth_dev, struct mlx5v_dev *dev, struct rte_flow *f)
{
	struct mlx5v_rte_flow_port *p = port_of(eth_dev);
	struct mlx5v_rte_flow_table *t = &p->table[f->spec.group];

	if (f->fte)
		mlx5v_ethdev_cmd_fte_delete(dev, t->ft, f->index);
	f->fte = 0;
	if (f->tir != 0)
		mlx5v_ethdev_cmd_destroy(dev, MLX5V_ETHDEV_OBJ_TIR, f->tir);
	f->tir = 0;
	if (f->qtir)
		qtir_put(dev, p, f->spec.queue);
	f->qtir = 0;
	/* The RQT after the TIR over it (prm/mlx5_eth §12). */
	if (f->rqt != 0)
		mlx5v_ethdev_cmd_destroy(dev, MLX5V_ETHDEV_OBJ_RQT, f->rqt);
	f->rqt = 0;
	if (f->counter != 0)
		mlx5v_rte_flow_hw_counter_free(dev, f->counter);
	f->counter = 0;
	if (f->jumped)
		table_put(dev, p, f->spec.jump_group);
	f->jumped = 0;
	/* The group goes with its last entry, before the table (prm/mlx5_eth §12). */
	if (f->index != UINT32_MAX) {
		if (mlx5v_rte_flow_layout_put(f->grp, f->index) == 0) {
			if (f->grp->id != 0)
				mlx5v_ethdev_cmd_fg_destroy(dev, t->ft, f->grp->id);
			mlx5v_rte_flow_layout_fg_free(t, f->grp);
		}
		f->grp = NULL;
		f->fg = 0;
		f->index = UINT32_MAX;
		table_put(dev, p, f->spec.group);
	}
}

/*
 * RSS: an RQT repeating the queues up to a power of two entries (as DPDK's mlx5 fills its
 * indirection tables), then one indirect TIR over it hashing the rule's class.
 */
static int
rss_objects(struct rte_eth_dev *eth_dev, struct mlx5v_dev *dev, struct rte_flow *f)
{
	struct mlx5v_ethdev_priv *priv = eth_dev->data->dev_private;
	const struct mlx5v_rte_flow_rss *r = &f->spec.rss;
	uint32_t rqn[MLX5V_RTE_FLOW_RSS_MAX];
	struct mlx5v_ethdev_tir_attr a = {
		.td = priv->obj.td,
		.ipv6 = r->ipv6,
		.udp = r->udp,
		.ip = r->ip,
		.l4 = r->l4,
		.key = r->key,
	};
	uint32_t n = rte_align32pow2(r->n);
	const struct mlx5v_rxq *rxq;
	uint32_t i;
	int ret;

	for (i = 0; i < n; i++) {
		rxq = eth_dev->data->rx_queues[r->queue[i % r->n]];
		rqn[i] = rxq->rqn;
	}
	ret = mlx5v_ethdev_cmd_rqt_create(dev, rqn, n, &f->rqt);
	if (ret != 0)
		return ret;
	a.rqtn = f->rqt;
	return mlx5v_ethdev_cmd_tir_create(dev, &a, &f->tir);
}

/* The rule's objects on the device: entry index, group, TIR or target table, counter, entry. */
static int
flow_apply(struct rte_eth_dev *eth_dev, struct rte_flow *f, struct rte_flow_error *error)
{
	struct mlx5v_dev *dev = mlx5v_ethdev_core(eth_dev);
	struct mlx5v_rte_flow_port *p = port_of(eth_dev);
	struct mlx5v_rte_flow_table *t = &p->table[f->spec.group];
	uint32_t dest = 0;
	const char *what;
	int ret;

	f->index = UINT32_MAX;
	f->port = p;
	if (dev == NULL || !p->root)
		return rte_flow_error_set(error, EBUSY, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
					  "port not started: rules live while it runs");
	what = "flow table";
	ret = table_get(dev, p, f->spec.group);
	if (ret != 0)
		goto error;
	what = "entry of the priority";
	ret = mlx5v_rte_flow_layout_take(t, &f->spec, &f->grp, &f->index);
	if (ret != 0) {
		f->index = UINT32_MAX;
		table_put(dev, p, f->spec.group);
		goto error;
	}
	/* The first rule of a flow group makes it; the others only set their entry. */
	if (f->grp->id == 0) {
		what = "flow group";
		ret = mlx5v_rte_flow_hw_group(dev, t->ft, f->grp->start,
					      f->grp->start + f->grp->size - 1, &f->spec,
					      &f->grp->id);
		if (ret != 0)
			goto error;
	}
	f->fg = f->grp->id;
	if (f->spec.fate == MLX5V_RTE_FLOW_FATE_QUEUE) {
		what = "TIR";
		ret = qtir_get(eth_dev, dev, f->spec.queue);
		if (ret != 0)
			goto error;
		f->qtir = 1;
		dest = p->qtir[f->spec.queue];
	} else if (f->spec.fate == MLX5V_RTE_FLOW_FATE_RSS) {
		what = "RQT and TIR of the rss action";
		ret = rss_objects(eth_dev, dev, f);
		if (ret != 0)
			goto error;
		dest = f->tir;
	} else if (f->spec.fate == MLX5V_RTE_FLOW_FATE_JUMP) {
		what = "jump target table";
		ret = table_get(dev, p, f->spec.jump_group);
		if (ret != 0)
			goto error;
		f->jumped = 1;
		dest = p->table[f->spec.jump_group].ft;
	}
	if (f->spec.count) {
		what = "flow counter";
		ret = mlx5v_rte_flow_hw_counter_alloc(dev, &f->counter);
		if (ret != 0)
			goto error;
	}
	/* The queues read tags before the first tagged frame can come. */
	if (f->spec.flow_tag != 0)
		mark_enable(eth_dev);
	what = "flow entry";
	/*
	 * flow_async=1: everything the device could refuse is checked by now (the entry
	 * index free in its live group, the destination live), so the entry is posted
	 * without waiting; only a dead device or a device defect can still fail it, reported
	 * by entry_done() (doc/guides/nics/mlx5v.rst, "Flow rules (rte_flow)").
	 */
	if (p->async)
		ret = mlx5v_rte_flow_hw_entry_post(dev, t->ft, f->index, f->fg, &f->spec, dest,
						   f->counter, entry_done, f, &f->ticket);
	else
		ret = mlx5v_rte_flow_hw_entry(dev, t->ft, f->index, f->fg, &f->spec, dest,
					      f->counter);
	if (ret != 0)
		goto error;
	f->fte = 1;
	return 0;

error:
	flow_release(eth_dev, dev, f);
	return rte_flow_error_set(error, -ret, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL, what);
}

static int
flow_validate(struct rte_eth_dev *eth_dev, const struct rte_flow_attr *attr,
	      const struct rte_flow_item items[], const struct rte_flow_action actions[],
	      struct rte_flow_error *error)
{
	struct mlx5v_rte_flow_spec spec;

	return mlx5v_rte_flow_parse(eth_dev, attr, items, actions, &spec, error);
}

static struct rte_flow *
flow_create(struct rte_eth_dev *eth_dev, const struct rte_flow_attr *attr,
	    const struct rte_flow_item items[], const struct rte_flow_action actions[],
	    struct rte_flow_error *error)
{
	struct rte_flow *f;
	int ret;

	f = rte_zmalloc_socket("mlx5v_rte_flow", sizeof(*f), 0, eth_dev->data->numa_node);
	if (f == NULL) {
		rte_flow_error_set(error, ENOMEM, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
				   "rule memory");
		return NULL;
	}
	if (mlx5v_rte_flow_parse(eth_dev, attr, items, actions, &f->spec, error) != 0) {
		rte_free(f);
		return NULL;
	}
	poll_begin(eth_dev);
	ret = flow_apply(eth_dev, f, error);
	mlx5v_cmd_poll_end();
	if (ret != 0) {
		rte_free(f);
		return NULL;
	}
	TAILQ_INSERT_TAIL(&port_of(eth_dev)->rules, f, next);
	return f;
}

/* @return f if it is one of the port's rules, else NULL. */
static struct rte_flow *
flow_find(struct rte_eth_dev *eth_dev, const struct rte_flow *f)
{
	struct rte_flow *r;

	TAILQ_FOREACH(r, &port_of(eth_dev)->rules, next)
		if (r == f)
			return r;
	return NULL;
}

/* @return 0, or the error of the rule's posted entry (the rule is gone either way). */
static int
flow_remove(struct rte_eth_dev *eth_dev, struct rte_flow *f)
{
	struct mlx5v_dev *dev = mlx5v_ethdev_core(eth_dev);
	int broken;

	TAILQ_REMOVE(&port_of(eth_dev)->rules, f, next);
	/* Its callback must not outlive the rule; a failed entry is not deleted. */
	entry_wait(dev, f);
	broken = f->broken;
	if (dev != NULL)
		flow_release(eth_dev, dev, f);
	rte_free(f);
	return broken;
}

static int
flow_destroy(struct rte_eth_dev *eth_dev, struct rte_flow *flow, struct rte_flow_error *error)
{
	struct rte_flow *f = flow_find(eth_dev, flow);
	int ret;

	if (f == NULL)
		return rte_flow_error_set(error, ENOENT, RTE_FLOW_ERROR_TYPE_HANDLE, flow,
					  "no such rule on the port");
	poll_begin(eth_dev);
	ret = flow_remove(eth_dev, f);
	mlx5v_cmd_poll_end();
	if (ret != 0)
		return rte_flow_error_set(error, -ret, RTE_FLOW_ERROR_TYPE_HANDLE, flow,
					  "rule destroyed; its posted flow entry had failed");
	return 0;
}

static int
flow_flush(struct rte_eth_dev *eth_dev, struct rte_flow_error *error __rte_unused)
{
	struct mlx5v_rte_flow_port *p = port_of(eth_dev);

	/* Rules jumping to a group go first: they hold its table. */
	poll_begin(eth_dev);
	if (mlx5v_ethdev_core(eth_dev) != NULL)
		mlx5v_cmd_async_wait(mlx5v_ethdev_core(eth_dev), 0);
	while (!TAILQ_EMPTY(&p->rules))
		flow_remove(eth_dev, TAILQ_LAST(&p->rules, mlx5v_rte_flow_list));
	mlx5v_cmd_poll_end();
	return 0;
}

static int
flow_query(struct rte_eth_dev *eth_dev, struct rte_flow *flow,
	   const struct rte_flow_action *action, void *data, struct rte_flow_error *error)
{
	struct mlx5v_dev *dev = mlx5v_ethdev_core(eth_dev);
	struct rte_flow *f = flow_find(eth_dev, flow);
	struct rte_flow_query_count *q = data;
	uint64_t packets, bytes;
	int ret;

	if (f == NULL)
		return rte_flow_error_set(error, ENOENT, RTE_FLOW_ERROR_TYPE_HANDLE, flow,
					  "no such rule on the port");
	entry_wait(dev, f);
	if (f->broken != 0)
		return rte_flow_error_set(error, -f->broken, RTE_FLOW_ERROR_TYPE_HANDLE, flow,
					  "the rule's posted flow entry failed");
	if (action == NULL || action->type != RTE_FLOW_ACTION_TYPE_COUNT || !f->spec.count ||
	    dev == NULL)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, action,
					  "only the count action of a counting rule is queried");
	ret = mlx5v_rte_flow_hw_counter_query(dev, f->counter, &packets, &bytes);
	if (ret != 0)
		return rte_flow_error_set(error, -ret, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
					  "QUERY_FLOW_COUNTER failed");
	q->hits_set = 1;
	q->bytes_set = 1;
	q->hits = packets - f->hits_base;
	q->bytes = bytes - f->bytes_base;
	if (q->reset) {
		f->hits_base = packets;
		f->bytes_base = bytes;
	}
	return 0;
}

static int
flow_isolate(struct rte_eth_dev *eth_dev, int set, struct rte_flow_error *error)
{
	if (eth_dev->data->dev_started)
		return rte_flow_error_set(error, EBUSY, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
					  "port started: isolate before start");
	port_of(eth_dev)->isolated = !!set;
	return 0;
}

static const struct rte_flow_ops mlx5v_rte_flow_ops = {
	.validate = flow_validate,
	.create = flow_create,
	.destroy = flow_destroy,
	.flush = flow_flush,
	.query = flow_query,
	.isolate = flow_isolate,
	.dev_dump = mlx5v_rte_flow_dump,
};

int
mlx5v_rte_flow_ops_get(struct rte_eth_dev *eth_dev __rte_unused,
		       const struct rte_flow_ops **ops)
{
	*ops = &mlx5v_rte_flow_ops;
	return 0;
}

int
mlx5v_rte_flow_start(struct rte_eth_dev *eth_dev, uint32_t miss_ft)
{
	struct mlx5v_dev *dev = mlx5v_ethdev_core(eth_dev);
	struct mlx5v_rte_flow_port *p = port_of(eth_dev);
	int ret;

	if (p->rules.tqh_last == NULL)
		TAILQ_INIT(&p->rules);
	ret = mlx5v_rte_flow_hw_table(dev, 0, miss_ft, &p->table[0].ft);
	if (ret != 0)
		return ret;
	ret = mlx5v_ethdev_cmd_ft_root(dev, p->table[0].ft, 1);
	if (ret != 0) {
		mlx5v_ethdev_cmd_ft_destroy(dev, p->table[0].ft);
		p->table[0].ft = 0;
		return ret;
	}
	p->root = 1;
	return 0;
}

void
mlx5v_rte_flow_stop(struct rte_eth_dev *eth_dev)
{
	struct mlx5v_dev *dev = mlx5v_ethdev_core(eth_dev);
	struct mlx5v_rte_flow_port *p = port_of(eth_dev);
	struct mlx5v_rxq *rxq;
	unsigned int i;

	/* Without the core (gone with its device) the rules' memory alone is freed. */
	if (p->root && dev != NULL)
		mlx5v_ethdev_cmd_ft_root(dev, 0, 0);
	p->root = 0;
	if (p->rules.tqh_last != NULL)
		flow_flush(eth_dev, NULL);
	if (p->table[0].ft != 0 && dev != NULL)
		mlx5v_ethdev_cmd_ft_destroy(dev, p->table[0].ft);
	/* Without the core the rules went without their release: their groups' memory here. */
	for (i = 0; i < RTE_DIM(p->table); i++)
		mlx5v_rte_flow_layout_clear(&p->table[i]);
	memset(p->table, 0, sizeof(p->table));
	for (i = 0; i < eth_dev->data->nb_rx_queues; i++) {
		rxq = eth_dev->data->rx_queues[i];
		if (rxq != NULL)
			rxq->mark = 0;
	}
}
