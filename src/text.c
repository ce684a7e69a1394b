/* SPDX-License-Identifier: ISC */
/*
 * text.c - the text layer (text.h): UTF-8 decoding and encoding, the
 * width of code points and strings, making text safe for a terminal,
 * word wrap, and the small helpers the views and the frame share.
 */
#include <stdio.h>
#include <string.h>

#include "text.h"

/* ---- code points ------------------------------------------------------ */

struct cp_range {
    uint32_t lo, hi;
};

/*
 * East Asian Wide and Fullwidth blocks (the common ones: CJK, Hangul,
 * kana, fullwidth forms, emoji), sorted for binary search.
 */
static const struct cp_range WIDE[] = {
    {0x1100, 0x115F},   /* Hangul Jamo initial consonants */
    {0x2E80, 0xA4CF},   /* CJK radicals .. Yi */
    {0xAC00, 0xD7A3},   /* Hangul syllables */
    {0xF900, 0xFAFF},   /* CJK compatibility ideographs */
    {0xFE30, 0xFE4F},   /* CJK compatibility forms */
    {0xFF00, 0xFF60},   /* fullwidth forms */
    {0xFFE0, 0xFFE6},   /* fullwidth signs */
    {0x1F300, 0x1F64F}, /* pictographs, emoticons */
    {0x1F680, 0x1F6FF}, /* transport and map symbols */
    {0x1F900, 0x1F9FF}, /* supplemental pictographs */
    {0x20000, 0x3FFFD}, /* CJK extensions B.. */
};

/*
 * Code points that take no cell: combining marks (they would stack on
 * the previous glyph, which a one-code-point cell cannot hold) and
 * invisible format characters (zero-width spaces, bidi overrides, BOM,
 * variation selectors, tags), which could reorder or hide text.
 */
static const struct cp_range ZERO[] = {
    {0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD}, {0x05BF, 0x05BF},
    {0x05C1, 0x05C2}, {0x05C4, 0x05C5}, {0x05C7, 0x05C7}, {0x0610, 0x061A},
    {0x061C, 0x061C}, {0x064B, 0x065F}, {0x0670, 0x0670}, {0x06D6, 0x06DC},
    {0x06DF, 0x06E4}, {0x06E7, 0x06E8}, {0x06EA, 0x06ED}, {0x0E31, 0x0E31},
    {0x0E34, 0x0E3A}, {0x0E47, 0x0E4E}, {0x1AB0, 0x1AFF}, {0x1DC0, 0x1DFF},
    {0x200B, 0x200F}, {0x2028, 0x202E}, {0x2060, 0x206F}, {0x20D0, 0x20FF},
    {0x302A, 0x302D}, {0x3099, 0x309A}, {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F},
    {0xFEFF, 0xFEFF}, {0xFFF9, 0xFFFB}, {0xE0000, 0xE007F},
    {0xE0100, 0xE01EF},
};

static int range_find(const struct cp_range *t, size_t n, uint32_t cp)
{
    size_t lo = 0, hi = n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cp < t[mid].lo)
            hi = mid;
        else if (cp > t[mid].hi)
            lo = mid + 1;
        else
            return 1;
    }
    return 0;
}

/* Code points that must never reach a terminal as themselves. */
static int cp_is_unsafe(uint32_t cp)
{
    return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) ||
           (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF;
}

int cp_width(uint32_t cp)
{
    if (cp_is_unsafe(cp))
        return 1;                 /* shown as U+FFFD */
    if (cp < 0x300)
        return 1;
    if (range_find(ZERO, sizeof ZERO / sizeof ZERO[0], cp))
        return 0;
    if (range_find(WIDE, sizeof WIDE / sizeof WIDE[0], cp))
        return 2;
    return 1;
}

/* The code point a cell may hold in place of cp. */
uint32_t cp_sanitize(uint32_t cp)
{
    if (cp == CP_GLUE)
        return ' ';
    if (cp_is_unsafe(cp) || cp_width(cp) == 0)
        return CP_REPLACEMENT;
    return cp;
}

void text_unglue(char *s)
{
    char *o = s;
    while (*s)
        if (strncmp(s, TEXT_GLUE, 2) == 0) {
            *o++ = ' ';
            s += 2;
        } else {
            *o++ = *s++;
        }
    *o = 0;
}

int utf8_encode(uint32_t cp, char *buf)
{
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        cp = CP_REPLACEMENT;
    if (cp < 0x80) {
        buf[0] = (char)cp;
        buf[1] = '\0';
        return 1;
    }
    if (cp < 0x800) {
        buf[0] = (char)(0xC0 | (cp >> 6));
        buf[1] = (char)(0x80 | (cp & 0x3F));
        buf[2] = '\0';
        return 2;
    }
    if (cp < 0x10000) {
        buf[0] = (char)(0xE0 | (cp >> 12));
        buf[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        buf[2] = (char)(0x80 | (cp & 0x3F));
        buf[3] = '\0';
        return 3;
    }
    buf[0] = (char)(0xF0 | (cp >> 18));
    buf[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    buf[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    buf[3] = (char)(0x80 | (cp & 0x3F));
    buf[4] = '\0';
    return 4;
}

long utf8_decode(const unsigned char *s, size_t n, int *len)
{
    static const long MIN[5] = { 0, 0, 0x80, 0x800, 0x10000 };
    unsigned char b = s[0];
    int l = b < 0x80 ? 1 : b < 0xC2 ? 0 : b < 0xE0 ? 2 : b < 0xF0 ? 3
          : b < 0xF5 ? 4 : 0;
    long cp;

    if (l == 0 || (size_t)l > n)
        return -1;
    cp = l == 1 ? b : b & (0x7F >> l);
    for (int i = 1; i < l; i++) {
        if ((s[i] & 0xC0) != 0x80)      /* also stops at the NUL */
            return -1;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if (cp < MIN[l] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return -1;
    *len = l;
    return cp;
}

uint32_t utf8_next(const char **s)
{
    int len;
    long cp = utf8_decode((const unsigned char *)*s, 4, &len);
    if (cp < 0) {               /* malformed: U+FFFD for one byte, so the
                                   next valid character is never lost */
        *s += 1;
        return CP_REPLACEMENT;
    }
    *s += len;
    return (uint32_t)cp;
}

uint32_t utf8_at(const char *s, int *len)
{
    const char *p = s;
    uint32_t cp = utf8_next(&p);
    *len = (int)(p - s);
    return cp;
}

void text_scrub(char *s, int utf8)
{
    const char *r = s;
    char *w = s;

    while (*r) {
        const char *at = r;
        unsigned char b = (unsigned char)*r;
        uint32_t cp = b;
        size_t len;

        if (utf8 && b >= 0x80)
            cp = utf8_next(&r);
        else
            r++;
        len = (size_t)(r - at);

        if (cp_is_unsafe(cp) || (!utf8 && b >= 0x80) ||
            (cp == CP_REPLACEMENT && len == 1)) {
            *w++ = '?';          /* one mark per character or bad byte */
            continue;
        }
        memmove(w, at, len);
        w += len;
    }
    *w = '\0';
}

int text_width(const char *s)
{
    int w = 0;

    if (!s)
        return 0;
    while (*s)
        w += cp_width(utf8_next(&s));
    return w;
}

const char *words_join(const char *const *words, int n, char *buf,
                       size_t len)
{
    return words_join_last(words, n, " or ", buf, len);
}

const char *words_join_last(const char *const *words, int n,
                            const char *last, char *buf, size_t len)
{
    size_t used = 0;
    if (len)
        buf[0] = 0;
    for (int i = 0; i < n && used < len; i++) {
        const char *sep = i == 0 ? "" : i == n - 1 ? last : ", ";
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

/* ---- joining lines, Latin and CJK ----------------------------------- */

uint32_t utf8_last(const char *s)
{
    size_t n = strlen(s);
    while (n > 0 && ((unsigned char)s[n - 1] & 0xC0) == 0x80)
        n--;
    int l;
    return n > 0 ? utf8_at(s + n - 1, &l) : 0;
}

/* Quotation marks that Chinese text sets without blanks around them. */
static int is_quote(uint32_t cp)
{
    return cp == 0x2018 || cp == 0x2019 || cp == 0x201C || cp == 0x201D;
}

/* Full-width punctuation (，。：；、（） etc.): it has its own spacing. */
static int is_wide_punct(uint32_t cp)
{
    return (cp >= 0x3000 && cp <= 0x303F) ||
           (cp >= 0xFF01 && cp <= 0xFF0F) || (cp >= 0xFF1A && cp <= 0xFF20) ||
           (cp >= 0xFF3B && cp <= 0xFF40) || (cp >= 0xFF5B && cp <= 0xFF65);
}

int text_join_blank(uint32_t a, uint32_t b)
{
    int wa = cp_width(a) == 2, wb = cp_width(b) == 2;
    return !((wa && (wb || is_quote(b))) || (is_quote(a) && wb) ||
             is_wide_punct(a));
}

/* ---- wrapping lines, Latin and CJK ----------------------------------- */

/* Punctuation that must not start a line, and that must not end one. */
static int no_line_start(uint32_t cp)
{
    static const uint32_t S[] = {
        0x3001, 0x3002, 0xFF0C, 0xFF0E, 0xFF1A, 0xFF1B, 0xFF01, 0xFF1F,
        0xFF09, 0x300B, 0x300D, 0x300F, 0x3011, 0x3015, 0x201D, 0x2019,
        0x2026, 0x00B7, 0x30FC, 0xFF5E, ',', '.', ';', ':', '!', '?', ')',
        ']', '}', '%',
    };
    for (size_t i = 0; i < sizeof S / sizeof S[0]; i++)
        if (S[i] == cp)
            return 1;
    return 0;
}

static int no_line_end(uint32_t cp)
{
    static const uint32_t E[] = {
        0xFF08, 0x300A, 0x300C, 0x300E, 0x3010, 0x3014, 0x201C, 0x2018,
    };
    for (size_t i = 0; i < sizeof E / sizeof E[0]; i++)
        if (E[i] == cp)
            return 1;
    return 0;
}

/* Whether a line may break between the characters a and b (no blank). */
static int may_break(uint32_t a, uint32_t b)
{
    if (no_line_start(b) || no_line_end(a))
        return 0;
    return cp_width(a) == 2 || cp_width(b) == 2;
}

/* A blank, a lone operator such as = or *, then a blank or the end of
 * the line: a line should not start with the operator. */
static int lone_operator(const char *s)
{
    return s[0] == ' ' && s[1] && strchr("=*+-<>", s[1]) &&
           (s[2] == ' ' || s[2] == '\n' || s[2] == 0);
}

/* The end of the unbreakable piece starting at s[i] (not a blank, not
 * the end of a paragraph); its width in *w.  A lone operator after it
 * ("x =") belongs to it. */
static int piece_end(const char *s, int i, int *w)
{
    int l;
    uint32_t prev = utf8_at(s + i, &l);
    *w = cp_width(prev);
    i += l;
    for (;;) {
        if (lone_operator(s + i)) {
            *w += 2;
            prev = (unsigned char)s[i + 1];
            i += 2;
            continue;
        }
        if (!s[i] || s[i] == ' ' || s[i] == '\n')
            break;
        uint32_t cp = utf8_at(s + i, &l);
        if (may_break(prev, cp))
            break;
        *w += cp_width(cp);
        prev = cp;
        i += l;
    }
    return i;
}

struct wrap {
    struct text_line *out;
    int max, count;
    int start, end, cells;      /* the line being filled; start < 0: none */
};

static void wrap_emit(struct wrap *w, int off, int len, int cells)
{
    if (w->count < w->max) {
        w->out[w->count].off = off;
        w->out[w->count].len = len;
        w->out[w->count].cells = cells;
    }
    w->count++;
}

static void wrap_flush(struct wrap *w)
{
    if (w->start >= 0)
        wrap_emit(w, w->start, w->end - w->start, w->cells);
    w->start = -1;
    w->cells = 0;
}

/* A piece wider than the line: cut it between characters. */
static void wrap_cut(struct wrap *w, const char *s, int i, int e, int width)
{
    while (i < e) {
        int start, cells = 0, l, end;
        while (i < e && s[i] == ' ')    /* the blank of a lone operator */
            i++;
        start = i;
        while (i < e) {
            int cw = cp_width(utf8_at(s + i, &l));
            if (cells + cw > width)
                break;
            cells += cw;
            i += l;
        }
        if (i == start)         /* a wide character on a 1-cell line */
            return;
        for (end = i; s[end - 1] == ' '; end--)
            cells--;
        w->start = start;
        w->end = end;
        w->cells = cells;
        if (i < e)
            wrap_flush(w);
    }
}

/* One paragraph s[i .. '\n' or end); returns where it ended. */
static int wrap_paragraph(struct wrap *w, const char *s, int i, int width)
{
    int gap = 0;
    w->start = -1;
    w->cells = 0;
    while (s[i] && s[i] != '\n') {
        if (s[i] == ' ') {
            gap++;
            i++;
            continue;
        }
        int pw, e = piece_end(s, i, &pw);
        if (w->start >= 0 && w->cells + gap + pw <= width) {
            w->cells += gap + pw;
            w->end = e;
        } else {
            wrap_flush(w);
            if (pw > width) {
                wrap_cut(w, s, i, e, width);
            } else {
                w->start = i;
                w->end = e;
                w->cells = pw;
            }
        }
        gap = 0;
        i = e;
    }
    wrap_flush(w);
    return i;
}

int text_wrap_lines(const char *text, int width, struct text_line *lines,
                    int max)
{
    struct wrap w = { lines, lines ? max : 0, 0, -1, 0, 0 };
    int i = 0;
    if (width < 2 || !text || !*text)
        return 0;
    for (;;) {
        int before = w.count;
        i = wrap_paragraph(&w, text, i, width);
        if (w.count == before)
            wrap_emit(&w, i, 0, 0);         /* an empty line: a blank */
        if (text[i] != '\n')
            break;
        i++;
    }
    return w.count;
}

/* ---- Chinese ----------------------------------------------------------- */

/* What the program says in English, and in Chinese (the tour's language). */
static const char *const ZH[][2] = {
    { "PE heatmap", "PE 热图" }, { "PE clocks", "PE 时钟" },
    { "attention", "注意力" }, { "compare bases", "比较 base" },
    { "compare schemes", "比较位置方案" },
    { "multi-axis positions", "多轴位置" },
    { "? help", "? 帮助" }, { "tour", "导览" },
    { "last step: Backspace goes back, Esc leaves the tour",
      "最后一步："
      "Backspace 上一步，"
      "Esc 离开导览" },
    { "first step: Enter goes on, Esc leaves the tour",
      "第一步："
      "Enter 下一步，"
      "Esc 离开导览" },
    { "q again quits peviz; Esc leaves the tour",
      "再按 q 退出 peviz；"
      "Esc 离开导览" },
    { "tour: step %s is not in 1..%d", "导览：第 %s 步不在 1..%d 之内" },
    { "left the tour, back to where you were; T resumes at step %d",
      "已离开导览，回到原来的状态；T 从第 %d 步继续" },
    { "peviz tour", "peviz 导览" }, { "previous", "上一步" },
    { "next", "下一步" }, { "as text", "文本" },
    { "\xe2\x86\x90 \xe2\x86\x92 page", "\xe2\x86\x90 \xe2\x86\x92 翻页" },
    { "last step \xc2\xb7 Backspace back \xc2\xb7 Esc leave the tour",
      "最后一步 · "
      "Backspace 上一步 · "
      "Esc 离开导览" },
};

const char *text_zh(const char *en)
{
    for (size_t i = 0; i < sizeof ZH / sizeof ZH[0]; i++)
        if (strcmp(en, ZH[i][0]) == 0)
            return ZH[i][1];
    return en;
}

/* ---- a view's status hint in Chinese --------------------------------- */

/*
 * The parts of the views' status hints ("1 col = 1-2 pos, every 2nd
 * band"), each matched whole: {} stands for any text, {n} for a number
 * with an ordinal's ending ("2nd"), and either comes back in the
 * Chinese at its {} in the same order.  Longer patterns first.
 */
static const char *const ZH_HINT[][2] = {
    { "1 col = {} pos (exact mean)", "1 列 = {} 个位置（精确均值）" },
    { "1 col = {} pos", "1 列 = {} 个位置" },
    { "1 pos = {} cols", "1 个位置 = {} 列" },
    { "1 px = {} pos", "1 像素 = {} 个位置" },
    { "1 pos = {} px", "1 个位置 = {} 像素" },
    { "every {n} band", "每 {} 个频段取一个" },
    { "every {n} dim pair", "每 {} 对维度取一对" },
    { "dims {} of {} (y: overview)", "维度 {}（共 {} 个，y 看全部）" },
    { "{} of {} dims evenly spaced (y: all)",
      "均匀选取 {}/{} 个维度（y 逐一显示）" },
    { "dims {}", "维度 {}" },
    { "{} error sampled 1/{} pos", "{} 误差每 {} 个位置取样一次" },
    { "table {} not shown: needs d_model={}",
      "表 {} 未显示：需要 d_model={}" },
    { "table {} from {}", "表 {}，来自 {}" },
    { "{} no row from {}", "{} 从 {} 起没有行" },
    { "computing {}", "计算中 {}" },
    { "band {} of {}", "第 {} 个频段（共 {} 个）" },
    { "bands {} of {} (- for overview)", "频段 {}（共 {} 个，- 看全部）" },
    { "bands {} of {}", "频段 {}（共 {} 个）" },
    { "{} of {} bands", "{}/{} 个频段" },
    { "{} of {} dim pairs", "{}/{} 对维度" },
    { "evenly spread", "均匀分布" },
    { "p: back to the map", "p 回到热图" },
    { "x = band i", "x = 频段 i" },
    { "y = wavelength {} (log)", "y = 波长 {}（对数）" },
    { "y = {} (log)", "y = {}（对数）" },
    { "Left/Right: band", "左右键换频段" },
    { "1 point = mean of {} distances", "1 点 = {} 个距离的均值" },
    { "1 point = 1 distance", "1 点 = 1 个距离" },
    { "enlarge the terminal to see the panes", "放大终端才能看到各栏" },
    { "ratios need two panes and more room", "比值需要两栏和更大的空间" },
    { "out of memory", "内存不足" },
};

#define ZH_CAPS 4

struct zh_caps {
    const char *at[ZH_CAPS];
    size_t len[ZH_CAPS];
    int n;
};

/* Whether s[0 .. n) is a number with an ordinal's ending or none; the
 * digits' count in *digits. */
static int zh_number(const char *s, size_t n, size_t *digits)
{
    size_t d = 0;
    while (d < n && s[d] >= '0' && s[d] <= '9')
        d++;
    *digits = d;
    return d > 0 && (d == n || (n - d == 2 && strchr("snrt", s[d]) &&
                                strchr("tdh", s[d + 1])));
}

/* Whether the pattern p matches s[0 .. n) whole, filling k's captures. */
static int zh_match(const char *p, const char *s, size_t n, struct zh_caps *k)
{
    if (!*p)
        return n == 0;
    int num = strncmp(p, "{n}", 3) == 0;
    if (!num && strncmp(p, "{}", 2) != 0)
        return n > 0 && *p == *s && zh_match(p + 1, s + 1, n - 1, k);
    if (k->n >= ZH_CAPS)
        return 0;
    const char *rest = p + (num ? 3 : 2);
    for (size_t l = 1; l <= n; l++) {       /* the shortest that fits */
        size_t digits = l;
        if (num && !zh_number(s, l, &digits))
            continue;
        int i = k->n++;
        k->at[i] = s;
        k->len[i] = digits;
        if (zh_match(rest, s + l, n - l, k))
            return 1;
        k->n = i;
    }
    return 0;
}

/* The Chinese of one part into out (its {} filled in), or 0. */
static int zh_part(const char *s, size_t n, char *out, size_t len)
{
    for (size_t i = 0; i < sizeof ZH_HINT / sizeof ZH_HINT[0]; i++) {
        struct zh_caps k = { { 0 }, { 0 }, 0 };
        if (!zh_match(ZH_HINT[i][0], s, n, &k))
            continue;
        size_t o = 0;
        int c = 0;
        for (const char *z = ZH_HINT[i][1]; *z && o + 1 < len; z++) {
            if (z[0] == '{' && z[1] == '}' && c < k.n) {
                size_t l = k.len[c] < len - 1 - o ? k.len[c] : len - 1 - o;
                memcpy(out + o, k.at[c++], l);
                o += l;
                z++;
            } else {
                out[o++] = *z;
            }
        }
        out[o] = 0;
        return 1;
    }
    return 0;
}

/* Where the next separator of parts starts (", ", "; " or two spaces),
 * or the end; its length in *sl. */
static size_t zh_next_sep(const char *s, size_t *sl)
{
    size_t i = 0;
    for (; s[i]; i++)
        if ((s[i] == ',' || s[i] == ';' || s[i] == ' ') && s[i + 1] == ' ') {
            *sl = 2;
            return i;
        }
    *sl = 0;
    return i;
}

/* out cut to whole characters: a cut may have split the last one. */
static void zh_whole(char *out)
{
    size_t n = strlen(out), i = 0;
    while (i < n) {
        int l;
        if (utf8_decode((const unsigned char *)out + i, n - i, &l) < 0)
            break;
        i += (size_t)l;
    }
    out[i] = 0;
}

void text_zh_hint(const char *en, char *out, size_t len)
{
    size_t o = 0;
    if (!len)
        return;
    out[0] = 0;
    while (*en && o + 1 < len) {
        size_t sl, n = zh_next_sep(en, &sl);
        char part[256];
        int zh = zh_part(en, n, part, sizeof part);
        if (!zh)
            snprintf(part, sizeof part, "%.*s", (int)(n < 255 ? n : 255), en);
        en += n;
        /* after a Chinese part ", " and "; " become "，" and "；" */
        const char *sep = !sl ? "" : zh && en[0] == ',' ? "\xef\xbc\x8c"
                        : zh && en[0] == ';' ? "\xef\xbc\x9b" : NULL;
        int w = sep ? snprintf(out + o, len - o, "%s%s", part, sep)
                    : snprintf(out + o, len - o, "%s%.*s", part, (int)sl, en);
        o += w > 0 ? (size_t)w : 0;
        en += sl;
    }
    zh_whole(out);
}
