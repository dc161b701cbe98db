/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Test helper: jsonq FILE [PATH...]
 * Exits 1 unless FILE ("-" for stdin) holds exactly one JSON document, then
 * prints the value at each PATH on its own line: `.key`, `[index]`, and a
 * trailing `#` for the length of an array or object.  Strings print raw,
 * null as "null", other values as JSON.  Exit 2 when a path is missing.
 */
#include <config.h>

#include <ctype.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *slurp(FILE *fp, size_t *len)
{
	char *buf = NULL;
	size_t cap = 0, n = 0, r;

	do {
		if (n + 4096 > cap) {
			cap = (cap + 4096) * 2;
			buf = realloc(buf, cap);
			if (!buf)
				exit(3);
		}
		r = fread(buf + n, 1, cap - n - 1, fp);
		n += r;
	} while (r > 0);
	buf[n] = '\0';
	*len = n;
	return buf;
}

static int lookup(struct json_object *o, const char *p, struct json_object **out, int *count)
{
	*count = 0;
	while (*p) {
		if (*p == '.') {
			char key[256];
			size_t k = 0;

			for (p++; *p && *p != '.' && *p != '[' && *p != '#' && k < 255; p++)
				key[k++] = *p;
			key[k] = '\0';
			if (!json_object_is_type(o, json_type_object) ||
			    !json_object_object_get_ex(o, key, &o))
				return -1;
		} else if (*p == '[') {
			long i = strtol(p + 1, (char **)&p, 10);

			if (*p++ != ']' || !json_object_is_type(o, json_type_array) ||
			    i < 0 || (size_t)i >= json_object_array_length(o))
				return -1;
			o = json_object_array_get_idx(o, (size_t)i);
		} else if (*p == '#' && !p[1]) {
			*count = 1;
			p++;
		} else {
			return -1;
		}
	}
	*out = o;
	return 0;
}

int main(int argc, char **argv)
{
	struct json_tokener *tok;
	struct json_object *doc;
	FILE *fp;
	size_t len;
	char *text;
	int rc = 0;

	if (argc < 2)
		return 2;
	fp = strcmp(argv[1], "-") ? fopen(argv[1], "r") : stdin;
	if (!fp) {
		perror(argv[1]);
		return 1;
	}
	text = slurp(fp, &len);
	tok = json_tokener_new();
	doc = json_tokener_parse_ex(tok, text, (int)len);
	if (!doc || json_tokener_get_error(tok) != json_tokener_success) {
		fprintf(stderr, "jsonq: not valid JSON\n");
		return 1;
	}
	for (size_t off = (size_t)json_tokener_get_parse_end(tok); off < len; off++)
		if (!isspace((unsigned char)text[off])) {
			fprintf(stderr, "jsonq: trailing data after the document\n");
			return 1;
		}
	for (int i = 2; i < argc; i++) {
		struct json_object *v;
		int count;

		if (lookup(doc, argv[i], &v, &count)) {
			fprintf(stderr, "jsonq: no %s\n", argv[i]);
			rc = 2;
			continue;
		}
		if (count)
			printf("%zu\n", json_object_is_type(v, json_type_array)
			       ? json_object_array_length(v)
			       : (size_t)json_object_object_length(v));
		else if (!v)
			puts("null");
		else if (json_object_is_type(v, json_type_string))
			puts(json_object_get_string(v));
		else
			puts(json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN));
	}
	json_object_put(doc);
	json_tokener_free(tok);
	free(text);
	return rc;
}
