/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <json-c/json.h>
#include <string.h>

#include "cli.h"
#include "format.h"
#include "kcidb.h"
#include "lava.h"
#include "output.h"

static bool lava_offered(const struct pb_cmd *cmd)
{
	return cmd->lava_cases && pb_format_find(cmd, "json");
}

const struct pb_transform pb_transforms[] = {
	{ .name = "lava", .from = "json", .offered = lava_offered, .apply = pb_lava_doc },
	{ .name = "kcidb", .from = "json", .offered = lava_offered, .apply = pb_kcidb_doc,
	  .opts = pb_kcidb_opts, .params = &pb_kcidb_params,
	  .params_size = sizeof(pb_kcidb_params), .check = pb_kcidb_check },
	{ .name = NULL },
};

const char *const *pb_format_words(const struct pb_cmd *cmd)
{
	static const char *words[PB_FORMAT_MAX_WORDS + 1];
	static const struct pb_cmd *words_of;
	size_t n = 0;

	if (words_of == cmd)
		return words;
	for (const struct pb_format *f = cmd->formats; f && f->name && n < PB_FORMAT_MAX_WORDS; f++)
		words[n++] = f->name;
	for (const struct pb_transform *t = pb_transforms; t->name && n < PB_FORMAT_MAX_WORDS; t++)
		if (t->offered(cmd))
			words[n++] = t->name;
	words[n] = NULL;
	words_of = cmd;
	return words;
}

const struct pb_format *pb_format_find(const struct pb_cmd *cmd, const char *name)
{
	for (const struct pb_format *f = cmd->formats; f && f->name; f++)
		if (strcmp(f->name, name) == 0)
			return f;
	return NULL;
}

const struct pb_transform *pb_transform_find(const struct pb_cmd *cmd, const char *name)
{
	for (const struct pb_transform *t = pb_transforms; t->name; t++)
		if (strcmp(t->name, name) == 0 && t->offered(cmd))
			return t;
	return NULL;
}

/* ---- --format lava ---------------------------------------------------- */

/* One test set SET for DOC: the cases its command makes of it, then exit-status. */
static void lava_set(struct pb_lava *l, FILE *fp, const char *set, struct json_object *doc)
{
	const char *name = pb_json_str(doc, "command");
	const struct pb_cmd *cmd = name ? pb_cmd_find(name) : NULL;

	pb_lava_begin(l, fp, set);
	l->doc = doc;
	if (cmd && cmd->lava_cases)
		cmd->lava_cases(l, doc);
	pb_lava_item(l, NULL);
	pb_lava_exit(l, doc);
	pb_lava_end(l);
}

/*
 * A document with parts (report) first gets one set per part, named by the
 * part (a part that left no document: exit-status unknown); then the
 * document's own set, named after its command.
 */
void pb_cases_doc(struct pb_lava *l, struct json_object *doc, FILE *fp)
{
	struct json_object *parts = pb_json_get(doc, "parts");
	const char *cmd = pb_json_str(doc, "command");

	if (json_object_is_type(parts, json_type_object)) {
		json_object_object_foreach(parts, name, part) {
			if (json_object_is_type(part, json_type_object)) {
				lava_set(l, fp, name, part);
				continue;
			}
			pb_lava_begin(l, fp, name);
			l->doc = doc;
			pb_lava_exit(l, NULL);
			pb_lava_end(l);
		}
	}
	lava_set(l, fp, cmd ? cmd : "pipebench", doc);
}

void pb_lava_doc(struct json_object *doc, FILE *fp)
{
	struct pb_lava l = { .fp = NULL, .open = false };

	pb_cases_doc(&l, doc, fp);
}
