/* SPDX-License-Identifier: ISC */
/*
 * termcaps.c - a copy of the terminfo entry without REP and scrolling
 * (termcaps.h).  The compiled format (term(5)): six little-endian 16-bit
 * numbers (magic, names size, booleans, numbers, strings, string table
 * size), the names, the booleans, a pad byte to an even offset, the
 * numbers (2 bytes each, 4 with magic 01036), then one 16-bit offset
 * per string capability, -1 meaning absent.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "termcaps.h"

#define MAGIC_16 0432
#define MAGIC_32 01036
#define ENTRY_MAX 65536

static const int UNSAFE[] = { CAP_CSR, CAP_DL1, CAP_IL1, CAP_DL, CAP_INDN,
                              CAP_IL, CAP_RIN, CAP_REP, CAP_IND, CAP_RI };

static unsigned le16(const unsigned char *p)
{
    return (unsigned)p[0] | (unsigned)p[1] << 8;
}

/* Offset of the string offsets in buf and their count; -1 if buf is
 * not a compiled entry. */
static long string_offsets(const unsigned char *buf, size_t len, int *count)
{
    unsigned magic, names, bools, nums, strs, numw;
    size_t at;

    if (len < 12)
        return -1;
    magic = le16(buf);
    if (magic != MAGIC_16 && magic != MAGIC_32)
        return -1;
    names = le16(buf + 2);
    bools = le16(buf + 4);
    nums = le16(buf + 6);
    strs = le16(buf + 8);
    numw = magic == MAGIC_32 ? 4 : 2;
    at = 12 + (size_t)names + bools;
    at += at % 2;
    at += (size_t)nums * numw;
    if (at + (size_t)strs * 2 > len)
        return -1;
    *count = (int)strs;
    return (long)at;
}

int termcaps_has(const unsigned char *buf, size_t len, int idx)
{
    int count = 0;
    long at = string_offsets(buf, len, &count);

    if (at < 0)
        return -1;
    if (idx < 0 || idx >= count)
        return 0;
    return (le16(buf + at + 2 * idx) & 0x8000) == 0;
}

int termcaps_patch(unsigned char *buf, size_t len)
{
    int count = 0, n = 0;
    long at = string_offsets(buf, len, &count);

    if (at < 0)
        return -1;
    for (size_t i = 0; i < sizeof UNSAFE / sizeof UNSAFE[0]; i++) {
        unsigned char *p = buf + at + 2 * UNSAFE[i];
        if (UNSAFE[i] >= count || (le16(p) & 0x8000))
            continue;
        p[0] = p[1] = 0xFF;             /* -1: absent */
        n++;
    }
    return n;
}

/* dir/X/term or dir/XX/term (hex, as on macOS) if it is a file. */
static int in_dir(const char *dir, const char *term, char *path, size_t len)
{
    struct stat st;
    int n;

    if (!dir || !*dir)
        return -1;
    n = snprintf(path, len, "%s/%c/%s", dir, term[0], term);
    if (n > 0 && (size_t)n < len && stat(path, &st) == 0 &&
        S_ISREG(st.st_mode))
        return 0;
    n = snprintf(path, len, "%s/%02x/%s", dir, (unsigned char)term[0], term);
    if (n > 0 && (size_t)n < len && stat(path, &st) == 0 &&
        S_ISREG(st.st_mode))
        return 0;
    return -1;
}

static int in_system(const char *term, char *path, size_t len)
{
    static const char *const SYS[] = { "/etc/terminfo", "/lib/terminfo",
                                       "/usr/share/terminfo",
                                       "/usr/lib/terminfo" };

    for (size_t i = 0; i < sizeof SYS / sizeof SYS[0]; i++)
        if (in_dir(SYS[i], term, path, len) == 0)
            return 0;
    return -1;
}

/* TERMINFO_DIRS: a colon-separated list; an empty entry means the
 * system directories. */
static int in_dirs(const char *list, const char *term, char *path,
                   size_t len)
{
    char dir[1024];

    while (list && *list) {
        const char *end = strchr(list, ':');
        size_t n = end ? (size_t)(end - list) : strlen(list);
        if (n == 0 ? in_system(term, path, len) == 0
            : n < sizeof dir && (memcpy(dir, list, n), dir[n] = 0,
                                 in_dir(dir, term, path, len) == 0))
            return 0;
        list = end ? end + 1 : list + n;
    }
    return -1;
}

int termcaps_find(const char *term, char *path, size_t pathlen)
{
    const char *home = getenv("HOME");
    char dot[1024];

    if (!term || !*term || strchr(term, '/'))
        return -1;
    if (in_dir(getenv("TERMINFO"), term, path, pathlen) == 0)
        return 0;
    if (home && snprintf(dot, sizeof dot, "%s/.terminfo", home) <
        (int)sizeof dot && in_dir(dot, term, path, pathlen) == 0)
        return 0;
    if (in_dirs(getenv("TERMINFO_DIRS"), term, path, pathlen) == 0)
        return 0;
    return in_system(term, path, pathlen);
}

static long read_entry(const char *path, unsigned char *buf, size_t len)
{
    FILE *f = fopen(path, "rb");
    size_t n;

    if (!f)
        return -1;
    n = fread(buf, 1, len, f);
    fclose(f);
    return n > 0 && n < len ? (long)n : -1;
}

static int write_entry(const char *path, const unsigned char *buf, size_t n)
{
    FILE *f = fopen(path, "wb");
    int ok;

    if (!f)
        return -1;
    ok = fwrite(buf, 1, n, f) == n;
    return (fclose(f) == 0 && ok) ? 0 : -1;
}

int termcaps_portable(const char *term, char *dir, size_t dirlen)
{
    unsigned char *buf = malloc(ENTRY_MAX);
    char src[1024], sub[1200], dst[1400];
    const char *tmp = getenv("TMPDIR");
    long n;
    int r = -1;

    if (!buf || termcaps_find(term, src, sizeof src) < 0 ||
        (n = read_entry(src, buf, ENTRY_MAX)) < 0 ||
        termcaps_patch(buf, (size_t)n) < 0)
        goto out;
    if (!tmp || !*tmp)
        tmp = "/tmp";
    if (snprintf(dir, dirlen, "%s/peviz-ti.XXXXXX", tmp) >= (int)dirlen ||
        !mkdtemp(dir))
        goto out;
    snprintf(sub, sizeof sub, "%s/%c", dir, term[0]);
    snprintf(dst, sizeof dst, "%s/%s", sub, term);
    r = mkdir(sub, 0700) == 0 && write_entry(dst, buf, (size_t)n) == 0
        ? 0 : -1;
    if (r < 0)
        termcaps_remove(dir, term);
out:
    free(buf);
    return r;
}

void termcaps_remove(const char *dir, const char *term)
{
    char sub[1200], dst[1400];

    snprintf(sub, sizeof sub, "%s/%c", dir, term[0]);
    snprintf(dst, sizeof dst, "%s/%s", sub, term);
    unlink(dst);
    rmdir(sub);
    rmdir(dir);
}
