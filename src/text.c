/*
 * text.c - small text helpers (see text.h).
 */
#include <stdio.h>
#include <string.h>

#include "text.h"

const char *words_join(const char *const *words, int n, char *buf,
                       size_t len)
{
    size_t used = 0;
    if (len)
        buf[0] = 0;
    for (int i = 0; i < n && used < len; i++) {
        const char *sep = i == 0 ? "" : i == n - 1 ? " or " : ", ";
        int w = snprintf(buf + used, len - used, "%s%s", sep, words[i]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
    return buf;
}

int text_first_fit(const char *const *cand, int n, int w)
{
    for (int i = 0; i < n; i++)
        if (cand[i] && text_width(cand[i]) <= w)
            return i;
    return -1;
}

int text_first_fit_rows(const char *rows, size_t stride, int n, int w)
{
    for (int i = 0; i < n; i++)
        if (text_width(rows + (size_t)i * stride) <= w)
            return i;
    return -1;
}

int canvas_text_fit(canvas *c, int x, int y, int w, const char *const *cand,
                    int n, rgb fg, int attr)
{
    int i = text_first_fit(cand, n, w);
    if (i >= 0) {
        canvas_text(c, x, y, w, cand[i], fg, RGB_DEFAULT, attr);
        return i;
    }
    /* none fits: the last one's whole words, never half a word or number,
     * nor an "=" or ":" whose value was cut off */
    char line[512];
    text_wrap_line(cand[n - 1], w, line, sizeof line);
    size_t len = strlen(line);
    if (cand[n - 1][len] != 0 && cand[n - 1][len] != ' ')
        return n - 1;               /* its first word was cut */
    while (len && strchr(" =:", line[len - 1]))
        line[--len] = 0;
    canvas_text(c, x, y, w, line, fg, RGB_DEFAULT, attr);
    return n - 1;
}

size_t text_wrap_line(const char *s, int width, char *out, size_t outlen)
{
    size_t end = 0, i = 0, cap = outlen - 1;
    out[0] = 0;
    while (s[i]) {
        size_t j = i;
        while (s[j] == ' ')
            j++;
        while (s[j] && s[j] != ' ')
            j++;
        if (j > cap)
            break;
        memcpy(out, s, j);
        out[j] = 0;
        if (text_width(out) > width)
            break;
        end = i = j;
    }
    while (end == 0 && s[i]) {          /* one word wider than the line */
        const char *next = s + i;
        utf8_next(&next);
        size_t l = (size_t)(next - (s + i));
        if (i + l > cap)
            break;
        memcpy(out, s, i + l);
        out[i + l] = 0;
        if (text_width(out) > width)
            break;
        i += l;
    }
    if (end == 0)
        end = i;
    out[end] = 0;
    while (s[end] == ' ')
        end++;
    return end;
}

/* x of tw cells centred in [l, r), or -1 when it does not fit. */
static int centred(int l, int r, int tw)
{
    return tw <= r - l ? l + (r - l - tw) / 2 : -1;
}

int text_place_clear(int l, int r, int tw, int mark)
{
    int x = centred(l, r, tw);
    if (x < 0 || mark < x - 1 || mark > x + tw)
        return x;
    int left = centred(l, mark - 1, tw), right = centred(mark + 2, r, tw);
    if (left < 0 || right < 0)
        return left < 0 ? right : left;
    return mark - 1 - l >= r - mark - 2 ? left : right;
}
