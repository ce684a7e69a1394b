/* SPDX-License-Identifier: ISC */
/*
 * tour_data.h - the tour as data: its steps, their captions and their
 * commands (tour.c reads and runs them; struct app holds the loaded one,
 * the step shown and whether it runs).  Types only.
 */
#ifndef PEVIZ_TOUR_DATA_H
#define PEVIZ_TOUR_DATA_H

struct app;

#define TOUR_LINE_MAX 1024      /* bytes in one line of a tour file */
#define TOUR_FILE_MAX (1 << 20) /* bytes in a tour file */
#define TOUR_MAX_STEPS 256
#define TOUR_MAX_CMDS 32        /* set and key actions in one step */
#define TOUR_TEXT_MAX 8192      /* bytes of caption in one step */
#define TOUR_TEXT_COLS 96       /* captions wrap at most this wide (cells):
                                   longer lines are hard to read */

enum tour_cmd_kind { TOUR_SET = 0, TOUR_KEY };

struct tour_cmd {
    enum tour_cmd_kind kind;
    char *arg;                  /* TOUR_SET: the ':' command line */
    int key;                    /* TOUR_KEY: the key code */
    int line;                   /* where it was written */
};

#define TOUR_MAX_CHECKS 16      /* check lines in one step */
#define TOUR_QTY_NAME 24        /* bytes of a quantity's name */

/* A claim a step's screen must bear out (--tour --check): a key or a
 * ':' command that must be accepted there, or a relation between a
 * number the view shows by name and another, or a constant:
 * lhs op factor * rhs (rhs "": lhs op factor). */
enum tour_check_kind { TOUR_CHECK_KEY = 0, TOUR_CHECK_SET, TOUR_CHECK_REL };
enum tour_check_op { TOUR_LT = 0, TOUR_LE, TOUR_GT, TOUR_GE, TOUR_EQ,
                      TOUR_OP_COUNT };

struct tour_check {
    enum tour_check_kind kind;
    char *arg;                  /* as written after "check" */
    int key;                    /* TOUR_CHECK_KEY: the key code */
    enum tour_check_op op;
    char lhs[TOUR_QTY_NAME], rhs[TOUR_QTY_NAME];
    double factor;
    int line;                   /* where it was written */
};

struct tour_step {
    char *title;
    char *text;                 /* lines separated by '\n'; an empty line
                                   separates paragraphs */
    struct tour_cmd *cmds;
    int ncmd, line;
    struct tour_check *checks;
    int nchecks;
};

struct tour {
    char *path;
    char *abs;                  /* path made absolute (NULL: unknown) */
    int shipped;                /* the shipped tour, in its language */
    char sha256[65];            /* the file's content hash (follow mode) */
    char *hint;                 /* the key hint line (NULL: the default) */
    struct tour_step *steps;
    int nsteps;
    int zh;                     /* status texts in Chinese */
    int fell_back;              /* the shipped Chinese tour was asked for
                                   on an ASCII-only terminal: this is the
                                   English one */
    int quit_asked;             /* q was pressed once in the tour */
    struct app *before;         /* the state before the tour (Esc restores
                                   it), or NULL */
};

#endif
