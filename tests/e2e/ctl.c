/* SPDX-License-Identifier: ISC */
/* ctl: one tmux control client held open for a test scenario, so that
 * a command to the scenario's tmux server is a round trip on two FIFOs
 * instead of a new tmux process (lib.sh's t() uses it when built).
 *
 *   ctl SOCKET CONFIG SESSION REPLY <requests >statuses
 *
 * A request is one line of tmux commands in tmux's own syntax.  ctl
 * passes it to `tmux -C attach` followed by a marker command, gathers
 * the output of every command before the marker, writes it to the file
 * REPLY followed by a line ".", and then writes one status line: "0",
 * or "1" when a command failed (the reply is then tmux's message).  When
 * the client ends (the server or the session is gone) the status is
 * "2", and ctl exits.  The first status line, "0", says the client is
 * attached and sends no pane output.
 */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define MARK "ctl-mark"

struct buf {
    char *p;
    size_t len, cap;
};

static void buf_add(struct buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2;
        b->p = realloc(b->p, b->cap);
        if (!b->p) {
            perror("ctl");
            exit(1);
        }
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

/* Starts tmux -C attached to SESSION; its stdin and stdout are ours. */
static pid_t start_tmux(char **argv, FILE **to, FILE **from)
{
    int in[2], out[2];
    if (pipe(in) || pipe(out))
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(in[0], 0);
        dup2(out[1], 1);
        dup2(null, 2);
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        execlp("tmux", "tmux", "-S", argv[1], "-f", argv[2], "-C",
               "attach-session", "-t", argv[3], (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    *to = fdopen(in[1], "w");
    *from = fdopen(out[0], "r");
    return pid;
}

/* Sends REQ and the marker, then reads tmux's output blocks until the
 * marker's: their bodies go to OUT.  Returns 0, 1 (a command failed) or
 * 2 (the client ended). */
static int run(FILE *to, FILE *from, const char *req, struct buf *out)
{
    static char *line;
    static size_t cap;
    char begin[64] = "";
    struct buf body = { 0 };
    int failed = 0;

    fprintf(to, "%s\ndisplay-message -p " MARK "\n", req);
    fflush(to);
    out->len = 0;
    buf_add(out, "", 0);
    while (getline(&line, &cap, from) > 0) {
        if (!*begin) {          /* between blocks: notifications */
            if (strncmp(line, "%begin ", 7) == 0) {
                snprintf(begin, sizeof begin, "%s", line + 7);
                body.len = 0;
            } else if (strncmp(line, "%exit", 5) == 0)
                break;
            continue;
        }
        /* "%end TIME NUMBER FLAGS", as its "%begin" said */
        int is_end = strncmp(line, "%end ", 5) == 0 && strcmp(line + 5, begin) == 0;
        int is_err = strncmp(line, "%error ", 7) == 0 && strcmp(line + 7, begin) == 0;
        if (!is_end && !is_err) {
            buf_add(&body, line, strlen(line));
            continue;
        }
        *begin = '\0';
        if (body.len && strcmp(body.p, MARK "\n") == 0) {
            free(body.p);
            return failed;
        }
        if (body.len)
            buf_add(out, body.p, body.len);
        failed |= is_err;
    }
    free(body.p);
    return 2;
}

/* tmux reads the client's input while its own attach-session is still
 * queued: a command sent before "%session-changed" would run with no
 * client (and the attach block would come after its reply). */
static int wait_attached(FILE *from)
{
    char *line = NULL;
    size_t cap = 0;
    int ok = 0;
    while (!ok && getline(&line, &cap, from) > 0)
        ok = strncmp(line, "%session-changed ", 17) == 0;
    free(line);
    return ok;
}

static int write_reply(const char *path, const struct buf *out)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fwrite(out->p, 1, out->len, f);
    fputs(".\n", f);
    return fclose(f);
}

static pid_t tmux_pid;

/* Ended by the test (it waited too long): the client goes too, or the
 * server would wait for it at kill-server. */
static void on_term(int sig)
{
    (void)sig;
    if (tmux_pid > 0)
        kill(tmux_pid, SIGTERM);
    _exit(1);
}

int main(int argc, char **argv)
{
    FILE *to, *from;
    struct buf out = { 0 };
    char *req = NULL;
    size_t cap = 0;
    ssize_t n;
    int st;

    if (argc != 5) {
        fprintf(stderr, "usage: ctl SOCKET CONFIG SESSION REPLY\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    pid_t pid = start_tmux(argv, &to, &from);
    if (pid < 0 || !to || !from)
        return 1;
    tmux_pid = pid;
    signal(SIGTERM, on_term);
    st = wait_attached(from) ? run(to, from, "refresh-client -f no-output", &out) : 2;
    printf("%d\n", st == 1 ? 2 : st);
    fflush(stdout);
    while (st != 2 && (n = getline(&req, &cap, stdin)) > 0) {
        req[strcspn(req, "\n")] = '\0';
        st = run(to, from, req, &out);
        if (write_reply(argv[4], &out) != 0)
            st = 2;
        printf("%d\n", st);
        fflush(stdout);
    }
    /* A control client that sends no pane output is never let go by a
     * server told to exit (tmux 3.3 waits for that output to be sent):
     * ending the client lets the server end. */
    fclose(to);
    kill(pid, SIGTERM);
    fclose(from);
    waitpid(pid, NULL, 0);
    free(out.p);
    free(req);
    return 0;
}
