/* SPDX-License-Identifier: ISC */
/*
 * frame_export.h - save the frame on screen to the working directory.
 */
#ifndef PEVIZ_FRAME_EXPORT_H
#define PEVIZ_FRAME_EXPORT_H

struct app;

/*
 * Write the frame as the terminal shows it (w x h) to the working
 * directory: peviz-VIEW-YYYYmmdd-HHMMSS.svg and .txt, atomically, never
 * replacing a file (a name taken gets -2, -3, ... before the extension;
 * an .svg whose .txt fails is removed).  One frame_draw: a view still
 * computing is saved as drawn, never waited for.  The status message
 * names the files, or the directory and the error.
 */
void frame_export(struct app *a, int w, int h);

#endif
