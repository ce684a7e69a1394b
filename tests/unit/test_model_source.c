/* SPDX-License-Identifier: ISC */
/*
 * Models as a setting: n from the model's context, the status text names
 * the model or config file, r keeps it, R (twice) drops it, :model and
 * :config at the prompt, and a refusal that changes nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "app.h"
#include "cli.h"
#include "harness.h"
#include "plans.h"
#include "peviz/tables.h"

static void type(struct app *a, const char *s)
{
    for (; *s; s++)
        app_key(a, *s == '\r' ? PK_ENTER : (unsigned char)*s);
}

static int parse(struct cli *c, const char *a1, const char *a2,
                 const char *a3, const char *a4)
{
    char *argv[] = { "peviz", (char *)a1, (char *)a2, (char *)a3,
                     (char *)a4, NULL };
    int argc = 1 + (a1 != NULL) + (a2 != NULL) + (a3 != NULL) + (a4 != NULL);
    return cli_parse(c, argc, argv);
}

static const char *status(const struct app *a)
{
    static char buf[APP_MSG_LEN];
    app_source_format(a, buf, sizeof buf);
    return buf;
}

static void test_cli(void)
{
    static struct cli c;
    CHECK(parse(&c, "--model", "deepseek-v3", NULL, NULL) == 0);
    CHECK(c.app.p.n == 163840 && c.app.p.d == 64);
    CHECK_STR(status(&c.app), "deepseek-v3: yarn s=40 L=4096");
    CHECK(parse(&c, "--model", "llama3.1-8b", "-n", "4096") == 0);
    CHECK(c.app.p.n == 4096);               /* -n wins wherever it stands */
    CHECK(parse(&c, "-n", "300", "--model", "llama2-7b") == 0);
    CHECK(c.app.p.n == 300);
    CHECK(parse(&c, "--model", "llama2-7b", NULL, NULL) == 0);
    CHECK(c.app.p.n == 4096);
    CHECK_STR(status(&c.app), "llama2-7b: no scaling");
    CHECK(parse(&c, "-d", "32", NULL, NULL) == 0);
    CHECK_STR(status(&c.app), "");
    CHECK(parse(&c, "--rope-scaling", "linear", "--factor", "4") == 0);
    CHECK_STR(status(&c.app), "linear s=4");
}

static const char CONFIG[] =
    "{\"rope_theta\": 500000, \"head_dim\": 64, \"max_position_embeddings\": "
    "65536, \"rope_scaling\": {\"rope_type\": \"llama3\", \"factor\": 8, "
    "\"low_freq_factor\": 1, \"high_freq_factor\": 4, "
    "\"original_max_position_embeddings\": 8192}}";

static void test_config(const char *dir)
{
    static struct cli c;
    static struct app a;
    char path[512], cmd[600];
    snprintf(path, sizeof path, "%s/my-config.json", dir);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    fputs(CONFIG, f);
    fclose(f);
    CHECK(parse(&c, "--config", path, NULL, NULL) == 0);
    CHECK(c.app.p.n == 65536 && c.app.p.d == 64);
    CHECK_STR(status(&c.app), "my-config.json: llama3 s=8 L=8192");
    /* the prompt: the same file, the same result */
    app_init(&a);
    snprintf(cmd, sizeof cmd, ":config %s\r", path);
    type(&a, cmd);
    CHECK(!a.msg_error && a.p.n == 65536 && a.p.d == 64 && a.p.base == 5e5);
    CHECK(a.p.rope.method == ROPE_LLAMA3);
    CHECK_STR(status(&a), "my-config.json: llama3 s=8 L=8192");
    /* a refusal changes nothing */
    params before = a.p;
    snprintf(cmd, sizeof cmd, ":config %s/missing.json\r", dir);
    type(&a, cmd);
    CHECK(a.msg_error && strstr(a.msg, "missing.json") != NULL);
    CHECK(memcmp(&a.p, &before, sizeof before) == 0);
    CHECK_STR(a.source, "my-config.json");
    type(&a, ":model nosuch\r");
    CHECK(a.msg_error && memcmp(&a.p, &before, sizeof before) == 0);
    unlink(path);
}

/* gpt-oss's shape: one set of settings, layer 0 sliding (its class
 * alternates), sliding_window 4. */
static const char SLIDING[] =
    "{\"model_type\": \"gpt_oss\", \"head_dim\": 16, \"rope_theta\": "
    "150000, \"num_hidden_layers\": 4, \"sliding_window\": 4}";

/* The prompt sets the layer's mask as --config does, and names it. */
static void test_config_mask(const char *dir)
{
    static struct app a;
    char path[512], cmd[600];
    snprintf(path, sizeof path, "%s/sliding.json", dir);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    fputs(SLIDING, f);
    fclose(f);
    app_init(&a);
    snprintf(cmd, sizeof cmd, ":config %s\r", path);
    type(&a, cmd);
    CHECK(!a.msg_error && a.att.o.window == 4 && a.att.o.chunk == 0);
    CHECK(strstr(a.msg, "window 4 from sliding_window") != NULL);
    snprintf(cmd, sizeof cmd, ":config %s full_attention\r", path);
    type(&a, cmd);
    CHECK(!a.msg_error && a.att.o.window == 0);
    CHECK(strstr(a.msg, "window") == NULL);
    /* :model takes the preset's mask, as --model does */
    type(&a, ":model gemma4-sliding\r");
    CHECK(!a.msg_error && a.att.o.window == 1024 && a.att.o.chunk == 0);
    type(&a, ":model llama4-scout\r");
    CHECK(!a.msg_error && a.att.o.window == 0 && a.att.o.chunk == 8192);
    unlink(path);
}

static void test_reset(void)
{
    static struct app a;
    app_init(&a);
    type(&a, ":model qwen2.5-7b-yarn\r");
    CHECK(!a.msg_error && a.p.n == 131072 && a.p.rope.method == ROPE_YARN);
    type(&a, "dd");                         /* change the view's settings */
    type(&a, ":n 100\r");
    CHECK(a.p.d == 32 && a.p.n == 100);
    CHECK_STR(status(&a), "yarn s=4 L=32768 (from qwen2.5-7b-yarn, changed)");
    app_key(&a, 'r');                       /* r keeps the model */
    CHECK(a.p.d == 128 && a.p.n == 131072 && a.p.base == 1e6);
    CHECK(a.p.rope.method == ROPE_YARN && a.p.rope.factor == 4);
    CHECK_STR(status(&a), "qwen2.5-7b-yarn: yarn s=4 L=32768");
    app_key(&a, 'R');                       /* R asks ... */
    CHECK(a.p.d == 128 && strstr(a.msg, "R again") != NULL);
    app_key(&a, 'x');                       /* ... any other key keeps */
    app_key(&a, 'R');
    CHECK(a.p.d == 128 && a.source[0]);
    app_key(&a, 'R');                       /* R twice: everything */
    CHECK(a.p.d == 64 && a.p.n == 128 && a.p.base == 10000);
    CHECK(a.p.rope.method == ROPE_NONE && !a.source[0]);
    CHECK_STR(status(&a), "");
}

/* One computation per change of the settings, however often read. */
static void test_plan_once(void)
{
    static struct app a;
    app_init(&a);
    type(&a, ":model llama3.1-8b\r");
    const pe_plan *p1 = plans_of(&a.p);
    long k = plans_computed();
    for (int i = 0; i < 100; i++)
        CHECK(plans_of(&a.p) == p1);
    CHECK(plans_computed() == k);
    type(&a, ":n 8192\r");
    CHECK(plans_of(&a.p)->n == 8192 && plans_computed() == k + 1);
    CHECK(plans_of(&a.p)->crit != p1->crit || p1->n == 8192);
}

/* :pe-file FILE at the prompt: the table, d and n from it; r keeps it;
 * a refusal changes nothing. */
static void test_pe_file(void)
{
    static struct app a;
    app_init(&a);
    type(&a, ":pe-file tests/data/nosuch.npy\r");
    CHECK(a.msg_error && a.pe_table == NULL && a.p.d == 64 && a.p.n == 128);
    type(&a, ":pe-file tests/data/small-table.csv\r");
    CHECK(!a.msg_error && a.pe_table != NULL);
    if (!a.pe_table)
        return;
    CHECK(a.p.d == a.pe_table->d && a.p.n == a.pe_table->n);
    CHECK_STR(a.pe_file_name, "tests/data/small-table.csv");
    const struct pe_table *t = a.pe_table;
    params before = a.p;
    type(&a, ":pe-file tests/data\r");        /* a directory: refused */
    CHECK(a.msg_error && a.pe_table == t);
    CHECK(memcmp(&a.p, &before, sizeof before) == 0);
    type(&a, "dd");
    app_key(&a, 'r');                           /* r keeps the table */
    CHECK(a.pe_table == t && a.p.d == t->d && a.p.n == t->n);
    type(&a, ":pe-file tests/data/small-table.csv\r");  /* again: a new one */
    CHECK(!a.msg_error && a.pe_table != NULL && a.pe_table != t);
    app_key(&a, 'R');
    app_key(&a, 'R');
    CHECK(a.pe_table == NULL && a.p.d == 64 && a.p.n == 128);
}

/* A model and a table: r keeps both, with the table's d and n. */
static void test_model_and_table(void)
{
    static struct app a;
    app_init(&a);
    type(&a, ":model llama2-7b\r");
    type(&a, ":pe-file tests/data/small-table.csv\r");
    CHECK(!a.msg_error && a.pe_table != NULL);
    if (!a.pe_table)
        return;
    type(&a, "NN");
    app_key(&a, 'r');
    CHECK(a.pe_table != NULL && a.p.d == a.pe_table->d &&
          a.p.n == a.pe_table->n && a.p.base == 1e4);
    CHECK_STR(a.source, "llama2-7b");
}

/* In the compare view :model sets pane A, the global settings: n too. */
static void test_compare_model(void)
{
    static struct app a;
    app_init(&a);
    a.view = VIEW_COMPARE;
    type(&a, ":model deepseek-v3\r");
    CHECK(!a.msg_error && a.p.d == 64 && a.p.n == 163840);
    CHECK_STR(status(&a), "deepseek-v3: yarn s=40 L=4096");
    app_key(&a, ']');                       /* pane B: its own, n shared */
    type(&a, ":model llama2-7b\r");
    CHECK(!a.msg_error && a.p.n == 163840 && a.p.d == 64);
    CHECK_STR(status(&a), "deepseek-v3: yarn s=40 L=4096");
}

int main(void)
{
    char dir[] = "/tmp/peviz-model-XXXXXX";
    test_cli();
    if (mkdtemp(dir)) {
        test_config(dir);
        test_config_mask(dir);
        rmdir(dir);
    } else {
        CHECK(!"mkdtemp");
    }
    test_reset();
    test_plan_once();
    test_pe_file();
    test_compare_model();
    test_model_and_table();
    TEST_END("test_model_source");
}
