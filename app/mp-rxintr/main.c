/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Rx interrupts in two processes of one port. As the primary, it configures port 0 with
 * -n Rx queues, RSS and intr_conf.rxq and starts it; as a secondary it attaches to it. In
 * either, a worker lcore sleeps in rte_epoll_wait() on the Rx interrupts of -c queues from
 * -q, and receives only when an interrupt woke it (a timeout never polls), counting the
 * packets. Commands on stdin: "stats" prints the worker's counts ("stats q Q packets P wakes
 * W"),
 * "restart" (primary) stops and starts the port, "quit" ends. The primary's worker registers
 * its queue's event again after its own restart (the PMD drops the registrations at a stop,
 * as for any port); the secondary's registers once and keeps sleeping across the primary's
 * restarts (doc/guides/nics/mlx5v.rst, "Secondary processes").
 *
 * usage: dpdk-mlxv-mp-rxintr <EAL args: 2 lcores> -- [-n rx queues] [-q first] [-c count]
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_epoll.h>
#include <rte_ethdev.h>
#include <rte_interrupts.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#define MPI_PORT 0
#define MPI_MAX_RXQ 16
#define MPI_RING 256
#define MPI_MBUFS 8191
#define MPI_BURST 32
/* The worker looks at its flags this often while it sleeps. */
#define MPI_WAIT_MS 100

static uint16_t mpi_nb_rxq = 2;
static uint16_t mpi_queue;
static uint16_t mpi_count = 1;
static uint32_t mpi_quit;
/* Primary: the main lcore asks the worker to park (1) and the worker says it is parked. */
static uint32_t mpi_park;
static uint32_t mpi_parked;
static uint64_t mpi_packets;
static uint64_t mpi_wakes;

/* The worker: sleep on the queue's interrupt, receive what woke it. */
static int
mpi_worker(void *arg)
{
	int primary = rte_eal_process_type() == RTE_PROC_PRIMARY;
	struct rte_epoll_event ev[MPI_MAX_RXQ];
	struct rte_mbuf *pkts[MPI_BURST];
	int registered = 0, announced = 0, ret;
	uint16_t n, i, q;

	RTE_SET_USED(arg);
	while (!__atomic_load_n(&mpi_quit, __ATOMIC_ACQUIRE)) {
		if (primary && __atomic_load_n(&mpi_park, __ATOMIC_ACQUIRE)) {
			/* The port restarts: its registrations go, this one is made again. */
			registered = 0;
			announced = 0;
			__atomic_store_n(&mpi_parked, 1, __ATOMIC_RELEASE);
			rte_delay_us_sleep(1000);
			continue;
		}
		__atomic_store_n(&mpi_parked, 0, __ATOMIC_RELEASE);
		/* Queues registered earlier are refused again (EEXIST): each is asked once. */
		for (q = registered; q < mpi_count; q++, registered++) {
			ret = rte_eth_dev_rx_intr_ctl_q(MPI_PORT, mpi_queue + q,
							RTE_EPOLL_PER_THREAD, RTE_INTR_EVENT_ADD,
							NULL);
			if (ret != 0)
				break;
		}
		if (registered < mpi_count) {
			rte_delay_us_sleep(10000);
			continue;
		}
		if (!announced) {
			announced = 1;
			printf("sleeping on port %u queue %u\n", MPI_PORT,
			       mpi_queue + mpi_count - 1);
			fflush(stdout);
		}
		/* Refused while the primary has the port stopped: try again later. */
		for (q = 0, ret = 0; q < mpi_count && ret == 0; q++)
			ret = rte_eth_dev_rx_intr_enable(MPI_PORT, mpi_queue + q);
		if (ret != 0) {
			rte_delay_us_sleep(10000);
			continue;
		}
		n = rte_epoll_wait(RTE_EPOLL_PER_THREAD, ev, mpi_count, MPI_WAIT_MS) > 0;
		for (q = 0; q < mpi_count; q++)
			rte_eth_dev_rx_intr_disable(MPI_PORT, mpi_queue + q);
		if (!n)
			continue;
		__atomic_fetch_add(&mpi_wakes, 1, __ATOMIC_RELAXED);
		for (q = 0; q < mpi_count; q++)
			while ((n = rte_eth_rx_burst(MPI_PORT, mpi_queue + q, pkts,
						     MPI_BURST)) > 0) {
				__atomic_fetch_add(&mpi_packets, n, __ATOMIC_RELAXED);
				for (i = 0; i < n; i++)
					rte_pktmbuf_free(pkts[i]);
			}
	}
	return 0;
}

/* Primary: port 0 with its Rx queues spread by RSS, Rx interrupts on, started. */
static int
mpi_port_init(void)
{
	struct rte_eth_conf conf;
	struct rte_mempool *mp;
	uint16_t q;
	int ret;

	mp = rte_pktmbuf_pool_create("mpi_pool", MPI_MBUFS, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
				     rte_socket_id());
	if (mp == NULL)
		return -rte_errno;
	memset(&conf, 0, sizeof(conf));
	conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
	conf.rx_adv_conf.rss_conf.rss_hf = RTE_ETH_RSS_IP;
	conf.intr_conf.rxq = 1;
	ret = rte_eth_dev_configure(MPI_PORT, mpi_nb_rxq, 1, &conf);
	for (q = 0; ret == 0 && q < mpi_nb_rxq; q++)
		ret = rte_eth_rx_queue_setup(MPI_PORT, q, MPI_RING, rte_socket_id(), NULL, mp);
	if (ret == 0)
		ret = rte_eth_tx_queue_setup(MPI_PORT, 0, MPI_RING, rte_socket_id(), NULL);
	if (ret == 0)
		ret = rte_eth_promiscuous_enable(MPI_PORT);
	if (ret == 0)
		ret = rte_eth_dev_start(MPI_PORT);
	return ret;
}

/* Primary: the worker parked, the port stopped and started again, the worker let go. */
static int
mpi_restart(void)
{
	int ret;

	__atomic_store_n(&mpi_parked, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&mpi_park, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&mpi_parked, __ATOMIC_ACQUIRE))
		rte_delay_us_sleep(1000);
	ret = rte_eth_dev_stop(MPI_PORT);
	if (ret == 0)
		ret = rte_eth_dev_start(MPI_PORT);
	__atomic_store_n(&mpi_park, 0, __ATOMIC_RELEASE);
	return ret;
}

int
main(int argc, char **argv)
{
	int primary, ret, opt;
	unsigned int worker;
	char line[64];

	ret = rte_eal_init(argc, argv);
	if (ret < 0)
		rte_exit(EXIT_FAILURE, "EAL init failed\n");
	argc -= ret;
	argv += ret;
	while ((opt = getopt(argc, argv, "n:q:c:")) != -1) {
		if (opt == 'n')
			mpi_nb_rxq = (uint16_t)atoi(optarg);
		else if (opt == 'q')
			mpi_queue = (uint16_t)atoi(optarg);
		else if (opt == 'c')
			mpi_count = (uint16_t)atoi(optarg);
		else
			rte_exit(EXIT_FAILURE, "usage: -- [-n rx queues] [-q first] [-c count]\n");
	}
	if (mpi_count == 0 || mpi_count > MPI_MAX_RXQ)
		rte_exit(EXIT_FAILURE, "-c: 1 to %u queues\n", MPI_MAX_RXQ);
	primary = rte_eal_process_type() == RTE_PROC_PRIMARY;
	if (!rte_eth_dev_is_valid_port(MPI_PORT))
		rte_exit(EXIT_FAILURE, "no port %u\n", MPI_PORT);
	if (primary) {
		ret = mpi_port_init();
		if (ret != 0)
			rte_exit(EXIT_FAILURE, "port %u: %s\n", MPI_PORT, strerror(-ret));
	}
	worker = rte_get_next_lcore(-1, 1, 0);
	if (worker >= RTE_MAX_LCORE)
		rte_exit(EXIT_FAILURE, "a second lcore is needed\n");
	rte_eal_remote_launch(mpi_worker, NULL, worker);
	printf("ready\n");
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin) != NULL) {
		if (strncmp(line, "quit", 4) == 0)
			break;
		if (strncmp(line, "stats", 5) == 0) {
			printf("stats q %u packets %" PRIu64 " wakes %" PRIu64 "\n", mpi_queue,
			       __atomic_load_n(&mpi_packets, __ATOMIC_RELAXED),
			       __atomic_load_n(&mpi_wakes, __ATOMIC_RELAXED));
		} else if (primary && strncmp(line, "restart", 7) == 0) {
			ret = mpi_restart();
			printf("restart: %s\n", ret == 0 ? "done" : strerror(-ret));
		}
		fflush(stdout);
	}
	__atomic_store_n(&mpi_quit, 1, __ATOMIC_RELEASE);
	rte_eal_mp_wait_lcore();
	if (primary) {
		rte_eth_dev_stop(MPI_PORT);
		rte_eth_dev_close(MPI_PORT);
	}
	rte_eal_cleanup();
	return 0;
}
