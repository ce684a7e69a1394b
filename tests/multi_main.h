/* SPDX-License-Identifier: ISC */
/* Included first in a test that is linked into a test program with
 * others (see tests/multi.c): the Makefile renames its main() to
 * NAME_main, and this declares it under that name. */
int main(void);
