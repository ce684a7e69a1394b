/* SPDX-License-Identifier: ISC */
/*
 * peviz/pi.h - pi, once, for the library and the program: a double and
 * a long double (2 * PEVIZ_PI is exact in either).
 */
#ifndef PEVIZ_PI_H
#define PEVIZ_PI_H

#define PEVIZ_PI   3.14159265358979323846
#define PEVIZ_PI_L 3.141592653589793238462643383279502884L

#endif
