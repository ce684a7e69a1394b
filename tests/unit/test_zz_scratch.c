#include <stdio.h>
#include <stdlib.h>
#include "app.h"
#include "frames.h"
int main(void)
{
    struct app a;
    static const int S[][2] = { { 80, 24 }, { 60, 20 } };
    for (int s = 0; s < 2; s++) {
        app_init(&a);
        a.view = VIEW_HEATMAP;
        a.p.base = 1e300; a.p.n = 16777216; a.p.pos = 16777215; a.p.d = 4096;
        a.heat.dim = 4095;
        char *t = frame_text(&a, S[s][0], S[s][1]);
        printf("%s", t); free(t);
        a.heat.dim = 4094;
        t = frame_text(&a, S[s][0], S[s][1]);
        printf("%.*s\n", 300, t); free(t);
        a.view = VIEW_CLOCKS; a.clocks.band = 2047;
        t = frame_text(&a, S[s][0], S[s][1]);
        printf("%s", t); free(t);
        a.view = VIEW_COMPARE; a.cmp.dim = 4095; a.cmp.mode = PANE_HEATMAP;
        t = frame_text(&a, S[s][0], S[s][1]);
        printf("%s", t); free(t);
        a.cmp.mode = PANE_SPECTRUM; a.cmp.band = 2047;
        t = frame_text(&a, S[s][0], S[s][1]);
        printf("%s", t); free(t);
        a.cmp.mode = PANE_RATIO; 
        t = frame_text(&a, S[s][0], S[s][1]);
        printf("%s", t); free(t);
        a.view = VIEW_ATTENTION; a.att.ci = 16777215; a.att.cj = 0;
        t = frame_text(&a, S[s][0], S[s][1]);
        printf("%s", t); free(t);
    }
    return 0;
}
