/* A local search for satisfiable 0-1 programs: satdomino's ``sls`` backend.

Rows are  lo <= sum(coef * x) <= hi  over 0-1 variables. Some exactly-one rows over distinct
variables with coefficient 1, pairwise disjoint, are "groups" (in a Dominosa placement model,
"each domino lies somewhere once"): the search keeps every group satisfied and moves a group's
one from one variable to another, so one step relocates a whole domino. Variables in no group
are flipped.

Each step takes a random violated row and, among the moves that would repair it, makes the one
that lowers the weighted violation most (ties broken at random). A move that undoes a recent one
(turns on a variable turned off, or turns off a lone variable turned on, within the last
``tenure`` to 2 * ``tenure`` steps; 10 by default) is taken only if it improves. When no
candidate improves, the weight of every violated row goes up by one (breakout); every
``decay_every`` such bumps (1000) every weight above one comes down by one, so old bumps fade.
``noise`` steps in 10,000 (50) take a random repairing move instead: from some states no single
move lowers the violation and the weights alone do not lead out.

solve(num_vars, row_start, terms_var, terms_coef, row_lo, row_hi, groups, start, seed,
      time_limit, control[, tenure, decay_every, noise]) -> bytes | None

All sequences are buffers of C ints (``array('i')``) but row_lo / row_hi (``array('q')``);
variables are numbered from 1; coefficients are already folded for negated literals. ``groups``
lists candidate rows in order of preference: each exactly-one row with unit coefficients whose
variables no earlier group holds becomes a group, the others are skipped. ``start``
(empty, or num_vars + 1 C ints, index 0 unused) gives each variable's first value. ``control`` is
a writable buffer of two C ints that another thread sets: [0] stops the search, [1] pauses it
while non-zero. Returns the values of variables 1..num_vars (one byte each) once every row holds,
or None when stopped or out of time. The GIL is released while searching.
*/
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../_cbuffers.h"

typedef struct {
    int n, m;
    const int *rstart, *rvar, *rcoef;
    const long long *lo, *hi;
    int *vstart, *vrow, *vcoef; /* rows of each variable */
    char *x;
    long long *s, *w;
    int *grp;      /* the group row of each variable, or -1 */
    int *gon;      /* the variable on in each group row */
    char *isgrp;
    int *bad, *bpos, nb; /* violated rows outside groups */
    long long *tabu; /* no turning on before this step (turned off recently) */
    long long *hold; /* no turning off before this step (a lone variable turned on recently) */
    long long *dstamp, *dval; /* scratch for delta: per row */
    long long stamp;
    uint64_t rng;
    int tenure, decay_every, noise;
} Search;

static inline uint64_t next_rand(Search *S)
{
    uint64_t r = S->rng;
    r ^= r << 13;
    r ^= r >> 7;
    r ^= r << 17;
    return S->rng = r;
}

static inline long long viol(long long s, long long lo, long long hi)
{
    return s < lo ? lo - s : (s > hi ? s - hi : 0);
}

static inline void mark(Search *S, int i)
{
    int violated = !S->isgrp[i] && viol(S->s[i], S->lo[i], S->hi[i]) != 0;
    if (violated && S->bpos[i] < 0) {
        S->bpos[i] = S->nb;
        S->bad[S->nb++] = i;
    } else if (!violated && S->bpos[i] >= 0) {
        int last = S->bad[--S->nb];
        S->bad[S->bpos[i]] = last;
        S->bpos[last] = S->bpos[i];
        S->bpos[i] = -1;
    }
}

static void flip(Search *S, int j)
{
    long long d = S->x[j] ? -1 : 1;
    S->x[j] ^= 1;
    for (int u = S->vstart[j]; u < S->vstart[j + 1]; u++) {
        int i = S->vrow[u];
        S->s[i] += d * S->vcoef[u];
        mark(S, i);
    }
}

/* weighted change of violation (rows outside groups) if ``off`` (on now; or -1) goes to 0 and
   ``on`` (off now; or -1) goes to 1 */
static long long delta(Search *S, int off, int on)
{
    long long total = 0, st = ++S->stamp;
    for (int pass = 0; pass < 2; pass++) {
        int j = pass ? on : off;
        if (j < 0)
            continue;
        for (int u = S->vstart[j]; u < S->vstart[j + 1]; u++) {
            int i = S->vrow[u];
            if (S->isgrp[i])
                continue;
            long long c = pass ? S->vcoef[u] : -(long long)S->vcoef[u];
            if (S->dstamp[i] != st) {
                S->dstamp[i] = st;
                S->dval[i] = 0;
            }
            S->dval[i] += c;
        }
    }
    for (int pass = 0; pass < 2; pass++) {
        int j = pass ? on : off;
        if (j < 0)
            continue;
        for (int u = S->vstart[j]; u < S->vstart[j + 1]; u++) {
            int i = S->vrow[u];
            if (S->isgrp[i] || S->dstamp[i] != st)
                continue;
            S->dstamp[i] = 0; /* count each row once */
            total += S->w[i] * (viol(S->s[i] + S->dval[i], S->lo[i], S->hi[i]) -
                                viol(S->s[i], S->lo[i], S->hi[i]));
        }
    }
    return total;
}

static void pause_while(volatile int *control)
{
    struct timespec nap = {0, 1000000};
    while (control[1] && !control[0])
        nanosleep(&nap, NULL);
}

typedef struct {
    int off, on, found, ties;
    long long best;
} Pick;

/* a candidate move: ``off`` (or -1) goes to 0, ``on`` (or -1) to 1. Kept if it is the best so
   far (ties at random); a move that undoes a recent one (turns on a variable turned off, or
   off a lone variable turned on, within the tabu tenure) only if it improves. ``noisy``: every
   candidate counts the same, tabu or not (a random one is kept). */
static inline void consider(Search *S, Pick *P, int off, int on, long long step, int noisy)
{
    long long d = noisy ? 0 : delta(S, off, on);
    int tabu = (on >= 0 && S->tabu[on] > step) || (off >= 0 && S->hold[off] > step);
    if (tabu && d >= 0 && !noisy)
        return;
    if (!P->found || d < P->best) {
        P->found = 1, P->best = d, P->off = off, P->on = on, P->ties = 1;
    } else if (d == P->best && next_rand(S) % (uint64_t)(++P->ties) == 0) {
        P->off = off, P->on = on;
    }
}

/* 1 solved, 0 stopped or out of time */
static int run(Search *S, double time_limit, volatile int *control)
{
    double t0 = now();
    long long step = 0, bumps = 0;
    while (S->nb > 0) {
        step++;
        if ((step & 255) == 0) {
            if (control[0])
                return 0;
            if (control[1])
                pause_while(control);
            if ((step & 4095) == 0 && time_limit >= 0 && now() - t0 > time_limit)
                return 0;
        }
        int r = S->bad[next_rand(S) % S->nb];
        int under = S->s[r] < S->lo[r];
        /* now and then (noise per 10,000 steps) a random repairing move, tabu or not: from
           some states no single move lowers the violation and weights alone do not lead out
           (an equality row over coefficients 2 and 3 off by one) */
        int noisy = S->noise > 0 && (int)(next_rand(S) % 10000) < S->noise;
        Pick P = {-1, -1, 0, 0, 0};
        for (int t = S->rstart[r]; t < S->rstart[r + 1]; t++) {
            int v = S->rvar[t];
            int raise = (S->rcoef[t] > 0) == under; /* turning v on repairs r */
            int g = S->grp[v];
            if (raise && !S->x[v]) {
                consider(S, &P, g >= 0 ? S->gon[g] : -1, v, step, noisy);
            } else if (!raise && S->x[v]) {
                if (g < 0)
                    consider(S, &P, v, -1, step, noisy);
                else
                    for (int q = S->rstart[g]; q < S->rstart[g + 1]; q++)
                        if (S->rvar[q] != v)
                            consider(S, &P, v, S->rvar[q], step, noisy);
            }
        }
        int found = P.found, best_off = P.off, best_on = P.on;
        long long best = P.best;
        if (!found || best >= 0) { /* no move repairs r for free: breakout */
            bumps++;
            for (int b = 0; b < S->nb; b++)
                S->w[S->bad[b]]++;
            if (bumps % S->decay_every == 0)
                for (int i = 0; i < S->m; i++)
                    if (S->w[i] > 1)
                        S->w[i]--;
        }
        if (!found)
            continue;
        long long until = step + S->tenure + (long long)(next_rand(S) % (uint64_t)(S->tenure + 1));
        if (best_off >= 0) {
            flip(S, best_off);
            S->tabu[best_off] = until;
        }
        if (best_on >= 0) {
            flip(S, best_on);
            if (S->grp[best_on] >= 0)
                S->gon[S->grp[best_on]] = best_on;
            else
                S->hold[best_on] = until;
        }
    }
    return 1;
}

static void *zalloc(size_t count, size_t size)
{
    return calloc(count ? count : 1, size);
}

static void free_search(Search *S)
{
    free(S->vstart), free(S->vrow), free(S->vcoef), free(S->x), free(S->s), free(S->w);
    free(S->grp), free(S->gon), free(S->isgrp), free(S->bad), free(S->bpos), free(S->tabu);
    free(S->hold);
    free(S->dstamp), free(S->dval);
}

/* Set up S from the rows; 0 on success, -1 out of memory, -2 bad input (message in *why) */
static int setup(Search *S, const char **why, const int *start_values, Py_ssize_t nstart,
                 const int *groups, Py_ssize_t ngroups, uint64_t seed, Py_ssize_t nterms)
{
    int n = S->n, m = S->m;
    S->vstart = zalloc(n + 1, sizeof(int));
    S->vrow = zalloc(nterms, sizeof(int));
    S->vcoef = zalloc(nterms, sizeof(int));
    S->x = zalloc(n, 1);
    S->s = zalloc(m, sizeof(long long));
    S->w = zalloc(m, sizeof(long long));
    S->grp = zalloc(n, sizeof(int));
    S->gon = zalloc(m, sizeof(int));
    S->isgrp = zalloc(m, 1);
    S->bad = zalloc(m, sizeof(int));
    S->bpos = zalloc(m, sizeof(int));
    S->tabu = zalloc(n, sizeof(long long));
    S->hold = zalloc(n, sizeof(long long));
    S->dstamp = zalloc(m, sizeof(long long));
    S->dval = zalloc(m, sizeof(long long));
    int *fill = zalloc(n, sizeof(int));
    if (!S->vstart || !S->vrow || !S->vcoef || !S->x || !S->s || !S->w || !S->grp || !S->gon ||
        !S->isgrp || !S->bad || !S->bpos || !S->tabu || !S->hold || !S->dstamp || !S->dval || !fill) {
        free(fill);
        return -1;
    }
    S->rng = seed * 0x9E3779B97F4A7C15ULL + 0x2545F4914F6CDD1DULL;
    if (!S->rng)
        S->rng = 1;
    for (int i = 0; i < m; i++) {
        S->w[i] = 1;
        S->bpos[i] = -1;
        if (S->rstart[i] > S->rstart[i + 1] || S->lo[i] > S->hi[i]) {
            *why = "a row's terms or bounds are out of order";
            free(fill);
            return -2;
        }
    }
    for (Py_ssize_t t = 0; t < nterms; t++) {
        int v = S->rvar[t];
        if (v < 1 || v > n) {
            *why = "a row names a variable out of range";
            free(fill);
            return -2;
        }
        S->vstart[v]++; /* counted at v, shifted below */
    }
    for (int j = 0; j < n; j++)
        S->vstart[j + 1] += S->vstart[j];
    for (int i = 0; i < m; i++)
        for (int t = S->rstart[i]; t < S->rstart[i + 1]; t++) {
            int j = S->rvar[t] - 1;
            int k = S->vstart[j] + fill[j]++;
            S->vrow[k] = i;
            S->vcoef[k] = S->rcoef[t];
        }
    free(fill);
    /* from here on variables are 0-based in rvar too: see solve() */
    for (int j = 0; j < n; j++)
        S->grp[j] = -1;
    for (Py_ssize_t k = 0; k < ngroups; k++) { /* candidates, in order: take those that fit */
        int g = groups[k], fits = 1;
        if (g < 0 || g >= m) {
            *why = "a group candidate is not a row";
            return -2;
        }
        if (S->lo[g] != 1 || S->hi[g] != 1 || S->isgrp[g] || S->rstart[g] == S->rstart[g + 1])
            continue;
        for (int t = S->rstart[g]; t < S->rstart[g + 1] && fits; t++)
            fits = S->rcoef[t] == 1 && S->grp[S->rvar[t] - 1] < 0;
        for (int t = S->rstart[g]; t < S->rstart[g + 1] && fits; t++)
            if (S->grp[S->rvar[t] - 1] == g) /* a variable twice in the row */
                fits = 0;
            else
                S->grp[S->rvar[t] - 1] = g;
        if (!fits) { /* undo what this row claimed */
            for (int t = S->rstart[g]; t < S->rstart[g + 1]; t++)
                if (S->grp[S->rvar[t] - 1] == g)
                    S->grp[S->rvar[t] - 1] = -1;
            continue;
        }
        S->isgrp[g] = 1;
    }
    for (int j = 0; j < n; j++)
        S->x[j] = nstart > j + 1 ? start_values[j + 1] != 0 : 0;
    for (int g = 0; g < m; g++) {
        if (!S->isgrp[g])
            continue;
        int chosen = -1, len = S->rstart[g + 1] - S->rstart[g];
        for (int t = S->rstart[g]; t < S->rstart[g + 1]; t++) {
            int j = S->rvar[t] - 1;
            if (S->x[j] && chosen < 0)
                chosen = j;
            S->x[j] = 0;
        }
        if (chosen < 0)
            chosen = S->rvar[S->rstart[g] + (int)(next_rand(S) % (uint64_t)len)] - 1;
        S->x[chosen] = 1;
        S->gon[g] = chosen;
    }
    for (int i = 0; i < m; i++) {
        long long s = 0;
        for (int t = S->rstart[i]; t < S->rstart[i + 1]; t++)
            s += (long long)S->rcoef[t] * S->x[S->rvar[t] - 1];
        S->s[i] = s;
        mark(S, i);
    }
    return 0;
}

static PyObject *solve(PyObject *self, PyObject *args)
{
    int n;
    PyObject *o_rstart, *o_rvar, *o_rcoef, *o_lo, *o_hi, *o_groups, *o_start, *o_control;
    unsigned long long seed;
    double time_limit;
    int tenure = 10, decay_every = 1000, noise = 50;
    if (!PyArg_ParseTuple(args, "iOOOOOOOKdO|iii", &n, &o_rstart, &o_rvar, &o_rcoef, &o_lo,
                          &o_hi, &o_groups, &o_start, &seed, &time_limit, &o_control, &tenure,
                          &decay_every, &noise))
        return NULL;
    if (tenure < 0 || tenure > 1000000 || decay_every < 1 || noise < 0 || noise > 10000) {
        PyErr_SetString(PyExc_ValueError, "tenure must be 0 to 10^6, decay_every at least 1 "
                                          "and noise 0 to 10,000");
        return NULL;
    }
    Py_buffer b_rstart, b_rvar, b_rcoef, b_lo, b_hi, b_groups, b_start, b_control;
    Py_buffer *all[] = {&b_rstart, &b_rvar, &b_rcoef, &b_lo, &b_hi, &b_groups, &b_start,
                        &b_control};
    PyObject *objs[] = {o_rstart, o_rvar, o_rcoef, o_lo, o_hi, o_groups, o_start, o_control};
    const char kinds[] = "iiiqqiii";
    const char *names[] = {"row_start", "terms_var", "terms_coef", "row_lo", "row_hi",
                           "groups", "start", "control"};
    int got = get_buffers(objs, all, 8, kinds, 1, names);
    PyObject *result = NULL;
    Search S;
    memset(&S, 0, sizeof S);
    if (got < 8)
        goto done;
    Py_ssize_t rows = b_rstart.len / sizeof(int) - 1;
    Py_ssize_t nterms = b_rvar.len / sizeof(int);
    if (n < 0 || rows < 0 || rows > INT32_MAX || b_rcoef.len != b_rvar.len ||
        b_lo.len / 8 != rows || b_hi.len / 8 != rows || b_control.len < 2 * (Py_ssize_t)sizeof(int) ||
        ((const int *)b_rstart.buf)[rows] != nterms || ((const int *)b_rstart.buf)[0] != 0) {
        PyErr_SetString(PyExc_ValueError, "inconsistent sizes of the rows");
        goto done;
    }
    S.n = n;
    S.m = (int)rows;
    S.tenure = tenure;
    S.decay_every = decay_every;
    S.noise = noise;
    S.rstart = b_rstart.buf;
    S.rvar = b_rvar.buf;
    S.rcoef = b_rcoef.buf;
    S.lo = b_lo.buf;
    S.hi = b_hi.buf;
    const char *why = NULL;
    int status = setup(&S, &why, b_start.buf, b_start.len / sizeof(int), b_groups.buf,
                       b_groups.len / sizeof(int), seed, nterms);
    if (status == -1) {
        PyErr_NoMemory();
        goto done;
    }
    if (status == -2) {
        PyErr_SetString(PyExc_ValueError, why);
        goto done;
    }
    /* rvar is 1-based in the caller's buffer: search on a 0-based copy */
    int *rvar0 = malloc((nterms ? nterms : 1) * sizeof(int));
    if (!rvar0) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t t = 0; t < nterms; t++)
        rvar0[t] = S.rvar[t] - 1;
    S.rvar = rvar0;
    int solved;
    Py_BEGIN_ALLOW_THREADS
    solved = run(&S, time_limit, (volatile int *)b_control.buf);
    Py_END_ALLOW_THREADS
    free(rvar0);
    if (solved) {
        result = PyBytes_FromStringAndSize(S.x, n);
    } else {
        Py_INCREF(Py_None);
        result = Py_None;
    }
done:
    free_search(&S);
    release_buffers(all, got);
    return result;
}

static PyMethodDef methods[] = {
    {"solve", solve, METH_VARARGS, "Local search on 0-1 rows; see the module's source."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_sls",
                                    "satdomino's local search (see sls.py)", -1, methods};

PyMODINIT_FUNC PyInit__sls(void) { return PyModule_Create(&module); }
