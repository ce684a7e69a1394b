/* SPDX-License-Identifier: ISC */
/*
 * errline.h - the one-line refusal on stderr ("peviz: MESSAGE"), below
 * every module that refuses something: the command line, follow mode,
 * the loop's start-up.
 */
#ifndef PEVIZ_ERRLINE_H
#define PEVIZ_ERRLINE_H

/*
 * Print "peviz: MESSAGE" on stderr, one line, with control characters
 * replaced so that user text cannot smuggle escapes.  Returns 2, the
 * exit status of every refusal.
 */
int errline(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * While where is not NULL, refusals say where the words came from
 * instead of which option: "peviz: WHERE: NAME: ..." for a message that
 * began "-b/--NAME: " or "--NAME: " ("peviz.conf:3: base: ...").
 */
void errline_where(const char *where);

#endif
