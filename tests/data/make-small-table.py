#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""Write tests/data/small-table.csv, the table behind the golden case
heatmap-pe-file-80x24 (peviz --pe-file): 100 positions x 8 dimensions,
waves that slow down with the dimension plus a drift, so the values
leave [-1, 1] (as learned tables do) and a column at 80x24 holds two
positions.  The CSV is committed; rerun this only to change it:

    python3 tests/data/make-small-table.py > tests/data/small-table.csv
"""
import math

N, D = 100, 8

for p in range(N):
    row = []
    for j in range(D):
        w = 0.9 / (1 + 1.6 * j)             # slower in higher dimensions
        amp = 2.5 - 0.2 * j
        drift = 0.015 * p * (1 if j % 2 else -1)
        row.append("%.4f" % (amp * math.sin(p * w + j) + drift))
    print(",".join(row))
