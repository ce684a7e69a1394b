/* SPDX-License-Identifier: ISC */
/*
 * One program for many tests. Each test's main() is compiled as
 * NAME_main, TEST_LIST names them (TEST(name) lines), and the program
 * runs the test its own name says: build/tests/NAME is a link to it.
 * "PROGRAM NAME" runs that test too; anything else lists them.
 */
#include <stdio.h>
#include <string.h>

#define TEST(name) int name##_main(void);
#include TEST_LIST
#undef TEST

static const struct test {
    const char *name;
    int (*run)(void);
} TESTS[] = {
#define TEST(name) { #name, name##_main },
#include TEST_LIST
#undef TEST
};

static const struct test *find(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    for (size_t i = 0; i < sizeof TESTS / sizeof TESTS[0]; i++)
        if (strcmp(TESTS[i].name, name) == 0)
            return &TESTS[i];
    return NULL;
}

int main(int argc, char **argv)
{
    const struct test *t = argc > 0 ? find(argv[0]) : NULL;
    if (!t && argc == 2)
        t = find(argv[1]);
    if (t)
        return t->run();
    fprintf(stderr, "usage: %s TEST, or run it as a link named TEST; the tests:\n",
            argc > 0 ? argv[0] : "tests");
    for (size_t i = 0; i < sizeof TESTS / sizeof TESTS[0]; i++)
        fprintf(stderr, "  %s\n", TESTS[i].name);
    return 2;
}
