/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Conformance checks FIFO-*: see pipebench(1) CHECKS. */
#include <config.h>

#include <stddef.h>

#include "conformance.h"

const struct pb_check pb_checks_fifo[] = {
	{ .id = NULL },
};
