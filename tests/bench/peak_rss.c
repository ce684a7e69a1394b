/* SPDX-License-Identifier: ISC */
/*
 * peak_rss.c - run a command with standard output to /dev/null and print
 * the peak resident set size of it (KB, ru_maxrss from wait4) and its
 * wall time (s): "KB SECONDS STATUS".
 *
 * A child's ru_maxrss also counts the pages of the process it was forked
 * from, before its exec: forking from a small C program keeps that near
 * 1 MB, where a fork from Python would add Python's own 10+ MB.
 *
 * Usage: peak_rss COMMAND [ARG...]
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE     /* wait4 */
#endif
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    struct rusage ru;
    struct timespec t0, t1;
    int status = 0;
    pid_t pid;

    if (argc < 2) {
        fprintf(stderr, "usage: peak_rss COMMAND [ARG...]\n");
        return 2;
    }
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid = fork();
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        if (fd >= 0)
            dup2(fd, STDOUT_FILENO);
        execv(argv[1], argv + 1);
        _exit(127);
    }
    if (pid < 0 || wait4(pid, &status, 0, &ru) < 0) {
        perror("peak_rss");
        return 1;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("%ld %.3f %d\n", ru.ru_maxrss,
           (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec -
                                                            t0.tv_nsec),
           WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
    return 0;
}
