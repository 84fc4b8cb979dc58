/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the guest tests that checkpoint and restart programs, in
 * BLCR's phases: setup (spawn), pre-checkpoint (stop), checkpoint,
 * continue or kill, restart, verify (wait for the exit status).
 */
#ifndef CRTEST_H
#define CRTEST_H

#include <stdbool.h>
#include <sys/types.h>

/* The helper programs live next to the tests. */
#define HELPER(name) "/tests/" name

/* stdin, stdout and stderr onto /dev/null (no pipe in an image); false on failure. */
bool null_stdio(void);
/* Start argv[0] with stdin, stdout and stderr on /dev/null. */
pid_t spawn(char *const argv[]);
/* Send @fd (SCM_RIGHTS, with one byte) over the socket @sock: in flight until read; bails out on failure. */
void send_fd(int sock, int fd);
/* Wait up to @seconds for @path to exist; false on timeout. */
bool wait_file(const char *path, int seconds);
/*
 * spawn() a helper that announces itself by creating @out.ready, both
 * @out and @out.ready removed first; bails out if it does not within 30 s.
 */
pid_t spawn_ready(char *const argv[], const char *out);

/* When a timed checkpoint's steps happened, in now_ms() milliseconds. */
struct timed_ckpt {
	double ready, stopped, saved;
};

/*
 * spawn_ready() @argv, let it run @run_ms, stop it, checkpoint it to @img
 * and kill it, noting the times in @t: the checkpoint's result (a crid,
 * or -errno).
 */
long timed_checkpoint(char *const argv[], const char *out, int run_ms,
		      const char *img, struct timed_ckpt *t);
/* SIGSTOP @pid and wait until all its threads are stopped; false on timeout. */
bool stop_task(pid_t pid);
/* Minor faults @pid has taken (field 10 of /proc/@pid/stat), or -1. */
long long task_minflt(pid_t pid);
/*
 * Checkpoint the stopped child @pid into @img: it must be refused with
 * -@err and a reason (checkpoint.refused) holding @want; continued, it
 * must run on and exit 0. Two results, named by @what.
 */
void check_refused(pid_t pid, const char *img, int err, const char *want,
		   const char *what);
/* Wait up to @seconds until @pid's comm is @comm (a restart's commit). */
bool wait_comm(pid_t pid, const char *comm, int seconds);
/* Checkpoint @pid into a new file @path; the crid or -errno. */
long checkpoint_to(pid_t pid, const char *path);
/*
 * Fork a child that restarts from @path; its pid (the restarted task).
 * A multi-threaded image is restarted with its leader's pid, as rstr does.
 */
pid_t restart_from(const char *path);
/* The same in a child with pid @as (0: any), or -1 if it cannot be had. */
pid_t restart_as(const char *path, pid_t as);
/*
 * rstr [@opt] -i @img as a user runs it, stdin and stdout on /dev/null,
 * stderr inherited or into a new file @err; its pid (for a lone process
 * restarted in place, the restarted process).
 */
pid_t rstr_cli(const char *opt, const char *img, const char *err);
/*
 * checkpoint_to(), again while a stop is still on its way (EBUSY), up to
 * 5 s; a refusal is shown as a diagnostic.
 */
long checkpoint_retry(pid_t pid, const char *path);
/* The exit status of @pid (waitpid status), or -1 after @seconds (killed). */
int wait_exit(pid_t pid, int seconds);
/* The status a restart_from() child exits with when the restart failed. */
#define RESTART_FAILED(err) (100 + (err))
/* Kill @pid with SIGKILL and reap it. */
void kill_wait(pid_t pid);
/* Size of @path, or -1. */
long long file_size(const char *path);
/* Number of newline characters in @path (0 if it cannot be read). */
long long count_lines(const char *path);
/* Whether two files have the same bytes. */
bool same_file(const char *a, const char *b);
/*
 * Setup shared by tests that need a good image: a counter writing to @out
 * (one line every 5 ms), stopped, checkpointed into @img, killed. Bails
 * out if that fails.
 */
void counter_image(const char *out, const char *img);
/*
 * The value of @key ("restart.refused", "restart.failed_after_commit"...)
 * in the engine's debugfs stats, or "" if it has none. The string lives
 * until the next call.
 */
const char *engine_stat(const char *key);
/*
 * Fork a child that keeps only descriptors @lo..@hi (3 or above) of the
 * caller's, its stdio on /dev/null, and stops itself; its pid once it is
 * stopped (bails out otherwise). Continued, it exits 0 if @exit_on_cont,
 * else it waits in pause() until killed.
 */
pid_t fork_holding(int lo, int hi, bool exit_on_cont);
/*
 * A child in a network namespace of its own that ran @setup (false:
 * exit 126), stopped; it exits 0 once continued.
 */
pid_t fork_netns(bool (*setup)(void));
/* The pid written in @path, or 0. */
pid_t pid_in(const char *path);
/*
 * A helper that checks its own state and exits 0 if it holds, writing
 * what failed into @out: @run starts it (across a checkpoint and restart
 * if its argument is true) and returns its status. Reports both runs
 * (2 results), @out's lines as diagnostics for a failed one.
 */
void check_both(int (*run)(bool ckpt), const char *out);
/* @path's lines (a helper's OUT) as TAP diagnostics. */
void diag_file(const char *path);
/*
 * For check_both()'s @run: start the helper @argv, which creates @ready
 * once set up and checks itself once @go exists; across a checkpoint into
 * @img and a restart by rstr if @ckpt. Its exit status, or -1 (a helper
 * that did not get ready, or was not checkpointed, killed and reaped).
 */
int run_checked(char *const argv[], const char *ready, const char *go,
		const char *img, bool ckpt);
/*
 * run_checked(), the restart @seconds after the checkpoint, and
 * @before_go(pid) (if not NULL) called on the helper just before GO.
 */
int run_checked_after(char *const argv[], const char *ready, const char *go,
		      const char *img, bool ckpt, unsigned int seconds,
		      void (*before_go)(pid_t pid));
/*
 * run_checked() for a helper with a child, whose pid @ready holds: both
 * stopped, checkpointed as a tree, killed (the test is their subreaper:
 * it reaps the child) and restarted by rstr; killed and reaped too when
 * that fails (-1).
 */
int run_checked_kid(char *const argv[], const char *ready, const char *go,
		    const char *img, bool ckpt);
/* Turn the engine on (bails out if it cannot). */
void engine_on(void);
/* Milliseconds, monotonic. */
double now_ms(void);
/* Sleep @ms milliseconds. */
void sleep_ms(long ms);

#endif /* CRTEST_H */
