/* Counting Domino Fit solutions exactly: satdomino's counter for full-cover Domino Fit
(``dominofit.count_placements``).

count(width, height, free, tops, per_column, max_states, control) -> int | None

With every free square covered, the row sums fix how many vertical pieces have their top in
each row (``tops``) and the column sums how many vertical pieces lie in each column
(``per_column``); the horizontal pieces then tile what is left of each row, which they can
exactly when every run of squares left between the vertical pieces has even length. A
solution is therefore a set of vertical pieces with those counts whose rows split into even
runs; this counts them.

Rows are swept from both ends towards each other (meet in the middle). A state is the set of
squares of the next row covered from the side already swept (a bit mask) and how many
vertical pieces each column has got so far (one byte a column); states with the same key are
merged, summing their counts, and a column that has more than it needs, or can no longer get
what it needs, is dropped. At the meeting row, each state from above is matched with the state
from below that has the same mask and the rest of each column's count.

``free`` is an array('q') of one bit mask per row (bit c: square c is free); ``tops`` and
``per_column`` are array('i'). Returns the count, or None when a sweep holds more than
``max_states`` states, or when ``control[0]`` (an array('i') of one) is set by another thread.
Counts beyond 127 bits raise OverflowError. The GIL is released while counting.
*/
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../_cbuffers.h"

typedef unsigned __int128 u128;

enum { MAX_WIDTH = 64 };

/* a table of states: key = mask (8 bytes) + one byte a column; value = count */
typedef struct {
    int width, keylen;    /* keylen = 8 + width, rounded up to 8 */
    size_t n, cap, slots; /* entries, entry capacity, hash slots (a power of two) */
    uint8_t *keys;        /* n * keylen */
    u128 *counts;
    uint32_t *slot;       /* entry index + 1, 0 empty */
    int overflow;
} Table;

static int table_init(Table *t, int width, size_t cap)
{
    t->width = width;
    t->keylen = (8 + width + 7) & ~7;
    t->n = 0;
    t->cap = cap < 1024 ? 1024 : cap;
    t->slots = 1;
    while (t->slots < 2 * t->cap)
        t->slots <<= 1;
    t->keys = malloc(t->cap * t->keylen);
    t->counts = malloc(t->cap * sizeof(u128));
    t->slot = calloc(t->slots, sizeof(uint32_t));
    t->overflow = 0;
    return t->keys && t->counts && t->slot ? 0 : -1;
}

static void table_free(Table *t)
{
    free(t->keys);
    free(t->counts);
    free(t->slot);
    t->keys = NULL;
    t->counts = NULL;
    t->slot = NULL;
}

static uint64_t hash_key(const uint8_t *k, int len)
{
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < len; i += 8) {
        uint64_t w;
        memcpy(&w, k + i, 8);
        h = (h ^ w) * 0x9E3779B97F4A7C15ULL;
        h ^= h >> 29;
    }
    return h;
}

static int table_grow(Table *t)
{
    size_t cap = t->cap * 2, slots = t->slots * 2;
    uint8_t *keys = realloc(t->keys, cap * t->keylen);
    if (!keys)
        return -1;
    t->keys = keys;
    u128 *counts = realloc(t->counts, cap * sizeof(u128));
    if (!counts)
        return -1;
    t->counts = counts;
    uint32_t *slot = calloc(slots, sizeof(uint32_t));
    if (!slot)
        return -1;
    free(t->slot);
    t->slot = slot;
    t->slots = slots;
    t->cap = cap;
    for (size_t e = 0; e < t->n; e++) {
        size_t h = hash_key(t->keys + e * t->keylen, t->keylen) & (slots - 1);
        while (slot[h])
            h = (h + 1) & (slots - 1);
        slot[h] = (uint32_t)(e + 1);
    }
    return 0;
}

/* the entry for key (added with count 0 when new), or -1 when out of memory */
static long table_find(Table *t, const uint8_t *key, int add)
{
    size_t h = hash_key(key, t->keylen) & (t->slots - 1);
    while (t->slot[h]) {
        size_t e = t->slot[h] - 1;
        if (memcmp(t->keys + e * t->keylen, key, t->keylen) == 0)
            return (long)e;
        h = (h + 1) & (t->slots - 1);
    }
    if (!add)
        return -2;
    if (t->n == t->cap) {
        if (table_grow(t) < 0)
            return -1;
        return table_find(t, key, add);
    }
    memcpy(t->keys + t->n * t->keylen, key, t->keylen);
    t->counts[t->n] = 0;
    t->slot[h] = (uint32_t)(t->n + 1);
    return (long)t->n++;
}

static void add_count(Table *t, long e, u128 c)
{
    u128 s = t->counts[e] + c;
    if (s < c)
        t->overflow = 1;
    t->counts[e] = s;
}

typedef struct {
    int width, height;
    const int64_t *free;
    const int *tops, *need;
    int *above, *below; /* possible tops in each column: in rows before r, in rows from r */
    size_t max_states;
    volatile int *control;
    int stopped, failed;
} Board;

/* Every split of row ``r`` given the squares ``fixed`` (covered from the swept side): the
   other set ``x`` (tops when sweeping down, squares covered from above when sweeping up), with
   ``k`` members, such that fixed and x do not meet, both lie in free squares, and what is left
   of the row splits into even runs. Calls emit(x) for each. Recursive over columns. */
typedef struct {
    const Board *b;
    int r, k;
    uint64_t fixed, allowed;
    void (*emit)(void *, uint64_t);
    void *ctx;
} Split;

static void split_from(Split *s, int c, uint64_t x, int left, int run)
{
    int w = s->b->width;
    if (c == w) {
        if (left == 0 && (run & 1) == 0)
            s->emit(s->ctx, x);
        return;
    }
    uint64_t bit = 1ULL << c;
    int64_t row = s->b->free[s->r];
    if (!(row & bit) || (s->fixed & bit)) { /* a black square, or taken: a run ends */
        if (run & 1)
            return;
        split_from(s, c + 1, x, left, 0);
        return;
    }
    if (left > 0 && (s->allowed & bit) && (run & 1) == 0)
        split_from(s, c + 1, x | bit, left - 1, 0); /* this square is in x: a run ends */
    split_from(s, c + 1, x, left, run + 1);         /* a horizontal piece's square */
}

typedef struct {
    Board *b;
    Table *next;
    const uint8_t *key; /* the state being extended */
    u128 count;
    int r, down;
} Step;

static void extend(void *ctx, uint64_t x)
{
    Step *st = ctx;
    Board *b = st->b;
    if (b->failed || b->stopped)
        return;
    uint64_t tops = st->down ? x : *(const uint64_t *)st->key;
    uint8_t key[8 + MAX_WIDTH + 8];
    memset(key, 0, sizeof key);
    memcpy(key, &x, 8); /* the next state's mask: x either way */
    memcpy(key + 8, st->key + 8, b->width);
    int r = st->r, w = b->width;
    for (int c = 0; c < w; c++) {
        int bit = (int)((x >> c) & 1);
        int have = key[8 + c] + (int)((tops >> c) & 1);
        /* what the rows not yet swept can still give this column (pieces that fit beside
           the square x takes there): down, rows r + 1 on, from r + 2 when x covers r + 1;
           up, x's squares are the tops of row r - 1, counted here, then rows up to r - 1, or
           up to r - 2 under x's tops */
        int rest;
        if (st->down)
            rest = bit ? (r + 2 <= b->height ? b->below[(r + 2) * w + c] : 0)
                       : b->below[(r + 1) * w + c];
        else
            rest = bit ? (r >= 2 ? b->above[(r - 2) * w + c] : 0)
                       : (r >= 1 ? b->above[(r - 1) * w + c] : 0);
        int sure = st->down ? have : have + bit;
        if (sure > b->need[c] || sure + rest < b->need[c])
            return;
        key[8 + c] = (uint8_t)have;
    }
    long e = table_find(st->next, key, 1);
    if (e < 0) {
        b->failed = 1;
        return;
    }
    add_count(st->next, e, st->count);
    if (st->next->n > b->max_states)
        b->stopped = 1;
}

/* out[r][c] = the most vertical pieces column c holds in the rows from ``first`` to r, going
   by ``dir``: a run of k free squares holds k / 2 */
static void pack_column(Board *b, int c, int first, int dir, int *out)
{
    int run = 0, packed = 0;
    for (int r = first; r >= 0 && r < b->height; r += dir) {
        if ((b->free[r] >> c) & 1) {
            if (++run % 2 == 0)
                packed++;
        } else
            run = 0;
        out[r * b->width + c] = packed;
    }
}

/* sweep one row: from table ``cur`` into ``next`` */
static void sweep_row(Board *b, Table *cur, Table *next, int r, int down)
{
    uint64_t below_free = r + 1 < b->height ? (uint64_t)b->free[r + 1] : 0;
    uint64_t above_free = r > 0 ? (uint64_t)b->free[r - 1] : 0;
    for (size_t e = 0; e < cur->n && !b->failed && !b->stopped; e++) {
        if ((e & 1023) == 0 && b->control[0]) {
            b->stopped = 1;
            break;
        }
        const uint8_t *key = cur->keys + e * cur->keylen;
        uint64_t fixed;
        memcpy(&fixed, key, 8);
        Step st = {b, next, key, cur->counts[e], r, down};
        /* down: fixed = squares covered from above, choose the tops (they need a free square
           below); up: fixed = this row's tops (asked for by the row below), choose the
           squares covered from above (they need a free square above: a top there) */
        Split s = {b, r, down ? b->tops[r] : (r > 0 ? b->tops[r - 1] : 0), fixed,
                   down ? below_free : above_free, extend, &st};
        split_from(&s, 0, 0, s.k, 0);
    }
}

static PyObject *count(PyObject *self, PyObject *args)
{
    int width, height;
    PyObject *o_free, *o_tops, *o_need, *o_control;
    Py_ssize_t max_states;
    if (!PyArg_ParseTuple(args, "iiOOOnO", &width, &height, &o_free, &o_tops, &o_need,
                          &max_states, &o_control))
        return NULL;
    if (width < 1 || width > MAX_WIDTH || height < 1 || max_states < 1) {
        PyErr_SetString(PyExc_ValueError, "width 1-64, height and max_states at least 1");
        return NULL;
    }
    Py_buffer bf, bt, bn, bc;
    Py_buffer *views[] = {&bf, &bt, &bn, &bc};
    PyObject *objs[] = {o_free, o_tops, o_need, o_control};
    const char *names[] = {"free", "tops", "per_column", "control"};
    int got = get_buffers(objs, views, 4, "qiii", 1, names);
    if (got < 4) {
        release_buffers(views, got);
        return NULL;
    }
    PyObject *result = NULL;
    if (bf.len / 8 != height || bt.len / (Py_ssize_t)sizeof(int) != height ||
        bn.len / (Py_ssize_t)sizeof(int) != width || bc.len < (Py_ssize_t)sizeof(int)) {
        PyErr_SetString(PyExc_ValueError, "array lengths do not match the board");
        goto done;
    }
    Board b = {width, height, bf.buf, bt.buf, bn.buf, NULL, NULL, (size_t)max_states,
               (volatile int *)bc.buf, 0, 0};
    b.above = calloc((size_t)(height + 1) * width, sizeof(int));
    b.below = calloc((size_t)(height + 1) * width, sizeof(int));
    Table up = {0}, down = {0}, next = {0};
    int ok = b.above && b.below && table_init(&up, width, 1024) == 0 &&
             table_init(&down, width, 1024) == 0;
    u128 total = 0;
    int overflow = 0;
    if (ok) {
        Py_BEGIN_ALLOW_THREADS
        /* the most vertical pieces a column can still take, as bounds: below[r] within
           rows r.., above[r] within rows ..r */
        for (int c = 0; c < width; c++) {
            pack_column(&b, c, height - 1, -1, b.below);
            pack_column(&b, c, 0, 1, b.above);
        }
        uint8_t key[8 + MAX_WIDTH + 8];
        memset(key, 0, sizeof key);
        table_find(&down, key, 1); /* from above: nothing covered, no tops yet */
        down.counts[0] = 1;
        table_find(&up, key, 1);   /* from below: no tops asked of the last row */
        up.counts[0] = 1;
        int top = 0, bottom = height; /* rows [0, top) swept down, [bottom, height) up */
        while (top < bottom && !b.failed && !b.stopped) {
            int go_down = down.n <= up.n;
            Table *cur = go_down ? &down : &up;
            if (table_init(&next, width, cur->n) < 0) {
                b.failed = 1;
                break;
            }
            if (go_down)
                sweep_row(&b, cur, &next, top++, 1);
            else
                sweep_row(&b, cur, &next, --bottom, 0);
            overflow |= next.overflow;
            table_free(cur);
            *cur = next;
        }
        /* meet: a state from above (mask = the squares of row ``top`` its tops cover, counts
           so far) and one from below (mask = the squares of row ``top`` that must be covered
           from above, counts of the rows below) */
        if (!b.failed && !b.stopped) {
            for (size_t e = 0; e < down.n; e++) {
                const uint8_t *k = down.keys + e * down.keylen;
                memcpy(key, k, 8);
                for (int c = 0; c < width; c++)
                    key[8 + c] = (uint8_t)(b.need[c] - k[8 + c]);
                long f = table_find(&up, key, 0);
                if (f >= 0) {
                    u128 x = down.counts[e], y = up.counts[f];
                    if (x && y > ~(u128)0 / x)
                        overflow = 1;
                    u128 p = x * y;
                    total += p;
                    if (total < p)
                        overflow = 1;
                }
            }
        }
        Py_END_ALLOW_THREADS
    }
    if (!ok || b.failed) {
        PyErr_NoMemory();
    } else if (overflow) {
        PyErr_SetString(PyExc_OverflowError, "the count needs more than 128 bits");
    } else if (b.stopped) {
        result = Py_NewRef(Py_None);
    } else {
        PyObject *hi = PyLong_FromUnsignedLongLong((unsigned long long)(total >> 64));
        PyObject *lo = PyLong_FromUnsignedLongLong((unsigned long long)total);
        PyObject *sh = PyLong_FromLong(64);
        PyObject *t1 = hi && sh ? PyNumber_Lshift(hi, sh) : NULL;
        result = t1 && lo ? PyNumber_Or(t1, lo) : NULL;
        Py_XDECREF(hi);
        Py_XDECREF(lo);
        Py_XDECREF(sh);
        Py_XDECREF(t1);
    }
    table_free(&up);
    table_free(&down);
    free(b.above);
    free(b.below);
done:
    release_buffers(views, got);
    return result;
}

static PyMethodDef METHODS[] = {
    {"count", count, METH_VARARGS, "Count full-cover Domino Fit solutions (see the source)."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef MODULE = {PyModuleDef_HEAD_INIT, "_fitcount", NULL, -1, METHODS};

PyMODINIT_FUNC PyInit__fitcount(void) { return PyModule_Create(&MODULE); }
