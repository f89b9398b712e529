/* Counting packings exactly: satdomino's counter for Doodle Fit (``doodlefit.count_placements``).

sweep(num_cells, group_caps, option_start, option_cells, option_group, control, time_limit)
    -> int | None

The cells are numbered in sweep order (along the shape's longer side); each option is a
placement of a group of interchangeable blocks (its cells, first cell first, and its group), and
the options are sorted by their first cell. Group g holds ``group_caps[g]`` blocks. A packing is
a set of options covering every cell once, each group used as often as it has blocks; the
first free cell must be the first cell of the option that covers it, so each packing is found
once. The count of what is left depends only on the free cells from the current one on and on
how many blocks of each group are used: those states are remembered (a transfer matrix built as
it is needed), up to a table of a few million states, past which the search goes on without
remembering more.

Arrays are ``array('i')``; ``control`` a writable array of one C int that another thread sets to
stop. Returns the count, or None when stopped or out of time; a count beyond 127 bits raises
OverflowError. The GIL is released while counting.
*/
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../_cbuffers.h"

typedef unsigned __int128 u128;

/* the memo starts small (a sweep that remembers little touches little memory) and doubles up
   to these: slots, and 32-bit words of keys */
enum { MEMO_FIRST_SLOTS = 1 << 12, MEMO_FIRST_POOL = 1 << 16 };
#define MEMO_MAX_SLOTS ((size_t)1 << 22)
#define MEMO_MAX_POOL ((size_t)1 << 27)


typedef struct {
    int n, ngroups, words, small_caps;
    const int *gcap, *ostart, *ocells, *ogroup;
    int *first; /* options of each first cell: first[c] .. first[c + 1] */
    /* each option's cells as bits from its first cell on (bit k: first cell + k), or 0 when
       they span 64 cells or more */
    uint64_t *orel;
    uint64_t *bits;
    int *used;
    /* memo: keys are (cell, the bit words from the cell's on, used counts) */
    uint64_t *mkey;
    u128 *mval;
    int *moff;
    size_t mslots, mused;
    uint32_t *mpool;
    size_t mpool_len, mpool_cap;
    uint32_t *scratch;
    long long nodes;
    double t0, limit;
    volatile int *control;
    int stopped, overflow;
} S;

static int s_key(S *z, int c, uint32_t *out)
{
    int len = 0, w0 = c >> 6, wn = (z->n - 1) >> 6;
    out[len++] = (uint32_t)c;
    for (int w = w0; w <= wn; w++) {
        uint64_t word = z->bits[w];
        if (w == w0)
            word >>= (c & 63); /* the cells before c are all covered */
        out[len++] = (uint32_t)word;
        out[len++] = (uint32_t)(word >> 32);
    }
    if (z->small_caps) { /* four counts to a word */
        for (int g = 0; g < z->ngroups; g += 4) {
            uint32_t packed = 0;
            for (int j = 0; j < 4 && g + j < z->ngroups; j++)
                packed |= (uint32_t)z->used[g + j] << (8 * j);
            out[len++] = packed;
        }
    } else {
        for (int g = 0; g < z->ngroups; g++)
            out[len++] = (uint32_t)z->used[g];
    }
    return len;
}

static uint64_t s_hash(const uint32_t *k, int len)
{
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < len; i++) {
        h ^= k[i];
        h *= 1099511628211ULL;
        h ^= h >> 31;
    }
    return h ? h : 1;
}

static int s_get(S *z, const uint32_t *k, int len, uint64_t h, u128 *out)
{
    for (size_t slot = h & (z->mslots - 1);; slot = (slot + 1) & (z->mslots - 1)) {
        if (z->mkey[slot] == 0)
            return -1;
        if (z->mkey[slot] == h && z->mpool[z->moff[slot]] == (uint32_t)len &&
            memcmp(z->mpool + z->moff[slot] + 1, k, (size_t)len * sizeof(uint32_t)) == 0) {
            *out = z->mval[slot];
            return 0;
        }
    }
}

/* the memo at twice its slots, or 0 when it may not grow or memory runs out */
static int s_grow(S *z)
{
    size_t slots = z->mslots * 2;
    if (slots > MEMO_MAX_SLOTS)
        return 0;
    uint64_t *key = calloc(slots, sizeof(uint64_t));
    u128 *val = malloc(slots * sizeof(u128));
    int *off = malloc(slots * sizeof(int));
    if (!key || !val || !off) {
        free(key), free(val), free(off);
        return 0;
    }
    for (size_t old = 0; old < z->mslots; old++) {
        if (z->mkey[old] == 0)
            continue;
        size_t slot = z->mkey[old] & (slots - 1);
        while (key[slot] != 0)
            slot = (slot + 1) & (slots - 1);
        key[slot] = z->mkey[old], val[slot] = z->mval[old], off[slot] = z->moff[old];
    }
    free(z->mkey), free(z->mval), free(z->moff);
    z->mkey = key, z->mval = val, z->moff = off, z->mslots = slots;
    return 1;
}

static void s_put(S *z, const uint32_t *k, int len, uint64_t h, u128 v)
{
    if (z->mused * 2 >= z->mslots && !s_grow(z))
        return; /* full: go on without remembering more */
    size_t needs = z->mpool_len + (size_t)len + 1;
    if (needs > z->mpool_cap) {
        size_t cap = z->mpool_cap;
        while (cap < needs)
            cap *= 2;
        uint32_t *pool = cap <= MEMO_MAX_POOL ? realloc(z->mpool, cap * sizeof(uint32_t)) : NULL;
        if (!pool)
            return;
        z->mpool = pool, z->mpool_cap = cap;
    }
    size_t slot = h & (z->mslots - 1);
    while (z->mkey[slot] != 0)
        slot = (slot + 1) & (z->mslots - 1);
    z->mkey[slot] = h;
    z->mval[slot] = v;
    z->moff[slot] = (int)z->mpool_len;
    z->mpool[z->mpool_len++] = (uint32_t)len;
    memcpy(z->mpool + z->mpool_len, k, (size_t)len * sizeof(uint32_t));
    z->mpool_len += (size_t)len;
    z->mused++;
}

static u128 s_go(S *z, int c)
{
    while (c < z->n && (z->bits[c >> 6] >> (c & 63) & 1))
        c++;
    if (c == z->n)
        return 1;
    if ((++z->nodes & 4095) == 0 &&
        (z->control[0] || (z->limit >= 0 && now() - z->t0 > z->limit)))
        z->stopped = 1;
    if (z->stopped || z->overflow)
        return 0;
    uint32_t *key = z->scratch + (size_t)c * (size_t)(1 + 2 * z->words + z->ngroups);
    int len = s_key(z, c, key);
    uint64_t h = s_hash(key, len);
    u128 total = 0;
    if (s_get(z, key, len, h, &total) == 0)
        return total;
    /* the cells from c on, as bits (bit k: cell c + k; the word after the last is 0) */
    int w0 = c >> 6, sh = c & 63;
    uint64_t window = z->bits[w0] >> sh | (sh ? z->bits[w0 + 1] << (64 - sh) : 0);
    for (int o = z->first[c]; o < z->first[c + 1]; o++) {
        int g = z->ogroup[o];
        if (z->used[g] >= z->gcap[g])
            continue;
        if (z->orel[o]) {
            if (window & z->orel[o])
                continue;
        } else {
            int fits = 1;
            for (int k = z->ostart[o]; k < z->ostart[o + 1] && fits; k++) {
                int cell = z->ocells[k];
                fits = !(z->bits[cell >> 6] >> (cell & 63) & 1);
            }
            if (!fits)
                continue;
        }
        for (int k = z->ostart[o]; k < z->ostart[o + 1]; k++)
            z->bits[z->ocells[k] >> 6] |= 1ULL << (z->ocells[k] & 63);
        z->used[g]++;
        u128 part = s_go(z, c + 1);
        z->used[g]--;
        for (int k = z->ostart[o]; k < z->ostart[o + 1]; k++)
            z->bits[z->ocells[k] >> 6] &= ~(1ULL << (z->ocells[k] & 63));
        u128 sum = total + part;
        if (sum < total || (sum >> 127))
            z->overflow = 1;
        total = sum;
        if (z->stopped || z->overflow)
            return 0;
    }
    s_put(z, key, len, h, total);
    return total;
}

static PyObject *u128_to_long(u128 v)
{
    PyObject *hi = PyLong_FromUnsignedLongLong((unsigned long long)(v >> 64));
    PyObject *lo = PyLong_FromUnsignedLongLong((unsigned long long)v);
    PyObject *sixty_four = PyLong_FromLong(64);
    PyObject *shifted = hi && sixty_four ? PyNumber_Lshift(hi, sixty_four) : NULL;
    PyObject *result = shifted && lo ? PyNumber_Or(shifted, lo) : NULL;
    Py_XDECREF(hi), Py_XDECREF(lo), Py_XDECREF(sixty_four), Py_XDECREF(shifted);
    return result;
}

static PyObject *sweep(PyObject *self, PyObject *args)
{
    (void)self;
    int n;
    PyObject *o_gcap, *o_start, *o_cells, *o_group, *o_control;
    double limit;
    if (!PyArg_ParseTuple(args, "iOOOOOd", &n, &o_gcap, &o_start, &o_cells, &o_group,
                          &o_control, &limit))
        return NULL;
    Py_buffer b[5];
    Py_buffer *views[] = {&b[0], &b[1], &b[2], &b[3], &b[4]};
    PyObject *objs[] = {o_gcap, o_start, o_cells, o_group, o_control};
    const char *names[] = {"group_caps", "option_start", "option_cells", "option_group",
                           "control"};
    int got = get_buffers(objs, views, 5, "iiiii", 1, names);
    PyObject *result = NULL;
    S z;
    memset(&z, 0, sizeof z);
    if (got < 5)
        goto out;
    int ngroups = (int)(b[0].len / (Py_ssize_t)sizeof(int));
    Py_ssize_t nopts = b[1].len / (Py_ssize_t)sizeof(int) - 1;
    const int *ostart = b[1].buf, *ocells = b[2].buf, *ogroup = b[3].buf, *gcap = b[0].buf;
    if (n < 0 || n > (1 << 20) || nopts < 0 || ostart[0] != 0 ||
        ostart[nopts] != (int)(b[2].len / (Py_ssize_t)sizeof(int)) ||
        b[3].len / (Py_ssize_t)sizeof(int) != nopts || b[4].len < (Py_ssize_t)sizeof(int)) {
        PyErr_SetString(PyExc_ValueError, "inconsistent sizes");
        goto out;
    }
    for (int g = 0; g < ngroups; g++)
        if (gcap[g] < 0) {
            PyErr_SetString(PyExc_ValueError, "a negative group size");
            goto out;
        }
    for (Py_ssize_t o = 0; o < nopts; o++) {
        if (ostart[o] >= ostart[o + 1] || ogroup[o] < 0 || ogroup[o] >= ngroups) {
            PyErr_SetString(PyExc_ValueError, "an empty option, or one without a group");
            goto out;
        }
        for (int k = ostart[o]; k < ostart[o + 1]; k++)
            if (ocells[k] < 0 || ocells[k] >= n || ocells[k] < ocells[ostart[o]]) {
                PyErr_SetString(PyExc_ValueError,
                                "an option's cells must be in range, its first cell first");
                goto out;
            }
        if (o && ocells[ostart[o]] < ocells[ostart[o - 1]]) {
            PyErr_SetString(PyExc_ValueError, "options must be sorted by their first cell");
            goto out;
        }
    }
    z.n = n, z.ngroups = ngroups, z.words = (n + 63) / 64 + 1;
    z.small_caps = 1;
    for (int g = 0; g < ngroups; g++)
        if (gcap[g] < 0 || gcap[g] > 255)
            z.small_caps = 0;
    z.gcap = gcap, z.ostart = ostart, z.ocells = ocells, z.ogroup = ogroup;
    z.first = calloc((size_t)n + 2, sizeof(int));
    z.orel = calloc((size_t)(nopts ? nopts : 1), sizeof(uint64_t));
    z.bits = calloc((size_t)z.words, sizeof(uint64_t));
    z.used = calloc((size_t)(ngroups ? ngroups : 1), sizeof(int));
    z.scratch = malloc(((size_t)n + 1) * (size_t)(1 + 2 * z.words + ngroups) * sizeof(uint32_t));
    z.mslots = MEMO_FIRST_SLOTS;
    z.mpool_cap = MEMO_FIRST_POOL;
    z.mkey = calloc(z.mslots, sizeof(uint64_t));
    z.mval = malloc(z.mslots * sizeof(u128));
    z.moff = malloc(z.mslots * sizeof(int));
    z.mpool = malloc(z.mpool_cap * sizeof(uint32_t));
    if (!z.first || !z.orel || !z.bits || !z.used || !z.scratch || !z.mkey || !z.mval ||
        !z.moff || !z.mpool) {
        PyErr_NoMemory();
        goto out;
    }
    for (Py_ssize_t o = 0; o < nopts; o++) {
        z.first[ocells[ostart[o]] + 1]++;
        uint64_t rel = 0;
        for (int k = ostart[o]; k < ostart[o + 1] && rel != ~0ULL; k++) {
            int d = ocells[k] - ocells[ostart[o]];
            rel = d < 64 ? rel | 1ULL << d : ~0ULL;
        }
        z.orel[o] = rel == ~0ULL ? 0 : rel;
    }
    for (int c = 0; c <= n; c++)
        z.first[c + 1] += z.first[c];
    z.control = (volatile int *)b[4].buf;
    z.limit = limit;
    z.t0 = now();
    u128 total;
    Py_BEGIN_ALLOW_THREADS
    total = s_go(&z, 0);
    Py_END_ALLOW_THREADS
    if (z.overflow) {
        PyErr_SetString(PyExc_OverflowError, "the count does not fit 127 bits");
    } else if (z.stopped) {
        Py_INCREF(Py_None);
        result = Py_None;
    } else {
        result = u128_to_long(total);
    }
out:
    free(z.first), free(z.orel), free(z.bits), free(z.used), free(z.scratch);
    free(z.mkey), free(z.mval), free(z.moff), free(z.mpool);
    release_buffers(views, got);
    return result;
}

static PyMethodDef methods[] = {
    {"sweep", sweep, METH_VARARGS, "Count packings cell by cell, remembering states."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_xcount",
                                    "satdomino's packing counter (see doodlefit.count_placements)", -1,
                                    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__xcount(void) { return PyModule_Create(&module); }
