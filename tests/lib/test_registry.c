/* SPDX-License-Identifier: ISC */
/*
 * test_registry.c - the tables are the whole recipe: a scheme and a RoPE
 * scaling method registered here, at run time, through
 * scheme_register and rope_method_register alone, reach everything that
 * goes by the tables: the library's lists, parse and evaluation, the
 * one validator's messages, the command line (--scheme, --rope-scaling,
 * their errors, --help), a config.json and --export.  The program's
 * objects are linked in (see the Makefile) and driven as main drives
 * them: cli_parse, then export_run.
 *
 * The scheme "reg-halfln": S = -ln(1 + |i-j|) / 2, a T5-like bias from a
 * distance row with only its value (the rest follows, src/lib/dist.c).
 * The method "reg-evenband": even bands divided by s, odd bands kept, a =
 * 1.25, and s must be in 2..8.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "export.h"
#include "harness.h"
#include "peviz/rope.h"
#include "peviz/scores.h"

/* ---- the extra scheme -------------------------------------------------- */

static double halfln_at(const struct score_ctx *s, int64_t delta)
{
    (void)s;
    return -0.5 * log1p((double)(delta < 0 ? -delta : delta));
}

static const struct dist_ops DIST_HALFLN = { .at = halfln_at };

static void build_halfln(struct score_ctx *s)
{
    if (s->o.content)
        scores_term_add(s, TERM_DOT, SK_E, SK_E, "e.e");
    scores_dist_add(s, &DIST_HALFLN, "bias");
}

static const struct scheme_info HALFLN = {
    .name = "reg-halfln", .formula = "-ln(1 + |i-j|)/2",
    .formula_ascii = "-ln(1 + |i-j|)/2",
    .formula_content = "e.e - ln(1 + |i-j|)/2",
    .formula_content_ascii = "e.e - ln(1 + |i-j|)/2",
    .toeplitz = 1, .split = 0, .build = build_halfln,
};

/* ---- the extra method -------------------------------------------------- */

static double evenband_omega(const struct rope_bands *c, int i, double theta,
                             int *rule)
{
    *rule = i % 2 ? ROPE_KEPT : ROPE_INTERPOLATED;
    return i % 2 ? theta : theta / c->sc->factor;
}

static double evenband_attention(const rope_scaling *sc)
{
    (void)sc;
    return 1.25;
}

static int evenband_validate(const rope_scaling *sc, int d, char *err,
                             size_t errlen)
{
    (void)d;
    if (sc->factor < 2 || sc->factor > 8) {
        snprintf(err, errlen, "factor %g: want 2..8 with rope-scaling "
                 "reg-evenband", sc->factor);
        return -1;
    }
    return 0;
}

static const struct rope_method_info EVENBAND = {
    .name = "reg-evenband", .title = "even bands interpolated",
    .formula = "w_i = theta_i / s (i even), theta_i (i odd)",
    .formula_ascii = "w_i = theta_i / s (i even), theta_i (i odd)",
    .omega = evenband_omega, .attention_factor = evenband_attention,
    .validate = evenband_validate,
};

/* ---- driving the program ----------------------------------------------- */

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), k = strlen(tail);
    return n >= k && strcmp(s + n - k, tail) == 0;
}

static char out_text[65536], err_text[4096];

/* The line of text that holds what (its words after it), or "". */
static const char *line_of(const char *text, const char *what, char *buf,
                           size_t len)
{
    const char *p = strstr(text, what);
    buf[0] = 0;
    if (p)
        snprintf(buf, len, "%.*s", (int)strcspn(p, "\n"), p);
    return buf;
}

/* Read a stream from its start into buf. */
static void slurp(FILE *f, char *buf, size_t len)
{
    size_t got;
    fflush(f);
    rewind(f);
    got = fread(buf, 1, len - 1, f);
    buf[got] = 0;
}

/*
 * peviz ARGS as main runs it without tables: cli_parse, then the export;
 * stdout of the export in out_text, stderr in err_text.  Returns the
 * exit status.
 */
static int run(const char *const *args)
{
    static struct cli c;
    char *argv[32];
    int argc = 0, r, saved = dup(2);
    FILE *out = tmpfile(), *err = tmpfile();
    argv[argc++] = "peviz";
    for (; *args; args++)
        argv[argc++] = (char *)*args;
    argv[argc] = NULL;
    memset(&c, 0, sizeof c);
    fflush(stderr);
    dup2(fileno(err), 2);
    r = cli_parse(&c, argc, argv);
    if (r == 0 && c.mode == MODE_EXPORT)
        r = export_run(&c, out);
    else if (r == 0 && c.mode == MODE_HELP)
        cli_usage(out);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    slurp(out, out_text, sizeof out_text);
    slurp(err, err_text, sizeof err_text);
    fclose(out);
    fclose(err);
    return r;
}

/* The CSV in out_text as numbers: count read (at most max). */
static int csv_values(double *v, int max)
{
    int n = 0;
    char *p = out_text, *end;
    while (n < max && *p) {
        v[n++] = strtod(p, &end);
        if (end == p)
            return -1;
        p = end;
        while (*p == ',' || *p == '\n')
            p++;
    }
    return n;
}

static void test_register(int *scheme, int *method)
{
    int ns = scheme_count(), nm = rope_method_count();
    char list[256];
    *scheme = scheme_register(&HALFLN);
    *method = rope_method_register(&EVENBAND);
    CHECK(*scheme == ns && scheme_count() == ns + 1);
    CHECK(*method == nm && rope_method_count() == nm + 1);
    CHECK(scheme_register(&HALFLN) == -1);          /* the name is taken */
    CHECK(rope_method_register(&EVENBAND) == -1);
    struct rope_method_info su = EVENBAND;
    su.name = "su";                                 /* longrope's alias */
    CHECK(rope_method_register(&su) == -1);
    CHECK(scheme_parse("reg-halfln") == *scheme && scheme_info(*scheme) == &HALFLN);
    CHECK(rope_method_parse("reg-evenband") == *method);
    CHECK_STR(scheme_name((enum scheme)*scheme), "reg-halfln");
    CHECK_STR(rope_method_name((enum rope_method)*method), "reg-evenband");
    CHECK(ends_with(scheme_list(list, sizeof list), ", xpos or reg-halfln")
          || ends_with(list, " or reg-halfln"));
    CHECK(ends_with(rope_method_names(list, sizeof list, " or "),
                    " or reg-evenband"));
}

/* The library evaluates the method through its row, and the one
 * validator runs its hook. */
static void test_library(int method)
{
    rope_scaling sc;
    double w[4];
    unsigned char rule[4];
    char err[128];
    rope_scaling_default(&sc);
    sc.method = (enum rope_method)method;
    sc.factor = 4;
    CHECK(rope_inv_freq(&sc, 8, 100, 1, w, rule) == 0);
    for (int i = 0; i < 4; i++) {
        double theta = pow(100, -2.0 * i / 8);
        CHECK_NEAR(w[i], i % 2 ? theta : theta / 4, 1e-15 * theta);
        CHECK(rule[i] == (i % 2 ? ROPE_KEPT : ROPE_INTERPOLATED));
    }
    CHECK_NEAR(rope_score_multiplier(&sc), 1.5625, 0);
    sc.factor = 9;
    CHECK(rope_check(&sc, 8, 100, err, sizeof err) == -1);
    CHECK_STR(err, "factor 9: want 2..8 with rope-scaling reg-evenband");
    CHECK(rope_inv_freq(&sc, 8, 100, 1, w, NULL) == -1);
}

/* --scheme halfln --export scores: each entry against the formula. */
static void test_export_scheme(void)
{
    const char *args[] = { "--scheme", "reg-halfln", "--export", "scores",
                           "-n", "6", "-d", "4", NULL };
    double v[64];
    CHECK(run(args) == 0);
    CHECK(csv_values(v, 64) == 36);
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++)
            CHECK_NEAR(v[i * 6 + j], -0.5 * log1p(fabs((double)(i - j))),
                       1e-8);
    const char *causal[] = { "--scheme", "reg-halfln", "--export", "softmax",
                             "--causal", "-n", "3", "-d", "4", NULL };
    CHECK(run(causal) == 0 && csv_values(v, 64) == 9);
    double e1 = exp(-0.5 * log1p(1.0)), e2 = exp(-0.5 * log1p(2.0));
    CHECK_NEAR(v[3], e1 / (e1 + 1), 1e-8);      /* row 1: keys 0, 1 */
    CHECK_NEAR(v[6], e2 / (e2 + e1 + 1), 1e-8); /* row 2: keys 0..2 */
    CHECK(v[5] == 0);
}

/* --rope-scaling reg-evenband: the frequencies and RoPE's scores. */
static void test_export_method(void)
{
    const char *freqs[] = { "-d", "8", "-b", "100", "--rope-scaling",
                            "reg-evenband", "--factor", "4", "--export", "freqs",
                            NULL };
    double v[64];
    CHECK(run(freqs) == 0);
    CHECK(csv_values(v, 64) == 12);
    for (int i = 0; i < 4; i++) {
        double theta = pow(100, -2.0 * i / 8), w = i % 2 ? theta : theta / 4;
        CHECK(v[3 * i] == i);
        CHECK_NEAR(v[3 * i + 1], w, 1e-8 * w);
        CHECK_NEAR(v[3 * i + 2], 2 * M_PI / w, 1e-8 * (2 * M_PI / w));
    }
    /* q = k = ones: S(i, j) = a^2 sum_k 2 cos((i-j) w_k), a = 1.25 */
    const char *scores[] = { "-d", "8", "-b", "100", "-n", "5", "--scheme",
                             "rope", "--rope-scaling", "reg-evenband", "--factor",
                             "4", "--export", "scores", NULL };
    CHECK(run(scores) == 0);
    CHECK(csv_values(v, 64) == 25);
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++) {
            double want = 0;
            for (int k = 0; k < 4; k++) {
                double theta = pow(100, -2.0 * k / 8);
                want += 2 * cos((i - j) * (k % 2 ? theta : theta / 4));
            }
            CHECK_NEAR(v[i * 5 + j], 1.5625 * want, 1e-7);
        }
}

/* The command line's refusals and --help list them; the hook's message
 * is the program's. */
static void test_cli_lists(void)
{
    const char *bad_scheme[] = { "--scheme", "nosuch", NULL };
    CHECK(run(bad_scheme) == 2);
    CHECK(strstr(err_text, "sandwich, xpos") != NULL
          && ends_with(err_text, " or reg-halfln\n"));
    const char *bad_method[] = { "--rope-scaling", "nosuch", NULL };
    CHECK(run(bad_method) == 2);
    CHECK(strstr(err_text, "yarn, llama3, longrope") != NULL
          && ends_with(err_text, " or reg-evenband\n"));
    const char *bad_factor[] = { "--rope-scaling", "reg-evenband", "--factor",
                                 "1", "--export", "freqs", NULL };
    CHECK(run(bad_factor) == 2);
    CHECK(strstr(err_text, "factor 1: want 2..8 with rope-scaling reg-evenband")
          != NULL);
    const char *help[] = { "--help", NULL };
    CHECK(run(help) == 0);
    char line[1024];
    /* a setting's row: its words, then its default */
    line_of(out_text, "--scheme NAME ", line, sizeof line);
    CHECK(strstr(line, ": sinusoidal, rope, ") != NULL);
    CHECK(strstr(line, " or reg-halfln (default ") != NULL);
    line_of(out_text, "--rope-scaling METHOD ", line, sizeof line);
    CHECK(strstr(line, ": none, linear, ") != NULL);
    CHECK(strstr(line, " or reg-evenband (default ") != NULL);
}

/* A config.json naming the method: the reader goes by the table. */
static void test_config(void)
{
    char path[] = "/tmp/peviz-registry-XXXXXX";
    int fd = mkstemp(path);
    const char *json = "{\"rope_theta\": 100, \"head_dim\": 8, "
                       "\"num_attention_heads\": 1, \"hidden_size\": 8, "
                       "\"rope_scaling\": {\"rope_type\": \"reg-evenband\", "
                       "\"factor\": 2}}";
    CHECK(fd >= 0 && write(fd, json, strlen(json)) == (ssize_t)strlen(json));
    close(fd);
    const char *args[] = { "--config", path, "--export", "freqs", NULL };
    double v[64];
    int r = run(args);
    CHECK(r == 0);
    if (r)
        fprintf(stderr, "  %s", err_text);
    CHECK(csv_values(v, 64) == 12);
    CHECK_NEAR(v[1], 1.0 / 2, 1e-12);          /* band 0: theta 1, / 2 */
    CHECK_NEAR(v[4], pow(100, -0.25), 1e-9);    /* band 1: kept */
    unlink(path);
}

int main(void)
{
    int scheme, method;
    test_register(&scheme, &method);
    test_library(method);
    test_export_scheme();
    test_export_method();
    test_cli_lists();
    test_config();
    TEST_END("test_registry");
}
