/* SPDX-License-Identifier: ISC */
/*
 * test_follow_serve.c - what --serve does at PATH when others change it
 * during start-up: a swapper process exchanges a stale socket with a
 * regular file (or a symlink) at PATH over and over, atomically, while
 * follow_serve runs.  Whatever it swapped in must survive: only the
 * stale socket may go.  Bounded: a fixed number of runs, each swapper a
 * fixed number of exchanges, stopped once follow_serve returns.  The
 * same at exit: a file swapped in while follow_close runs survives.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "follow.h"
#include "harness.h"

#define RUNS 150
#define SWAPS 20000

static char dir[64];
static int quiet = -1;           /* /dev/null */

static int stale_socket(const char *path)
{
    struct sockaddr_un sa;
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", path);
    if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof sa) < 0) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    close(fd);
    return 0;
}

/* A child exchanging a and b SWAPS times; it says when it began. */
static pid_t swapper(const char *a, const char *b)
{
    int go[2];
    char c;
    if (pipe(go))
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        close(go[0]);
        if (write(go[1], "g", 1) != 1)
            _exit(1);
        for (int i = 0; i < SWAPS; i++)
            renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE);
        _exit(0);
    }
    close(go[1]);
    if (pid > 0 && read(go[0], &c, 1) != 1)
        pid = -1;
    close(go[0]);
    return pid;
}

/* Whether path is a regular file holding exactly want. */
static int holds(const char *path, const char *want)
{
    char buf[64] = "";
    struct stat st;
    if (lstat(path, &st) || !S_ISREG(st.st_mode))
        return 0;
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = 0;
    return strcmp(buf, want) == 0;
}

static int is_link_to(const char *path, const char *target)
{
    char buf[256];
    ssize_t n = readlink(path, buf, sizeof buf - 1);
    if (n < 0)
        return 0;
    buf[n] = 0;
    return strcmp(buf, target) == 0;
}

/* runs of a stale socket at PATH and a regular file (link 0) or a
 * symlink to a file of the user (link 1) at OTHER, swapped during
 * follow_serve: the file, or the symlink, is never deleted. */
static void race(int link, unsigned mode)
{
    char path[96], other[96], victim[96], want[32];
    int lost = 0, served = 0, moved = 0;
    snprintf(path, sizeof path, "%s/l.sock", dir);
    snprintf(other, sizeof other, "%s/other", dir);
    snprintf(victim, sizeof victim, "%s/victim", dir);
    for (int run = 0; run < RUNS; run++) {
        unlink(path);
        unlink(other);
        snprintf(want, sizeof want, "keep %d\n", run);
        FILE *f = fopen(link ? victim : other, "w");
        fputs(want, f);
        fclose(f);
        if (link && symlink(victim, other))
            t_fail++;
        if (stale_socket(path)) {
            t_fail++;
            break;
        }
        pid_t pid = swapper(path, other);
        int err = dup(2);       /* the refusals' lines go nowhere; the
                                   checks' own lines are still shown */
        dup2(quiet, 2);
        struct follow *t = follow_serve(path, mode);
        dup2(err, 2);
        close(err);
        kill(pid, SIGKILL);     /* between two exchanges: each is atomic */
        waitpid(pid, NULL, 0);
        served += t != NULL;
        /* what was swapped in is at one of the two names */
        int kept = link ? is_link_to(path, victim) || is_link_to(other, victim)
                        : holds(path, want) || holds(other, want);
        lost += !kept || (link && !holds(victim, want));
        struct stat st;
        moved += link && lstat(victim, &st) == 0 && (st.st_mode & 0777) == mode;
        follow_close(t);
    }
    printf("%s swapped in %d runs: %d lost, %d served\n",
           link ? "symlink" : "regular file", RUNS, lost, served);
    CHECK(lost == 0);
    CHECK(moved == 0);          /* a symlink's target never gets the mode */
    CHECK(served > 0);          /* the race left room to start, at times */
    DIR *d = opendir(dir);      /* and nothing of its own was left */
    int left = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        left += strncmp(e->d_name, ".peviz", 6) == 0;
    if (d)
        closedir(d);
    CHECK(left == 0);
    unlink(path);
    unlink(other);
    unlink(victim);
}

/* runs of a regular file (link 0) or a symlink (link 1) at OTHER
 * swapped with the served socket at PATH while follow_close ends the
 * teacher: what was swapped in is never deleted.  Then, undisturbed,
 * follow_close removes its own socket and nothing beside it. */
static void race_exit(int link)
{
    char path[96], other[96], victim[96], want[32];
    int lost = 0, served = 0;
    snprintf(path, sizeof path, "%s/x.sock", dir);
    snprintf(other, sizeof other, "%s/other", dir);
    snprintf(victim, sizeof victim, "%s/victim", dir);
    for (int run = 0; run < RUNS; run++) {
        unlink(path);
        unlink(other);
        snprintf(want, sizeof want, "keep %d\n", run);
        FILE *f = fopen(link ? victim : other, "w");
        fputs(want, f);
        fclose(f);
        if (link && symlink(victim, other))
            t_fail++;
        int err = dup(2);
        dup2(quiet, 2);
        struct follow *t = follow_serve(path, 0600);
        dup2(err, 2);
        close(err);
        if (!t)
            continue;
        served++;
        pid_t pid = swapper(path, other);
        follow_close(t);
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        int kept = link ? is_link_to(path, victim) || is_link_to(other, victim)
                        : holds(path, want) || holds(other, want);
        lost += !kept || (link && !holds(victim, want));
    }
    printf("%s swapped in at exit in %d runs: %d lost\n",
           link ? "symlink" : "regular file", served, lost);
    CHECK(served == RUNS);
    CHECK(lost == 0);
    unlink(path);
    unlink(other);
    unlink(victim);
    struct follow *t = follow_serve(path, 0600);
    struct stat st;
    CHECK(t != NULL && lstat(path, &st) == 0 && S_ISSOCK(st.st_mode));
    follow_close(t);
    CHECK(lstat(path, &st) < 0 && errno == ENOENT);
    DIR *d = opendir(dir);
    int left = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        left += e->d_name[0] != '.' || strncmp(e->d_name, ".peviz", 6) == 0;
    if (d)
        closedir(d);
    CHECK(left == 0);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/peviz-serve.XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    quiet = open("/dev/null", O_WRONLY);
    race(0, 0600);
    race(1, 0666);
    race_exit(0);
    race_exit(1);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        t_fail++;
    TEST_END("test_follow_serve");
}
