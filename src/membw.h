/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Memory-copy bandwidth: the ceiling for pipe throughput.  Each byte sent
 * through a pipe is copied twice (writer's buffer into the pipe's page, then
 * into the reader's buffer), so a pipe can move at most half the rate of
 * memcpy on the same machine.
 */
#ifndef PB_MEMBW_H
#define PB_MEMBW_H

#include <stddef.h>
#include <stdint.h>

#include "stats.h"

/*
 * Copy CHUNK-byte blocks round a SPAN-byte working set for at least MIN_NS
 * per repetition, REPEAT times; stats of bytes per second.  A working set
 * the size of the pipe buffer (64 KiB) measures what the pipe copies see.
 * Returns 0 or -errno.
 */
int pb_membw_measure(size_t chunk, size_t span, uint64_t min_ns, unsigned repeat,
		     struct pb_stats *bytes_per_s);

#endif
