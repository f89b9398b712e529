/* Counting Domino Fit solutions exactly: satdomino's counter for full-cover Domino Fit
(``dominofit.count_placements``).

count(width, height, free, tops, per_column, max_states, layer_bytes, control, threads=1)
    -> int | None

With every free square covered, the row sums fix how many vertical pieces have their top in
each row (``tops``) and the column sums how many vertical pieces lie in each column
(``per_column``); the horizontal pieces then tile what is left of each row, which they can
exactly when every run of squares left between the vertical pieces has even length. A
solution is therefore a set of vertical pieces with those counts whose rows split into even
runs; this counts them.

Rows are swept from both ends towards each other (meet in the middle). A state is the set of
squares of the next row covered from the side already swept (a bit mask) and how many
vertical pieces each column has got so far (one byte a column), with the number of ways to
reach it. States are kept in groups by mask (``States``), each group in the order of its
counts. A row is swept by the masks it reaches: each gathers the states of the groups that
move into it, moved (their counts plus the row's tops) and kept only when they can still be
completed, by a k-way merge, which sums equal states and keeps the new group in order; the
masks are shared among ``threads`` workers. The side with fewer moves to try goes next
(``moving``). The sweeps stop two rows apart (one on a board of one row) and meet: each state
of one side, moved across those rows, against the group of the other side with the mask it
reaches, holding the rest of each column's count; both in order, so a leapfrog join (each
side skips, by galloping, to where the other could match). The last level is never stored.

Most states of a plain sweep have no completion (at the meeting row of planted 20x20 boards,
over 90% of them match nothing). So first the masks alone are swept from both ends and kept
to those both reach, with the moves between them (``reach_masks``); three passes over those
moves (down, up, down) give each mask a boundary can hold the range of counts each column
can get above it and below it, each kept to what the other can match (``range_layers``).
A sweep then drops a state whose counts the other side's ranges cannot complete (as byte
bounds, one SSE2 test a move), and moves along the masks' listed moves instead of finding
them again. Up to ``layer_bytes`` of them (0: none); without them, the bounds on what the
rows left can give each column prune.

A state's counts also fix how many horizontal pieces its side has across each line between
columns (``lines_of``), and the other side must hold the rest of the line's total: the layers
keep a range for each line as well (without them, the other side's free pairs bound it), and
a state whose other side cannot is dropped (``lines_allow``). Most states fail this.

``free`` is an array('q') of one bit mask per row (bit c: square c is free); ``tops`` and
``per_column`` are array('i'). Returns the count, or None when the states held at once (both
sides' and those of the row being made) pass ``max_states``, or when ``control[0]`` (an
array('i') of one) is set by another thread. A ``control`` of three or more ints tells how far
the sweep has come: [1] the rows swept so far (the meeting's at the end), [2] the board's
rows; a fourth, [3], is set to 1 when the sweep goes without layers; a buffer shared with
another process shows it there. (A fifth, [4], is the caller's: ``dominofit._sweep_args``
hands this sweep a board wider than tall read across its diagonal, its columns as rows, and
says so there.)
Counts of more than 128 bits raise OverflowError. The GIL is released while counting.

Built a second time with FIT_ESTIMATE defined, the same sweep estimates the count
(``_fitestimate``, ``dominofit.estimate_placements``):

count(width, height, free, tops, per_column, max_states, layer_bytes, control, threads,
      budget, seed, runs, seconds, limit=0) -> ([float, ...], thinned) | None

The numbers of ways become weights (doubles). The side swept from below stays exact while
its next row is at most 20 x ``budget`` moves to try; after each row the side from above
keeps ``budget`` of its states by priority sampling (Duffield, Lund and Thorup 2007: state
i, weight w, drawn u in (0, 1], has priority w / u; the ``budget`` highest are kept, each
weighted max(w, tau), tau the next priority), so that each weight's expectation is its
number of ways. The count is linear in the weights, so each run's expectation is the exact
count. Runs with seeds ``seed``, ``seed + 1``, ... share the layers and go on while another
fits in ``seconds`` from the call, the layers' building included (at least two runs, at most
``runs``); their values are returned. With a ``limit`` (seconds from the call, 0: none), a
second run that would end past it keeps fewer states, in proportion to the first run's time
(at least a sixteenth of ``budget``): each run's expectation is the count whatever it keeps.
``thinned`` is 0 when the one run made dropped no state: its value is then the count.
*/
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "../_cbuffers.h"

#ifdef FIT_ESTIMATE
typedef double Num; /* a state's weight: its number of ways, in expectation */
#define MUL_OVERFLOWS(x, y) 0
#define MODULE_NAME "_fitestimate"
#define MODULE_INIT PyInit__fitestimate
#else
typedef unsigned __int128 Num; /* a state's number of ways */
#define MUL_OVERFLOWS(x, y) ((x) && (y) > ~(Num)0 / (x))
#define MODULE_NAME "_fitcount"
#define MODULE_INIT PyInit__fitcount
#endif

enum { MAX_WIDTH = 64, VMAX = 64 };

/* an index of masks (a row's set of squares): entry e is mask[e], found by an open hash */
typedef struct {
    size_t n, cap, slots; /* entries, entry capacity, hash slots (a power of two) */
    uint64_t *mask;
    uint64_t *slot; /* entry index + 1 (low half; 0 empty), the mask's hash (high half) */
} Masks;

static int masks_init(Masks *t, size_t cap)
{
    t->n = 0;
    t->cap = cap < 16 ? 16 : cap;
    for (t->slots = 1; t->slots < 2 * t->cap;)
        t->slots <<= 1;
    t->mask = malloc(t->cap * 8);
    t->slot = calloc(t->slots, 8);
    return t->mask && t->slot ? 0 : -1;
}

static void masks_free(Masks *t)
{
    free(t->mask), free(t->slot);
    t->mask = t->slot = NULL;
}

static uint64_t hash_mask(uint64_t m)
{
    uint64_t h = (m ^ 1469598103934665603ULL) * 0x9E3779B97F4A7C15ULL;
    return h ^ (h >> 29);
}

static int masks_grow(Masks *t)
{
    size_t cap = t->cap * 2, slots = t->slots * 2;
    uint64_t *mask = realloc(t->mask, cap * 8);
    if (!mask)
        return -1;
    t->mask = mask;
    uint64_t *slot = calloc(slots, 8);
    if (!slot)
        return -1;
    for (size_t h = 0; h < t->slots; h++) { /* the old slots carry their masks' hashes */
        uint64_t v = t->slot[h];
        if (!v)
            continue;
        size_t i = (size_t)(v >> 32) & (slots - 1);
        while (slot[i])
            i = (i + 1) & (slots - 1);
        slot[i] = v;
    }
    free(t->slot);
    t->slot = slot, t->slots = slots, t->cap = cap;
    return 0;
}

/* the entry of ``m``, -2 when absent; ``*at``, when given: its slot, or the free one */
static long masks_at(const Masks *t, uint64_t m, size_t *at)
{
    uint64_t tag = hash_mask(m) >> 32;
    size_t h = (size_t)tag & (t->slots - 1);
    long e = -2;
    for (uint64_t v; (v = t->slot[h]); h = (h + 1) & (t->slots - 1))
        if (v >> 32 == tag && t->mask[(size_t)(v & 0xffffffffu) - 1] == m) {
            e = (long)(v & 0xffffffffu) - 1;
            break;
        }
    if (at)
        *at = h;
    return e;
}

/* the entry of ``m`` (added when new and ``add``); -2 when absent, -1 when out of memory */
static long masks_find(Masks *t, uint64_t m, int add)
{
    size_t h;
    long e = masks_at(t, m, &h);
    if (e != -2 || !add)
        return e;
    if (t->n == t->cap)
        return masks_grow(t) < 0 ? -1 : masks_find(t, m, add);
    t->mask[t->n] = m;
    t->slot[h] = hash_mask(m) >> 32 << 32 | (uint64_t)(t->n + 1);
    return (long)t->n++;
}

/* The masks a boundary can hold (boundary t lies between rows t - 1 and t; its mask is the
   squares of row t covered from above, the tops of row t - 1), each with, per column, the
   range of counts (vertical pieces) the rows before t can give it (``past``) and the rows
   from t on (``future``), over every way of filling them that reaches or leaves that mask: a
   sweep's state whose counts lie outside them has no completion. After the columns' ranges
   (``Board.sets`` in all), the same for the horizontal pieces across each line between
   columns (``lines_of``). An entry's ranges are ``Board.sv`` bytes of least counts, then as
   many of most; a mask with an empty range (least above most) is dead. The counts a column
   can get form a range (no gaps, on every board tried); a line's have one parity, fixed by
   the mask, so a range says all there too. */
typedef struct {
    Masks index;            /* the masks */
    uint8_t *past, *future; /* index.n entries of 2 * Board.sv bytes */
    /* the moves across the row below: entry i reaches entries to[first[i] .. first[i + 1])
       of the next layer; and the moves across the row above, reversed: entry i is reached
       from entries from[rfirst[i] .. rfirst[i + 1]) of the previous one (``from`` NULL
       where the layers had no room for it: the moves up are then found again) */
    size_t *first, *rfirst;
    uint32_t *to, *from;
    size_t nto;
    /* the columns' ranges as bounds on a sweep's counts, one byte a column (``VW`` a mask),
       for one vector test a move: [1] a state from above moving into the mask (its counts
       before the mask's tops), [0] one from below (its counts from the boundary on) */
    uint8_t *lo[2], *hi[2];
    /* while ``reach_masks`` keeps the masks: entry e of the index before it was kept is
       entry renumber[e] - 1 after (0: dropped), of ``renumbered`` entries before */
    uint32_t *renumber;
    size_t renumbered;
} Layer;

typedef struct {
    int width, height;
    const int64_t *free;
    const int *tops, *need;
    int *above, *below; /* possible tops in each column: in rows before r, in rows from r */
    /* the horizontal pieces across each line between columns c and c + 1 (``lines_allow``):
       free_above[r * width + c], the free squares of column c in rows before r;
       pairs_above[r * width + c], the rows before r where squares c and c + 1 are both free;
       lines[c], how many cross that line in every solution */
    int *free_above, *pairs_above, *lines;
    /* the ranges a layer's entry holds: one a column, then (when every line's total fits a
       byte, and the layers have room) one a line; ``sv``, that rounded up to 16;
       ``totals``, what each range's counts add up to over the board */
    int sets, sv, *totals;
    size_t max_states; /* the states the sweeps may hold at once */
    size_t held;       /* the states of both sides, while a row is made */
    volatile int *control;
    volatile int stopped, failed;
    Layer *layers; /* height + 1 boundaries, or NULL: the sweeps go by the bounds alone */
    size_t room;   /* the bytes the layers may still take */
    unsigned ticks;
    size_t budget;   /* an estimate's states from above (FIT_ESTIMATE) */
    uint64_t draws;  /* its run's seed */
    int thinned;     /* states were dropped */
    int told;        /* ``control`` has room for the rows swept */
    struct Found *found; /* while ``reach_masks`` runs: the moves it found, by boundary */
    int reversed;        /* the layers list the moves up too (``Layer.from``) */
} Board;

/* the rows swept so far, where ``control`` has room for them */
static void tell_rows(Board *b, int swept)
{
    if (b->told)
        b->control[2] = b->height, b->control[1] = swept;
}

/* stopped (by ``control``, looked at every 4096 calls: one state may have millions of moves)
   or failed */
static int halted(Board *b)
{
    if ((++b->ticks & 4095) == 0 && b->control[0])
        b->stopped = 1;
    return b->stopped || b->failed;
}

/* Every split of a row given the squares fixed from the swept side (its free squares less
   those are ``open``): the other set ``x`` (tops when sweeping down, squares covered from
   above when sweeping up), with ``k`` members, on open squares ``allowed`` (free beside),
   such that what is left of the row splits into even runs. Calls emit(x) for each. */
typedef struct {
    const Board *b;
    int k;
    uint64_t open, allowed; /* the free squares not fixed; those x may take */
    void (*emit)(void *, uint64_t);
    void *ctx;
} Split;

/* the set bits of x, inline (without -mpopcnt the builtin is a call into libgcc, and this
   test runs for every branch of every row's moves) */
static inline int bits_in(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

static const unsigned __int128 EVEN_SQUARES =
    ((unsigned __int128)0x5555555555555555ULL << 64) | 0x5555555555555555ULL;

/* the runs of ones of ``y`` that start on an even square (adding a run's first square
   carries past its end) */
static inline unsigned __int128 runs_from_even(unsigned __int128 y)
{
    return y & ~(y + (y & ~(y << 1) & EVEN_SQUARES));
}

/* the squares of ``y`` at an even distance from the start of their run */
static inline unsigned __int128 paired_squares(unsigned __int128 y)
{
    unsigned __int128 from_even = runs_from_even(y);
    return (from_even & EVEN_SQUARES) | (y & ~from_even & ~EVEN_SQUARES);
}

/* x chosen up to column c (its squares before c split into even runs); ``left`` members to
   go. The next lies at an even distance from the start of its run (so that the squares
   before it in the run pair up) and before the end of the first run of odd length; with none
   left, the rest of the row must split into even runs. */
static void split_from(Split *s, int c, uint64_t x, int left)
{
    if (s->b->stopped || s->b->failed)
        return;
    uint64_t open = c < 64 ? s->open >> c : 0;
    /* a square at an even distance from its run's start; the square after each odd run */
    unsigned __int128 y = open, paired = paired_squares(y);
    unsigned __int128 ends = ((y + (y & ~(y << 1))) & ~y) & (paired << 1);
    if (left == 0) {
        if (!ends)
            s->emit(s->ctx, x);
        return;
    }
    /* each odd run takes an odd number of x's, so x takes as many squares as their parity
       says, at least one in each odd run, and no more than those that could be (else a row
       of many tops would try every subset of its columns) */
    uint64_t could = c < 64 ? open & (s->allowed >> c) : 0;
    if (((bits_in(open) - left) & 1) || left > bits_in(could) ||
        bits_in((uint64_t)ends) + bits_in((uint64_t)(ends >> 64)) > left)
        return;
    uint64_t first_end = (uint64_t)(ends & -ends); /* 0: none below 64 */
    could &= (uint64_t)paired & (first_end ? first_end - 1 : ~0ULL);
    for (uint64_t m = could; m; m &= m - 1) {
        int p = __builtin_ctzll(m);
        split_from(s, c + p + 1, x | (1ULL << (c + p)), left - 1);
    }
}

/* A row's runs of open squares and, for each, its ways: the x's it can hold, as bits, grouped
   by how many members they have; ``fits[i]``, bit t: runs i .. n - 1 can hold t members in
   all (``fits[0]`` is 0 when some run has no way). */
enum { MAX_RUNS = 33, MAX_WAYS = 4096 };

typedef struct {
    int n, ways;
    int at[MAX_RUNS][66]; /* run i's ways with j members: way[at[i][j] .. at[i][j + 1]) */
    uint64_t sizes[MAX_RUNS]; /* bit j: run i has ways with j members */
    unsigned __int128 fits[MAX_RUNS + 1];
    uint64_t way[MAX_WAYS];
} Runs;

/* the ways of a stretch of the run from square p to ``end`` with x so far and j members (at
   most ``most``): the next member at an even distance from p, or none when the stretch is
   even; into ``way`` (with their sizes in ``size``) from ``*n``; 0 past MAX_WAYS */
static int run_ways(uint64_t allowed, int p, int end, uint64_t x, int j, int most,
                    uint64_t *way, uint8_t *size, int *n)
{
    if ((end - p) % 2 == 0) {
        if (*n == MAX_WAYS)
            return 0;
        way[*n] = x, size[(*n)++] = (uint8_t)j;
    }
    if (j < most)
        for (int q = p; q < end; q += 2)
            if (((allowed >> q) & 1) && !run_ways(allowed, q + 1, end, x | (1ULL << q), j + 1,
                                                  most, way, size, n))
                return 0;
    return 1;
}

/* the runs of ``open`` and their ways with at most k members; 0 when they do not fit */
static int find_runs(Runs *R, uint64_t open, uint64_t allowed, int k)
{
    uint8_t size[MAX_WAYS];
    uint64_t raw[MAX_WAYS];
    R->n = R->ways = 0;
    for (uint64_t rest = open; rest;) {
        int from = __builtin_ctzll(rest);
        uint64_t run = rest & ~(rest + (rest & -rest)); /* the lowest run */
        int end = from + bits_in(run);
        rest &= ~run;
        int n = 0, i = R->n++;
        if (!run_ways(allowed, from, end, 0, 0, k, raw, size, &n) || R->ways + n > MAX_WAYS)
            return 0;
        if (n == 0) { /* an odd run with no square for a member: no move */
            R->fits[0] = 0;
            return 1;
        }
        int *at = R->at[i], fill[65];
        memset(at, 0, (size_t)(k + 2) * sizeof(int));
        for (int e = 0; e < n; e++) /* grouped by size: a counting sort */
            at[size[e] + 1]++;
        at[0] = R->ways;
        for (int j = 0; j <= k; j++)
            at[j + 1] += at[j];
        memcpy(fill, at, (size_t)(k + 1) * sizeof(int));
        for (int e = 0; e < n; e++)
            R->way[fill[size[e]]++] = raw[e];
        R->ways += n;
    }
    R->fits[R->n] = 1;
    for (int i = R->n - 1; i >= 0; i--) {
        R->fits[i] = 0, R->sizes[i] = 0;
        for (int j = 0; j <= k; j++)
            if (R->at[i][j + 1] > R->at[i][j])
                R->fits[i] |= R->fits[i + 1] << j, R->sizes[i] |= 1ULL << j;
    }
    return 1;
}

/* the moves: one way of each run from run i on, x so far, ``left`` members to go */
static void runs_from(Split *s, const Runs *R, int i, uint64_t x, int left)
{
    if (s->b->stopped || s->b->failed)
        return;
    if (i == R->n - 1) { /* the last run takes the rest */
        for (int e = R->at[i][left]; e < R->at[i][left + 1]; e++)
            s->emit(s->ctx, x | R->way[e]);
        return;
    }
    for (uint64_t js = R->sizes[i] & ((2ULL << left) - 1); js; js &= js - 1) {
        int j = __builtin_ctzll(js);
        if ((R->fits[i + 1] >> (left - j)) & 1)
            for (int e = R->at[i][j]; e < R->at[i][j + 1]; e++)
                runs_from(s, R, i + 1, x | R->way[e], left - j);
    }
}

/* the moves of ``s``: run by run (``by_runs``, unless the row has too many ways for the
   runs' lists, or more than 62 members), else member by member */
static void split_moves(Split *s, int by_runs)
{
    Runs R;
    if (!by_runs || s->k > 62 || !find_runs(&R, s->open, s->allowed, s->k))
        split_from(s, 0, 0, s->k);
    else if ((R.fits[0] >> s->k) & 1) {
        if (R.n)
            runs_from(s, &R, 0, 0, s->k);
        else
            s->emit(s->ctx, 0); /* no open square, no member */
    }
}

/* the moves from ``mask`` across row r, ``down`` or up: down, the mask = squares covered
   from above, choose the tops (they need a free square below); up, the mask = this row's
   tops (asked for by the row below), choose the squares covered from above (they need a
   free square above) */
static void split_row(const Board *b, int r, int down, uint64_t mask,
                      void (*emit)(void *, uint64_t), void *ctx)
{
    int beside = down ? r + 1 : r - 1;
    Split s = {b, down ? b->tops[r] : (r > 0 ? b->tops[r - 1] : 0),
               (uint64_t)b->free[r] & ~mask,
               beside >= 0 && beside < b->height ? (uint64_t)b->free[beside] : 0, emit, ctx};
    split_moves(&s, 1);
}

static void layer_free(Layer *l)
{
    masks_free(&l->index);
    free(l->past), free(l->future);
    free(l->first), free(l->rfirst), free(l->to), free(l->from), free(l->renumber);
    for (int d = 0; d < 2; d++)
        free(l->lo[d]), free(l->hi[d]);
    memset(l, 0, sizeof *l);
}

/* an entry's ranges (``Layer.past``, ``Layer.future``) */
static uint8_t *ranges(const Board *b, uint8_t *all, size_t i)
{
    return all + i * 2 * (size_t)b->sv;
}

static int dead(const Board *b, const uint8_t *r) { return r[0] > r[b->sv]; }

/* every range empty, or every one {0} */
static void set_ranges(const Board *b, uint8_t *r, int zero)
{
    memset(r, zero ? 0 : 255, (size_t)b->sv);
    memset(r + b->sv, 0, (size_t)b->sv);
}

/* keep in ``r`` the counts whose rest of the total (a column's need, a line's pieces) lies
   in ``other``'s ranges; dead when a range keeps none */
static void keep_matching(const Board *b, uint8_t *r, const uint8_t *other)
{
    int sv = b->sv;
    for (int c = 0; c < b->sets; c++) {
        int n = b->totals[c], least = other[c], most = other[sv + c];
        if (least <= most && least <= n) { /* {n - v : v in other, v <= n} */
            int from = n - (most < n ? most : n), to = n - least;
            if (r[c] < from)
                r[c] = (uint8_t)from;
            if (r[sv + c] > to)
                r[sv + c] = (uint8_t)to;
        }
        if (least > most || least > n || r[c] > r[sv + c]) {
            r[0] = 255, r[sv] = 0;
            return;
        }
    }
}

/* the lines crossed by the horizontal pieces that tile ``rest`` (runs of even length): bit c
   for a piece on squares c and c + 1 */
static uint64_t horizontals(uint64_t rest)
{
    return (uint64_t)paired_squares(rest);
}

static uint64_t byte_of_bit[256]; /* byte k of byte_of_bit[v]: bit k of v */

/* what the move from entry i of layer r to entry j of the next adds to the counts: byte c
   is 1 when column c gets a vertical piece's top (the columns), byte w + c when a
   horizontal piece crosses line c (the lines); ``sv`` bytes */
static void step_of(const Board *b, int r, size_t i, size_t j, uint8_t *step)
{
    uint64_t x = b->layers[r + 1].index.mask[j];
    uint64_t open = (uint64_t)b->free[r] & ~b->layers[r].index.mask[i] & ~x;
    unsigned __int128 bits = x; /* the columns, then the lines (sets < 128) */
    if (b->sets > b->width)
        bits |= (unsigned __int128)horizontals(open) << b->width;
    for (int k = 0; k < b->sv; k += 8) {
        uint64_t word = byte_of_bit[(uint8_t)(bits >> k)];
        memcpy(step + k, &word, 8);
    }
}

/* ``dst``'s ranges joined with ``src``'s moved by ``step`` */
static void join_ranges(const Board *b, uint8_t *dst, const uint8_t *src, const uint8_t *step)
{
    int sv = b->sv;
#if defined(__SSE2__)
    for (int k = 0; k < sv; k += 16) {
        __m128i d = _mm_loadu_si128((const __m128i *)(step + k));
        __m128i lo = _mm_adds_epu8(_mm_loadu_si128((const __m128i *)(src + k)), d);
        __m128i hi = _mm_adds_epu8(_mm_loadu_si128((const __m128i *)(src + sv + k)), d);
        __m128i *dl = (__m128i *)(dst + k), *dh = (__m128i *)(dst + sv + k);
        _mm_storeu_si128(dl, _mm_min_epu8(_mm_loadu_si128(dl), lo));
        _mm_storeu_si128(dh, _mm_max_epu8(_mm_loadu_si128(dh), hi));
    }
#else
    for (int c = 0; c < sv; c++) {
        int lo = src[c] + step[c], hi = src[sv + c] + step[c];
        if (lo < dst[c])
            dst[c] = (uint8_t)lo;
        if (hi > dst[sv + c])
            dst[sv + c] = (uint8_t)(hi > 255 ? 255 : hi);
    }
#endif
}

/* lists of ``n`` entries' ends (``first[i] .. first[i + 1]`` of ``end``) the other way
   round: for each of the ``m`` ends, the entries that list it, into ``*tfirst``, ``*tend``
   (with ``tend`` NULL, only where each end's would start); the bytes counted off
   ``b->room``; 0 when they do not fit */
static int transposed(Board *b, const size_t *first, const uint32_t *end, size_t n, size_t m,
                      size_t **tfirst, uint32_t **tend)
{
    size_t count = first[n], takes = (m + 1) * 8 + (tend ? count * 4 : 0);
    if (takes > b->room)
        return 0;
    b->room -= takes;
    *tfirst = calloc(m + 1, sizeof(size_t));
    if (!*tfirst)
        return 0;
    for (size_t k = 0; k < count; k++)
        (*tfirst)[end[k] + 1]++;
    for (size_t j = 0; j < m; j++)
        (*tfirst)[j + 1] += (*tfirst)[j];
    if (!tend)
        return 1;
    *tend = malloc((count ? count : 1) * sizeof(uint32_t));
    size_t *fill = malloc((m + 1) * sizeof(size_t));
    if (!*tend || !fill) {
        free(fill);
        return 0;
    }
    memcpy(fill, *tfirst, (m + 1) * sizeof(size_t));
    for (size_t i = 0; i < n; i++)
        for (size_t k = first[i]; k < first[i + 1]; k++)
            (*tend)[fill[end[k]]++] = (uint32_t)i;
    free(fill);
    return 1;
}

/* in the passes over the masks, before entry i: stop? */
static int pass_stops(Board *b, size_t i)
{
    if ((i & 63) == 0 && b->control[0])
        b->stopped = 1;
    return b->failed || b->stopped;
}

/* a growing list of entries */
typedef struct {
    uint32_t *v;
    size_t n, cap;
} List;

enum { PENDING = 32 };

/* The moves the sweep of the masks found from one boundary, kept so that they need not be
   found again when the masks are kept (``keep_leading``): entry i's moves reach entries
   to.v[first.v[i] .. first.v[i + 1]) of the next index (as it was then), counted off
   ``Board.room`` and given back to it when something else needs the room. */
typedef struct Found {
    List first, to;
} Found;

/* one mask's moves, for ``reach_masks``: each added to ``into`` (and listed in ``found``,
   when given); or, given ``keep``, those landing there counted in ``lands`` and, given
   ``ends``, listed */
typedef struct {
    Board *b;
    Masks *into;
    const Masks *keep;
    List *ends;
    Found *found;
    size_t lands;
    uint64_t pending[PENDING]; /* moves not yet looked up (``reach_flush``) */
    int np;
} Reach;

/* v appended to ``l``, the bytes it grows by counted off ``b->room``; 0 when they do not fit */
static int list_add(Board *b, List *l, uint32_t v)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 1024;
        uint32_t *grown = (cap - l->cap) * 4 <= b->room ? realloc(l->v, cap * 4) : NULL;
        if (!grown)
            return 0;
        b->room -= (cap - l->cap) * 4;
        l->v = grown, l->cap = cap;
    }
    l->v[l->n++] = v;
    return 1;
}

static void found_free(Board *b, Found *f)
{
    b->room += (f->first.cap + f->to.cap) * 4;
    free(f->first.v), free(f->to.v);
    memset(f, 0, sizeof *f);
}

/* boundaries' moves found dropped, the largest first (never those of ``in_use``), until
   ``b->room`` holds ``need`` bytes: 0 when none was */
static int drop_found(Board *b, const Found *in_use, size_t need)
{
    int dropped = 0;
    while (b->found && b->room < need) {
        Found *most = NULL;
        for (int t = 0; t <= b->height; t++) {
            Found *f = &b->found[t];
            if (f != in_use && f->first.v && (!most || f->to.cap > most->to.cap))
                most = f;
        }
        if (!most)
            break;
        found_free(b, most);
        dropped = 1;
    }
    return dropped;
}

/* a move to entry j of the next index: counted and listed, when keeping masks */
static void reach_entry(Reach *re, uint32_t j)
{
    List *e = re->ends;
    re->lands++;
    if (e && !list_add(re->b, e, j) &&
        (!drop_found(re->b, re->found, (e->cap ? e->cap : 1024) * 4) ||
         !list_add(re->b, e, j)))
        re->b->failed = 1;
}

static void reach_one(Reach *re, uint64_t x)
{
    Board *b = re->b;
    if (!re->keep) {
        long e = masks_find(re->into, x, 1);
        if (e == -1)
            b->failed = 1;
        else if (re->found && !list_add(b, &re->found->to, (uint32_t)e))
            re->found = NULL; /* no room: they will be found again */
        return;
    }
    long j = masks_at(re->keep, x, NULL);
    if (j >= 0)
        reach_entry(re, (uint32_t)j);
}

/* the pending moves looked up, their slots fetched first: in a large index each lookup is a
   miss in the cache, and these overlap */
static void reach_flush(Reach *re)
{
    const Masks *t = re->keep ? re->keep : re->into;
    for (int k = 0; k < re->np; k++) {
        size_t home = (size_t)(hash_mask(re->pending[k]) >> 32) & (t->slots - 1);
        __builtin_prefetch(&t->slot[home]);
    }
    for (int k = 0; k < re->np; k++)
        reach_one(re, re->pending[k]);
    re->np = 0;
}

static void reach_move(void *ctx, uint64_t x)
{
    Reach *re = ctx;
    re->pending[re->np++] = x;
    if (re->np == PENDING)
        reach_flush(re);
}

static size_t masks_bytes(const Masks *t) { return (t->cap + t->slots) * 8; }

/* The masks of boundary t kept to those with a move across the row below (``down``) or
   above into the next boundary's masks, their moves listed (unless ``quiet``): down, in
   ``first`` and ``to`` of layer t; up, in ``rfirst`` and ``from`` (those of the next layer
   reaching each). The moves are those the sweep of the masks found (``f``), where it kept
   them, else found again. 0 when stopped or out of memory or of ``b->room``. */
static int keep_leading(Board *b, int t, int down, int quiet, const Found *f)
{
    Layer *l = &b->layers[t];
    const Layer *next = &b->layers[down ? t + 1 : t - 1];
    Masks *m = &l->index, kept;
    List ends = {NULL, 0, 0};
    size_t *first = quiet ? NULL : malloc((m->n + 1) * sizeof(size_t));
    uint32_t *renumber = calloc(m->n ? m->n : 1, 4);
    if (!f || !f->first.v || !next->renumber)
        f = NULL;
    if (masks_init(&kept, m->n) < 0 || (!quiet && !first) || !renumber) {
        masks_free(&kept), free(first), free(renumber);
        return 0;
    }
    Reach re = {b, NULL, &next->index, quiet ? NULL : &ends, (Found *)f, 0, {0}, 0};
    for (size_t i = 0; i < m->n && !pass_stops(b, i); i++) {
        re.lands = 0;
        if (first)
            first[kept.n] = ends.n;
        if (f) {
            for (uint32_t k = f->first.v[i]; k < f->first.v[i + 1]; k++)
                if (next->renumber[f->to.v[k]])
                    reach_entry(&re, next->renumber[f->to.v[k]] - 1);
        } else {
            split_row(b, down ? t : t - 1, down, m->mask[i], reach_move, &re);
            reach_flush(&re);
        }
        if (re.lands) { /* room for all: no growth, no failure */
            masks_find(&kept, m->mask[i], 1);
            renumber[i] = (uint32_t)kept.n;
        }
    }
    l->renumber = renumber, l->renumbered = m->n;
    masks_free(m);
    *m = kept;
    if (first)
        first[kept.n] = ends.n;
    if (down)
        l->first = first, l->to = ends.v, l->nto = ends.n;
    else
        l->rfirst = first, l->from = ends.v;
    size_t takes = masks_bytes(m) + (first ? (m->n + 1) * 8 : 0) + l->renumbered * 4;
    drop_found(b, NULL, takes);
    if (takes > b->room)
        b->failed = 1;
    else
        b->room -= takes;
    return !b->failed && !b->stopped;
}

/* Sweep the masks from boundary ``from`` (``down`` or up) into the next index: 0 when
   stopped, or out of memory or of ``b->room``. The moves found are kept (``Board.found``)
   while there is room; when the index needs it, boundaries' kept moves are dropped, the
   largest first. */
static int reach_row(Board *b, int from, int down)
{
    Layer *L = b->layers;
    Masks *src = &L[from].index, *into = &L[down ? from + 1 : from - 1].index;
    Found *f = b->found ? &b->found[from] : NULL;
    Reach re = {b, into, NULL, NULL, f, 0, {0}, 0};
    size_t counted = masks_bytes(into);
    for (size_t i = 0; i < src->n && !pass_stops(b, i); i++) {
        if (re.found && (f->to.n >= UINT32_MAX - 64 ||
                         !list_add(b, &f->first, (uint32_t)f->to.n)))
            re.found = NULL;
        split_row(b, down ? from : from - 1, down, src->mask[i], reach_move, &re);
        reach_flush(&re);
        size_t grown = masks_bytes(into) - counted;
        drop_found(b, NULL, grown); /* the index first */
        if (f && !f->first.v)
            re.found = NULL;
        if (grown > b->room)
            b->failed = 1;
        else
            b->room -= grown, counted += grown;
    }
    if (f && (!re.found || f->to.n >= UINT32_MAX ||
              !list_add(b, &f->first, (uint32_t)f->to.n)))
        found_free(b, f); /* some not kept: all found again */
    return !b->failed && !b->stopped;
}

/* The masks each boundary holds on some filling of the board, by the squares alone (the
   counts come after), and the moves between them: the masks reached both from above and
   from below. The masks are swept from both ends, the side with fewer first, until the
   sides are one row apart; then each side is kept, from the meeting out, to the masks with
   a move into the kept ones of the next boundary, and those moves listed (``first`` and
   ``to`` of each layer). Many masks reached from one side are not from the other (of those
   swept, 29-73% on three planted 30x30 boards). 0 when stopped or out of memory or of
   ``b->room``. */
static int reach_masks(Board *b)
{
    Layer *L = b->layers;
    int h = b->height, top = 0, bottom = h, ok = 1;
    for (int t = 0; t <= h; t++)
        if (masks_init(&L[t].index, 16) < 0)
            return 0;
    masks_find(&L[0].index, 0, 1), masks_find(&L[h].index, 0, 1);
    size_t held = 0; /* the bytes of the indexes */
    for (int t = 0; t <= h; t++)
        held += masks_bytes(&L[t].index);
    if (held > b->room)
        return 0;
    b->room -= held;
    Found *found = b->found = calloc((size_t)h + 1, sizeof(Found)); /* (none kept: NULL) */
    while (ok && bottom - top > 1) {
        int down = L[top].index.n <= L[bottom].index.n;
        ok = reach_row(b, down ? top++ : bottom--, down);
    }
    /* from the meeting out, the kept indexes are counted instead (the others are freed);
       the meeting row's moves are listed from below, the row below it being kept after */
    for (int t = top; ok && t >= 0; t--) {
        b->room += masks_bytes(&L[t].index);
        ok = keep_leading(b, t, 1, t == top, found ? &found[t] : NULL);
        if (found)
            found_free(b, &found[t]);
    }
    for (int t = top + 1; ok && t <= h; t++) {
        b->room += masks_bytes(&L[t].index);
        ok = keep_leading(b, t, 0, 0, found ? &found[t] : NULL);
        if (found)
            found_free(b, &found[t]);
    }
    for (int t = 0; found && t <= h; t++)
        found_free(b, &found[t]);
    free(found);
    b->found = NULL;
    for (int t = 0; t <= h; t++) {
        if (L[t].renumber)
            b->room += L[t].renumbered * 4;
        free(L[t].renumber);
        L[t].renumber = NULL;
    }
    for (int r = top; ok && r < h; r++) { /* the moves from below, listed from above */
        Layer *l = &L[r], *next = &L[r + 1];
        if (!transposed(b, next->rfirst, next->from, next->index.n, l->index.n, &l->first,
                        &l->to))
            return 0;
        l->nto = l->first[l->index.n];
        b->room += (next->index.n + 1) * 8 + next->rfirst[next->index.n] * 4;
        free(next->rfirst), free(next->from);
        next->rfirst = NULL, next->from = NULL;
    }
    return ok;
}

/* ``n`` ranges rounded up to a vector's 16 bytes */
static int padded(int n) { return (n + 15) & ~15; }

/* The ranges of the layers (``reach_masks`` made their masks and moves), from three passes
   over the moves: forward (each mask's past), backward (the futures, each kept to what its
   past can match), forward again (the pasts kept to what the futures match), where the
   moves into dead masks are dropped and the rest listed the other way round too
   (``rfirst``, ``from``); ``Board.sv`` bytes of ranges each way. 0 when stopped or out of
   memory or of ``b->room``. */
static int range_layers(Board *b)
{
    Layer *L = b->layers;
    int h = b->height;
    uint8_t step[2 * MAX_WIDTH];
    for (int r = 0; r <= h; r++) {
        size_t bytes = (L[r].index.n ? L[r].index.n : 1) * 2 * (size_t)b->sv;
        if (2 * bytes > b->room)
            return 0;
        b->room -= 2 * bytes;
        L[r].past = malloc(bytes), L[r].future = malloc(bytes);
        if (!L[r].past || !L[r].future)
            return 0;
        for (size_t i = 0; i < L[r].index.n; i++) /* mask 0 of boundary 0: no counts yet */
            set_ranges(b, ranges(b, L[r].past, i), r == 0);
    }
    for (int r = 0; r < h; r++)
        for (size_t i = 0; i < L[r].index.n; i++) {
            if (pass_stops(b, i))
                return 0;
            for (size_t k = L[r].first[i]; k < L[r].first[i + 1]; k++) {
                step_of(b, r, i, L[r].to[k], step);
                join_ranges(b, ranges(b, L[r + 1].past, L[r].to[k]), ranges(b, L[r].past, i),
                            step);
            }
        }
    for (int r = h; r >= 0; r--)
        for (size_t i = 0; i < L[r].index.n; i++) {
            if (pass_stops(b, i))
                return 0;
            uint8_t *acc = ranges(b, L[r].future, i);
            set_ranges(b, acc, r == h && L[r].index.mask[i] == 0); /* no counts after */
            for (size_t k = r < h ? L[r].first[i] : 0; r < h && k < L[r].first[i + 1]; k++) {
                const uint8_t *src = ranges(b, L[r + 1].future, L[r].to[k]);
                if (dead(b, src))
                    continue;
                step_of(b, r, i, L[r].to[k], step);
                join_ranges(b, acc, src, step);
            }
            keep_matching(b, acc, ranges(b, L[r].past, i));
        }
    for (int r = 1; r <= h; r++)
        for (size_t i = 0; i < L[r].index.n; i++)
            set_ranges(b, ranges(b, L[r].past, i), 0);
    for (int r = 0; r < h; r++) {
        size_t kept = 0;
        for (size_t i = 0; i < L[r].index.n; i++) {
            if (pass_stops(b, i))
                return 0;
            size_t k = L[r].first[i], end = L[r].first[i + 1];
            L[r].first[i] = kept;
            if (dead(b, ranges(b, L[r].future, i))) /* its moves dropped */
                continue;
            for (; k < end; k++) {
                uint32_t j = L[r].to[k];
                if (dead(b, ranges(b, L[r + 1].future, j)))
                    continue;
                L[r].to[kept++] = j;
                step_of(b, r, i, j, step);
                join_ranges(b, ranges(b, L[r + 1].past, j), ranges(b, L[r].past, i), step);
            }
        }
        L[r].first[L[r].index.n] = L[r].nto = kept;
        if (!transposed(b, L[r].first, L[r].to, L[r].index.n, L[r + 1].index.n,
                        &L[r + 1].rfirst, b->reversed ? &L[r + 1].from : NULL))
            return 0;
        for (size_t i = 0; i < L[r + 1].index.n; i++) {
            uint8_t *past = ranges(b, L[r + 1].past, i);
            keep_matching(b, past, ranges(b, L[r + 1].future, i));
            if (dead(b, past))
                set_ranges(b, ranges(b, L[r + 1].future, i), 0);
        }
    }
    return 1;
}

/* The layers (``Board.layers``) in at most ``budget`` bytes, or none: with the lines'
   ranges and the moves listed both ways where they fit, else with less. */
static void make_layers(Board *b, size_t budget)
{
    int h = b->height;
    b->layers = calloc((size_t)h + 1, sizeof(Layer));
    b->room = budget;
    int ok = b->layers && reach_masks(b);
    if (ok) { /* the ranges (four copies of sv bytes a mask), the moves listed twice */
        size_t masks = 0, moves = 0;
        for (int t = 0; t <= h; t++)
            masks += b->layers[t].index.n + 1, moves += b->layers[t].nto;
        /* without room for all, the moves are listed once (found again going up); without
           room for the ranges, the lines' go (most states of a sweep fail those) */
        size_t ranged = masks * (4 * (size_t)padded(b->sets) + 8);
        if (b->sets > b->width && ranged > b->room)
            b->sets = b->width, ranged = masks * (4 * (size_t)padded(b->sets) + 8);
        b->reversed = ranged + moves * 4 <= b->room;
        b->sv = padded(b->sets);
        ok = range_layers(b);
    }
    if (!ok && b->layers) {
        for (int t = 0; t <= h; t++)
            layer_free(&b->layers[t]);
        free(b->layers);
        b->layers = NULL;
    }
    b->failed = 0;
}

static int vec_width(int width) { return (width + 31) & ~31; }

/* Layer l's ranges as bounds for the sweeps going ``down`` or up (``Layer.lo``), the bytes
   counted off ``b->room``; 0 when they do not fit. */
static int layer_bounds(Board *b, Layer *l, int down)
{
    if (l->lo[down])
        return 1;
    int w = b->width, vw = vec_width(w);
    size_t n = l->index.n, takes = n * 2 * (size_t)vw + 2;
    if (takes > b->room)
        return 0;
    uint8_t *lo = malloc(n * vw + 1), *hi = malloc(n * vw + 1);
    if (!lo || !hi) {
        free(lo), free(hi);
        return 0;
    }
    b->room -= takes;
    for (size_t j = 0; j < n; j++) {
        const uint8_t *r = ranges(b, down ? l->future : l->past, j);
        int none = dead(b, ranges(b, l->future, j));
        uint8_t *a = lo + j * vw, *z = hi + j * vw;
        memset(a, 0, vw);
        memset(z, 255, vw);
        for (int c = 0; c < w; c++) { /* the counts v with need - v in the range */
            int top = b->need[c] - r[c], bottom = b->need[c] - r[b->sv + c];
            if (none || top < 0) {
                a[c] = 255, z[c] = 0;
                continue;
            }
            a[c] = (uint8_t)(bottom < 0 ? 0 : bottom), z[c] = (uint8_t)top;
        }
    }
    l->lo[down] = lo, l->hi[down] = hi;
    return 1;
}

/* ``p`` reallocated to ``bytes``, or, when that fails, ``p`` as it was and ``*ok`` cleared */
static void *resized(void *p, size_t bytes, int *ok)
{
    void *q = realloc(p, bytes);
    if (!q)
        *ok = 0;
    return q ? q : p;
}

/* The states at one boundary, grouped by mask: group g (mask ``mask[g]``, entry ``entry[g]``
   of its layer or -1) holds states start[g] .. start[g + 1] - 1, each its counts per column
   (``klen`` bytes) and the number of fillings that reach it (``num``). */
typedef struct {
    int klen;
    size_t groups, gcap, n, cap;
    uint64_t *mask;
    long *entry;
    size_t *start;
    uint8_t *counts;
    Num *num;
} States;

static void states_free(States *s)
{
    free(s->mask), free(s->entry), free(s->start), free(s->counts), free(s->num);
    memset(s, 0, sizeof *s);
}

/* room for ``groups`` more groups and ``n`` more states; 0 when out of memory */
static int states_reserve(States *s, size_t groups, size_t n)
{
    int ok = 1;
    if (s->groups + groups > s->gcap) {
        size_t cap = 2 * (s->groups + groups) + 16;
        s->mask = resized(s->mask, cap * 8, &ok);
        s->entry = resized(s->entry, cap * sizeof(long), &ok);
        s->start = resized(s->start, (cap + 1) * sizeof(size_t), &ok);
        if (ok)
            s->gcap = cap;
    }
    if (ok && s->n + n > s->cap) {
        size_t cap = s->n + n > 2 * s->cap ? s->n + n : 2 * s->cap;
        /* room to read a whole vector (``VMAX`` bytes) at the last state */
        s->counts = resized(s->counts, cap * (size_t)s->klen + VMAX, &ok);
        s->num = resized(s->num, cap * sizeof(Num), &ok);
        if (ok)
            s->cap = cap;
    }
    return ok;
}

/* The moves across one row from the groups of a States: the masks they reach (``index``,
   each with its ``entry`` in its layer or -1), and for each, the groups that reach it
   (from[first[t]] .. from[first[t + 1] - 1]). */
typedef struct {
    size_t ne, ecap;
    Masks index; /* the masks reached */
    long *entry;
    size_t *first;
    uint32_t *from;
    uint32_t *eg, *et; /* the moves as found: group, target */
    Board *b;
    uint32_t g;       /* the group being moved */
    const Layer *to; /* moving up without the layers' lists: the layer looked up */
} Moves;

static void moves_free(Moves *m)
{
    masks_free(&m->index);
    free(m->entry), free(m->first), free(m->from), free(m->eg), free(m->et);
    memset(m, 0, sizeof *m);
}

static void add_move(Moves *m, uint64_t x, long j)
{
    if (halted(m->b)) /* one row may have millions of moves */
        return;
    size_t before = m->index.n;
    long t = masks_find(&m->index, x, 1);
    if (t >= 0 && m->index.n > before) { /* a new mask */
        int ok = 1;
        if (before % 1024 == 0)
            m->entry = resized(m->entry, (before + 1024) * sizeof(long), &ok);
        if (ok)
            m->entry[t] = j;
        else
            t = -1;
    }
    if (t >= 0 && m->ne == m->ecap) {
        size_t cap = m->ecap ? 2 * m->ecap : 4096;
        int ok = 1;
        m->eg = resized(m->eg, cap * 4, &ok);
        m->et = resized(m->et, cap * 4, &ok);
        if (ok)
            m->ecap = cap;
        else
            t = -1;
    }
    if (t < 0) {
        m->b->failed = 1;
        return;
    }
    m->eg[m->ne] = m->g, m->et[m->ne] = (uint32_t)t, m->ne++;
}

static void move_found(void *ctx, uint64_t x) { add_move(ctx, x, -1); }

/* a move found again, kept when its mask is a live entry of the layer it moves into */
static void move_looked_up(void *ctx, uint64_t x)
{
    Moves *m = ctx;
    long j = masks_at(&m->to->index, x, NULL);
    if (j >= 0 && !dead(m->b, ranges(m->b, m->to->future, (size_t)j)))
        add_move(m, x, j);
}

/* The moves of every group of ``cur`` across row r, ``down`` or up (with layers, theirs;
   else found again); 0 when out of memory or stopped */
static int find_moves(Board *b, const States *cur, int r, int down, Moves *m)
{
    memset(m, 0, sizeof *m);
    m->b = b;
    if (masks_init(&m->index, 1024) < 0)
        return 0;
    for (size_t g = 0; g < cur->groups && !b->failed && !b->stopped; g++) {
        m->g = (uint32_t)g;
        if (b->layers && !down && !b->reversed) {
            m->to = &b->layers[r];
            split_row(b, r, down, cur->mask[g], move_looked_up, m);
        } else if (b->layers) { /* down, the group is at boundary r; up, at r + 1 */
            Layer *at = &b->layers[down ? r : r + 1], *to = &b->layers[down ? r + 1 : r];
            size_t i = (size_t)cur->entry[g];
            const size_t *first = down ? at->first : at->rfirst;
            const uint32_t *ends = down ? at->to : at->from;
            for (size_t k = first[i]; k < first[i + 1]; k++)
                if (!dead(b, ranges(b, to->future, ends[k]))) /* not dead since */
                    add_move(m, to->index.mask[ends[k]], ends[k]);
        } else {
            split_row(b, r, down, cur->mask[g], move_found, m);
        }
    }
    if (b->failed || b->stopped)
        return 0;
    m->first = calloc(m->index.n + 1, sizeof(size_t));
    m->from = malloc((m->ne + 1) * 4);
    size_t *fill = malloc((m->index.n + 1) * sizeof(size_t));
    if (!m->first || !m->from || !fill) {
        free(fill);
        return 0;
    }
    for (size_t e = 0; e < m->ne; e++)
        m->first[m->et[e] + 1]++;
    for (size_t t = 0; t < m->index.n; t++)
        m->first[t + 1] += m->first[t];
    memcpy(fill, m->first, (m->index.n + 1) * sizeof(size_t));
    for (size_t e = 0; e < m->ne; e++)
        m->from[fill[m->et[e]]++] = m->eg[e];
    free(fill);
    free(m->eg), free(m->et);
    m->eg = m->et = NULL;
    return 1;
}

/* may a column hold ``have`` after a move into x across row r, by the bounds on what the
   rows not yet swept can give it (see ``pack_column``)? */
static int within_reach(const Board *b, int r, int down, uint64_t x, const uint8_t *have)
{
    int w = b->width;
    for (int c = 0; c < w; c++) {
        int bit = (int)((x >> c) & 1);
        /* down, rows r + 1 on, from r + 2 under x's tops; up, x's squares are the tops of
           row r - 1 (not yet in ``have``), then rows up to r - 1, or up to r - 2 under them */
        int rest;
        if (down)
            rest = bit ? (r + 2 <= b->height ? b->below[(r + 2) * w + c] : 0)
                       : b->below[(r + 1) * w + c];
        else
            rest = bit ? (r >= 2 ? b->above[(r - 2) * w + c] : 0)
                       : (r >= 1 ? b->above[(r - 1) * w + c] : 0);
        int sure = down ? have[c] : have[c] + bit;
        if (sure > b->need[c] || sure + rest < b->need[c])
            return 0;
    }
    return 1;
}

/* Counts compare as the words they fill (8 columns a word, little-endian): adding the same
   tops to a set of counts keeps their order, so the states of a group, kept in this order,
   stay in it when moved across a row. */
static int compare_counts(const uint8_t *a, const uint8_t *b, int klen)
{
    for (int i = 0; i < klen; i += 8) {
        uint64_t x, y;
        memcpy(&x, a + i, 8);
        memcpy(&y, b + i, 8);
        if (x != y)
            return x < y ? -1 : 1;
    }
    return 0;
}

/* One worker of a row: it takes the masks reached one at a time. Each merges the states of
   the groups that reach it, moved (their counts plus the tops the row adds) and
   kept when they can be completed, into a group of ``out``; or, at the meeting row, joins
   them with the group of ``meet`` with its mask: each state times the one holding the rest
   of every column's count (``total``). Groups are kept in the order of their counts, so both
   are merges. */
typedef struct {
    Board *b;
    const States *cur, *meet;
    const Masks *meet_index; /* meet's masks: entry = group */
    const Moves *mv;
    /* meeting two rows on: for each mask reached, the groups of ``meet`` its moves across the
       next row reach (hop_group[hop_first[t]] ..), and the tops each adds (``hop_tops``) */
    const size_t *hop_first;
    const uint32_t *hop_group;
    const uint64_t *hop_tops;
    int r, down;
    size_t *next_target; /* shared: the next mask a worker takes */
    States out;
    Num total;
    int overflow;
    size_t ticks;
    size_t *produced; /* states made by every worker of the row */
} __attribute__((aligned(64))) Worker; /* in cache lines of its own: each thread writes its own */

/* a group's states moved into one mask, in order, as they pass */
typedef struct {
    size_t e, end;
    uint8_t tops[VMAX]; /* the tops the row adds (1 in their columns) */
    uint8_t have[VMAX]; /* the state at ``e`` - 1, moved */
    Num num;
} Stream;

/* have = counts + tops (vw bytes, a multiple of 32); within the bounds lo, hi when given */
static int moved(const uint8_t *counts, const uint8_t *tops, const uint8_t *lo,
                 const uint8_t *hi, uint8_t *have, int vw)
{
#if defined(__SSE2__)
    int in = 1;
    for (int i = 0; i < vw; i += 16) {
        __m128i a = _mm_add_epi8(_mm_loadu_si128((const __m128i *)(counts + i)),
                                 _mm_loadu_si128((const __m128i *)(tops + i)));
        _mm_storeu_si128((__m128i *)(have + i), a);
        if (lo) {
            __m128i l = _mm_loadu_si128((const __m128i *)(lo + i));
            __m128i h = _mm_loadu_si128((const __m128i *)(hi + i));
            in &= _mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(_mm_max_epu8(a, l), a),
                                                  _mm_cmpeq_epi8(_mm_min_epu8(a, h), a))) ==
                  0xffff;
        }
    }
    return in;
#else
    int in = 1;
    for (int i = 0; i < vw; i++) {
        have[i] = (uint8_t)(counts[i] + tops[i]);
        in &= !lo || (have[i] >= lo[i] && have[i] <= hi[i]);
    }
    return in;
#endif
}

/* what a worker's streams into mask ``x`` (entry j of its layer, or -1) share */
typedef struct {
    Worker *wk;
    uint64_t x;
    long j;
    const uint8_t *lo, *hi; /* the layer's bounds, or NULL */
    /* the horizontal pieces the state's own side has across line c are base[c] less twice
       its column c's count less those across line c - 1; they must lie in least[c] ..
       most[c] (the other side has the rest: what its layer's set allows, else between none
       and what its free pairs hold) */
    int base[MAX_WIDTH], least[MAX_WIDTH], most[MAX_WIDTH];
} Into;

/* Covering every square, column c's free squares on one side of a boundary are its vertical
   pieces' (two each, one for a piece across the boundary) and those of the horizontal pieces
   across lines c - 1 and c. So a state's counts fix how many horizontal pieces its side has
   across each line, and the other side must have the rest of ``lines``: what its layer's set
   for the line allows, or without layers between none and the free pairs of its rows (less
   the squares the boundary's pieces take). Nothing in the column-by-column bounds sees this:
   most states of a plain sweep fail it. */
static void lines_of(const Board *b, Into *in, int r, int down)
{
    int w = b->width, h = b->height;
    /* down, the state is at boundary r + 1 (rows before it swept), its mask the squares of
       row r + 1 covered from above; up, at boundary r, its mask the tops of row r - 1 */
    int rb = down ? r + 1 : r, edge = down ? rb : rb - 1;
    uint64_t x = in->x, pairs = 0;
    if (edge >= 0 && edge < h)
        pairs = (uint64_t)b->free[edge] & ((uint64_t)b->free[edge] >> 1) & ~(x | (x >> 1));
    const int *fa = b->free_above + (size_t)rb * w, *all = b->free_above + (size_t)h * w;
    /* the other side's whole rows: down, those after row rb; up, those before row rb - 1 */
    int cut = down ? (rb < h ? rb + 1 : h) : (rb >= 1 ? rb - 1 : 0);
    const int *pairs_all = b->pairs_above + (size_t)h * w;
    const int *pairs_past = b->pairs_above + (size_t)cut * w;
    const uint8_t *other = NULL; /* the other side's ranges, from the layer */
    if (in->j >= 0 && b->layers && b->sets > w) {
        const Layer *l = &b->layers[rb];
        other = ranges(b, down ? l->future : l->past, (size_t)in->j);
    }
    for (int c = 0; c + 1 < w; c++) {
        int bit = (int)((x >> c) & 1), cap = (int)((pairs >> c) & 1);
        if (down) { /* the other side: rows from rb (row rb less the mask's squares) */
            in->base[c] = fa[c] + bit;
            cap += pairs_all[c] - pairs_past[c];
        } else { /* rows before rb (row rb - 1 less the mask's tops) */
            in->base[c] = all[c] - fa[c] - bit;
            cap += pairs_past[c];
        }
        in->least[c] = b->lines[c] - cap, in->most[c] = b->lines[c];
        if (other) { /* (the layer's mask is live: no range is empty) */
            in->least[c] = b->lines[c] - other[b->sv + w + c];
            in->most[c] = b->lines[c] - other[w + c];
        }
    }
}

/* may a state with these counts, moved into ``in``, leave the other side its horizontal
   pieces across every line? */
static int lines_allow(const Board *b, const Into *in, const uint8_t *counts)
{
    int own = 0;
    for (int c = 0; c + 1 < b->width; c++) {
        own = in->base[c] - 2 * counts[c] - own;
        if (own < in->least[c] || own > in->most[c])
            return 0;
    }
    return 1;
}

static int worker_stops(Worker *wk)
{
    Board *b = wk->b;
    if ((++wk->ticks & 4095) == 0 && b->control[0])
        b->stopped = 1;
    return b->stopped || b->failed;
}

/* the stream's next state that may be completed; 0 when there is none */
static int stream_next(const Into *in, Stream *s)
{
    Worker *wk = in->wk;
    const Board *b = wk->b;
    const States *cur = wk->cur;
    int w = b->width, vw = vec_width(w), r = wk->r, down = wk->down;
    while (s->e < s->end && !worker_stops(wk)) {
        size_t e = s->e++;
        if (!moved(cur->counts + e * cur->klen, s->tops, in->lo, in->hi, s->have, vw) ||
            (!in->lo && !within_reach(b, r, down, in->x, s->have)))
            continue;
        if (!lines_allow(b, in, s->have))
            continue;
        s->num = cur->num[e];
        return 1;
    }
    return 0;
}

/* a stream in the merge's heap, with the first word of its head's counts (most comparisons
   end there) */
typedef struct {
    uint64_t first;
    Stream *s;
} Head;

static inline int before(const Head *a, const Head *b, int klen)
{
    if (a->first != b->first)
        return a->first < b->first;
    return compare_counts(a->s->have + 8, b->s->have + 8, klen - 8) < 0;
}

static inline Head head_of(Stream *s)
{
    Head h = {0, s};
    memcpy(&h.first, s->have, 8);
    return h;
}

/* restore the heap order of ``heap`` (n streams, least counts first) below position i: the
   hole moves down to where the stream at i belongs */
static void sift_down(Head *heap, size_t n, size_t i, int klen)
{
    Head x = heap[i];
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, c;
        if (l >= n)
            break;
        c = (r < n && before(&heap[r], &heap[l], klen)) ? r : l;
        if (!before(&heap[c], &x, klen))
            break;
        heap[i] = heap[c];
        i = c;
    }
    heap[i] = x;
}

/* Meeting two rows on: each mask reached (``Moves``), its moves across the next row (down,
   row r + 1; up, row r - 1) into masks the other side holds (``index``: entry = group), each
   with the tops it adds (down, the move's; up, the mask's own). */
typedef struct {
    size_t *first;
    uint32_t *group;
    uint64_t *tops;
    size_t n, cap;
    const Masks *index;
    uint64_t x;
    int down, failed;
    Board *b;
} Hops;

static void hops_free(Hops *h)
{
    free(h->first), free(h->group), free(h->tops);
    memset(h, 0, sizeof *h);
}

static void hop_into(Hops *h, uint64_t y)
{
    if (halted(h->b))
        return;
    long g = masks_at(h->index, y, NULL);
    if (g < 0)
        return;
    if (h->n == h->cap) {
        size_t cap = h->cap ? 2 * h->cap : 1024;
        int ok = 1;
        h->group = resized(h->group, cap * 4, &ok);
        h->tops = resized(h->tops, cap * 8, &ok);
        if (!ok) {
            h->failed = 1;
            return;
        }
        h->cap = cap;
    }
    h->group[h->n] = (uint32_t)g, h->tops[h->n++] = h->down ? y : h->x;
}

static void hop_found(void *ctx, uint64_t y) { hop_into(ctx, y); }

static int find_hops(Board *b, const Moves *mv, int r, int down, Hops *h)
{
    h->first = malloc((mv->index.n + 1) * sizeof(size_t));
    if (!h->first)
        return 0;
    h->down = down, h->b = b;
    for (size_t t = 0; t < mv->index.n && !h->failed && !b->stopped; t++) {
        h->first[t] = h->n;
        h->x = mv->index.mask[t];
        if (b->layers && (down || b->reversed)) {
            const Layer *at = &b->layers[down ? r + 1 : r], *to = &b->layers[down ? r + 2 : r - 1];
            size_t i = (size_t)mv->entry[t];
            const size_t *first = down ? at->first : at->rfirst;
            const uint32_t *ends = down ? at->to : at->from;
            for (size_t k = first[i]; k < first[i + 1]; k++)
                hop_into(h, to->index.mask[ends[k]]);
        } else {
            split_row(b, down ? r + 1 : r - 1, down, h->x, hop_found, h);
        }
    }
    h->first[mv->index.n] = h->n;
    return !h->failed && !b->stopped;
}

/* In counts[bottom, below), ascending, whose entries from ``below`` on are all greater than
   ``rest``: the least i with counts[i, below) all greater (by galloping down, then halving). */
static size_t settle(const uint8_t *counts, int klen, size_t bottom, size_t below,
                     const uint8_t *rest)
{
    size_t step = 1, lo = bottom, hi = below;
    while (hi - bottom >= step) {
        size_t p = hi - step;
        if (compare_counts(counts + p * klen, rest, klen) <= 0) {
            lo = p + 1;
            break;
        }
        hi = p, step *= 2;
    }
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (compare_counts(counts + mid * klen, rest, klen) > 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* is counts + add (no byte carries) before ``target``, in compare_counts' order? */
static int short_of(const uint8_t *counts, const uint8_t *add, const uint8_t *target, int klen)
{
    for (int i = 0; i < klen; i += 8) {
        uint64_t x, a, y;
        memcpy(&x, counts + i, 8);
        memcpy(&a, add + i, 8);
        memcpy(&y, target + i, 8);
        if (x + a != y)
            return x + a < y;
    }
    return 0;
}

/* the least i in [from, end) whose counts + add reach ``target`` (end when none): galloping
   up from ``from``, then halving */
static size_t reach(const uint8_t *counts, int klen, size_t from, size_t end, const uint8_t *add,
                    const uint8_t *target)
{
    size_t lo = from, hi = from, step = 1;
    while (hi < end && short_of(counts + hi * klen, add, target, klen)) {
        lo = hi + 1;
        hi = end - hi > step ? hi + step : end;
        step *= 2;
    }
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (short_of(counts + mid * klen, add, target, klen))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* rest = need - (x + add), byte by byte (``add`` may be NULL); 0 when x + add passes the need
   of some column (there is no rest) */
static int rest_of(const uint8_t *need, const uint8_t *x, const uint8_t *add, uint8_t *rest,
                   int klen)
{
    int over = 0;
    for (int i = 0; i < klen; i++) {
        uint8_t have = (uint8_t)(x[i] + (add ? add[i] : 0));
        over |= have > need[i];
        rest[i] = (uint8_t)(need[i] - have);
    }
    return !over;
}

/* The meeting: the group just gathered (the worker's states from ``first`` on), each with
   ``tops`` added, times the state of group ``mg`` of ``meet`` that holds the rest of each
   column's need. Both are in order, and as the gathered counts grow that rest shrinks: a
   leapfrog join. The rest of a gathered state settles the greatest state of the group at or
   under it; when that one is less, the gathered states skipped to are the first whose rest
   reaches down to it. */
static void join(Worker *wk, size_t first, size_t mg, uint64_t tops)
{
    const Board *b = wk->b;
    const States *out = &wk->out, *meet = wk->meet;
    int klen = out->klen;
    size_t bottom = meet->start[mg], below = meet->start[mg + 1];
    uint8_t add[VMAX], need[VMAX], rest[VMAX];
    memset(add, 0, sizeof add);
    memset(need, 0, sizeof need);
    for (int c = 0; c < b->width; c++)
        add[c] = (uint8_t)((tops >> c) & 1), need[c] = (uint8_t)b->need[c];
    size_t e = first;
    while (e < out->n && below > bottom && !worker_stops(wk)) {
        if (!rest_of(need, out->counts + e * klen, add, rest, klen)) {
            e++; /* more than a column needs */
            continue;
        }
        below = settle(meet->counts, klen, bottom, below, rest);
        if (below == bottom)
            break;
        const uint8_t *m = meet->counts + (below - 1) * klen;
        if (compare_counts(m, rest, klen) == 0) {
            Num x = out->num[e], y = meet->num[below - 1];
            if (MUL_OVERFLOWS(x, y))
                wk->overflow = 1;
            Num p = x * y;
            wk->total += p;
            if (wk->total < p)
                wk->overflow = 1;
            e++;
            continue;
        }
        /* m lies under the rest: the next match reaches need - m (the states kept never
           pass a column's need; were one to, step on one state) */
        e = rest_of(need, m, NULL, rest, klen) ? reach(out->counts, klen, e + 1, out->n, add, rest)
                                               : e + 1;
    }
}

static void gather_into(Worker *wk, size_t t, Stream *streams, Head *heap)
{
    Board *b = wk->b;
    const States *cur = wk->cur, *meet = wk->meet;
    const Moves *mv = wk->mv;
    int w = b->width, vw = vec_width(w), down = wk->down, klen = cur->klen;
    Into in = {wk, mv->index.mask[t], mv->entry[t], NULL, NULL, {0}, {0}, {0}};
    lines_of(b, &in, wk->r, down);
    const Layer *to = in.j >= 0 ? &b->layers[down ? wk->r + 1 : wk->r] : NULL;
    if (to && to->lo[down]) {
        in.lo = to->lo[down] + (size_t)in.j * vw, in.hi = to->hi[down] + (size_t)in.j * vw;
    }
    size_t n = 0;
    for (size_t k = mv->first[t]; k < mv->first[t + 1]; k++) {
        size_t g = mv->from[k];
        Stream *s = &streams[n];
        s->e = cur->start[g], s->end = cur->start[g + 1];
        uint64_t tops = down ? in.x : cur->mask[g]; /* down, the move's; up, the group's own */
        memset(s->tops, 0, sizeof s->tops);
        for (int c = 0; c < w; c++)
            s->tops[c] = (uint8_t)((tops >> c) & 1);
        if (stream_next(&in, s))
            heap[n++] = head_of(s);
    }
    for (size_t i = n; i-- > 0;)
        sift_down(heap, n, i, klen);
    States *out = &wk->out;
    size_t first = out->n;
    while (n && !b->stopped && !b->failed) {
        Stream *s = heap[0].s;
        if (out->n > first &&
            compare_counts(out->counts + (out->n - 1) * klen, s->have, klen) == 0) {
            Num sum = out->num[out->n - 1] + s->num; /* the same state from another group */
            if (sum < s->num)
                wk->overflow = 1;
            out->num[out->n - 1] = sum;
        } else {
            if (!states_reserve(out, out->n == first, 1)) {
                b->failed = 1;
                return;
            }
            memcpy(out->counts + out->n * klen, s->have, (size_t)klen);
            out->num[out->n++] = s->num;
        }
        if (stream_next(&in, s))
            heap[0] = head_of(s);
        else
            heap[0] = heap[--n];
        sift_down(heap, n, 0, klen);
    }
    if (out->n == first || b->stopped || b->failed)
        return;
    if (meet) { /* matched, then dropped */
        if (!wk->hop_first) {
            long f = masks_at(wk->meet_index, in.x, NULL);
            if (f >= 0)
                join(wk, first, (size_t)f, 0);
        } else {
            for (size_t k = wk->hop_first[t]; k < wk->hop_first[t + 1]; k++)
                join(wk, first, wk->hop_group[k], wk->hop_tops[k]);
        }
        out->n = first;
        return;
    }
    out->mask[out->groups] = in.x, out->entry[out->groups] = in.j;
    out->start[out->groups++] = first;
    out->start[out->groups] = out->n;
    if (__atomic_add_fetch(wk->produced, out->n - first, __ATOMIC_RELAXED) + b->held >
        b->max_states)
        b->stopped = 1;
}

/* A worker takes the masks reached one at a time, in no fixed order (a mask's group may go
   anywhere among the new groups): the masks' work is uneven. */
static void *work(void *arg)
{
    Worker *wk = arg;
    const Moves *mv = wk->mv;
    size_t most = 1; /* the most groups reaching one mask */
    for (size_t t = 0; t < mv->index.n; t++)
        if (mv->first[t + 1] - mv->first[t] > most)
            most = mv->first[t + 1] - mv->first[t];
    Stream *streams = malloc(most * sizeof(Stream));
    Head *heap = malloc(most * sizeof(Head));
    if (!streams || !heap)
        wk->b->failed = 1;
    while (!wk->b->stopped && !wk->b->failed) {
        size_t t = __atomic_fetch_add(wk->next_target, 1, __ATOMIC_RELAXED);
        if (t >= mv->index.n)
            break;
        gather_into(wk, t, streams, heap);
    }
    free(streams), free(heap);
    return NULL;
}

/* Sweep row r (``down`` or up) from ``cur`` into ``next``; or, given ``meet`` (the other
   side's states, ``span`` rows on: one or two), return the count of the fillings they
   complete. The masks reached are taken one at a time by ``threads`` workers. */
static Num sweep_row(Board *b, const States *cur, States *next, const States *meet, int r,
                      int down, int span, int threads, int *overflow)
{
    Moves mv = {0};
    Hops hops = {0};
    Num total = 0;
    Masks meet_index = {0};
    Worker *wk = aligned_alloc(64, (size_t)threads * sizeof(Worker));
    if (wk)
        memset(wk, 0, (size_t)threads * sizeof(Worker));
    pthread_t *tid = calloc((size_t)threads, sizeof(pthread_t));
    if (!wk || !tid || !find_moves(b, cur, r, down, &mv)) {
        if (!b->stopped)
            b->failed = 1;
        goto done;
    }
    if (b->layers)
        layer_bounds(b, &b->layers[down ? r + 1 : r], down);
    if (meet) {
        if (masks_init(&meet_index, meet->groups) < 0) {
            b->failed = 1;
            goto done;
        }
        for (size_t g = 0; g < meet->groups; g++)
            if (masks_find(&meet_index, meet->mask[g], 1) < 0)
                b->failed = 1;
        hops.index = &meet_index;
        if (span == 2 && !b->failed && !find_hops(b, &mv, r, down, &hops)) {
            if (!b->stopped)
                b->failed = 1;
            goto done;
        }
    }
    size_t produced = 0, next_target = 0;
    for (int i = 0; i < threads; i++) {
        Worker *w = &wk[i];
        w->b = b, w->cur = cur, w->meet = meet, w->meet_index = &meet_index, w->mv = &mv;
        w->r = r, w->down = down, w->produced = &produced, w->next_target = &next_target;
        w->hop_first = span == 2 ? hops.first : NULL;
        w->hop_group = hops.group, w->hop_tops = hops.tops;
        w->out.klen = cur->klen;
    }
    int started = 1;
    for (int i = 1; i < threads && !b->failed; i++, started++)
        if (pthread_create(&tid[i], NULL, work, &wk[i]) != 0)
            break;
    work(&wk[0]);
    for (int i = 1; i < started; i++)
        pthread_join(tid[i], NULL);
    for (int i = started; i < threads; i++) /* threads that did not start: here */
        work(&wk[i]);
    size_t groups = 0, n = 0;
    for (int i = 0; i < threads; i++) {
        Num p = wk[i].total;
        total += p;
        if (total < p)
            *overflow = 1;
        *overflow |= wk[i].overflow;
        groups += wk[i].out.groups, n += wk[i].out.n;
    }
    if (!meet && !b->failed && !b->stopped) { /* the workers' groups, in order */
        states_free(next);
        *next = wk[0].out; /* the first worker's, then the others' after them */
        memset(&wk[0].out, 0, sizeof wk[0].out);
        if (!states_reserve(next, groups - next->groups, n - next->n)) {
            b->failed = 1;
            goto done;
        }
        for (int i = 1; i < threads; i++) {
            States *o = &wk[i].out;
            if (!o->groups) /* (its arrays may be NULL) */
                continue;
            for (size_t g = 0; g < o->groups; g++) {
                next->mask[next->groups + g] = o->mask[g];
                next->entry[next->groups + g] = o->entry[g];
                next->start[next->groups + g] = next->n + o->start[g];
            }
            memcpy(next->counts + next->n * next->klen, o->counts, o->n * (size_t)o->klen);
            memcpy(next->num + next->n, o->num, o->n * sizeof(Num));
            next->groups += o->groups, next->n += o->n;
            next->start[next->groups] = next->n;
            states_free(o);
        }
    }
done:
    if (wk)
        for (int i = 0; i < threads; i++)
            states_free(&wk[i].out);
    free(wk), free(tid);
    moves_free(&mv);
    hops_free(&hops);
    masks_free(&meet_index);
    return total;
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

/* ``free_above``, ``pairs_above`` and ``lines`` (``Board``) */
static void count_lines(Board *b)
{
    int w = b->width, h = b->height, across = 0;
    for (int r = 0; r < h; r++) {
        uint64_t row = (uint64_t)b->free[r], pairs = row & (row >> 1);
        for (int c = 0; c < w; c++) {
            size_t at = (size_t)(r + 1) * w + c;
            b->free_above[at] = b->free_above[at - w] + (int)((row >> c) & 1);
            b->pairs_above[at] = b->pairs_above[at - w] + (int)((pairs >> c) & 1);
        }
    }
    for (int c = 0; c + 1 < w; c++) /* column c: its free squares, two a vertical piece */
        across = b->lines[c] = b->free_above[(size_t)h * w + c] - 2 * b->need[c] - across;
    int small = 1; /* the lines' ranges in the layers, where their totals fit a byte */
    for (int c = 0; c < w; c++)
        b->totals[c] = b->need[c];
    for (int c = 0; c + 1 < w; c++) {
        b->totals[w + c] = b->lines[c];
        small &= b->lines[c] >= 0 && b->lines[c] < 255;
    }
    b->sets = small ? 2 * w - 1 : w;
}

/* the work of moving the states at ``boundary`` across the next row (``down`` or up): with
   layers, each state times its mask's moves; without, the states */
static size_t moving(const Board *b, const States *s, int boundary, int down)
{
    if (!b->layers)
        return s->n;
    const Layer *l = &b->layers[boundary];
    const size_t *first = down ? l->first : l->rfirst;
    size_t work = 0;
    for (size_t g = 0; g < s->groups; g++) {
        size_t i = (size_t)s->entry[g];
        work += (s->start[g + 1] - s->start[g]) * (first[i + 1] - first[i]);
    }
    return work;
}

#ifdef FIT_ESTIMATE
static uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* a state's draw in (0, 1]: a hash of the run's seed, the row, the state's mask and counts
   (splitmix64's finaliser), so that the same seed gives the same estimate whichever thread
   made which state */
static double draw(const Board *b, int row, uint64_t mask, const uint8_t *counts, int klen)
{
    uint64_t z = mix(b->draws + 0x9E3779B97F4A7C15ull * (uint64_t)(row + 1)) ^ mask;
    for (int i = 0; i < klen; i += 8) {
        uint64_t word;
        memcpy(&word, counts + i, 8);
        z = mix(z + 0x9E3779B97F4A7C15ull) ^ word;
    }
    return ((double)(mix(z) >> 11) + 1.0) / 9007199254740992.0;
}

/* the k-th smallest of a[0 .. n) (Hoare's selection; a is reordered) */
static double select_kth(double *a, size_t n, size_t k)
{
    long lo = 0, hi = (long)n - 1, want = (long)k;
    while (lo < hi) {
        double pivot = a[lo + (hi - lo) / 2];
        long i = lo, j = hi;
        while (i <= j) {
            while (a[i] < pivot)
                i++;
            while (a[j] > pivot)
                j--;
            if (i <= j) {
                double t = a[i];
                a[i++] = a[j], a[j--] = t;
            }
        }
        if (want <= j)
            hi = j;
        else if (want >= i)
            lo = i;
        else
            break;
    }
    return a[want];
}

/* keep ``b->budget`` of the states at boundary ``row`` by priority sampling (the top of this
   file) */
static int thin(Board *b, States *s, int row)
{
    if (s->n <= b->budget)
        return 1;
    double *q = malloc(s->n * sizeof(double)), *order = malloc(s->n * sizeof(double));
    if (!q || !order) {
        free(q), free(order);
        return 0;
    }
    for (size_t g = 0; g < s->groups; g++)
        for (size_t i = s->start[g]; i < s->start[g + 1]; i++)
            q[i] = order[i] =
                s->num[i] / draw(b, row, s->mask[g], s->counts + i * s->klen, s->klen);
    double tau = select_kth(order, s->n, s->n - b->budget - 1);
    size_t n = 0, kept = 0;
    for (size_t g = 0; g < s->groups; g++) {
        size_t first = n;
        for (size_t i = s->start[g]; i < s->start[g + 1]; i++)
            if (q[i] > tau) {
                memmove(s->counts + n * s->klen, s->counts + i * s->klen, (size_t)s->klen);
                s->num[n++] = s->num[i] > tau ? s->num[i] : tau;
            }
        if (n > first) { /* groups left empty go */
            s->mask[kept] = s->mask[g], s->entry[kept] = s->entry[g];
            s->start[kept++] = first;
        }
    }
    s->groups = kept, s->n = n, s->start[kept] = n;
    b->thinned = 1;
    free(q), free(order);
    return 1;
}
#endif

/* one sweep of the board (the layers built): the count, or with FIT_ESTIMATE one estimate */
static Num sweep_board(Board *b, int threads, int *overflow)
{
    int width = b->width, height = b->height, klen = (width + 7) & ~7;
    States up = {.klen = klen}, down = {.klen = klen};
    Num total = 0;
    /* from above: nothing covered, no tops yet; from below: no tops asked of the last row
       (with layers, a board whose last boundary cannot be empty has no filling) */
    long first = b->layers ? masks_find(&b->layers[0].index, 0, 0) : -1;
    long last = b->layers ? masks_find(&b->layers[height].index, 0, 0) : -1;
    int none = b->layers && (first < 0 || last < 0);
    if (!states_reserve(&down, 1, 1) || !states_reserve(&up, 1, 1))
        b->failed = 1;
    else {
        States *ends[] = {&down, &up};
        for (int i = 0; i < 2; i++) {
            States *e = ends[i];
            e->mask[0] = 0, e->entry[0] = i ? last : first;
            e->start[0] = 0, e->start[1] = 1;
            memset(e->counts, 0, (size_t)klen);
            e->num[0] = 1;
            e->groups = e->n = 1;
        }
    }
    int top = 0, bottom = height; /* rows [0, top) swept down, [bottom, height) up */
    /* down to two rows apart (one when the board has one row), then meet */
    while (!none && bottom - top > 2 && !b->failed && !b->stopped) {
        size_t below = moving(b, &up, bottom, 0);
#ifdef FIT_ESTIMATE /* below, exact while its next row is little work; above, thinned */
        int go_down = below > 20 * b->budget || moving(b, &down, top, 1) <= below;
#else
        int go_down = moving(b, &down, top, 1) <= below;
#endif
        States *cur = go_down ? &down : &up, next = {.klen = klen};
        b->held = up.n + down.n;
        if (go_down)
            sweep_row(b, cur, &next, NULL, top++, 1, 1, threads, overflow);
        else
            sweep_row(b, cur, &next, NULL, --bottom, 0, 1, threads, overflow);
        states_free(cur);
        *cur = next;
        tell_rows(b, top + height - bottom);
#ifdef FIT_ESTIMATE
        if (go_down && !b->failed && !thin(b, cur, top))
            b->failed = 1;
#endif
    }
    /* meet across the rows between: each state from above (mask = the squares of row ``top``
       covered from above, counts so far), moved across them, against the state from below
       with the mask it reaches and the rest of each column's count; or each state from below
       moved up against those from above */
    if (!none && !b->failed && !b->stopped) {
        int span = bottom - top;
        if (moving(b, &down, top, 1) <= moving(b, &up, bottom, 0))
            total = sweep_row(b, &down, NULL, &up, top, 1, span, threads, overflow);
        else
            total = sweep_row(b, &up, NULL, &down, bottom - 1, 0, span, threads, overflow);
        tell_rows(b, height);
    }
    states_free(&up);
    states_free(&down);
    return total;
}

static PyObject *count(PyObject *self, PyObject *args)
{
    int width, height;
    PyObject *o_free, *o_tops, *o_need, *o_control;
    Py_ssize_t max_states, layer_bytes;
    int threads = 1;
#ifdef FIT_ESTIMATE
    Py_ssize_t budget, runs;
    unsigned long long seed;
    double seconds, limit = 0;
    if (!PyArg_ParseTuple(args, "iiOOOnnOinKnd|d", &width, &height, &o_free, &o_tops, &o_need,
                          &max_states, &layer_bytes, &o_control, &threads, &budget, &seed,
                          &runs, &seconds, &limit))
        return NULL;
    if (budget < 1 || runs < 1) {
        PyErr_SetString(PyExc_ValueError, "budget and runs at least 1");
        return NULL;
    }
    double *values = calloc((size_t)runs, sizeof(double));
    if (!values)
        return PyErr_NoMemory();
#else
    if (!PyArg_ParseTuple(args, "iiOOOnnO|i", &width, &height, &o_free, &o_tops, &o_need,
                          &max_states, &layer_bytes, &o_control, &threads))
        return NULL;
#endif
    PyObject *result = NULL;
    Py_buffer bf, bt, bn, bc;
    Py_buffer *views[] = {&bf, &bt, &bn, &bc};
    PyObject *objs[] = {o_free, o_tops, o_need, o_control};
    const char *names[] = {"free", "tops", "per_column", "control"};
    int got = 0;
    if (width < 1 || width > MAX_WIDTH || height < 1 || max_states < 1 || threads < 1 ||
        threads > 64) {
        PyErr_SetString(PyExc_ValueError,
                        "width 1-64, threads 1-64, height and max_states at least 1");
        goto done;
    }
    got = get_buffers(objs, views, 4, "qiii", 1, names);
    if (got < 4)
        goto done;
    if (bf.len / 8 != height || bt.len / (Py_ssize_t)sizeof(int) != height ||
        bn.len / (Py_ssize_t)sizeof(int) != width || bc.len < (Py_ssize_t)sizeof(int)) {
        PyErr_SetString(PyExc_ValueError, "array lengths do not match the board");
        goto done;
    }
    for (int i = 0; i < width + height; i++) { /* counts are bytes: a column's need < 255 */
        int v = i < width ? ((const int *)bn.buf)[i] : ((const int *)bt.buf)[i - width];
        if (v < 0 || v > (i < width ? 254 : width)) {
            PyErr_SetString(PyExc_ValueError, "per_column must be 0-254 and tops 0-width");
            goto done;
        }
    }
    Board b = {.width = width, .height = height, .free = bf.buf, .tops = bt.buf,
               .need = bn.buf, .max_states = (size_t)max_states,
               .control = (volatile int *)bc.buf, .told = bc.len >= 3 * (Py_ssize_t)sizeof(int)};
    b.above = calloc((size_t)(height + 1) * width, sizeof(int));
    b.below = calloc((size_t)(height + 1) * width, sizeof(int));
    b.free_above = calloc((size_t)(height + 1) * width, sizeof(int));
    b.pairs_above = calloc((size_t)(height + 1) * width, sizeof(int));
    b.lines = calloc((size_t)width, sizeof(int));
    b.totals = calloc(2 * (size_t)width, sizeof(int));
    int ok = b.above && b.below && b.free_above && b.pairs_above && b.lines && b.totals;
    if (ok)
        count_lines(&b);
    int overflow = 0;
#ifdef FIT_ESTIMATE
    Py_ssize_t done_runs = 0;
#else
    Num total = 0;
#endif
    if (ok) {
        Py_BEGIN_ALLOW_THREADS
        /* the most vertical pieces a column can still take, as bounds: below[r] within
           rows r.., above[r] within rows ..r */
        for (int c = 0; c < width; c++) {
            pack_column(&b, c, height - 1, -1, b.below);
            pack_column(&b, c, 0, 1, b.above);
        }
#ifdef FIT_ESTIMATE
        double t0 = now(); /* ``seconds`` count the layers too */
#endif
        if (layer_bytes > 0)
            make_layers(&b, (size_t)layer_bytes);
        if (!b.layers && bc.len >= 4 * (Py_ssize_t)sizeof(int))
            b.control[3] = 1;
#ifdef FIT_ESTIMATE
        /* runs with seeds seed, seed + 1, ... on the same layers, while another fits in
           ``seconds`` from t0 (at least two), or the one run that dropped nothing; a second
           run that would end past ``limit`` keeps fewer states (down to a sixteenth) */
        b.budget = (size_t)budget;
        double t1 = now();
        while (done_runs < runs && !b.failed && !b.stopped) {
            b.draws = seed + (uint64_t)done_runs, b.thinned = 0;
            values[done_runs++] = (double)sweep_board(&b, threads, &overflow);
            double t = now(), left = limit - (t - t0);
            if (!b.thinned || (done_runs >= 2 && t - t0 + (t - t1) / done_runs > seconds))
                break;
            if (done_runs == 1 && limit > 0 && t - t1 > left) { /* t - t1: the first run */
                double fits = (double)b.budget * left / (t - t1) * 0.9;
                b.budget = fits > (double)budget / 16 ? (size_t)fits : (size_t)budget / 16 + 1;
            }
        }
#else
        total = sweep_board(&b, threads, &overflow);
#endif
        Py_END_ALLOW_THREADS
    }
    if (!ok || b.failed) {
        PyErr_NoMemory();
    } else if (overflow) {
        PyErr_SetString(PyExc_OverflowError, "the count needs more than 128 bits");
    } else if (b.stopped) {
        result = Py_NewRef(Py_None);
    } else {
#ifdef FIT_ESTIMATE
        PyObject *list = PyList_New(done_runs);
        for (Py_ssize_t i = 0; list && i < done_runs; i++)
            PyList_SET_ITEM(list, i, PyFloat_FromDouble(values[i]));
        result = list ? Py_BuildValue("(Ni)", list, b.thinned) : NULL;
#else
        PyObject *hi = PyLong_FromUnsignedLongLong((unsigned long long)(total >> 64));
        PyObject *lo = PyLong_FromUnsignedLongLong((unsigned long long)total);
        PyObject *sh = PyLong_FromLong(64);
        PyObject *t1 = hi && sh ? PyNumber_Lshift(hi, sh) : NULL;
        result = t1 && lo ? PyNumber_Or(t1, lo) : NULL;
        Py_XDECREF(hi);
        Py_XDECREF(lo);
        Py_XDECREF(sh);
        Py_XDECREF(t1);
#endif
    }
    if (b.layers) {
        for (int r = 0; r <= height; r++)
            layer_free(&b.layers[r]);
        free(b.layers);
    }
    free(b.above);
    free(b.below);
    free(b.free_above);
    free(b.pairs_above);
    free(b.lines);
    free(b.totals);
done:
    release_buffers(views, got);
#ifdef FIT_ESTIMATE
    free(values);
#endif
    return result;
}

typedef struct {
    Board *b;
    PyObject *list;
} Collect;

static void collect_move(void *ctx, uint64_t x)
{
    Collect *c = ctx;
    PyObject *v = PyLong_FromUnsignedLongLong(x);
    if (!v || PyList_Append(c->list, v) < 0)
        c->b->failed = 1; /* the search stops */
    Py_XDECREF(v);
}

/* row_moves(open, allowed, k, by_runs=1): the moves ``split_row`` finds, as a list of masks
   (for the tests): each set x of k squares of ``open & allowed`` that leaves the other
   squares of ``open`` in runs of even length; run by run, or member by member */
static PyObject *row_moves(PyObject *self, PyObject *args)
{
    unsigned long long open, allowed;
    int k, by_runs = 1;
    if (!PyArg_ParseTuple(args, "KKi|p", &open, &allowed, &k, &by_runs))
        return NULL;
    if (k < 0 || k > 64) {
        PyErr_SetString(PyExc_ValueError, "k 0-64");
        return NULL;
    }
    Board b;
    memset(&b, 0, sizeof b);
    PyObject *out = PyList_New(0);
    if (!out)
        return NULL;
    Collect c = {&b, out};
    Split s = {&b, k, open, allowed, collect_move, &c};
    split_moves(&s, by_runs);
    if (PyErr_Occurred()) {
        Py_DECREF(out);
        return NULL;
    }
    return out;
}

static PyMethodDef METHODS[] = {
    {"count", count, METH_VARARGS, "Count full-cover Domino Fit solutions (see the source)."},
    {"row_moves", row_moves, METH_VARARGS, "A row's moves (see the source)."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef MODULE = {PyModuleDef_HEAD_INIT, MODULE_NAME, NULL, -1, METHODS};

PyMODINIT_FUNC MODULE_INIT(void)
{
    for (int v = 0; v < 256; v++) { /* as bytes in memory, whatever the byte order */
        uint8_t bytes[8];
        for (int k = 0; k < 8; k++)
            bytes[k] = (uint8_t)((v >> k) & 1);
        memcpy(&byte_of_bit[v], bytes, 8);
    }
    return PyModule_Create(&MODULE);
}
