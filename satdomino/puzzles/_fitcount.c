/* Counting Domino Fit solutions exactly: satdomino's counter for full-cover Domino Fit
(``dominofit.count_placements``).

count(width, height, free, tops, per_column, max_states, layer_bytes, control) -> int | None

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
what it needs, is dropped. The sweeps meet across one row: each state from above, moved across
it, is matched with the state from below that has the same mask and the rest of each column's
count.

Most states of a plain sweep have no completion (at the meeting row of planted 20x20 boards,
over 90% of them match nothing). So first the masks alone are swept, three times (down, up,
down), giving each mask a boundary can hold the sets of counts each column can get above it
and below it, each kept to what the other can match (``build_layers``); a sweep then drops a
state whose counts the other side's sets cannot complete, and moves along the masks' recorded
moves instead of finding them again. Up to ``layer_bytes`` of them (0: none), and only where
every column needs fewer than 64 pieces.

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
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "../_cbuffers.h"

typedef unsigned __int128 u128;

enum { MAX_WIDTH = 64, VMAX = 64 };

/* a table of states: key = mask (8 bytes) + one byte a column; value = count */
typedef struct {
    int width, keylen;    /* keylen = 8 + width, rounded up to 8 */
    size_t n, cap, slots; /* entries, entry capacity, hash slots (a power of two) */
    uint8_t *keys;        /* n * keylen */
    u128 *counts;
    uint64_t *slot;       /* entry index + 1 (low half; 0 empty), the key's hash (high half) */
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
    t->slot = calloc(t->slots, sizeof(uint64_t));
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
    uint64_t *slot = calloc(slots, sizeof(uint64_t));
    if (!slot)
        return -1;
    for (size_t h = 0; h < t->slots; h++) { /* the old slots carry their keys' hashes */
        uint64_t v = t->slot[h];
        if (!v)
            continue;
        size_t i = (size_t)(v >> 32) & (slots - 1);
        while (slot[i])
            i = (i + 1) & (slots - 1);
        slot[i] = v;
    }
    free(t->slot);
    t->slot = slot;
    t->slots = slots;
    t->cap = cap;
    return 0;
}

static int same_key(const uint8_t *a, const uint8_t *b, int len)
{
    for (int i = 0; i < len; i += 8) {
        uint64_t x, y;
        memcpy(&x, a + i, 8);
        memcpy(&y, b + i, 8);
        if (x != y)
            return 0;
    }
    return 1;
}

/* the entry for key (added with count 0 when new), or -1 when out of memory */
static long table_find(Table *t, const uint8_t *key, int add)
{
    uint64_t tag = hash_key(key, t->keylen) >> 32;
    size_t h = (size_t)tag & (t->slots - 1);
    for (uint64_t v; (v = t->slot[h]); h = (h + 1) & (t->slots - 1)) {
        size_t e = (size_t)(v & 0xffffffffu) - 1;
        if (v >> 32 == tag && same_key(t->keys + e * t->keylen, key, t->keylen))
            return (long)e;
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
    t->slot[h] = tag << 32 | (uint64_t)(t->n + 1);
    return (long)t->n++;
}

static void add_count(Table *t, long e, u128 c)
{
    u128 s = t->counts[e] + c;
    if (s < c)
        t->overflow = 1;
    t->counts[e] = s;
}

/* The masks a boundary can hold (boundary t lies between rows t - 1 and t; its mask is the
   squares of row t covered from above, the tops of row t - 1), each with, per column, the set
   of counts (bit v: v vertical pieces) the rows before t can give it (``past``) and the rows
   from t on (``future``), over every way of filling them that reaches or leaves that mask: a
   sweep's state whose counts lie outside them has no completion. A mask whose sets are empty
   is dead (``future`` of column 0 is 0). */
typedef struct {
    Table index;             /* the masks (keys of 8 bytes, no counts) */
    size_t cap;              /* entries ``past`` and ``future`` hold */
    uint64_t *past, *future; /* index.n * width */
    /* the moves across the row below: entry i reaches entries to[first[i] .. first[i + 1])
       of the next layer; and the moves across the row above, reversed: entry i is reached
       from entries from[rfirst[i] .. rfirst[i + 1]) of the previous one */
    size_t *first, *rfirst;
    uint32_t *to, *from;
    size_t nto, tocap;
    /* the same sets as bounds on a sweep's counts, one byte a column (``VW`` a mask), for
       one vector test a move: [1] a state from above moving into the mask (its counts before
       the mask's tops), [0] one from below (its counts from the boundary on); ``exact`` when
       every column's set is an interval, so that the bounds say all */
    uint8_t *lo[2], *hi[2], *exact[2];
} Layer;

typedef struct {
    int width, height;
    const int64_t *free;
    const int *tops, *need;
    int *above, *below; /* possible tops in each column: in rows before r, in rows from r */
    size_t max_states;
    volatile int *control;
    int stopped, failed;
    Layer *layers; /* height + 1 boundaries, or NULL: the sweeps go by the bounds alone */
    size_t room;   /* the bytes the layers may still take */
    unsigned ticks;
} Board;

/* stopped (by ``control``, looked at every 4096 calls: one state may have millions of moves)
   or failed */
static int halted(Board *b)
{
    if ((++b->ticks & 4095) == 0 && b->control[0])
        b->stopped = 1;
    return b->stopped || b->failed;
}

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
    if (s->b->stopped || s->b->failed)
        return;
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


static void layer_free(Layer *l)
{
    table_free(&l->index);
    free(l->past), free(l->future);
    free(l->first), free(l->rfirst), free(l->to), free(l->from);
    for (int d = 0; d < 2; d++)
        free(l->lo[d]), free(l->hi[d]), free(l->exact[d]);
    memset(l, 0, sizeof *l);
}

static uint64_t layer_mask(const Layer *l, size_t e)
{
    uint64_t mask;
    memcpy(&mask, l->index.keys + e * 8, 8);
    return mask;
}

/* the entry of ``mask``: added (its sets empty) when ``add`` is given, the bytes its growth
   takes counted off ``*add``; -2 when absent, -1 when out of memory or of those bytes */
static long layer_find(Layer *l, uint64_t mask, size_t *add, int width)
{
    uint8_t key[8];
    memcpy(key, &mask, 8);
    long e = table_find(&l->index, key, 0);
    if (e != -2 || !add)
        return e;
    size_t w = (size_t)width, n = l->index.n;
    size_t grows = (n == l->index.cap ? n * 24 + l->index.slots * 16 : 0) +
                   (n == l->cap ? (n ? n : 64) * 16 * w : 0);
    if (grows > *add)
        return -1;
    *add -= grows;
    if (n == l->cap) {
        size_t cap = n ? 2 * n : 64;
        uint64_t *pa = realloc(l->past, cap * w * 8);
        if (!pa)
            return -1;
        l->past = pa;
        uint64_t *fu = realloc(l->future, cap * w * 8);
        if (!fu)
            return -1;
        l->future = fu;
        l->cap = cap;
    }
    e = table_find(&l->index, key, 1);
    if (e < 0)
        return -1;
    memset(l->past + e * w, 0, w * 8);
    memset(l->future + e * w, 0, w * 8);
    return e;
}

/* {n - v : v in set, 0 <= v <= n} */
static uint64_t mirrored(uint64_t set, int n)
{
    uint64_t out = 0;
    for (int v = 0; v <= n; v++)
        if ((set >> v) & 1)
            out |= 1ULL << (n - v);
    return out;
}

/* keep in ``sets`` the counts whose rest of the column's need lies in ``other``; dead when
   a column keeps none */
static void keep_matching(uint64_t *sets, const uint64_t *other, const int *need, int width)
{
    for (int c = 0; c < width; c++) {
        sets[c] &= mirrored(other[c], need[c]);
        if (!sets[c]) {
            sets[0] = 0;
            return;
        }
    }
}

/* one mask's moves across a row, for the passes: ``from`` is entry i of layer ``at``, moving
   into layer ``to`` */
typedef struct {
    Board *b;
    Layer *at, *to;
    size_t i;
    int forward, add;
    uint64_t *acc; /* backward: the union being built */
} Pass;

static void pass_move(void *ctx, uint64_t x)
{
    Pass *ps = ctx;
    int w = ps->b->width;
    if (halted(ps->b))
        return;
    long j = layer_find(ps->to, x, ps->add ? &ps->b->room : NULL, w);
    if (j == -1)
        ps->b->failed = 1;
    if (j < 0)
        return;
    if (ps->forward) { /* counts before the next boundary: these plus x's tops */
        if (!ps->add && !ps->to->future[(size_t)j * w])
            return;
        if (!ps->add) { /* the last pass: the move is kept for the sweeps */
            Layer *l = ps->at;
            if (l->nto == l->tocap) {
                size_t cap = l->tocap ? 2 * l->tocap : 1024;
                uint32_t *to = NULL;
                if ((cap - l->tocap) * 4 <= ps->b->room) {
                    ps->b->room -= (cap - l->tocap) * 4;
                    to = realloc(l->to, cap * sizeof(uint32_t));
                }
                if (!to) {
                    ps->b->failed = 1;
                    return;
                }
                l->to = to, l->tocap = cap;
            }
            l->to[l->nto++] = (uint32_t)j;
        }
        uint64_t *dst = ps->to->past + (size_t)j * w, *src = ps->at->past + ps->i * w;
        for (int c = 0; c < w; c++)
            dst[c] |= ((x >> c) & 1) ? src[c] << 1 : src[c];
    } else { /* counts from this boundary on: x's tops plus the next's */
        const uint64_t *src = ps->to->future + (size_t)j * w;
        if (!src[0])
            return;
        for (int c = 0; c < w; c++)
            ps->acc[c] |= ((x >> c) & 1) ? src[c] << 1 : src[c];
    }
}

static void pass_row(Board *b, Pass *ps, int r)
{
    uint64_t fixed = layer_mask(ps->at, ps->i);
    Split s = {b, r, b->tops[r], fixed, r + 1 < b->height ? (uint64_t)b->free[r + 1] : 0,
               pass_move, ps};
    split_from(&s, 0, 0, s.k, 0);
}

/* the moves from ``l`` into ``next``, listed by their ends in ``next`` */
static int reverse_moves(const Layer *l, Layer *next, size_t *room)
{
    size_t takes = (next->index.n + 1) * 16 + l->nto * 4;
    if (takes > *room)
        return -1;
    *room -= takes;
    size_t n = next->index.n;
    next->rfirst = calloc(n + 1, sizeof(size_t));
    next->from = malloc((l->nto ? l->nto : 1) * sizeof(uint32_t));
    if (!next->rfirst || !next->from)
        return -1;
    for (size_t k = 0; k < l->nto; k++)
        next->rfirst[l->to[k] + 1]++;
    for (size_t j = 0; j < n; j++)
        next->rfirst[j + 1] += next->rfirst[j];
    size_t *fill = malloc((n + 1) * sizeof(size_t));
    if (!fill)
        return -1;
    memcpy(fill, next->rfirst, (n + 1) * sizeof(size_t));
    for (size_t i = 0; i < l->index.n; i++)
        for (size_t k = l->first[i]; k < l->first[i + 1]; k++)
            next->from[fill[l->to[k]]++] = (uint32_t)i;
    free(fill);
    return 0;
}

/* in the passes over the masks, before entry i: stop? */
static int pass_stops(Board *b, size_t i)
{
    if ((i & 63) == 0 && b->control[0])
        b->stopped = 1;
    return b->failed || b->stopped;
}

/* The layers, from three passes over the masks: forward (every reachable mask and its past),
   backward (the futures, each kept to what its past can match), forward again (the pasts
   kept to what the futures match). 0 when they would take more than ``budget`` bytes, or
   when stopped (``control``). */
static int build_layers(Board *b, size_t budget)
{
    int w = b->width, h = b->height;
    Layer *L = calloc((size_t)h + 1, sizeof(Layer));
    if (!L)
        return 0;
    b->layers = L;
    b->room = budget;
    for (int r = 0; r <= h; r++) /* a table starts with room for 1,024 masks: 40 KB */
        if (b->room < (40 << 10) || table_init(&L[r].index, 0, 1024) < 0)
            goto fail;
        else
            b->room -= 40 << 10;
    if (layer_find(&L[0], 0, &b->room, w) < 0)
        goto fail;
    for (int c = 0; c < w; c++)
        L[0].past[c] = 1, L[0].future[c] = 1;
    for (int r = 0; r < h; r++) {
        for (size_t i = 0; i < L[r].index.n; i++) {
            if (pass_stops(b, i))
                goto fail;
            Pass ps = {b, &L[r], &L[r + 1], i, 1, 1, NULL};
            pass_row(b, &ps, r);
        }
        if (b->failed || b->stopped)
            goto fail;
    }
    for (int r = h; r >= 0; r--) {
        uint64_t acc[MAX_WIDTH];
        for (size_t i = 0; i < L[r].index.n; i++) {
            if (pass_stops(b, i))
                goto fail;
            memset(acc, 0, sizeof acc);
            if (r == h) {
                if (layer_mask(&L[r], i) == 0)
                    for (int c = 0; c < w; c++)
                        acc[c] = 1;
            } else {
                Pass ps = {b, &L[r], &L[r + 1], i, 0, 0, acc};
                pass_row(b, &ps, r);
            }
            keep_matching(acc, L[r].past + i * w, b->need, w);
            memcpy(L[r].future + i * w, acc, (size_t)w * 8);
        }
    }
    for (int r = 1; r <= h; r++)
        memset(L[r].past, 0, L[r].index.n * (size_t)w * 8);
    for (int r = 0; r < h; r++) {
        if ((L[r].index.n + 1) * 8 > b->room)
            goto fail;
        b->room -= (L[r].index.n + 1) * 8;
        L[r].first = malloc((L[r].index.n + 1) * sizeof(size_t));
        if (!L[r].first)
            goto fail;
        for (size_t i = 0; i < L[r].index.n; i++) {
            if (pass_stops(b, i))
                goto fail;
            L[r].first[i] = L[r].nto;
            if (!L[r].future[i * w])
                continue;
            Pass ps = {b, &L[r], &L[r + 1], i, 1, 0, NULL};
            pass_row(b, &ps, r);
        }
        L[r].first[L[r].index.n] = L[r].nto;
        if (b->failed || b->stopped || reverse_moves(&L[r], &L[r + 1], &b->room) < 0)
            goto fail;
        for (size_t i = 0; i < L[r + 1].index.n; i++) {
            uint64_t *past = L[r + 1].past + i * w;
            keep_matching(past, L[r + 1].future + i * w, b->need, w);
            if (!past[0])
                L[r + 1].future[i * w] = 0;
        }
    }
    return 1;
fail:
    for (int r = 0; r <= h; r++)
        layer_free(&L[r]);
    free(L);
    b->layers = NULL;
    b->failed = 0;
    return 0;
}

static int vec_width(int width) { return (width + 31) & ~31; }

/* lo <= v <= hi in every byte (vw of them, a multiple of 32) */
static int within(const uint8_t *v, const uint8_t *lo, const uint8_t *hi, int vw)
{
#if defined(__SSE2__)
    for (int i = 0; i < vw; i += 16) {
        __m128i a = _mm_loadu_si128((const __m128i *)(v + i));
        __m128i l = _mm_loadu_si128((const __m128i *)(lo + i));
        __m128i h = _mm_loadu_si128((const __m128i *)(hi + i));
        __m128i in = _mm_and_si128(_mm_cmpeq_epi8(_mm_max_epu8(a, l), a),
                                   _mm_cmpeq_epi8(_mm_min_epu8(a, h), a));
        if (_mm_movemask_epi8(in) != 0xffff)
            return 0;
    }
#else
    for (int i = 0; i < vw; i++)
        if (v[i] < lo[i] || v[i] > hi[i])
            return 0;
#endif
    return 1;
}

/* Layer l's sets as bounds for the sweeps going ``down`` or up (``Layer.lo``), the bytes
   counted off ``b->room``; 0 when they do not fit. */
static int layer_bounds(Board *b, Layer *l, int down)
{
    if (l->lo[down])
        return 1;
    int w = b->width, vw = vec_width(w);
    size_t n = l->index.n, takes = n * (2 * (size_t)vw + 1) + 3;
    if (takes > b->room)
        return 0;
    uint8_t *lo = malloc(n * vw + 1), *hi = malloc(n * vw + 1), *exact = malloc(n + 1);
    if (!lo || !hi || !exact) {
        free(lo), free(hi), free(exact);
        return 0;
    }
    b->room -= takes;
    for (size_t j = 0; j < n; j++) {
        const uint64_t *sets = (down ? l->future : l->past) + j * w;
        uint64_t mask = layer_mask(l, j);
        uint8_t *a = lo + j * vw, *z = hi + j * vw;
        memset(a, 0, vw);
        memset(z, 255, vw);
        exact[j] = 1;
        for (int c = 0; c < w; c++) {
            /* the counts v with need - v in the set: going down, v is before the mask's tops */
            uint64_t set = l->future[j * w] ? sets[c] : 0;
            int shift = down ? (int)((mask >> c) & 1) : 0;
            int least = set ? __builtin_ctzll(set) : 0, most = set ? 63 - __builtin_clzll(set) : 0;
            int top = b->need[c] - shift - least, bottom = b->need[c] - shift - most;
            if (!set || top < 0) { /* none */
                a[c] = 255, z[c] = 0;
                continue;
            }
            a[c] = (uint8_t)(bottom < 0 ? 0 : bottom), z[c] = (uint8_t)top;
            uint64_t run = set >> least;
            if (run & (run + 1))
                exact[j] = 0;
        }
    }
    l->lo[down] = lo, l->hi[down] = hi, l->exact[down] = exact;
    return 1;
}

/* may a state at boundary r, entry j of its layer, with these counts (of the rows before r
   when ``past_counted``, else of the rows from r) be completed, as far as the layers know? */
static int completable(const Board *b, int r, size_t j, const uint8_t *counts, int past_counted)
{
    const Layer *l = &b->layers[r];
    int w = b->width;
    const uint64_t *sets = (past_counted ? l->future : l->past) + j * w;
    if (!l->future[j * w])
        return 0;
    for (int c = 0; c < w; c++) {
        int rest = b->need[c] - counts[c];
        if (rest < 0 || !((sets[c] >> rest) & 1))
            return 0;
    }
    return 1;
}

typedef struct {
    Board *b;
    Table *next;
    const uint8_t *key; /* the state being extended */
    u128 count;
    int r, down;
    long j;      /* the entry of the new state's mask in its layer, -1 without layers */
    const Layer *to; /* that layer, when it has its bounds (``Layer.lo``) */
    uint8_t v[VMAX]; /* then the counts they bound: down, the state's; up, with its tops */
    Table *meet; /* set on the last row: the states from below, matched instead of added */
    u128 total;
    int overflow;
} Step;

/* the count of the states from below that complete this one (its mask, the rest of each
   column's count) times this one's */
static void match(Step *st, const uint8_t *key)
{
    uint8_t rest[8 + MAX_WIDTH + 8];
    memcpy(rest, key, sizeof rest);
    for (int c = 0; c < st->b->width; c++)
        rest[8 + c] = (uint8_t)(st->b->need[c] - key[8 + c]);
    long f = table_find(st->meet, rest, 0);
    if (f < 0)
        return;
    u128 x = st->count, y = st->meet->counts[f];
    if (x && y > ~(u128)0 / x)
        st->overflow = 1;
    u128 p = x * y;
    st->total += p;
    if (st->total < p)
        st->overflow = 1;
}

/* The new state's counts (``key`` + 8) for move ``x``, by the layer's bounds (``st->to``):
   0 when the move leads to no solution. */
static int counts_by_layer(const Step *st, uint64_t x, uint8_t *key)
{
    const Layer *l = st->to;
    int w = st->b->width, vw = vec_width(w), d = st->down;
    size_t j = (size_t)st->j;
    if (!within(st->v, l->lo[d] + j * vw, l->hi[d] + j * vw, vw))
        return 0;
    memcpy(key + 8, st->v, (size_t)w);
    if (d) /* down, the move's tops count from here */
        for (uint64_t t = x; t; t &= t - 1)
            key[8 + __builtin_ctzll(t)]++;
    return l->exact[d][j] || completable(st->b, d ? st->r + 1 : st->r, j, key + 8, d);
}

/* The same by the bounds on what the rows not yet swept can give each column, then the
   layer's sets when there are layers. */
static int counts_by_bounds(const Step *st, uint64_t x, uint8_t *key)
{
    const Board *b = st->b;
    uint64_t tops = st->down ? x : *(const uint64_t *)st->key;
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
            return 0;
        key[8 + c] = (uint8_t)have;
    }
    /* down, the state is at boundary r + 1 with its pasts counted; up, at r with its futures */
    return st->j < 0 || completable(b, st->down ? r + 1 : r, (size_t)st->j, key + 8, st->down);
}

static void extend(void *ctx, uint64_t x)
{
    Step *st = ctx;
    Board *b = st->b;
    if (halted(b))
        return;
    uint8_t key[8 + MAX_WIDTH + 8];
    memset(key, 0, sizeof key);
    memcpy(key, &x, 8); /* the next state's mask: x either way */
    if (!(st->to ? counts_by_layer(st, x, key) : counts_by_bounds(st, x, key)))
        return;
    if (st->meet) {
        match(st, key);
        return;
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

/* Sweep row r: from table ``cur`` into ``next``; or, given ``meet`` (the states from below
   at boundary r + 1), return the count of the fillings they complete (``*overflow`` set past
   128 bits). With layers the moves are the layers' own, else they are found again. */
static u128 sweep_row(Board *b, Table *cur, Table *next, Table *meet, int r, int down,
                      int *overflow)
{
    if (b->layers)
        layer_bounds(b, &b->layers[down ? r + 1 : r], down);
    uint64_t below_free = r + 1 < b->height ? (uint64_t)b->free[r + 1] : 0;
    uint64_t above_free = r > 0 ? (uint64_t)b->free[r - 1] : 0;
    u128 total = 0;
    for (size_t e = 0; e < cur->n && !b->failed && !b->stopped; e++) {
        if ((e & 63) == 0 && b->control[0]) {
            b->stopped = 1;
            break;
        }
        const uint8_t *key = cur->keys + e * cur->keylen;
        uint64_t fixed;
        memcpy(&fixed, key, 8);
        Step st = {b, next, key, cur->counts[e], r, down, -1, NULL, {0}, meet, 0, 0};
        if (b->layers) { /* down, the state is at boundary r; up, at r + 1 */
            Layer *at = &b->layers[down ? r : r + 1], *to = &b->layers[down ? r + 1 : r];
            long i = layer_find(at, fixed, 0, b->width);
            if (i < 0)
                continue;
            if (to->lo[down]) {
                st.to = to;
                memcpy(st.v, key + 8, (size_t)b->width);
                if (!down) /* from below, the state's own tops count with it */
                    for (uint64_t t = fixed; t; t &= t - 1)
                        st.v[__builtin_ctzll(t)]++;
            }
            const size_t *first = down ? at->first : at->rfirst;
            const uint32_t *ends = down ? at->to : at->from;
            for (size_t k = first[i]; k < first[i + 1]; k++) {
                st.j = ends[k];
                extend(&st, layer_mask(to, st.j));
            }
        } else {
            /* down: fixed = squares covered from above, choose the tops (they need a free
               square below); up: fixed = this row's tops (asked for by the row below), choose
               the squares covered from above (they need a free square above: a top there) */
            Split s = {b, r, down ? b->tops[r] : (r > 0 ? b->tops[r - 1] : 0), fixed,
                       down ? below_free : above_free, extend, &st};
            split_from(&s, 0, 0, s.k, 0);
        }
        total += st.total;
        if (total < st.total)
            st.overflow = 1;
        *overflow |= st.overflow;
    }
    return total;
}

static PyObject *count(PyObject *self, PyObject *args)
{
    int width, height;
    PyObject *o_free, *o_tops, *o_need, *o_control;
    Py_ssize_t max_states, layer_bytes;
    if (!PyArg_ParseTuple(args, "iiOOOnnO", &width, &height, &o_free, &o_tops, &o_need,
                          &max_states, &layer_bytes, &o_control))
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
               (volatile int *)bc.buf, 0, 0, NULL, 0, 0};
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
        int small = 1; /* every column's need fits the layers' 64-bit sets */
        for (int c = 0; c < width; c++)
            small &= b.need[c] < 64;
        if (small && layer_bytes > 0)
            build_layers(&b, (size_t)layer_bytes);
        uint8_t key[8 + MAX_WIDTH + 8];
        memset(key, 0, sizeof key);
        table_find(&down, key, 1); /* from above: nothing covered, no tops yet */
        down.counts[0] = 1;
        table_find(&up, key, 1);   /* from below: no tops asked of the last row */
        up.counts[0] = 1;
        int top = 0, bottom = height; /* rows [0, top) swept down, [bottom, height) up */
        while (bottom - top > 1 && !b.failed && !b.stopped) {
            int go_down = down.n <= up.n;
            Table *cur = go_down ? &down : &up;
            if (table_init(&next, width, cur->n) < 0) {
                b.failed = 1;
                break;
            }
            if (go_down)
                sweep_row(&b, cur, &next, NULL, top++, 1, &overflow);
            else
                sweep_row(&b, cur, &next, NULL, --bottom, 0, &overflow);
            overflow |= next.overflow;
            table_free(cur);
            *cur = next;
        }
        /* meet across row ``top``: each state from above (mask = the squares of row ``top``
           covered from above, counts so far), moved across it, against the state from below
           with the same mask (the tops of row ``top``) and the rest of each column's count */
        if (!b.failed && !b.stopped)
            total = sweep_row(&b, &down, NULL, &up, top, 1, &overflow);
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
    if (b.layers) {
        for (int r = 0; r <= height; r++)
            layer_free(&b.layers[r]);
        free(b.layers);
    }
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
