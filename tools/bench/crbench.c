// SPDX-License-Identifier: GPL-2.0
/*
 * crbench: the guest side of "make bench" for this engine and for the
 * copy-once floor; prints one tab-separated line per repetition.
 *
 * Both tools are timed the same way, as a user runs them: the command
 * line tools, fork and exec included (ckpt and rstr here, criu there),
 * output on tmpfs. Each side's kernel-side (or own) times come from its
 * statistics, kept for the report.
 *
 *   crbench engine MIB REPS [MAP_GIB [THREADS [PROCS]]]
 *	checkpoint: SIGSTOP of the workload (its process group) to "ckpt
 *	PID -o DIR/img" done (the stop is in the time, as CRIU's freezing
 *	is in its dump; the workload is left stopped, as criu dump
 *	--leave-stopped leaves it); restart: "rstr -i DIR/img" started to
 *	the workload running again (it marks its resumption).
 *	-> engine MIB MAP_GIB rep ckpt_ms rstr_ms image_bytes
 *	   (with THREADS > 1: engine-thr MIB THREADS rep ...; with PROCS:
 *	   engine-tree MIB PROCS rep ...)
 *   crbench criu MIB REPS [STATS_DIR [THREADS [PROCS]]]
 *	criu dump -t PID -D DIR --leave-stopped (its freezing included) and
 *	criu restore -D DIR -d, timed to the workload running again (its
 *	mark, as the engine's restart; criu's own end after), images
 *	and output on tmpfs, the output (--display-stats) copied after the
 *	timing into STATS_DIR/criu-{dump,restore}-MIB-REP.txt
 *	(-MIB-tTHREADS-REP.txt with THREADS, -MIB-pPROCS-REP.txt with PROCS).
 *	-> criu MIB 0 rep dump_ms restore_ms image_bytes
 *	   (with THREADS: criu-thr MIB THREADS rep ...; with PROCS: criu-tree
 *	   MIB PROCS rep ...)
 *   crbench start REPS CMD [ARGS...]
 *	the median of REPS fork, exec, exit and wait of CMD, output
 *	discarded: -> ms
 *   With CRBENCH_FIRST_REP=K in the environment, repetitions are numbered
 *   from K (lines and stats files), for runs made in turns; with
 *   CRBENCH_WARMUP=1, engine and criu make one untimed repetition first.
 *   With WORKLOAD_VMAS=N or WORKLOAD_FILES=N in the environment (passed on
 *   to the workload: N more VMAs, N more open files), engine and criu
 *   lines are engine-vmas / engine-files MIB N rep ... (criu-vmas,
 *   criu-files), their stats tagged MIB-vN / MIB-fN.
 *   crbench floor MIB REPS
 *	the same bytes written once from user memory to a tmpfs file with
 *	write(), and read back once into fresh memory with read();
 *	-> floor MIB 0 rep write_ms read_ms bytes
 *	and, the destination memory faulted in beforehand (untimed), copied
 *	once with memcpy() and read back once with read():
 *	-> floor-pf MIB 0 rep memcpy_ms read_ms bytes
 */
#include "crctl.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define DIR "/tmp/bench"
#define MAX_PROCS 1024

/* The scaling rows: "vmas" or "files" and N, from the environment. */
static const char *objs, *objs_n;
/*
 * The number of this invocation's first repetition (CRBENCH_FIRST_REP,
 * default 1): the tools run in turns of a few repetitions each, numbered
 * on across the turns.
 */
static int first_rep = 1;
/*
 * CRBENCH_WARMUP=1: one more repetition first, out of the medians: its
 * line's kind begins with "first-" and its statistics are not kept (a
 * tool's first run after the other tool's may be slower; the report
 * shows these apart).
 */
static int warmup;

/* The kind prefix of repetition @rep's line: "first-" for a warm-up. */
static const char *first(int rep)
{
	return rep < first_rep ? "first-" : "";
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Wait for @path to exist, polling every @spin_us; gives up after 300 s. */
static void wait_file(const char *path, double spin_us)
{
	struct timespec ts = { 0, (long)(spin_us * 1000) };
	double end = now_ms() + 300000;

	while (access(path, F_OK)) {
		if (now_ms() > end) {
			fprintf(stderr, "crbench: %s did not appear in 300 s\n", path);
			exit(1);
		}
		nanosleep(&ts, NULL);
	}
}

/*
 * The restarted workload's mark, DIR/resumed, waited for without polling:
 * a sleep between polls would end at the guest's next tick (4 ms without
 * high-resolution timers), adding up to a tick to either tool's restart.
 * resumed_watch() before the
 * timing starts, resumed_wait() ends once the mark exists; the watch is
 * closed after the timing (closing an inotify instance waits for its
 * marks' destruction, a tick or more).
 */
static int resumed_watch(void)
{
	int fd = inotify_init1(IN_CLOEXEC);

	if (fd < 0 || inotify_add_watch(fd, DIR, IN_CREATE) < 0) {
		perror("crbench: inotify on " DIR);
		exit(1);
	}
	return fd;
}

/*
 * Until the mark exists, or the command @cmd that restarts the workload
 * (rstr, criu restore) fails first: 0, or -1 (said; also after 300 s).
 * *@st is @cmd's status if it has ended by then, -1 if not.
 */
static int resumed_wait(int fd, pid_t cmd, int *st)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	double end = now_ms() + 300000;
	int s;

	*st = -1;
	while (access(DIR "/resumed", F_OK)) {
		if (*st == -1 && waitpid(cmd, &s, WNOHANG) == cmd) {
			*st = s;
			if (!WIFEXITED(s) || WEXITSTATUS(s)) {
				fprintf(stderr, "crbench: the restart failed (status %#x)\n", s);
				return -1;
			}
		}
		if (now_ms() > end) {
			fprintf(stderr, "crbench: %s did not appear in 300 s\n", DIR "/resumed");
			return -1;
		}
		/* the events wake us at once; the timeout looks at @cmd */
		if (poll(&p, 1, 10) > 0 && read(fd, buf, sizeof(buf)) < 0 &&
		    errno != EINTR) {
			perror("crbench: inotify read");
			return -1;
		}
	}
	return 0;
}

/* The state letter of @pid, 0 if it is gone. */
static char task_state(pid_t pid)
{
	char path[64], buf[512], *p;
	int fd, n;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY);
	n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

/*
 * Wait until the workload sleeps, in the nanosleep() after READY: a stop
 * that caught it before would resume it into an hour's sleep, not out of
 * an interrupted one. Both engines get it in this same state.
 */
static void asleep(pid_t pid)
{
	struct timespec ts = { 0, 100000 };

	while (task_state(pid) != 'S')
		nanosleep(&ts, NULL);
}

/*
 * Wait until a killed task that is not our child has exited (gone, or a
 * zombie of init's), so that freeing its memory overlaps no measurement.
 */
static void gone(pid_t pid)
{
	struct timespec ts = { 0, 1000000 };
	char st;

	while ((st = task_state(pid)) && st != 'Z')
		nanosleep(&ts, NULL);
}

/* Wait, without spinning, until our child @pid has stopped. */
static int stopped(pid_t pid)
{
	int st;

	if (waitpid(pid, &st, WUNTRACED) != pid || !WIFSTOPPED(st)) {
		fprintf(stderr, "crbench: the workload did not stop (status %#x)\n", st);
		return -1;
	}
	return 0;
}

/*
 * The workload of @mib MiB (over a @gib GiB mapping, "0": dense) in its
 * own session, stdio on /dev/null; returns once it sleeps after READY.
 */
static pid_t start_workload(const char *mib, const char *gib, const char *threads,
			    const char *procs)
{
	pid_t pid;

	unlink(DIR "/ready");
	unlink(DIR "/resumed");
	pid = fork();
	if (!pid) {
		int null = open("/dev/null", O_RDWR);

		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
		setsid();
		execl("/usr/bin/workload", "workload", mib, DIR "/ready",
		      DIR "/resumed", gib, threads ?: "1", procs ?: "1",
		      (char *)NULL);
		_exit(127);
	}
	wait_file(DIR "/ready", 1000);
	asleep(pid);
	return pid;
}

/* The workload's children, from READY: their number. */
static int workload_children(pid_t *pids, int max)
{
	FILE *f = fopen(DIR "/ready", "r");
	int n = 0;

	while (f && n < max && fscanf(f, "%d", &pids[n]) == 1)
		n++;
	if (f)
		fclose(f);
	return n;
}

/* Stop the workload and its children (its process group): all stopped. */
static int stop_tree(pid_t pid, const pid_t *kids, int n)
{
	struct timespec ts = { 0, 100000 };
	int i;

	kill(-pid, SIGSTOP);
	if (stopped(pid))
		return -1;
	for (i = 0; i < n; i++)
		while (task_state(kids[i]) != 'T')
			nanosleep(&ts, NULL);
	return 0;
}

/* Kill the workload's process group and reap what is ours (a subreaper). */
static void kill_tree(pid_t pid, const pid_t *kids, int n)
{
	int i;

	kill(-pid, SIGKILL);
	for (i = 0; i < n; i++)
		gone(kids[i]);
	gone(pid);
	/*
	 * Ours (the workload, or a restored root we are subreaper of): reaped
	 * only once all its threads are gone, their ids free for the next
	 * restore. Not ours: ECHILD at once.
	 */
	waitpid(pid, NULL, 0);
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
}

/* Start @argv, its output into @out (tmpfs); its pid. */
static pid_t start_cmd(char *const argv[], const char *out)
{
	pid_t pid = fork();

	if (!pid) {
		int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		dup2(fd, 1);
		dup2(fd, 2);
		execvp(argv[0], argv);
		perror(argv[0]);
		_exit(127);
	}
	return pid;
}

/* Run @argv, its output into @out; its exit status (128: killed). */
static int run(char *const argv[], const char *out)
{
	pid_t pid = start_cmd(argv, out);
	int st;

	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return 128;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* The size of @path, 0 if none. */
static long long file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : st.st_size;
}

/* "ckpt PID -o DIR/img": 0 on success; the image's size in *@size. */
static int checkpoint_image(pid_t pid, long long *size)
{
	char pidstr[16];
	char *argv[] = { "ckpt", pidstr, "-o", DIR "/img", NULL };
	int ret;

	snprintf(pidstr, sizeof(pidstr), "%d", pid);
	ret = run(argv, DIR "/ckpt.out");
	*size = file_size(DIR "/img");
	if (ret)
		fprintf(stderr, "crbench: ckpt failed (%d): see %s\n", ret, DIR "/ckpt.out");
	return ret;
}

/* "rstr -i DIR/img" started: its pid (it waits for the restarted root). */
static pid_t restart_image(void)
{
	char *argv[] = { "rstr", "-i", DIR "/img", NULL };

	return start_cmd(argv, DIR "/rstr.out");
}

/*
 * "rstr -i DIR/img" timed from its start to the workload's mark; its pid
 * in *@r. The time in ms, or -1 if rstr could not be started.
 */
static double timed_restart(pid_t *r)
{
	int w = resumed_watch();
	double t0 = now_ms(), ms;

	int st;

	*r = restart_image();
	if (*r < 0 || resumed_wait(w, *r, &st)) {
		close(w);
		return -1;
	}
	ms = now_ms() - t0;
	close(w);
	return ms;
}

/* Copy @from (tmpfs, debugfs) to @to (the host's share), after the timing. */
static void keep(const char *from, const char *to)
{
	char buf[4096];
	int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ssize_t n;

	while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n)
			break;
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
}

/* The engine's own statistics of the last checkpoint and restart. */
static void save_stats(const char *mib, const char *gib, const char *threads,
		       const char *procs, int rep)
{
	char path[256];

	if (objs)
		snprintf(path, sizeof(path), "/mnt/host/engine-stats/engine-%s-%c%s-%d.txt",
			 mib, objs[0], objs_n, rep);
	else if (procs)
		snprintf(path, sizeof(path), "/mnt/host/engine-stats/engine-%s-p%s-%d.txt",
			 mib, procs, rep);
	else if (threads)
		snprintf(path, sizeof(path), "/mnt/host/engine-stats/engine-%s-t%s-%d.txt",
			 mib, threads, rep);
	else
		snprintf(path, sizeof(path), "/mnt/host/engine-stats/engine-%s-%s-%d.txt",
			 mib, gib, rep);
	keep(CR_DEBUGFS "/stats", path);
}

static int engine(const char *mib, int reps, const char *gib, const char *threads)
{
	bool thr = threads;
	int rep;

	for (rep = first_rep - warmup; rep < first_rep + reps; rep++) {
		double t0, ckpt, rstr;
		pid_t pid, r;
		long long size;

		pid = start_workload(mib, gib, threads, NULL);

		t0 = now_ms();
		kill(pid, SIGSTOP);
		if (stopped(pid))
			return 1;
		if (checkpoint_image(pid, &size))
			return 1;
		ckpt = now_ms() - t0;
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);

		/*
		 * rstr restarts the workload, which leads its session (and
		 * a multi-threaded one anyway), in a child with its pid (free
		 * again: it was reaped), and waits for it; a process leading
		 * nothing it would become in place (pid r). The restarted
		 * workload is killed and reaped here, with its threads (ours
		 * once rstr is gone), before the next run.
		 */
		rstr = timed_restart(&r);
		if (rstr < 0)
			return 1;
		kill(r, SIGKILL);
		if (pid != r)
			kill(pid, SIGKILL);
		waitpid(r, NULL, 0);
		if (pid != r) {
			gone(pid);
			waitpid(pid, NULL, 0);
		}
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		if (rep >= first_rep)
			save_stats(mib, gib, threads, NULL, rep);
		unlink(DIR "/img");
		if (objs)
			printf("%sengine-%s\t%s\t%s\t%d\t%.2f\t%.2f\t%lld\n", first(rep),
			       objs, mib, objs_n, rep, ckpt, rstr, size);
		else
			printf("%s%s\t%s\t%s\t%d\t%.2f\t%.2f\t%lld\n", first(rep),
			       thr ? "engine-thr" : "engine", mib, thr ? threads : gib, rep,
			       ckpt, rstr, size);
		fflush(stdout);
	}
	return 0;
}

/*
 * A tree of @procs processes of @mib MiB each: checkpoint from the stop of
 * its process group to the complete image, restart from the request to
 * the root running again (made and restarted as rstr does).
 */
static int engine_tree(const char *mib, int reps, const char *procs)
{
	pid_t kids[MAX_PROCS];
	int rep;

	for (rep = first_rep - warmup; rep < first_rep + reps; rep++) {
		double t0, ckpt, rstr;
		pid_t pid, r;
		long long size;
		int n;

		pid = start_workload(mib, "0", "1", procs);
		n = workload_children(kids, MAX_PROCS);
		t0 = now_ms();
		if (stop_tree(pid, kids, n))
			return 1;
		if (checkpoint_image(pid, &size))
			return 1;
		ckpt = now_ms() - t0;
		kill_tree(pid, kids, n);

		/* rstr makes the tree with its pids and waits for its root */
		rstr = timed_restart(&r);
		if (rstr < 0)
			return 1;
		kill_tree(pid, kids, n);
		kill(r, SIGKILL);
		waitpid(r, NULL, 0);
		if (rep >= first_rep)
			save_stats(mib, "0", NULL, procs, rep);
		unlink(DIR "/img");
		printf("%sengine-tree\t%s\t%s\t%d\t%.2f\t%.2f\t%lld\n", first(rep), mib,
		       procs, rep, ckpt, rstr, size);
		fflush(stdout);
	}
	return 0;
}

static long long dir_bytes(const char *dir)
{
	char cmd[256];
	long long kib = -1;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "du -sk %s", dir);
	f = popen(cmd, "r");
	if (f && fscanf(f, "%lld", &kib) != 1)
		kib = -1;
	if (f)
		pclose(f);
	return kib * 1024;
}

static int criu(const char *mib, int reps, const char *stats, const char *threads,
		const char *procs)
{
	bool thr = threads;
	pid_t kids[MAX_PROCS];
	int rep, nkids;
	char tag[32];

	if (objs)
		snprintf(tag, sizeof(tag), "%s-%c%s", mib, objs[0], objs_n);
	else if (procs)
		snprintf(tag, sizeof(tag), "%s-p%s", mib, procs);
	else
		snprintf(tag, sizeof(tag), thr ? "%s-t%s" : "%s", mib, threads);

	for (rep = first_rep - warmup; rep < first_rep + reps; rep++) {
		char pidstr[16], dump_out[256], rstr_out[256];
		char *dump[] = { "criu", "dump", "-t", pidstr, "-D", DIR "/criu",
				 "--leave-stopped", "--display-stats", "-v1", NULL };
		char *restore[] = { "criu", "restore", "-D", DIR "/criu", "-d",
				    "--display-stats", "-v1", NULL };
		double t0, d, r;
		long long size;
		pid_t pid, rp;
		int w, st;
		bool ok;

		system("rm -rf " DIR "/criu; mkdir -p " DIR "/criu");
		pid = start_workload(mib, "0", threads, procs);
		nkids = procs ? workload_children(kids, MAX_PROCS) : 0;
		snprintf(pidstr, sizeof(pidstr), "%d", pid);
		/* a warm-up's, kept only if it fails, apart from the runs' */
		if (rep < first_rep) {
			snprintf(dump_out, sizeof(dump_out), "%s/criu-dump-%s-first.txt", stats, tag);
			snprintf(rstr_out, sizeof(rstr_out), "%s/criu-restore-%s-first.txt", stats, tag);
		} else {
			snprintf(dump_out, sizeof(dump_out), "%s/criu-dump-%s-%d.txt", stats, tag, rep);
			snprintf(rstr_out, sizeof(rstr_out), "%s/criu-restore-%s-%d.txt", stats, tag, rep);
		}

		t0 = now_ms();
		if (run(dump, DIR "/dump.out")) {
			keep(DIR "/dump.out", dump_out);
			fprintf(stderr, "crbench: criu dump failed: see %s\n", dump_out);
			kill(pid, SIGKILL);
			return 1;
		}
		d = now_ms() - t0;
		/* left stopped, as ckpt leaves it: killed and reaped untimed */
		kill_tree(pid, kids, nkids);
		size = dir_bytes(DIR "/criu");

		/*
		 * Timed as the engine's restart is: from the command's start
		 * to the workload running again (its mark); criu's own end
		 * (detaching from the task, its statistics, its exit) after.
		 */
		w = resumed_watch();
		t0 = now_ms();
		rp = start_cmd(restore, DIR "/restore.out");
		ok = rp > 0 && !resumed_wait(w, rp, &st);
		r = now_ms() - t0;
		close(w);
		if (ok && st == -1 && waitpid(rp, &st, 0) != rp)
			st = -1;
		if (!ok || !WIFEXITED(st) || WEXITSTATUS(st)) {
			keep(DIR "/restore.out", rstr_out);
			fprintf(stderr, "crbench: criu restore failed: see %s\n", rstr_out);
			return 1;
		}
		/* restored with its pid, not our child */
		kill_tree(pid, kids, nkids);
		if (rep >= first_rep) {
			keep(DIR "/dump.out", dump_out);
			keep(DIR "/restore.out", rstr_out);
		}
		if (objs)
			printf("%scriu-%s\t%s\t%s\t%d\t%.2f\t%.2f\t%lld\n", first(rep), objs,
			       mib, objs_n, rep, d, r, size);
		else
			printf("%s%s\t%s\t%s\t%d\t%.2f\t%.2f\t%lld\n", first(rep),
			       procs ? "criu-tree" : thr ? "criu-thr" : "criu",
			       mib, procs ?: thr ? threads : "0", rep, d, r, size);
		fflush(stdout);
	}
	return 0;
}

/* DIR/floor read whole into @dst: 0, or -1. */
static int read_floor(char *dst, size_t len)
{
	int fd = open(DIR "/floor", O_RDONLY);
	size_t done;
	ssize_t n;

	for (done = 0; done < len; done += n)
		if ((n = read(fd, dst + done, len - done)) <= 0)
			break;
	close(fd);
	return done == len ? 0 : -1;
}

static int floor_(const char *mib, int reps)
{
	size_t len = strtoul(mib, NULL, 10) << 20, i;
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	char *src = malloc(len);
	int rep;

	if (!src)
		return 1;
	for (i = 0; i < len; i += 8) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		memcpy(src + i, &x, 8);
	}
	for (rep = first_rep; rep < first_rep + reps; rep++) {
		double t0, w, r;
		char *dst;
		ssize_t n;
		size_t done;
		int fd;

		t0 = now_ms();
		fd = open(DIR "/floor", O_WRONLY | O_CREAT | O_TRUNC, 0600);
		for (done = 0; done < len; done += n)
			if ((n = write(fd, src + done, len - done)) <= 0)
				return 1;
		close(fd);
		w = now_ms() - t0;

		t0 = now_ms();
		dst = mmap(NULL, len, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (dst == MAP_FAILED || read_floor(dst, len))
			return 1;
		r = now_ms() - t0;
		munmap(dst, len);
		printf("floor\t%s\t0\t%d\t%.2f\t%.2f\t%zu\n", mib, rep, w, r, len);

		/*
		 * The copies alone, no page fault or page clearing in them:
		 * MAP_POPULATE faults a writable private mapping in for writing.
		 */
		dst = mmap(NULL, len, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
		if (dst == MAP_FAILED)
			return 1;
		t0 = now_ms();
		memcpy(dst, src, len);
		w = now_ms() - t0;
		t0 = now_ms();
		if (read_floor(dst, len))
			return 1;
		r = now_ms() - t0;
		munmap(dst, len);
		unlink(DIR "/floor");
		printf("floor-pf\t%s\t0\t%d\t%.2f\t%.2f\t%zu\n", mib, rep, w, r, len);
		fflush(stdout);
	}
	free(src);
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of @reps fork, exec, exit and wait of @argv, output discarded. */
static int start_(int reps, char **argv)
{
	double t[101];
	int i, st;

	if (reps < 1 || reps > 101)
		return 2;
	for (i = 0; i < reps; i++) {
		double t0 = now_ms();
		pid_t pid = start_cmd(argv, "/dev/null");

		if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
		    WEXITSTATUS(st) == 127) {
			fprintf(stderr, "crbench: %s did not run\n", argv[0]);
			return 1;
		}
		t[i] = now_ms() - t0;
	}
	qsort(t, reps, sizeof(t[0]), cmp_double);
	printf("%.2f\n", t[reps / 2]);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: crbench engine|criu|floor MIB REPS [MAP_GIB | STATS_DIR [THREADS [PROCS]]]\n"
			"       crbench start REPS CMD [ARGS...]\n");
		return 2;
	}
	/* the workloads' orphans are ours to reap */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	if (getenv("CRBENCH_FIRST_REP"))
		first_rep = atoi(getenv("CRBENCH_FIRST_REP"));
	warmup = getenv("CRBENCH_WARMUP") && atoi(getenv("CRBENCH_WARMUP")) > 0;
	if (first_rep < 1) {
		fprintf(stderr, "crbench: CRBENCH_FIRST_REP must be a number from 1\n");
		return 2;
	}
	objs_n = getenv("WORKLOAD_VMAS");
	objs = objs_n ? "vmas" : NULL;
	if (!objs_n && (objs_n = getenv("WORKLOAD_FILES"))) {
		/* both tools, and the workload, may hold that many */
		struct rlimit rl = { strtoul(objs_n, NULL, 10) + 256,
				     strtoul(objs_n, NULL, 10) + 256 };

		objs = "files";
		if (setrlimit(RLIMIT_NOFILE, &rl))
			perror("crbench: RLIMIT_NOFILE");
	}
	if (!strcmp(argv[1], "start"))
		return start_(atoi(argv[2]), argv + 3);
	if (!strcmp(argv[1], "engine") && argc > 6)
		return engine_tree(argv[2], atoi(argv[3]), argv[6]);
	if (!strcmp(argv[1], "engine"))
		return engine(argv[2], atoi(argv[3]), argc > 4 ? argv[4] : "0",
			      argc > 5 ? argv[5] : NULL);
	if (!strcmp(argv[1], "criu"))
		return criu(argv[2], atoi(argv[3]), argc > 4 ? argv[4] : DIR,
			    argc > 5 ? argv[5] : NULL, argc > 6 ? argv[6] : NULL);
	if (!strcmp(argv[1], "floor"))
		return floor_(argv[2], atoi(argv[3]));
	return 2;
}
