/* SPDX-License-Identifier: ISC */
/*
 * test_snapshot.c - text, ANSI and SVG output of a canvas, and the
 * atomic save.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "colormap.h"
#include "snapshot.h"
#include "harness.h"

#define RED RGB(255, 0, 0)
#define BLUE RGB(0, 0, 255)
#define GREEN RGB(0, 255, 0)

static char out[65536];

/* Render c into the static buffer out (NUL-terminated). */
static const char *render(const canvas *c, enum snap_format fmt, int ascii,
                          enum color_mode mode)
{
    FILE *f = tmpfile();
    size_t n;

    out[0] = '\0';
    if (!f)
        return out;
    if (snapshot_write(f, c, fmt, ascii, mode) != 0) {
        fclose(f);
        return "(write failed)";
    }
    rewind(f);
    n = fread(out, 1, sizeof out - 1, f);
    out[n] = '\0';
    fclose(f);
    return out;
}

static int count_str(const char *hay, const char *needle)
{
    int n = 0;
    size_t len = strlen(needle);

    for (; (hay = strstr(hay, needle)) != NULL; hay += len)
        n++;
    return n;
}

static void test_formats(void)
{
    CHECK(snap_format_parse("text") == SNAP_TEXT);
    CHECK(snap_format_parse("ansi") == SNAP_ANSI);
    CHECK(snap_format_parse("svg") == SNAP_SVG);
    CHECK(snap_format_parse("SVG") == -1);
    CHECK(snap_format_parse("") == -1);
    CHECK(snap_format_parse(NULL) == -1);
}

static void test_text(void)
{
    canvas c;

    canvas_init(&c, 7, 4);
    canvas_text(&c, 0, 0, -1, "ab", RED, RGB_DEFAULT, 0);
    canvas_text(&c, 3, 0, -1, "位", RED, RGB_DEFAULT, 0);
    canvas_text(&c, 5, 2, -1, "x", RED, RGB_DEFAULT, 0);
    canvas_box(&c, 0, 3, 4, 1, RED, NULL);
    CHECK_STR(render(&c, SNAP_TEXT, 0, COLOR_NONE),
              "ab 位\n\n     x\n────\n");
    CHECK_STR(render(&c, SNAP_TEXT, 1, COLOR_NONE),
              "ab ?\n\n     x\n----\n");
    /* text ignores colour, whatever the mode */
    CHECK_STR(render(&c, SNAP_TEXT, 0, COLOR_256),
              "ab 位\n\n     x\n────\n");
    /* the injection attempt is printed inert */
    canvas_clear(&c);
    canvas_text(&c, 0, 0, -1, "\033[2J\r", RGB_DEFAULT, RGB_DEFAULT, 0);
    CHECK_STR(render(&c, SNAP_TEXT, 1, COLOR_NONE), "?[2J?\n\n\n\n");
    CHECK(strchr(render(&c, SNAP_TEXT, 0, COLOR_NONE), '\033') == NULL);
    canvas_at(&c, 6, 1)->ch = 0x1B;                    /* poked directly */
    CHECK(strchr(render(&c, SNAP_ANSI, 0, COLOR_256), '\033') == NULL);
    canvas_free(&c);

    /* half-blocks without colour: density glyphs */
    canvas_init(&c, 3, 1);
    canvas_half(&c, 0, 0, RED, 9);
    canvas_half(&c, 0, 1, RED, 9);
    canvas_half(&c, 1, 0, RED, 0);
    canvas_half(&c, 1, 1, RED, 4);
    CHECK_STR(render(&c, SNAP_TEXT, 0, COLOR_NONE), "@\n");  /* top: 0 */
    CHECK_STR(render(&c, SNAP_TEXT, 1, COLOR_NONE), "@\n");
    canvas_free(&c);

    /* a 0-sized canvas writes nothing and succeeds */
    canvas_init(&c, 0, 0);
    CHECK_STR(render(&c, SNAP_TEXT, 0, COLOR_NONE), "");
    canvas_free(&c);
}

static void test_ansi(void)
{
    canvas c;
    const char *s;

    canvas_init(&c, 6, 3);
    canvas_text(&c, 0, 0, -1, "RR", RED, RGB_DEFAULT, 0);
    canvas_text(&c, 2, 0, -1, "b", RED, BLUE, ATTR_BOLD);
    canvas_text(&c, 3, 0, -1, "p", RED, RGB_DEFAULT, 0);
    canvas_text(&c, 0, 1, -1, "plain", RGB_DEFAULT, RGB_DEFAULT, 0);

    s = render(&c, SNAP_ANSI, 0, COLOR_256);
    CHECK_STR(s, "\033[38;5;196mRR\033[1;48;5;21mb\033[0;38;5;196mp\033[0m\n"
                 "plain\n\n");
    s = render(&c, SNAP_ANSI, 0, COLOR_TRUE);
    CHECK(strstr(s, "\033[38;2;255;0;0mRR") == s);
    CHECK(strstr(s, "48;2;0;0;255mb") != NULL);
    s = render(&c, SNAP_ANSI, 0, COLOR_16);
    CHECK(strstr(s, "\033[91mRR\033[1;44mb\033[0;91mp\033[0m\n") == s);
    s = render(&c, SNAP_ANSI, 0, COLOR_8);
    CHECK(strstr(s, "\033[31mRR\033[1;44mb\033[0;31mp\033[0m\n") == s);
    s = render(&c, SNAP_ANSI, 0, COLOR_NONE);
    CHECK_STR(s, "RR\033[1mb\033[0mp\nplain\n\n");

    /* runs of equal attributes cost one escape; plain lines none */
    canvas_clear(&c);
    canvas_fill(&c, 0, 0, 6, 1, '#', GREEN, BLUE);
    s = render(&c, SNAP_ANSI, 0, COLOR_256);
    CHECK_STR(s, "\033[38;5;46;48;5;21m######\033[0m\n\n\n");
    CHECK(count_str(s, "\033[") == 2);

    /* coloured trailing spaces are kept; default ones trimmed */
    canvas_clear(&c);
    canvas_fill(&c, 0, 0, 3, 1, ' ', RGB_DEFAULT, BLUE);
    s = render(&c, SNAP_ANSI, 0, COLOR_256);
    CHECK_STR(s, "\033[48;5;21m   \033[0m\n\n\n");
    CHECK_STR(render(&c, SNAP_TEXT, 0, COLOR_256), "\n\n\n");
    canvas_put(&c, 4, 1, ' ', RGB_DEFAULT, RGB_DEFAULT, ATTR_REVERSE);
    CHECK_STR(render(&c, SNAP_TEXT, 0, COLOR_256), "\n\n\n");
    CHECK_STR(render(&c, SNAP_ANSI, 0, COLOR_NONE),
              "\n    \033[7m \033[0m\n\n");

    /* half-blocks: fg top, bg bottom; a lone bottom uses the lower half */
    canvas_clear(&c);
    canvas_half(&c, 0, 0, RED, 5);
    canvas_half(&c, 0, 1, BLUE, 5);
    canvas_half(&c, 1, 1, GREEN, 5);
    s = render(&c, SNAP_ANSI, 0, COLOR_256);
    CHECK_STR(s, "\033[38;5;196;48;5;21m▀\033[38;5;46;49m▄\033[0m\n\n\n");
    s = render(&c, SNAP_ANSI, 1, COLOR_256);
    CHECK_STR(s, "\033[48;5;196m \033[48;5;46m \033[0m\n\n\n");
    canvas_free(&c);
}

/* Run python's XML parser on path; returns the number of <rect>, <text>
 * elements (rects * 1000 + texts), or -1 if it does not parse. */
static int svg_parse_count(const char *path)
{
    char cmd[512], line[64] = "";
    FILE *p;
    int n = -1;

    snprintf(cmd, sizeof cmd,
             "python3 -c \"import sys,xml.dom.minidom; "
             "d=xml.dom.minidom.parse(sys.argv[1]); "
             "print(len(d.getElementsByTagName('rect'))*1000"
             "+len(d.getElementsByTagName('text')))\" %s 2>/dev/null", path);
    p = popen(cmd, "r");
    if (!p)
        return -1;
    if (fgets(line, sizeof line, p))
        n = atoi(line);
    if (pclose(p) != 0)
        n = -1;
    return n;
}

static int xml_wellformed(const char *path)
{
    char cmd[512];

    snprintf(cmd, sizeof cmd,
             "python3 -c \"import sys,xml.dom.minidom; "
             "xml.dom.minidom.parse(sys.argv[1])\" %s 2>/dev/null", path);
    return system(cmd) == 0;
}

static void test_svg(void)
{
    char path[] = "/tmp/peviz-test-svg-XXXXXX";
    canvas c;
    FILE *f;
    int fd;

    fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    f = fdopen(fd, "w");

    canvas_init(&c, 6, 3);
    /* row 0: two red cells, one blue, default: 2 rects */
    canvas_fill(&c, 0, 0, 2, 1, ' ', RGB_DEFAULT, RED);
    canvas_put(&c, 2, 0, 'x', GREEN, BLUE, 0);
    /* row 1: two equal half-block cells (top green, bottom red): one run,
     * 2 rects; one with only the top set: 1 rect */
    canvas_half(&c, 0, 2, GREEN, 5);
    canvas_half(&c, 0, 3, RED, 5);
    canvas_half(&c, 1, 2, GREEN, 5);
    canvas_half(&c, 1, 3, RED, 5);
    canvas_half(&c, 3, 2, BLUE, 5);
    /* row 2: text with XML specials, in one run, and a reversed cell */
    canvas_text(&c, 0, 2, -1, "<&\">", RED, RGB_DEFAULT, ATTR_BOLD);
    canvas_put(&c, 5, 2, 'r', RGB_DEFAULT, RGB_DEFAULT, ATTR_REVERSE);
    CHECK(snapshot_write(f, &c, SNAP_SVG, 0, COLOR_TRUE) == 0);
    fclose(f);
    /* background + 2 + 2 + 1 + 1 (the reversed cell) rects; 3 texts */
    CHECK(svg_parse_count(path) == 7 * 1000 + 3);

    render(&c, SNAP_SVG, 0, COLOR_TRUE);
    CHECK(strstr(out, "<?xml version=\"1.0\"") == out);
    CHECK(strstr(out, "xmlns=\"http://www.w3.org/2000/svg\"") != NULL);
    CHECK(strstr(out, "width=\"48\" height=\"48\" viewBox=\"0 0 48 48\"") !=
          NULL);
    CHECK(strstr(out, "&lt;&amp;&quot;&gt;</text>") != NULL);
    CHECK(strstr(out, "fill=\"#1e1e1e\"") != NULL);
    CHECK(strstr(out, "<rect x=\"0\" y=\"0\" width=\"16\" height=\"16\" "
                      "fill=\"#ff0000\"/>") != NULL);
    CHECK(strstr(out, "<rect x=\"0\" y=\"16\" width=\"16\" height=\"8\" "
                      "fill=\"#00ff00\"/>") != NULL);
    CHECK(strstr(out, "font-family=\"monospace\"") != NULL);
    CHECK(strstr(out, "xml:space=\"preserve\"") != NULL);
    CHECK(strstr(out, "font-weight=\"bold\"") != NULL);
    /* reverse: default fg becomes the background */
    CHECK(strstr(out, "<rect x=\"40\" y=\"32\" width=\"8\" height=\"16\" "
                      "fill=\"#d0d0d0\"/>") != NULL);

    /* mono SVG: no coloured rects, only the page and the reversed cell */
    render(&c, SNAP_SVG, 0, COLOR_NONE);
    CHECK(count_str(out, "<rect") == 2);

    /* hostile content stays well-formed XML */
    canvas_clear(&c);
    canvas_text(&c, 0, 0, -1, "\033]0;pwned\007", RED, RGB_DEFAULT, 0);
    canvas_text(&c, 0, 1, -1, "位置\xef\xbf\xbf]]>", RED, RGB_DEFAULT, 0);
    canvas_at(&c, 5, 2)->ch = 0x0B;                     /* poked directly */
    canvas_at(&c, 4, 2)->ch = 0xFFFE;
    f = fopen(path, "w");
    CHECK(snapshot_write(f, &c, SNAP_SVG, 0, COLOR_256) == 0);
    fclose(f);
    CHECK(xml_wellformed(path));

    /* and the checker itself rejects broken XML */
    f = fopen(path, "w");
    fputs("<svg><text>a & b</text></svg>\n", f);
    fclose(f);
    CHECK(!xml_wellformed(path));
    CHECK(svg_parse_count(path) == -1);

    unlink(path);
    canvas_free(&c);
}

/* Names in dir, joined by ' ' in sorted-insensitive order of readdir. */
static int dir_entries(const char *dir, char *names, size_t len)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;

    names[0] = '\0';
    if (!d)
        return -1;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        n++;
        strncat(names, e->d_name, len - strlen(names) - 1);
        strncat(names, " ", len - strlen(names) - 1);
    }
    closedir(d);
    return n;
}

static void read_file(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    size_t n = 0;

    if (f) {
        n = fread(buf, 1, len - 1, f);
        fclose(f);
    }
    buf[n] = '\0';
}

static void test_save(void)
{
    char dir[] = "/tmp/peviz-test-save-XXXXXX", path[256], names[512];
    char buf[4096];
    struct rlimit old, small;
    struct stat st;
    canvas c;
    mode_t um;
    int rc, e;

    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/frame.txt", dir);
    canvas_init(&c, 10, 2);
    canvas_text(&c, 0, 0, -1, "hello", RED, RGB_DEFAULT, 0);

    um = umask(022);
    CHECK(snapshot_save(path, &c, SNAP_TEXT, 0, COLOR_NONE) == 0);
    umask(um);
    CHECK(dir_entries(dir, names, sizeof names) == 1);
    CHECK_STR(names, "frame.txt ");
    read_file(path, buf, sizeof buf);
    CHECK_STR(buf, "hello\n\n");
    CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0644);

    /* an existing file is never replaced: EEXIST, the file intact, no
     * temporary file left */
    canvas_text(&c, 0, 1, -1, "world", RED, RGB_DEFAULT, 0);
    errno = 0;
    CHECK(snapshot_save(path, &c, SNAP_TEXT, 0, COLOR_NONE) == -1);
    CHECK(errno == EEXIST);
    read_file(path, buf, sizeof buf);
    CHECK_STR(buf, "hello\n\n");
    CHECK(dir_entries(dir, names, sizeof names) == 1);

    /* a relative name saves into the working directory */
    {
        char cwd[512];
        CHECK(getcwd(cwd, sizeof cwd) != NULL);
        CHECK(chdir(dir) == 0);
        CHECK(snapshot_save("rel.svg", &c, SNAP_SVG, 0, COLOR_TRUE) == 0);
        CHECK(chdir(cwd) == 0);
    }
    CHECK(dir_entries(dir, names, sizeof names) == 2);
    snprintf(buf, sizeof buf, "%s/rel.svg", dir);
    CHECK(xml_wellformed(buf));
    unlink(buf);

    /* a missing directory: -1 with errno, nothing created */
    snprintf(buf, sizeof buf, "%s/nope/frame.txt", dir);
    errno = 0;
    CHECK(snapshot_save(buf, &c, SNAP_TEXT, 0, COLOR_NONE) == -1);
    CHECK(errno == ENOENT);
    errno = 0;
    CHECK(snapshot_save("", &c, SNAP_TEXT, 0, COLOR_NONE) == -1);
    CHECK(errno == EINVAL);

    /* a write that fails mid-way (file size limit): -1, the old file is
     * intact and no temporary file is left behind */
    canvas_free(&c);
    canvas_init(&c, 200, 100);
    canvas_fill(&c, 0, 0, 200, 100, 'z', RED, BLUE);
    signal(SIGXFSZ, SIG_IGN);
    getrlimit(RLIMIT_FSIZE, &old);
    small = old;
    small.rlim_cur = 1000;
    setrlimit(RLIMIT_FSIZE, &small);
    errno = 0;
    rc = snapshot_save(path, &c, SNAP_ANSI, 0, COLOR_TRUE);
    e = errno;
    setrlimit(RLIMIT_FSIZE, &old);
    CHECK(rc == -1);
    CHECK(e == EFBIG);
    read_file(path, buf, sizeof buf);
    CHECK_STR(buf, "hello\n\n");
    CHECK(dir_entries(dir, names, sizeof names) == 1);
    CHECK_STR(names, "frame.txt ");

    unlink(path);
    rmdir(dir);
    canvas_free(&c);
}

/* A writer killed mid-way (SIGKILL: no cleanup runs) never leaves a
 * partial file under the final name: the name is absent, or complete. */
static void test_save_killed(void)
{
    char dir[] = "/tmp/peviz-test-kill-XXXXXX", path[256], names[512];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/frame.svg", dir);
    pid_t pid = fork();
    if (pid == 0) {
        canvas c;                       /* ~40 MB of SVG: slow to write */
        canvas_init(&c, 1000, 1000);
        for (int y = 0; y < 1000; y++)
            for (int x = 0; x < 1000; x++)
                canvas_put(&c, x, y, 'x', RGB(x % 256, y % 256, 7),
                           RGB(y % 256, x % 256, 9), 0);
        _exit(snapshot_save(path, &c, SNAP_SVG, 0, COLOR_TRUE) ? 1 : 0);
    }
    CHECK(pid > 0);
    /* wait (bounded) until the writer has started its temporary file */
    for (int i = 0; i < 500 && dir_entries(dir, names, sizeof names) == 0; i++)
        usleep(10000);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    struct stat st;
    if (stat(path, &st) == 0)
        CHECK(xml_wellformed(path));
    else
        CHECK(errno == ENOENT);
    /* clean up whatever the killed writer left */
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));)
        if (e->d_name[0] != '.' || (e->d_name[1] && e->d_name[1] != '.')) {
            char f[512];
            snprintf(f, sizeof f, "%s/%s", dir, e->d_name);
            unlink(f);
        }
    if (d)
        closedir(d);
    rmdir(dir);
}

int main(void)
{
    test_formats();
    test_text();
    test_ansi();
    test_svg();
    test_save();
    test_save_killed();
    TEST_END("snapshot");
}
