/* Exact cover with multiplicities by dancing links: the search of satdomino's ``dlx`` backend
(``backends/dlx.py``).

dance(num_items, caps, option_start, option_items, control, time_limit, max_count, keep
      [, weights]) -> (count, [first ``keep`` solutions, each its options]) | None

Every set of options that covers each item exactly ``caps[i]`` times (an option names an item
at most once), found one by one with dancing links (Knuth's Algorithm X). It branches on the
item with the fewest options left for its weight (``weights[i]``, 1 when not given: the items
each of its options settles besides it), preferring one that needs exactly one more: a
block of a packing that its options place 20 cells at a time goes before a cell with a few
more options. Each option of the item is taken in turn, and once
tried is set aside for the rest of the branch, so that an item needed k > 1 more times finds
each set of its options once. It stops at ``max_count`` solutions; None when stopped (another
thread sets ``control[0]``, an array('i') of one) or out of time. The GIL is released while
searching.
*/
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdlib.h>
#include <string.h>

#include "../_cbuffers.h"

typedef struct {
    int items;
    int *up, *down, *col, *opt, *len; /* nodes: item headers first, then the options' */
    int *base, *size;                 /* an option's first node and its node count */
    int *left, *prev, *next;          /* how often each item is still needed; the items
                                         still needed in a ring, header ``items`` */
    const int *weight;                /* what an item's options settle besides it, or NULL */
    int *chosen, *aside, n_aside;     /* options taken (by depth); options set aside */
    int *kept, n_kept, keep;          /* the solutions kept, each ``depth`` + its options */
    size_t kept_len, kept_cap;
    long long nodes;
    unsigned long long count, max_count;
    double t0, limit;
    volatile int *control;
    int stopped, nomem;
} X;

static void x_hide(X *x, int o) /* an option out of every item's list */
{
    for (int j = x->base[o]; j < x->base[o] + x->size[o]; j++) {
        x->down[x->up[j]] = x->down[j];
        x->up[x->down[j]] = x->up[j];
        x->len[x->col[j]]--;
    }
}

static void x_unhide(X *x, int o)
{
    for (int j = x->base[o] + x->size[o] - 1; j >= x->base[o]; j--) {
        x->len[x->col[j]]++;
        x->down[x->up[j]] = j;
        x->up[x->down[j]] = j;
    }
}

static void x_cover(X *x, int c) /* item c needed no more: its options out */
{
    x->next[x->prev[c]] = x->next[c];
    x->prev[x->next[c]] = x->prev[c];
    for (int i = x->down[c]; i != c; i = x->down[i])
        for (int j = x->base[x->opt[i]]; j < x->base[x->opt[i]] + x->size[x->opt[i]]; j++)
            if (j != i) {
                x->down[x->up[j]] = x->down[j];
                x->up[x->down[j]] = x->up[j];
                x->len[x->col[j]]--;
            }
}

static void x_uncover(X *x, int c)
{
    for (int i = x->up[c]; i != c; i = x->up[i])
        for (int j = x->base[x->opt[i]] + x->size[x->opt[i]] - 1; j >= x->base[x->opt[i]]; j--)
            if (j != i) {
                x->len[x->col[j]]++;
                x->down[x->up[j]] = j;
                x->up[x->down[j]] = j;
            }
    x->next[x->prev[c]] = c;
    x->prev[x->next[c]] = c;
}

static void x_take(X *x, int o) /* option o (already hidden) chosen */
{
    for (int j = x->base[o]; j < x->base[o] + x->size[o]; j++)
        if (--x->left[x->col[j]] == 0)
            x_cover(x, x->col[j]);
}

static void x_untake(X *x, int o)
{
    for (int j = x->base[o] + x->size[o] - 1; j >= x->base[o]; j--)
        if (x->left[x->col[j]]++ == 0)
            x_uncover(x, x->col[j]);
}

static void x_keep(X *x, int depth)
{
    if (x->n_kept >= x->keep)
        return;
    if (x->kept_len + (size_t)depth + 1 > x->kept_cap) {
        size_t cap = 2 * x->kept_cap + (size_t)depth + 64;
        int *grown = realloc(x->kept, cap * sizeof(int));
        if (!grown) {
            x->nomem = x->stopped = 1;
            return;
        }
        x->kept = grown, x->kept_cap = cap;
    }
    x->kept[x->kept_len++] = depth;
    memcpy(x->kept + x->kept_len, x->chosen, (size_t)depth * sizeof(int));
    x->kept_len += (size_t)depth;
    x->n_kept++;
}

/* has item c fewer options left than item d, for their weights? */
static inline int fewer(const X *x, int c, int d)
{
    if (!x->weight)
        return x->len[c] < x->len[d];
    return (long long)x->len[c] * x->weight[d] < (long long)x->len[d] * x->weight[c];
}

static void x_search(X *x, int depth)
{
    if ((++x->nodes & 1023) == 0 &&
        (*x->control || (x->limit >= 0 && now() - x->t0 > x->limit)))
        x->stopped = 1;
    if (x->stopped || x->count >= x->max_count)
        return;
    int root = x->items, best = -1;
    if (x->next[root] == root) {
        x_keep(x, depth);
        x->count++;
        return;
    }
    for (int c = x->next[root]; c != root; c = x->next[c]) {
        if (x->len[c] < x->left[c])
            return; /* fewer options left than it needs */
        if (best < 0 || (x->left[c] == 1) > (x->left[best] == 1) ||
            ((x->left[c] == 1) == (x->left[best] == 1) && fewer(x, c, best)))
            best = c;
    }
    int mark = x->n_aside;
    for (int r = x->down[best], after; r != best && !x->stopped && x->count < x->max_count;
         r = after) {
        after = x->down[r];
        int o = x->opt[r];
        x_hide(x, o);
        x->chosen[depth] = o;
        x_take(x, o);
        x_search(x, depth + 1);
        x_untake(x, o);
        x->aside[x->n_aside++] = o; /* stays hidden for the rest of this branch */
    }
    while (x->n_aside > mark)
        x_unhide(x, x->aside[--x->n_aside]);
}

static PyObject *dance(PyObject *self, PyObject *args)
{
    (void)self;
    int items, keep;
    PyObject *o_caps, *o_start, *o_items, *o_control, *o_weights = NULL;
    double limit;
    unsigned long long max_count;
    if (!PyArg_ParseTuple(args, "iOOOOdKi|O", &items, &o_caps, &o_start, &o_items, &o_control,
                          &limit, &max_count, &keep, &o_weights))
        return NULL;
    Py_buffer b[5];
    Py_buffer *views[] = {&b[0], &b[1], &b[2], &b[3], &b[4]};
    PyObject *objs[] = {o_caps, o_start, o_items, o_control};
    const char *names[] = {"caps", "option_start", "option_items", "control"};
    int want = o_weights ? 5 : 4;
    int got = get_buffers(objs, views, 4, "iiii", 1, names);
    if (got == 4 && o_weights && get_buffer(o_weights, &b[4], 0, 'i', "weights") == 0)
        got = 5;
    PyObject *result = NULL, *found = NULL;
    X x;
    memset(&x, 0, sizeof x);
    if (got < want)
        goto out;
    Py_ssize_t nopts = b[1].len / (Py_ssize_t)sizeof(int) - 1;
    const int *caps = b[0].buf, *ostart = b[1].buf, *oitems = b[2].buf;
    if (items < 0 || items > (1 << 24) || b[0].len / (Py_ssize_t)sizeof(int) != items ||
        nopts < 0 || nopts > (1 << 24) || ostart[0] != 0 ||
        ostart[nopts] != (int)(b[2].len / (Py_ssize_t)sizeof(int)) || keep < 0 ||
        b[3].len < (Py_ssize_t)sizeof(int)) {
        PyErr_SetString(PyExc_ValueError, "inconsistent sizes");
        goto out;
    }
    for (int i = 0; i < items; i++)
        if (caps[i] < 0) {
            PyErr_SetString(PyExc_ValueError, "a negative multiplicity");
            goto out;
        }
    if (o_weights) {
        x.weight = b[4].buf;
        if (b[4].len / (Py_ssize_t)sizeof(int) != items) {
            PyErr_SetString(PyExc_ValueError, "inconsistent sizes");
            goto out;
        }
        for (int i = 0; i < items; i++)
            if (x.weight[i] < 1) {
                PyErr_SetString(PyExc_ValueError, "a weight below 1");
                goto out;
            }
    }
    for (Py_ssize_t o = 0; o < nopts; o++) {
        if (ostart[o] >= ostart[o + 1]) {
            PyErr_SetString(PyExc_ValueError, "an option with no item");
            goto out;
        }
        for (int k = ostart[o]; k < ostart[o + 1]; k++)
            if (oitems[k] < 0 || oitems[k] >= items ||
                (k > ostart[o] && oitems[k] <= oitems[k - 1])) {
                PyErr_SetString(PyExc_ValueError, "an option's items must be in range, rising");
                goto out;
            }
    }
    size_t heads = (size_t)items + 1, total = heads + (size_t)ostart[nopts];
    x.items = items;
    x.up = malloc(total * sizeof(int)), x.down = malloc(total * sizeof(int));
    x.col = malloc(total * sizeof(int)), x.opt = malloc(total * sizeof(int));
    x.len = calloc(heads, sizeof(int)), x.left = calloc(heads, sizeof(int));
    x.prev = malloc(heads * sizeof(int)), x.next = malloc(heads * sizeof(int));
    x.base = malloc(((size_t)nopts + 1) * sizeof(int));
    x.size = malloc(((size_t)nopts + 1) * sizeof(int));
    x.chosen = malloc(((size_t)nopts + 1) * sizeof(int));
    x.aside = malloc(((size_t)nopts + 1) * sizeof(int));
    if (!x.up || !x.down || !x.col || !x.opt || !x.len || !x.left || !x.prev || !x.next ||
        !x.base || !x.size || !x.chosen || !x.aside) {
        PyErr_NoMemory();
        goto out;
    }
    int root = items, last = root;
    x.next[root] = x.prev[root] = root;
    for (int c = 0; c <= items; c++)
        x.up[c] = x.down[c] = c, x.col[c] = c, x.opt[c] = -1;
    int node = (int)heads;
    for (Py_ssize_t o = 0; o < nopts; o++) {
        x.base[o] = node, x.size[o] = ostart[o + 1] - ostart[o];
        for (int k = ostart[o]; k < ostart[o + 1]; k++, node++) {
            int c = oitems[k];
            x.col[node] = c, x.opt[node] = (int)o;
            x.up[node] = x.up[c], x.down[node] = c;
            x.down[x.up[c]] = node, x.up[c] = node;
            x.len[c]++;
        }
    }
    for (int c = 0; c < items; c++) { /* the items needed at all, in a ring */
        x.left[c] = caps[c];
        x.prev[c] = last, x.next[c] = root, x.next[last] = c, x.prev[root] = c, last = c;
    }
    for (int c = 0; c < items; c++)
        if (caps[c] == 0)
            x_cover(&x, c);
    x.max_count = max_count, x.keep = keep;
    x.control = (volatile int *)b[3].buf;
    x.limit = limit;
    x.t0 = now();
    Py_BEGIN_ALLOW_THREADS
    x_search(&x, 0);
    Py_END_ALLOW_THREADS
    if (x.nomem) {
        PyErr_NoMemory();
        goto out;
    }
    if (x.stopped) {
        Py_INCREF(Py_None);
        result = Py_None;
        goto out;
    }
    found = PyList_New(x.n_kept);
    if (!found)
        goto out;
    for (size_t at = 0, k = 0; k < (size_t)x.n_kept; k++) {
        int depth = x.kept[at++];
        PyObject *sol = PyList_New(depth);
        if (!sol)
            goto out;
        PyList_SET_ITEM(found, (Py_ssize_t)k, sol);
        for (int d = 0; d < depth; d++) {
            PyObject *v = PyLong_FromLong(x.kept[at++]);
            if (!v)
                goto out;
            PyList_SET_ITEM(sol, d, v);
        }
    }
    result = Py_BuildValue("(KO)", x.count, found);
out:
    Py_XDECREF(found);
    free(x.up), free(x.down), free(x.col), free(x.opt), free(x.len), free(x.left);
    free(x.prev), free(x.next), free(x.base), free(x.size), free(x.chosen), free(x.aside);
    free(x.kept);
    release_buffers(views, got);
    return result;
}

static PyMethodDef methods[] = {
    {"dance", dance, METH_VARARGS, "Find exact covers one by one (dancing links)."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_dlx",
                                    "satdomino's exact cover search (see backends/dlx.py)", -1,
                                    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__dlx(void) { return PyModule_Create(&module); }
