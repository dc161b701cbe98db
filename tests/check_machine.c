/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The machine's state (src/machine.c): the run's deltas recomputed from
 * constructed counters, and the text summary of constructed run objects.
 * What the files of /sys and /proc say is compared with the documents in
 * tests/machine.sh.
 */
#include <config.h>

#include <check.h>
#include <json-c/json.h>
#include <math.h>
#include <string.h>

#include "check_main.h"
#include "machine.h"

static struct json_object *member(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	ck_assert_msg(json_object_object_get_ex(o, key, &v), "no member %s", key);
	return v;
}

static void number_is(struct json_object *o, const char *key, double want)
{
	struct json_object *v = member(o, key);

	ck_assert_msg(v != NULL, "%s is null", key);
	ck_assert_msg(fabs(json_object_get_double(v) - want) < 1e-9, "%s: %g, expected %g", key,
		      json_object_get_double(v), want);
}

static void null_is(struct json_object *o, const char *key)
{
	ck_assert_msg(member(o, key) == NULL, "%s is %s, expected null", key,
		      json_object_to_json_string(member(o, key)));
}

/* steal, idle and the others' CPU time as shares of all the ticks of the
 * CPUs it may use between the two reads (1000 ticks at 100 Hz: 10 s, of
 * which 670 ticks busy and 1 s this process's own); throttled periods and
 * the frequency at each end. */
START_TEST(deltas_from_counters)
{
	struct pb_machine_counters a = { true, 100, 10, 1000, 500000, 100, true, 4, 2400.0 },
				   b = { true, 400, 40, 2000, 1500000, 100, true, 7, 1800.5 };
	struct pb_machine_delta d;
	struct json_object *o = pb_machine_during(&a, &b);

	number_is(o, "steal_pct", 3.0);
	number_is(o, "idle_pct", 30.0);
	number_is(o, "others_busy_pct", 57.0);
	number_is(o, "throttled_periods", 3);
	number_is(o, "mhz_start", 2400.0);
	number_is(o, "mhz_end", 1800.5);
	json_object_put(o);
	/* this process busier than the CPUs were: the others used nothing */
	b.own_us = 100000000;
	pb_machine_delta(&a, &b, &d);
	ck_assert(d.others_pct == 0);
	/* at the least ticks that give a share, and one short */
	b.total = a.total + PB_MACHINE_MIN_TICKS;
	pb_machine_delta(&a, &b, &d);
	ck_assert(d.steal_pct >= 0);
	b.total--;
	pb_machine_delta(&a, &b, &d);
	ck_assert(d.steal_pct < 0 && d.idle_pct < 0 && d.others_pct < 0);
}
END_TEST

/* What one side lacks, no start at all, too few ticks between, or a
 * counter that went backwards (a reset) gives null, never a made-up
 * figure. */
START_TEST(deltas_unknown)
{
	struct pb_machine_counters a = { true, 100, 10, 1000, 0, 100, true, 4, 2400.0 },
				   b = { true, 400, 40, 2000, 0, 100, false, 0, -1 },
				   same = a, back = { true, 400, 5, 2000, 0, 100, true, 3, -1 };
	struct json_object *o = pb_machine_during(&a, &b);

	number_is(o, "steal_pct", 3.0);
	null_is(o, "throttled_periods");
	null_is(o, "mhz_end");
	json_object_put(o);
	o = pb_machine_during(NULL, &b);
	null_is(o, "steal_pct");
	null_is(o, "idle_pct");
	null_is(o, "others_busy_pct");
	null_is(o, "throttled_periods");
	null_is(o, "mhz_start");
	json_object_put(o);
	o = pb_machine_during(&a, &same);
	null_is(o, "steal_pct");
	number_is(o, "throttled_periods", 0);
	json_object_put(o);
	o = pb_machine_during(&a, &back);
	null_is(o, "steal_pct");
	null_is(o, "idle_pct");
	null_is(o, "throttled_periods");
	json_object_put(o);
	back = b;
	back.idle = a.idle - 1;
	o = pb_machine_during(&a, &back);
	null_is(o, "idle_pct");
	json_object_put(o);
	b.stat_ok = false;
	o = pb_machine_during(&a, &b);
	null_is(o, "steal_pct");
	json_object_put(o);
	b.stat_ok = true;
	b.tick_hz = 0;
	o = pb_machine_during(&a, &b);
	null_is(o, "others_busy_pct");
	json_object_put(o);
}
END_TEST

static const struct {
	const char *run;   /* a run object's virtualization and state */
	const char *line;  /* the summary, exactly */
} summaries[] = {
	{ "{\"virtualization\":{\"virtualized\":true,\"hypervisor\":\"kvm\",\"container\":null},"
	  "\"state\":{\"cpufreq\":null,\"cpuidle\":{\"driver\":\"haltpoll\"},"
	  "\"smt\":{\"control\":\"notsupported\"},\"clocksource\":\"tsc\","
	  "\"cgroup\":{\"cpu_limit\":null},"
	  "\"during_run\":{\"steal_pct\":0.25,\"throttled_periods\":0}}}",
	  "VM, hypervisor kvm, no cpufreq, cpuidle haltpoll, SMT notsupported, clocksource tsc, "
	  "steal 0.2%" },
	{ "{\"virtualization\":{\"virtualized\":false,\"hypervisor\":null,\"container\":\"docker\"},"
	  "\"state\":{\"cpufreq\":{\"driver\":\"intel_pstate\",\"governor\":\"powersave\"},"
	  "\"cpuidle\":null,\"smt\":{\"control\":\"on\"},\"clocksource\":\"hpet\","
	  "\"cgroup\":{\"cpu_limit\":1.5},"
	  "\"during_run\":{\"steal_pct\":null,\"throttled_periods\":12}}}",
	  "not a VM, container docker, cpufreq intel_pstate/powersave, no cpuidle, SMT on, "
	  "clocksource hpet, cgroup CPU limit 1.50, throttled 12 periods" },
	{ "{\"virtualization\":{\"virtualized\":null},"
	  "\"state\":{\"cpufreq\":{\"driver\":\"acpi-cpufreq\",\"governor\":null},"
	  "\"smt\":{\"control\":null},\"during_run\":{}}}",
	  "VM or not: not exposed, cpufreq acpi-cpufreq/?, no cpuidle" },
	{ "{}", "VM or not: not exposed, no cpufreq, no cpuidle" },
};

START_TEST(summary_line)
{
	struct json_object *run = json_tokener_parse(summaries[_i].run);
	char b[512];

	ck_assert_ptr_nonnull(run);
	pb_machine_summary(run, b, sizeof(b));
	ck_assert_str_eq(b, summaries[_i].line);
	json_object_put(run);
}
END_TEST

/* A short buffer holds the start of the line, terminated. */
START_TEST(summary_truncated)
{
	struct json_object *run = json_tokener_parse(summaries[1].run);
	char b[24];

	pb_machine_summary(run, b, sizeof(b));
	ck_assert_str_eq(b, "not a VM, container doc");
	json_object_put(run);
}
END_TEST

PB_CHECK_SUITE_MAIN("machine",
	PB_TCASE("deltas", deltas_from_counters, deltas_unknown),
	PB_TCASE_LOOP("summary", 0, summary_line, sizeof(summaries) / sizeof(summaries[0]),
		      summary_truncated))
