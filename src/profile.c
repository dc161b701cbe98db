/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <sched.h>
#include <fnmatch.h>
#include <json-c/json.h>
#include <math.h>
#include <linux/perf_event.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "output.h"
#include "profile.h"

const char *const pb_prof_cat_names[] = {
	"timestamps", "copy", "locking", "syscall", "scheduling", "memory", "security", "pipe",
	"user", "other", NULL
};

const char *const pb_prof_cat_words[] = {
	"timestamp updates", "copying", "locking", "syscall entry/exit and VFS",
	"wake-ups and scheduling", "memory and its accounting", "security hooks", "pipe core",
	"user space", "other", NULL
};

/*
 * Function name patterns to categories, the first match deciding.  Checked
 * against the profiles of pipe loops on Linux 6.1 and 6.18 (x86_64): the
 * functions that took samples there are named by a rule, or are "other"
 * on purpose.  Timestamps come first: file_update_time and touch_atime are
 * what 6.15 stopped calling on anonymous pipes.
 */
const struct pb_prof_rule pb_prof_category_rules[] = {
	/* timestamp updates */
	{ "touch_atime", PB_PROF_TIMESTAMPS }, { "atime_needs_update", PB_PROF_TIMESTAMPS },
	{ "file_update_time*", PB_PROF_TIMESTAMPS }, { "file_modified*", PB_PROF_TIMESTAMPS },
	{ "current_time", PB_PROF_TIMESTAMPS }, { "inode_needs_update_time*", PB_PROF_TIMESTAMPS },
	{ "generic_update_time", PB_PROF_TIMESTAMPS }, { "inode_update_time*", PB_PROF_TIMESTAMPS },
	{ "inode_update_timestamps", PB_PROF_TIMESTAMPS },
	{ "inode_set_ctime_current", PB_PROF_TIMESTAMPS },
	{ "ktime_get_coarse_real_ts64*", PB_PROF_TIMESTAMPS },
	{ "coarse_ctime", PB_PROF_TIMESTAMPS }, { "timestamp_truncate", PB_PROF_TIMESTAMPS },
	{ "__mark_inode_dirty", PB_PROF_TIMESTAMPS }, { "*_dirty_inode", PB_PROF_TIMESTAMPS },
	/* security hooks */
	{ "security_*", PB_PROF_SECURITY }, { "apparmor_*", PB_PROF_SECURITY },
	{ "aa_*", PB_PROF_SECURITY }, { "selinux_*", PB_PROF_SECURITY },
	{ "avc_*", PB_PROF_SECURITY }, { "bpf_lsm_*", PB_PROF_SECURITY },
	{ "smack_*", PB_PROF_SECURITY }, { "tomoyo_*", PB_PROF_SECURITY },
	/* copying */
	{ "*copy_to_iter*", PB_PROF_COPY }, { "*copy_from_iter*", PB_PROF_COPY },
	{ "copy_page_*", PB_PROF_COPY }, { "copyin", PB_PROF_COPY }, { "copyout", PB_PROF_COPY },
	{ "*memcpy*", PB_PROF_COPY }, { "*memmove*", PB_PROF_COPY },
	{ "rep_movs_alternative", PB_PROF_COPY }, { "*copy_user*", PB_PROF_COPY },
	{ "_copy_*", PB_PROF_COPY }, { "clear_user*", PB_PROF_COPY },
	{ "copy_splice_read", PB_PROF_COPY },
	/* locking */
	{ "mutex_*", PB_PROF_LOCKING }, { "__mutex_*", PB_PROF_LOCKING },
	{ "*_raw_spin_*", PB_PROF_LOCKING }, { "*queued_spin*", PB_PROF_LOCKING },
	{ "*spin_lock*", PB_PROF_LOCKING }, { "*spin_unlock*", PB_PROF_LOCKING },
	{ "osq_*", PB_PROF_LOCKING }, { "*rwsem*", PB_PROF_LOCKING },
	{ "down_read*", PB_PROF_LOCKING }, { "up_read", PB_PROF_LOCKING },
	{ "down_write*", PB_PROF_LOCKING }, { "up_write", PB_PROF_LOCKING },
	/* wake-ups and scheduling */
	{ "*wake_up*", PB_PROF_SCHED }, { "try_to_wake_up", PB_PROF_SCHED },
	{ "ttwu_*", PB_PROF_SCHED }, { "*schedule*", PB_PROF_SCHED },
	{ "pick_next_*", PB_PROF_SCHED }, { "pick_task*", PB_PROF_SCHED },
	{ "enqueue_*", PB_PROF_SCHED }, { "dequeue_*", PB_PROF_SCHED },
	{ "update_curr*", PB_PROF_SCHED }, { "*update_load_avg*", PB_PROF_SCHED },
	{ "finish_task_switch*", PB_PROF_SCHED }, { "prepare_to_wait*", PB_PROF_SCHED },
	{ "finish_wait", PB_PROF_SCHED }, { "*wake_function", PB_PROF_SCHED },
	{ "select_task_rq*", PB_PROF_SCHED }, { "__switch_to*", PB_PROF_SCHED },
	{ "switch_mm*", PB_PROF_SCHED }, { "psi_*", PB_PROF_SCHED },
	{ "set_next_*", PB_PROF_SCHED }, { "put_prev_*", PB_PROF_SCHED },
	{ "sched_*", PB_PROF_SCHED }, { "*_sched_*", PB_PROF_SCHED },
	{ "update_cfs_*", PB_PROF_SCHED }, { "reweight_*", PB_PROF_SCHED },
	{ "check_preempt*", PB_PROF_SCHED }, { "wakeup_preempt*", PB_PROF_SCHED },
	{ "resched_*", PB_PROF_SCHED }, { "*idle_cpu", PB_PROF_SCHED },
	{ "cpuacct_*", PB_PROF_SCHED }, { "update_rq_clock*", PB_PROF_SCHED },
	{ "pick_eevdf", PB_PROF_SCHED }, { "*yield*", PB_PROF_SCHED },
	/* memory and its accounting */
	{ "*alloc_pages*", PB_PROF_MEMORY }, { "*free_pages*", PB_PROF_MEMORY },
	{ "free_unref_*", PB_PROF_MEMORY }, { "get_page_from_freelist", PB_PROF_MEMORY },
	{ "rmqueue*", PB_PROF_MEMORY }, { "*memcg*", PB_PROF_MEMORY },
	{ "obj_cgroup_*", PB_PROF_MEMORY }, { "page_counter_*", PB_PROF_MEMORY },
	{ "kmem_cache_*", PB_PROF_MEMORY }, { "*kmalloc*", PB_PROF_MEMORY },
	{ "kfree*", PB_PROF_MEMORY }, { "*lruvec*", PB_PROF_MEMORY },
	{ "__free_one_page", PB_PROF_MEMORY }, { "post_alloc_hook", PB_PROF_MEMORY },
	{ "prep_new_page", PB_PROF_MEMORY }, { "clear_page*", PB_PROF_MEMORY },
	{ "mod_node_page_state", PB_PROF_MEMORY }, { "*folio_alloc*", PB_PROF_MEMORY },
	{ "__rmqueue*", PB_PROF_MEMORY }, { "slab_*", PB_PROF_MEMORY },
	{ "___slab_*", PB_PROF_MEMORY }, { "__slab_*", PB_PROF_MEMORY },
	/* pipe core: pipes, FIFOs, splice */
	{ "pipe_*", PB_PROF_PIPE }, { "anon_pipe_*", PB_PROF_PIPE }, { "fifo_*", PB_PROF_PIPE },
	{ "generic_pipe_buf_*", PB_PROF_PIPE }, { "*pipe_buf*", PB_PROF_PIPE },
	{ "*splice*", PB_PROF_PIPE }, { "*vmsplice*", PB_PROF_PIPE },
	{ "iter_to_pipe", PB_PROF_PIPE }, { "add_to_pipe", PB_PROF_PIPE },
	{ "*_pipe_*", PB_PROF_PIPE },
	/* syscall entry/exit and VFS */
	{ "do_syscall_64", PB_PROF_SYSCALL }, { "entry_SYSCALL*", PB_PROF_SYSCALL },
	{ "*syscall_exit*", PB_PROF_SYSCALL }, { "*syscall_enter*", PB_PROF_SYSCALL },
	{ "syscall_return*", PB_PROF_SYSCALL }, { "*exit_to_user_mode*", PB_PROF_SYSCALL },
	{ "__x64_sys_*", PB_PROF_SYSCALL }, { "__arm64_sys_*", PB_PROF_SYSCALL },
	{ "x64_sys_call", PB_PROF_SYSCALL }, { "__do_sys_*", PB_PROF_SYSCALL },
	{ "__se_sys_*", PB_PROF_SYSCALL }, { "ksys_*", PB_PROF_SYSCALL },
	{ "*fdget*", PB_PROF_SYSCALL }, { "*fget*", PB_PROF_SYSCALL },
	{ "fput*", PB_PROF_SYSCALL }, { "rw_verify_area", PB_PROF_SYSCALL },
	{ "vfs_read", PB_PROF_SYSCALL }, { "vfs_write", PB_PROF_SYSCALL },
	{ "vfs_readv", PB_PROF_SYSCALL }, { "vfs_writev", PB_PROF_SYSCALL },
	{ "new_sync_*", PB_PROF_SYSCALL }, { "do_iter_*", PB_PROF_SYSCALL },
	{ "*import_iovec*", PB_PROF_SYSCALL }, { "import_single_range", PB_PROF_SYSCALL },
	{ "import_ubuf", PB_PROF_SYSCALL }, { "iov_iter_init", PB_PROF_SYSCALL },
	{ "srso_*", PB_PROF_SYSCALL }, { "entry_*", PB_PROF_SYSCALL },
	{ "*fsnotify*", PB_PROF_SYSCALL }, { "syscall_*", PB_PROF_SYSCALL },
	{ "__fsnotify_parent", PB_PROF_SYSCALL }, { "do_poll*", PB_PROF_SYSCALL },
	{ "do_sys_poll", PB_PROF_SYSCALL }, { "*epoll*", PB_PROF_SYSCALL },
	{ NULL, PB_PROF_OTHER }
};

enum pb_prof_cat pb_prof_categorize(const char *name)
{
	for (const struct pb_prof_rule *r = pb_prof_category_rules; r->pattern; r++)
		if (fnmatch(r->pattern, name, 0) == 0)
			return r->cat;
	return PB_PROF_OTHER;
}

/* ------------------------------------------------------------ sampling */

/* 2 MiB with 4 KiB pages: 131072 samples of 16 bytes, 131 s of CPU time at
 * 1 kHz between drains; halved where the locked-memory limit says so */
#define RING_PAGES 512

static int paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
	int v = -100;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -100;
		fclose(f);
	}
	return v;
}

static void refusal(int e, char *why, size_t len, const char *what)
{
	int pv = paranoid();
	char pz[48] = "";

	if (pv != -100)
		snprintf(pz, sizeof(pz), "perf_event_paranoid %d; ", pv);
	if (e == EACCES || e == EPERM)
		snprintf(why, len, "%s refused: %s (%sunprivileged, or a seccomp filter in a "
			 "container)", what, strerror(e), pz);
	else if (e == ENOSYS)
		snprintf(why, len, "%s: no perf events in this kernel (CONFIG_PERF_EVENTS) or a "
			 "seccomp filter refuses them", what);
	else
		snprintf(why, len, "%s: %s", what, strerror(e));
}

static int open_event(uint64_t period_ns, bool user_only, int cpu)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.size = sizeof(a);
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.sample_period = period_ns;
	/* on a CPU every task's samples come: the TID says whose */
	a.sample_type = PERF_SAMPLE_IP | (cpu >= 0 ? PERF_SAMPLE_TID : 0);
	a.disabled = 1;
	a.exclude_hv = 1;
	a.exclude_kernel = user_only;
	return (int)syscall(SYS_perf_event_open, &a, cpu >= 0 ? -1 : 0, cpu, -1,
			    PERF_FLAG_FD_CLOEXEC);
}

/* The ring of event FD, the largest the locked-memory limit allows. */
static int map_ring(struct pb_prof_ring *r, int fd)
{
	long page = sysconf(_SC_PAGESIZE);

	r->fd = fd;
	for (int pages = RING_PAGES; pages >= 8; pages /= 2) {
		r->len = (size_t)(pages + 1) * (size_t)page;
		r->base = mmap(NULL, r->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (r->base != MAP_FAILED)
			return 0;
	}
	r->base = NULL;
	return -errno;
}

static void init(struct pb_prof *p, uint64_t period_ns, char *why, size_t len)
{
	memset(p, 0, sizeof(*p));
	p->period_ns = period_ns;
	if (why && len)
		why[0] = '\0';
}

int pb_prof_open(struct pb_prof *p, uint64_t period_ns, char *why, size_t len)
{
	int fd, e;

	init(p, period_ns, why, len);
	fd = open_event(period_ns, false, -1);
	if (fd < 0 && (errno == EACCES || errno == EPERM)) {
		e = errno;
		fd = open_event(period_ns, true, -1);
		if (fd >= 0) {
			p->user_only = true;
			refusal(e, why, len, "kernel samples");
		} else {
			errno = e;
		}
	}
	if (fd < 0) {
		e = errno;
		refusal(e, why, len, "perf_event_open (cpu-clock)");
		return -e;
	}
	p->ring = calloc(1, sizeof(*p->ring));
	if (!p->ring) {
		close(fd);
		return -ENOMEM;
	}
	p->nring = 1;
	e = map_ring(&p->ring[0], fd);
	if (e) {
		snprintf(why, len, "mmap of the sample buffer: %s (perf_event_mlock_kb, "
			 "RLIMIT_MEMLOCK)", strerror(-e));
		pb_prof_close(p);
		return e;
	}
	return 0;
}

int pb_prof_open_cpus(struct pb_prof *p, uint64_t period_ns, const cpu_set_t *cpus, char *why,
		      size_t len)
{
	int n = CPU_COUNT(cpus), e = 0;

	init(p, period_ns, why, len);
	p->per_cpu = true;
	p->ring = calloc(n ? (size_t)n : 1, sizeof(*p->ring));
	if (!p->ring)
		return -ENOMEM;
	for (int c = 0; c < CPU_SETSIZE && !e; c++) {
		int fd;

		if (!CPU_ISSET(c, cpus))
			continue;
		fd = open_event(period_ns, false, c);
		if (fd < 0) {
			e = -errno;
			refusal(-e, why, len, "perf_event_open on each CPU (cpu-clock)");
			break;
		}
		e = map_ring(&p->ring[p->nring], fd);
		p->nring++;
		if (e)
			snprintf(why, len, "mmap of the sample buffers: %s (perf_event_mlock_kb, "
				 "RLIMIT_MEMLOCK)", strerror(-e));
	}
	if (e)
		pb_prof_close(p);
	return e;
}

int pb_prof_filter(struct pb_prof *p, pid_t pid)
{
	if (p->npids == p->cap) {
		int cap = p->cap ? 2 * p->cap : 8;
		pid_t *n = realloc(p->pids, (size_t)cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		p->pids = n;
		p->cap = cap;
	}
	p->pids[p->npids++] = pid;
	return 0;
}

void pb_prof_filter_reset(struct pb_prof *p)
{
	p->npids = 0;
}

void pb_prof_enable(struct pb_prof *p)
{
	for (int i = 0; p && i < p->nring; i++)
		ioctl(p->ring[i].fd, PERF_EVENT_IOC_ENABLE, 0);
}

void pb_prof_disable(struct pb_prof *p)
{
	for (int i = 0; p && i < p->nring; i++)
		ioctl(p->ring[i].fd, PERF_EVENT_IOC_DISABLE, 0);
}

/* N samples at IP in T's table (not its totals). */
static void table_add(struct pb_prof_ips *t, uint64_t ip, bool kernel, uint64_t n)
{
	for (uint32_t i = 0; i < t->n; i++)
		if (t->e[i].ip == ip && t->e[i].kernel == kernel) {
			t->e[i].count += n;
			return;
		}
	if (t->n == PB_PROF_MAX_IPS) {
		/* a user sample is counted as such all the same */
		if (kernel)
			t->overflow += n;
		return;
	}
	t->e[t->n++] = (struct pb_prof_ip){ ip, n, kernel };
}

static void add_ip(struct pb_prof_ips *t, uint64_t ip, bool kernel, uint64_t n)
{
	t->samples += n;
	if (kernel)
		t->kernel += n;
	else
		t->user += n;
	table_add(t, ip, kernel, n);
}

/* LEN bytes at offset OFF of a ring of SIZE bytes (a power of two). */
static void ring_copy(void *dst, const char *ring, uint64_t size, uint64_t off, size_t len)
{
	size_t at = (size_t)(off & (size - 1)), first = len;

	if (at + len > size)
		first = (size_t)(size - at);
	memcpy(dst, ring + at, first);
	if (first < len)
		memcpy((char *)dst + first, ring, len - first);
}

/* Whether a sample of process PID counts (per CPU: one of P's processes). */
static bool wanted(const struct pb_prof *p, uint32_t pid)
{
	if (!p->per_cpu)
		return true;
	for (int i = 0; i < p->npids; i++)
		if ((uint32_t)p->pids[i] == pid)
			return true;
	return false;
}

static void drain_ring(const struct pb_prof *p, struct pb_prof_ring *r, struct pb_prof_ips *into)
{
	struct perf_event_mmap_page *m = r->base;
	size_t page = (size_t)sysconf(_SC_PAGESIZE), need = p->per_cpu ? 16 : 8;
	const char *ring = (const char *)r->base + (m->data_offset ? m->data_offset : page);
	uint64_t size = m->data_size ? m->data_size : r->len - page;
	uint64_t head = __atomic_load_n(&m->data_head, __ATOMIC_ACQUIRE), tail = m->data_tail;

	while (tail < head) {
		struct perf_event_header h;

		ring_copy(&h, ring, size, tail, sizeof(h));
		if (h.size < sizeof(h))
			break;
		if (into && h.type == PERF_RECORD_SAMPLE && h.size >= sizeof(h) + need) {
			uint64_t v[2] = { 0, 0 };
			unsigned mode = h.misc & PERF_RECORD_MISC_CPUMODE_MASK;

			ring_copy(v, ring, size, tail + sizeof(h), need);
			if (wanted(p, (uint32_t)v[1]))
				add_ip(into, v[0], mode == PERF_RECORD_MISC_KERNEL ||
						   mode == PERF_RECORD_MISC_GUEST_KERNEL, 1);
		} else if (into && h.type == PERF_RECORD_LOST && h.size >= sizeof(h) + 16) {
			uint64_t lost[2];

			/* per CPU, not known to be ours: counted all the same */
			ring_copy(lost, ring, size, tail + sizeof(h), sizeof(lost));
			into->lost += lost[1];
		}
		tail += h.size;
	}
	__atomic_store_n(&m->data_tail, tail, __ATOMIC_RELEASE);
}

void pb_prof_drain(struct pb_prof *p, struct pb_prof_ips *into)
{
	for (int i = 0; p && i < p->nring; i++)
		if (p->ring[i].base)
			drain_ring(p, &p->ring[i], into);
}

void pb_prof_close(struct pb_prof *p)
{
	if (!p)
		return;
	for (int i = 0; i < p->nring; i++) {
		if (p->ring[i].base)
			munmap(p->ring[i].base, p->ring[i].len);
		if (p->ring[i].fd >= 0)
			close(p->ring[i].fd);
	}
	free(p->ring);
	free(p->pids);
	p->ring = NULL;
	p->pids = NULL;
	p->nring = p->npids = p->cap = 0;
}

void pb_prof_merge(struct pb_prof_ips *sum, const struct pb_prof_ips *a)
{
	for (uint32_t i = 0; i < a->n; i++)
		table_add(sum, a->e[i].ip, a->e[i].kernel, a->e[i].count);
	sum->samples += a->samples;
	sum->kernel += a->kernel;
	sum->user += a->user;
	sum->lost += a->lost;
	sum->overflow += a->overflow;
}

/* ------------------------------------------------------------ symbols */

struct sym {
	uint64_t addr;
	uint32_t name;              /* offset in names */
};

struct pb_prof_syms {
	struct sym *v;
	size_t n;
	char *names;
	size_t nlen;
};
_Static_assert(offsetof(struct sym, addr) == 0, "by_addr, at_or_below: address first");

/* Symbol tables (struct sym, struct usym) begin each entry with its
 * address: one order and one search serve both. */
static int by_addr(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The last of the N entries (STRIDE bytes each, sorted by their leading
 * address) at or below ADDR, or -1. */
static ssize_t at_or_below(const void *v, size_t n, size_t stride, uint64_t addr)
{
	size_t lo = 0, hi = n;

#define ADDR_OF(i) (*(const uint64_t *)((const char *)v + (i) * stride))
	if (!n || addr < ADDR_OF(0))
		return -1;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (ADDR_OF(mid) <= addr)
			lo = mid;
		else
			hi = mid;
	}
#undef ADDR_OF
	return (ssize_t)lo;
}

int pb_prof_syms_load(struct pb_prof_syms **out, const char *path, char *why, size_t len)
{
	struct pb_prof_syms *s = calloc(1, sizeof(*s));
	size_t cap = 0, ncap = 0;
	char line[512];
	bool nonzero = false;
	FILE *f;
	int e = 0;

	*out = s;
	if (!s)
		return -ENOMEM;
	f = fopen(path ? path : "/proc/kallsyms", "re");
	if (!f) {
		e = errno;
		snprintf(why, len, "%s: %s", path ? path : "/proc/kallsyms", strerror(e));
		return -e;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long long a;
		char type, name[256];
		size_t nl;

		if (sscanf(line, "%llx %c %255s", &a, &type, name) != 3)
			continue;
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		nonzero |= a != 0;
		if (s->n == cap) {
			struct sym *v = realloc(s->v, (cap = cap ? 2 * cap : 65536) * sizeof(*v));

			if (!v) {
				e = ENOMEM;
				break;
			}
			s->v = v;
		}
		nl = strlen(name) + 1;
		if (s->nlen + nl > ncap) {
			char *nn = realloc(s->names, ncap = ncap ? 2 * ncap : 1u << 20);

			if (!nn) {
				e = ENOMEM;
				break;
			}
			s->names = nn;
		}
		memcpy(s->names + s->nlen, name, nl);
		s->v[s->n++] = (struct sym){ a, (uint32_t)s->nlen };
		s->nlen += nl;
	}
	fclose(f);
	if (!e && !nonzero) {
		FILE *k = fopen("/proc/sys/kernel/kptr_restrict", "re");
		int kr = -1;

		if (k) {
			if (fscanf(k, "%d", &kr) != 1)
				kr = -1;
			fclose(k);
		}
		s->n = 0;
		snprintf(why, len, "kernel symbols hidden: /proc/kallsyms shows no addresses "
			 "(kptr_restrict %d, or not root)", kr);
		return -EPERM;
	}
	if (e) {
		s->n = 0;
		snprintf(why, len, "kernel symbols: %s", strerror(e));
		return -e;
	}
	qsort(s->v, s->n, sizeof(*s->v), by_addr);
	return 0;
}

void pb_prof_syms_free(struct pb_prof_syms *s)
{
	if (!s)
		return;
	free(s->v);
	free(s->names);
	free(s);
}

/* The symbol IP is in (the last at or below it), or -1. */
static ssize_t sym_of(const struct pb_prof_syms *s, uint64_t ip)
{
	return s ? at_or_below(s->v, s->n, sizeof(*s->v), ip) : -1;
}

/* ---- user space: this program's own functions and its libraries' */

struct usym {
	uint64_t addr, size;
	const char *name;           /* in the mapped file */
};
_Static_assert(offsetof(struct usym, addr) == 0, "by_addr, at_or_below: address first");

struct usyms {
	struct usym *v;
	size_t n;
	uint64_t bias;              /* where the program was loaded */
};

static int first_object(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	*(uint64_t *)data = (uint64_t)info->dlpi_addr;
	return 1;                   /* the program itself comes first */
}

/* The function symbols of this program's file (its .symtab, kept in a
 * build that is not stripped), sorted, mapped for the process's life:
 * static functions have no dynamic symbol for dladdr to find.  Loaded
 * once; NULL when the file has none. */
static const struct usyms *program_syms(void)
{
	static struct usyms u;
	static bool tried;
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;
	struct stat st;
	void *map;
	int fd;

	if (tried)
		return u.n ? &u : NULL;
	tried = true;
	fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || (size_t)st.st_size < sizeof(*eh)) {
		close(fd);
		return NULL;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return NULL;
	eh = map;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(*sh) > (uint64_t)st.st_size)
		return NULL;
	sh = (const Elf64_Shdr *)((const char *)map + eh->e_shoff);
	for (unsigned i = 0; i < eh->e_shnum; i++) {
		const Elf64_Sym *sym;
		const char *str;
		size_t n;

		if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum ||
		    sh[i].sh_offset + sh[i].sh_size > (uint64_t)st.st_size ||
		    sh[sh[i].sh_link].sh_offset + sh[sh[i].sh_link].sh_size > (uint64_t)st.st_size)
			continue;
		sym = (const Elf64_Sym *)((const char *)map + sh[i].sh_offset);
		str = (const char *)map + sh[sh[i].sh_link].sh_offset;
		n = sh[i].sh_size / sizeof(*sym);
		u.v = calloc(n ? n : 1, sizeof(*u.v));
		for (size_t k = 0; u.v && k < n; k++)
			if (ELF64_ST_TYPE(sym[k].st_info) == STT_FUNC && sym[k].st_value &&
			    sym[k].st_name < sh[sh[i].sh_link].sh_size)
				u.v[u.n++] = (struct usym){ sym[k].st_value, sym[k].st_size,
							    str + sym[k].st_name };
		break;
	}
	if (!u.n)
		return NULL;
	qsort(u.v, u.n, sizeof(*u.v), by_addr);
	if (eh->e_type == ET_DYN)
		dl_iterate_phdr(first_object, &u.bias);
	return &u;
}

/* The user-space function at IP: this program's own, else a library's
 * (dladdr), else "[user]". */
static const char *user_name(uint64_t ip)
{
	const struct usyms *u = program_syms();
	Dl_info di;

	if (u && ip >= u->bias) {
		uint64_t a = ip - u->bias;
		ssize_t k = at_or_below(u->v, u->n, sizeof(*u->v), a);

		if (k >= 0 && a < u->v[k].addr + (u->v[k].size ? u->v[k].size : 1))
			return u->v[k].name;
	}
	if (dladdr((void *)(uintptr_t)ip, &di) && di.dli_sname)
		return di.dli_sname;
	return "[user]";
}

struct fn {
	const char *name;
	uint64_t samples;
};

static int by_samples(const void *a, const void *b)
{
	const struct fn *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct fn *)a)->name, ((const struct fn *)b)->name);
}

/* F's NF functions with their samples: one entry per name (the same
 * function at several addresses), most samples first, the first MAX in
 * TOP; their count. */
static size_t rank(struct fn *f, size_t nf, struct pb_prof_top *top, size_t max)
{
	size_t nu = 0, nt = 0;

	qsort(f, nf, sizeof(*f), by_name);
	for (size_t i = 0; i < nf; i++)
		if (nu && !strcmp(f[nu - 1].name, f[i].name))
			f[nu - 1].samples += f[i].samples;
		else
			f[nu++] = f[i];
	qsort(f, nu, sizeof(*f), by_samples);
	for (size_t i = 0; i < nu && nt < max; i++) {
		snprintf(top[nt].name, sizeof(top[nt].name), "%s", f[i].name);
		top[nt++].samples = f[i].samples;
	}
	return nt;
}

void pb_prof_summarize(const struct pb_prof_syms *s, const struct pb_prof_ips *ips,
		       struct pb_prof_summary *out)
{
	struct fn *f = calloc(ips->n ? ips->n : 1, sizeof(*f));
	struct fn *uf = calloc(ips->n ? ips->n : 1, sizeof(*uf));
	size_t nf = 0, nuf = 0;

	memset(out, 0, sizeof(*out));
	out->samples = ips->samples;
	out->kernel = ips->kernel;
	out->user = ips->user;
	out->lost = ips->lost;
	out->cat[PB_PROF_USER] = ips->user;
	/* kernel samples past the table: their function unknown, so other */
	out->cat[PB_PROF_OTHER] += ips->overflow;
	for (uint32_t i = 0; i < ips->n; i++) {
		const struct pb_prof_ip *e = &ips->e[i];
		ssize_t k;
		const char *name;

		if (!e->kernel) {
			if (uf)
				uf[nuf++] = (struct fn){ user_name(e->ip), e->count };
			continue;
		}
		k = sym_of(s, e->ip);
		name = k >= 0 ? s->names + s->v[k].name : "[unknown]";
		out->cat[k >= 0 ? pb_prof_categorize(name) : PB_PROF_OTHER] += e->count;
		if (f)
			f[nf++] = (struct fn){ name, e->count };
	}
	if (f)
		out->ntop = rank(f, nf, out->top, PB_PROF_TOP);
	if (uf)
		out->ntop_user = rank(uf, nuf, out->top_user, PB_PROF_TOP);
	free(f);
	free(uf);
}

/* ------------------------------------------------------------ output */

static double share(uint64_t part, uint64_t whole)
{
	return whole ? (double)part / (double)whole : 0;
}

/* How far any share of N samples may be from the truth, 95% of the time:
 * the binomial interval's half-width at its widest (a share of one half),
 * 1.96 x sqrt(0.25 / N); 1 without samples. */
double pb_prof_share_margin(uint64_t n)
{
	return n ? 0.98 / sqrt((double)n) : 1;
}

struct json_object *pb_prof_json(const struct pb_prof_summary *sm, uint64_t period_ns,
				 double ops, const char *ops_unit, double bytes)
{
	struct json_object *o = json_object_new_object(), *top = json_object_new_array();
	struct json_object *cats = json_object_new_object();
	char key[64];

	pb_json_add_str(o, "event", "cpu-clock");
	pb_json_add_int(o, "period_ns", (int64_t)period_ns);
	pb_json_add_int(o, "samples", (int64_t)sm->samples);
	pb_json_add_int(o, "kernel_samples", (int64_t)sm->kernel);
	pb_json_add_int(o, "user_samples", (int64_t)sm->user);
	pb_json_add_int(o, "lost_samples", (int64_t)sm->lost);
	pb_json_add_double(o, "share_margin_95", pb_prof_share_margin(sm->samples));
	for (size_t i = 0; i < sm->ntop; i++) {
		struct json_object *t = json_object_new_object();

		pb_json_add_str(t, "function", sm->top[i].name);
		pb_json_add_int(t, "samples", (int64_t)sm->top[i].samples);
		pb_json_add_double(t, "share", share(sm->top[i].samples, sm->samples));
		pb_json_add_double(t, "kernel_share", share(sm->top[i].samples, sm->kernel));
		json_object_array_add(top, t);
	}
	json_object_object_add(o, "top_kernel_functions", top);
	top = json_object_new_array();
	for (size_t i = 0; i < sm->ntop_user; i++) {
		struct json_object *t = json_object_new_object();

		pb_json_add_str(t, "function", sm->top_user[i].name);
		pb_json_add_int(t, "samples", (int64_t)sm->top_user[i].samples);
		pb_json_add_double(t, "share", share(sm->top_user[i].samples, sm->samples));
		json_object_array_add(top, t);
	}
	json_object_object_add(o, "top_user_functions", top);
	for (int c = 0; c < PB_PROF_NCAT; c++) {
		struct json_object *x = json_object_new_object();
		double ns = (double)sm->cat[c] * (double)period_ns;

		pb_json_add_int(x, "samples", (int64_t)sm->cat[c]);
		pb_json_add_double(x, "share", share(sm->cat[c], sm->samples));
		json_object_object_add(x, "kernel_share", c == PB_PROF_USER ? NULL :
				       json_object_new_double(share(sm->cat[c], sm->kernel)));
		snprintf(key, sizeof(key), "ns_per_%s", ops_unit);
		json_object_object_add(x, key, ops > 0 ? json_object_new_double(ns / ops) : NULL);
		if (bytes > 0)
			pb_json_add_double(x, "ns_per_byte", ns / bytes);
		json_object_object_add(cats, pb_prof_cat_names[c], x);
	}
	json_object_object_add(o, "categories", cats);
	return o;
}

void pb_prof_text(FILE *fp, const char *indent, const struct pb_prof_summary *sm,
		  uint64_t period_ns, double ops, const char *ops_unit)
{
	bool any = false;

	fprintf(fp, "%s%llu samples (%.0f%% kernel; each share within %.1f points, 95%%)",
		indent, (unsigned long long)sm->samples, 100 * share(sm->kernel, sm->samples),
		100 * pb_prof_share_margin(sm->samples));
	if (sm->lost)
		fprintf(fp, ", %llu lost", (unsigned long long)sm->lost);
	fputc(':', fp);
	for (int c = 0; c < PB_PROF_NCAT; c++) {
		if (!sm->cat[c])
			continue;
		fprintf(fp, "%s %s %.1f%%", any ? ";" : "", pb_prof_cat_words[c],
			100 * share(sm->cat[c], sm->samples));
		if (ops > 0)
			fprintf(fp, " (%.1f ns/%s)",
				(double)sm->cat[c] * (double)period_ns / ops, ops_unit);
		any = true;
	}
	if (sm->samples && !sm->kernel)
		fprintf(fp, " (no kernel samples: kernel time was not sampled)");
	fputc('\n', fp);
	if (!sm->ntop && !sm->ntop_user)
		return;
	fprintf(fp, "%stop kernel functions:", indent);
	for (size_t i = 0; i < sm->ntop && i < 5; i++)
		fprintf(fp, "%s %s %.1f%%", i ? "," : "", sm->top[i].name,
			100 * share(sm->top[i].samples, sm->samples));
	fputc('\n', fp);
	if (!sm->ntop_user)
		return;
	fprintf(fp, "%stop user functions:", indent);
	for (size_t i = 0; i < sm->ntop_user && i < 3; i++)
		fprintf(fp, "%s %s %.1f%%", i ? "," : "", sm->top_user[i].name,
			100 * share(sm->top_user[i].samples, sm->samples));
	fputc('\n', fp);
}

/* ------------------------------------------------------------ a run */

void pb_prof_run_begin(struct pb_prof_run *r, bool on, bool want_cpus)
{
	struct pb_prof p;
	cpu_set_t cpus;

	memset(r, 0, sizeof(*r));
	r->on = on;
	r->period_ns = PB_PROF_PERIOD_NS;
	if (!on)
		return;
	if (want_cpus && sched_getaffinity(0, sizeof(cpus), &cpus) == 0 &&
	    pb_prof_open_cpus(&p, r->period_ns, &cpus, r->why, sizeof(r->why)) == 0) {
		r->ok = r->per_cpu = true;
		r->why[0] = '\0';
		pb_prof_close(&p);
	} else if (pb_prof_open(&p, r->period_ns, r->why, sizeof(r->why)) == 0) {
		r->ok = true;
		r->user_only = p.user_only;
		pb_prof_close(&p);
	}
	if (r->ok && !r->user_only)
		pb_prof_syms_load(&r->syms, NULL, r->syms_why, sizeof(r->syms_why));
}

void pb_prof_run_end(struct pb_prof_run *r)
{
	pb_prof_syms_free(r->syms);
	r->syms = NULL;
}

struct json_object *pb_prof_run_json(const struct pb_prof_run *r)
{
	struct json_object *o;

	if (!r->on)
		return NULL;
	o = json_object_new_object();
	pb_json_add_str(o, "event", "cpu-clock");
	pb_json_add_int(o, "period_ns", (int64_t)r->period_ns);
	json_object_object_add(o, "available", json_object_new_boolean(r->ok));
	pb_json_add_str(o, "scope", !r->ok ? NULL : r->per_cpu ? "cpus" : "threads");
	json_object_object_add(o, "kernel_samples", json_object_new_boolean(r->ok &&
									  !r->user_only));
	json_object_object_add(o, "kernel_symbols", json_object_new_boolean(
					       r->ok && !r->user_only && !r->syms_why[0]));
	pb_json_add_str(o, "reason", r->why[0] ? r->why : NULL);
	pb_json_add_str(o, "symbols_reason", r->syms_why[0] ? r->syms_why : NULL);
	return o;
}

void pb_prof_run_text(const struct pb_prof_run *r, FILE *fp)
{
	if (!r->on)
		return;
	if (!r->ok) {
		fprintf(fp, "\nprofile     not taken: %s", r->why);
		return;
	}
	fprintf(fp, "\nprofile     perf cpu-clock samples every %g ms of CPU time, %s, over "
		"the measured loops only, %s", (double)r->period_ns / 1e6,
		r->user_only ? "user space only" : "kernel and user space",
		r->per_cpu ? "on each CPU (the run's own processes' samples)" :
		"of each party's thread");
	if (r->user_only)
		fprintf(fp, " (%s)", r->why);
	else if (r->syms_why[0])
		fprintf(fp, "; kernel functions not named: %s", r->syms_why);
}

void pb_prof_row_fields(struct pb_row *r, const struct pb_prof_summary *sm)
{
	char key[48];

	for (int c = 0; c < PB_PROF_NCAT; c++) {
		snprintf(key, sizeof(key), "profile_%s_share", pb_prof_cat_names[c]);
		pb_row_double(r, key, sm && sm->samples ? share(sm->cat[c], sm->samples) : NAN);
	}
}
