/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file The wire's TAP backend: frames to and from a Linux TAP interface. */

#include <errno.h>
#include <fcntl.h>
#include <linux/if_tun.h>
#include <net/if.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <rte_errno.h>

#include "hwsim_log.h"
#include "hwsim_thread.h"
#include "hwsim_wire_priv.h"

/* Frames read per pass before the engine loop checks for stop again. */
#define HWSIM_WIRE_TAP_BURST 64

struct hwsim_wire_tap {
	struct hwsim_wire_port *port;
	int fd;                 /* the TAP queue */
	int stop_fd;            /* eventfd: readable once the port is being destroyed */
	int created;            /* 1 if this port created the interface */
	int broken;             /* the TAP failed: stop reading it (reader thread only) */
	struct hwsim_engine *reader;
	uint8_t buf[HWSIM_WIRE_FRAME_MAX + 1]; /* one byte more, to see over-long frames */
};

/*
 * Attach fd to the TAP: create it if missing (IFF_TUN_EXCL fails with EBUSY when the
 * name exists), else attach to the existing one. Without IFF_TUN_PERSIST a TAP we
 * create disappears when its last fd closes, wherever the kernel has moved it.
 * @return 1 (created), 0 (attached) or -errno with one log line.
 */
static int
hwsim_wire_tap_attach(const char *who, int fd, const char *ifname)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	/* ifr_flags is a short, IFF_TUN_EXCL (0x8000) its sign bit: keep the bits as they are. */
	ifr.ifr_flags = (short)(uint16_t)(IFF_TAP | IFF_NO_PI | IFF_TUN_EXCL);
	if (ioctl(fd, TUNSETIFF, &ifr) == 0)
		return 1;
	if (errno != EBUSY) {
		HWSIM_LOG(ERR, "wire %s: cannot create TAP %s: %s", who, ifname, strerror(errno));
		return -errno;
	}
	ifr.ifr_flags = IFF_TAP | IFF_NO_PI;
	if (ioctl(fd, TUNSETIFF, &ifr) == 0)
		return 0;
	HWSIM_LOG(ERR, "wire %s: %s exists but cannot be used as a TAP: %s", who, ifname,
		  errno == EINVAL ? "not a TAP interface" :
		  errno == EBUSY ? "in use" : strerror(errno));
	return -errno;
}

/*
 * One pass of the reader engine: block in poll() until the kernel sends frames or
 * the port is destroyed, so an idle TAP costs no CPU. @return frames read.
 */
static int
hwsim_wire_tap_poll(void *arg)
{
	struct hwsim_wire_tap *tap = arg;
	struct hwsim_wire_port *port = tap->port;
	struct pollfd pfd[2];
	ssize_t n;
	int done;

	pfd[0].fd = tap->stop_fd;
	pfd[0].events = POLLIN;
	/* poll() skips a negative fd: a broken TAP leaves only the stop fd. */
	pfd[1].fd = tap->broken ? -1 : tap->fd;
	pfd[1].events = POLLIN;
	if (poll(pfd, 2, -1) < 0 || pfd[0].revents != 0)
		return 0;
	for (done = 0; done < HWSIM_WIRE_TAP_BURST; done++) {
		n = read(tap->fd, tap->buf, sizeof(tap->buf));
		if (n <= 0) {
			if (n < 0 && (errno == EAGAIN || errno == EINTR))
				break;
			/* E.g. the interface was deleted under us: the cable is cut. */
			HWSIM_LOG(ERR, "wire %s: TAP read: %s; no more frames from the kernel",
				  port->name, n == 0 ? "end of file" : strerror(errno));
			tap->broken = 1;
			break;
		}
		if (n < HWSIM_WIRE_FRAME_MIN || n > HWSIM_WIRE_FRAME_MAX ||
		    !hwsim_wire_link_up(port)) {
			hwsim_wire_count(&port->stats.rx_dropped, 1);
			continue;
		}
		hwsim_wire_deliver(port, tap->buf, (uint32_t)n, 0);
	}
	return done;
}

int
hwsim_wire_tap_open(struct hwsim_wire_port *port)
{
	struct hwsim_wire_tap *tap;
	char tname[32];
	int ret;

	/* libc calloc: process-local state, like the port itself. */
	tap = calloc(1, sizeof(*tap));
	if (tap == NULL) {
		HWSIM_LOG(ERR, "wire %s: no memory for the TAP", port->name);
		return -ENOMEM;
	}
	tap->port = port;
	tap->stop_fd = -1;
	tap->fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (tap->fd < 0) {
		ret = -errno;
		HWSIM_LOG(ERR, "wire %s: cannot open /dev/net/tun: %s", port->name,
			  strerror(errno));
		goto err_free;
	}
	ret = hwsim_wire_tap_attach(port->name, tap->fd, port->spec.ifname);
	if (ret < 0)
		goto err_close_fd;
	tap->created = ret;
	tap->stop_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (tap->stop_fd < 0) {
		ret = -errno;
		HWSIM_LOG(ERR, "wire %s: cannot create an eventfd: %s", port->name,
			  strerror(errno));
		goto err_close_fd;
	}
	snprintf(tname, sizeof(tname), "hwsim-tap-%s", port->spec.ifname);
	tap->reader = hwsim_engine_create(tname, hwsim_wire_tap_poll, tap);
	if (tap->reader == NULL) {
		ret = -rte_errno;
		HWSIM_LOG(ERR, "wire %s: cannot create the TAP reader", port->name);
		goto err_close_stop;
	}
	ret = hwsim_engine_start(tap->reader);
	if (ret != 0) {
		HWSIM_LOG(ERR, "wire %s: cannot start the TAP reader", port->name);
		goto err_destroy_reader;
	}
	port->tap = tap;
	HWSIM_LOG(INFO, "wire %s: TAP %s %s", port->name, port->spec.ifname,
		  tap->created ? "created" : "attached");
	return 0;

err_destroy_reader:
	hwsim_engine_destroy(tap->reader);
err_close_stop:
	close(tap->stop_fd);
err_close_fd:
	/* Closing the only fd of a TAP we created removes it again. */
	close(tap->fd);
err_free:
	free(tap);
	return ret;
}

void
hwsim_wire_tap_close(struct hwsim_wire_port *port)
{
	struct hwsim_wire_tap *tap = port->tap;
	uint64_t one = 1;

	if (tap == NULL)
		return;
	/* The stop fd stays readable, so the reader's poll() returns until it is joined. */
	if (write(tap->stop_fd, &one, sizeof(one)) < 0)
		HWSIM_LOG(ERR, "wire %s: cannot wake the TAP reader: %s", port->name,
			  strerror(errno));
	hwsim_engine_destroy(tap->reader);
	close(tap->stop_fd);
	close(tap->fd);
	HWSIM_LOG(INFO, "wire %s: TAP %s %s", port->name, port->spec.ifname,
		  tap->created ? "removed" : "released");
	port->tap = NULL;
	free(tap);
}

/* Non-blocking: a full kernel queue loses the frame, as a congested link would. */
int
hwsim_wire_tap_write(struct hwsim_wire_port *port, const void *frame, uint32_t len)
{
	ssize_t n = write(port->tap->fd, frame, len);

	if (n == (ssize_t)len)
		return 0;
	hwsim_wire_count(&port->stats.tx_errors, 1);
	return -EIO;
}
