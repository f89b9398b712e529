/* Boards from Simon Tatham's own Dominosa generator, for benchmarks/explain.py: linked with
 * his dominosa.c and its helpers, `tatham_dominosa N DIFF SEED COUNT` prints COUNT game ids
 * ("6dh:0621...") made at difficulty DIFF (t, b, h, e), which his generator guarantees is the
 * hardest deduction each board needs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "puzzles.h"

extern const game thegame;

int main(int argc, char **argv)
{
    char params[32];
    int i, count;
    random_state *rs;

    if (argc != 5) {
        fprintf(stderr, "usage: %s N DIFF SEED COUNT\n", argv[0]);
        return 2;
    }
    count = atoi(argv[4]);
    rs = random_new(argv[3], strlen(argv[3]));
    snprintf(params, sizeof params, "%sd%s", argv[1], argv[2]);
    for (i = 0; i < count; i++) {
        game_params *p = thegame.default_params();
        char *aux = NULL, *desc;
        thegame.decode_params(p, params);
        desc = thegame.new_desc(p, rs, &aux, false);
        printf("%s:%s\n", thegame.encode_params(p, true), desc);
        fflush(stdout);
    }
    return 0;
}
