/* SPDX-License-Identifier: ISC */
/*
 * userconf.h - the user's settings file, peviz.conf: each user's own
 * defaults, under the command line.
 */
#ifndef PEVIZ_USERCONF_H
#define PEVIZ_USERCONF_H

#include <stddef.h>

/*
 * Where the file is: $XDG_CONFIG_HOME/peviz/peviz.conf, or
 * $HOME/.config/peviz/peviz.conf when XDG_CONFIG_HOME is unset, empty or
 * not absolute.  0, or -1 when neither is set.
 */
int userconf_path(char *buf, size_t len);

/*
 * The words peviz parses: argv[0], the file's settings as "--NAME=VALUE"
 * (or "--NAME" for a flag set to yes), then argv[1..], so that the
 * command line wins.  The file is
 *     # a comment, to the end of the line (also after a blank)
 *     NAME = VALUE      a long option without its dashes
 *     NAME              a flag; also NAME = yes|no (on|off, true|false)
 * An option that runs a job rather than sets a default (--export,
 * --snapshot, --serve, ...) is refused in it.  When the command line
 * names --model or --config, a file line that would change the d_model,
 * base or scaling they set is left out.  A missing file is no settings.
 * With --no-user-settings, --help or --version on the command line the
 * file is not read.
 *
 * Returns 0 with *outc words in *out (userconf_free frees them), or 2
 * after one line
 * on stderr naming the file and line ("peviz.conf:3: base: ...").
 * cli_parse keeps pointers into the words: keep them while it is used.
 */
int userconf_args(int argc, char **argv, int *outc, char ***out);
void userconf_free(int outc, char **out, int argc, char **argv);

#endif
