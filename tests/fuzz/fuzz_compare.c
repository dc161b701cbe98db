/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target for compare's JSON loader and matcher (src/compare.c):
 * any byte string is loaded as a result file; whatever loads is compared
 * with itself, which must find no regression, no coverage lost and nothing
 * incomparable.
 */
#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <json-c/json.h>

#include "compare.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct json_object *doc = NULL;
	struct pb_cmp_result res;
	char path[64], err[256], diff[1024];
	int fd = memfd_create("fuzz", MFD_CLOEXEC);

	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (pb_cmp_load(path, &doc, err, sizeof(err)) == 0) {
		if (pb_cmp_compatible(doc, doc, err, sizeof(err)) == 0) {
			if (pb_cmp_params_diff(doc, doc, diff, sizeof(diff)) != 0)
				abort();
			struct pb_cmp_opts opts = { .threshold_pct = 5.0 };

			if (pb_cmp_compare(doc, doc, &opts, &res) == 0) {
				if (res.regressions != 0 || res.nlost != 0 || res.not_comparable != 0)
					abort();
				pb_cmp_result_free(&res);
			}
		}
		json_object_put(doc);
	}
	close(fd);
	return 0;
}
