/* SPDX-License-Identifier: ISC */
/*
 * charset.h - which locale the program runs in.
 *
 * Only LC_CTYPE follows the environment (the character set: whether the
 * terminal takes UTF-8); LC_NUMERIC and everything else stay "C", so
 * numbers read and print with a decimal point in every locale.  When the
 * environment asks for UTF-8 but names a locale that is not installed
 * (LANG=zh_CN.UTF-8 on a machine without it), a UTF-8 locale that exists
 * (C.UTF-8) takes its place for LC_CTYPE, and a note says so.
 */
#ifndef PEVIZ_CHARSET_H
#define PEVIZ_CHARSET_H

#include <stddef.h>

/*
 * Set LC_CTYPE from the environment (with the fallback above) and leave
 * the rest at "C".  Returns 1 when characters are UTF-8.  When the
 * fallback was taken, note gets one line saying so; else it is "".
 */
int charset_setup(char *note, size_t notelen);

/* The locale name the environment gives for LC_CTYPE: LC_ALL, else
 * LC_CTYPE, else LANG (the first set and non-empty), or "" for none. */
const char *charset_env_name(void);

/*
 * Why the characters are not UTF-8, for a message: "LANG=C is ASCII",
 * "LC_ALL=ja_JP.eucJP is EUC-JP", or "no locale is set (LC_ALL, LC_CTYPE
 * and LANG are empty): ASCII".  Call after charset_setup.
 */
void charset_why_not_utf8(char *buf, size_t len);

/*
 * Ask the terminal on stdin/stdout whether it takes UTF-8: a wide
 * character is written at the start of the row, then a cursor position
 * report is asked for; a UTF-8 terminal has moved the cursor two
 * columns.  The probe is erased and the tty modes put back.  Returns 1
 * for UTF-8, 0 otherwise (no answer within ms milliseconds, not a tty).
 * Bytes read that were not the report (keys typed meanwhile) go to keys,
 * in order, at most cap; their number in *nkeys.
 */
int charset_probe_terminal(int ms, char *keys, size_t cap, size_t *nkeys);

/* Use a UTF-8 locale for LC_CTYPE (C.UTF-8 or the next installed);
 * returns its name, or NULL when none is installed. */
const char *charset_use_utf8(void);

/* Whether a locale name asks for UTF-8 ("xx.UTF-8", "xx.utf8", any case). */
int charset_wants_utf8(const char *name);

#endif
