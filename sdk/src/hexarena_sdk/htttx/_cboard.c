/* C accelerator for the HTTTX mutable Board (hexarena_sdk.htttx.board.PyBoard is the reference).
 *
 * Why: search and random playouts place millions of stones; the pure-Python board peaks around 250k validated
 * stones/s. This is the same algorithm written in C, with the same observable behaviour: the same legal list
 * (in the same order, so random choices reproduce), the same Zobrist values, winners, win lines, exceptions and
 * reason texts. See board.py for the algorithm itself; only the data structures differ:
 *
 * - cells are packed into one int64 key q * 2**32 + r (linear, so key + packed offset = packed neighbour);
 * - one open-addressing hash table (linear probing, backward-shift deletion) maps a key to its state (>= 0:
 *   empty and legal, index in the legal list; -1 / -2: an X / O stone) and its first coverer (``_src``). The
 *   board is infinite, so there is no grid; coordinates are validated (|q|, |r| < 2**20) before packing, and
 *   anything larger, whatever its size, is rejected with IllegalMove before any arithmetic;
 * - ``cells`` (dict) and ``stones`` (list) are the same public Python objects the pure board keeps.
 *
 * Not thread-safe beyond the GIL: one Board belongs to one thread of control (like the Python one).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define COORD_LIMIT (1LL << 20)
#define STRIDE 4294967296LL
#define PK(q, r) ((int64_t)(q) * STRIDE + (int64_t)(r))
#define AX1 PK(1, 0)
#define AX2 PK(0, 1)
#define AX3 PK(1, -1)
#define EMPTY_KEY INT64_MIN
/* Larger view distances go to the Python fallback class (the game caps them at 64). */
#define MAX_VIEW 256

static PyObject *IllegalMove = NULL; /* hexarena_sdk.errors.IllegalMove */
static PyObject *fallback = NULL;    /* the pure-Python Board, for view distances above MAX_VIEW */
static PyObject *str_random = NULL;
static const char *SIDES[2] = {"x", "o"};

static inline void unpack(int64_t k, int64_t *q, int64_t *r) {
    int64_t qq = (k + (STRIDE >> 1)) >> 32; /* arithmetic shift: floor division */
    *q = qq;
    *r = k - qq * STRIDE;
}

static inline int inside_limit(int64_t k) {
    int64_t q, r;
    unpack(k, &q, &r);
    return -COORD_LIMIT < q && q < COORD_LIMIT && -COORD_LIMIT < r && r < COORD_LIMIT;
}

/* True when the view hexagon around cell k may reach beyond the coordinate limit: only the cells inside it are
 * candidates then (place refuses the others, so a bot drawing one would send an illegal move). */
static inline int near_limit(int64_t k, int view) {
    int64_t q, r, edge = COORD_LIMIT - view;
    unpack(k, &q, &r);
    return q <= -edge || q >= edge || r <= -edge || r >= edge;
}

static PyObject *coord_tuple(int64_t k) {
    int64_t q, r;
    unpack(k, &q, &r);
    return Py_BuildValue("(LL)", (long long)q, (long long)r);
}

static inline uint64_t splitmix64(uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

static inline uint64_t zobrist_of(int64_t q, int64_t r, int seat) {
    return splitmix64(((uint64_t)(uint32_t)q << 33) | ((uint64_t)(uint32_t)r << 1) | (uint64_t)seat);
}

static inline int64_t hexdist(int64_t dq, int64_t dr) {
    int64_t a = dq < 0 ? -dq : dq, b = dr < 0 ? -dr : dr, c = dq + dr < 0 ? -(dq + dr) : dq + dr;
    int64_t m = a > b ? a : b;
    return m > c ? m : c;
}

/* ---------------------------------------------------------------- shapes (one set per view distance) */

typedef struct {
    int64_t *offs;
    Py_ssize_t n;
} OffArr;

typedef struct {
    int view, R, side;
    int *hq, *hr; /* the hexagon, in the Python board's order */
    Py_ssize_t nhex;
    OffArr full, near, ring2;
    OffArr around[64];
    char around_done[64];
    OffArr *diffs; /* by grid slot of the offset (|dq|, |dr| <= R), computed on first use */
    char *diff_done;
} Shapes;

static Shapes *shapes_cache[MAX_VIEW + 1];

static Shapes *get_shapes(int view) {
    Shapes *s = shapes_cache[view];
    if (s) return s;
    s = PyMem_Calloc(1, sizeof(Shapes));
    if (!s) return (Shapes *)PyErr_NoMemory();
    s->view = view;
    s->R = view > 2 ? view : 2;
    s->side = 2 * s->R + 1;
    Py_ssize_t cap = 3 * (Py_ssize_t)view * (view + 1) + 1;
    s->hq = PyMem_Malloc(sizeof(int) * cap);
    s->hr = PyMem_Malloc(sizeof(int) * cap);
    s->full.offs = PyMem_Malloc(sizeof(int64_t) * cap);
    s->near.offs = PyMem_Malloc(sizeof(int64_t) * 19);
    s->diffs = PyMem_Calloc((size_t)s->side * s->side, sizeof(OffArr));
    s->diff_done = PyMem_Calloc((size_t)s->side * s->side, 1);
    if (!s->hq || !s->hr || !s->full.offs || !s->near.offs || !s->diffs || !s->diff_done) {
        PyErr_NoMemory();
        return NULL; /* leaks a little on a failure that is fatal anyway */
    }
    Py_ssize_t n = 0;
    for (int d = 0; d <= view; d++)
        for (int dq = -d; dq <= d; dq++)
            for (int dr = -d; dr <= d; dr++)
                if (hexdist(dq, dr) == d) {
                    s->hq[n] = dq;
                    s->hr[n] = dr;
                    s->full.offs[n] = PK(dq, dr);
                    n++;
                }
    s->nhex = s->full.n = n;
    /* cells at distance 1 and 2, nearest first: from the hexagon when it reaches 2, else enumerated alike */
    Py_ssize_t m = 0;
    for (int d = 1; d <= 2; d++)
        for (int dq = -d; dq <= d; dq++)
            for (int dr = -d; dr <= d; dr++)
                if (hexdist(dq, dr) == d && d <= view) s->near.offs[m++] = PK(dq, dr);
    s->near.n = m;
    s->ring2.offs = s->near.offs + (m > 6 ? 6 : m);
    s->ring2.n = m > 6 ? m - 6 : 0;
    shapes_cache[view] = s;
    return s;
}

/* Offsets of cells within view of the new stone and farther than view from every stone in ts[0..nt). */
static int build_excluding(Shapes *s, const int *tq, const int *tr, int nt, OffArr *out) {
    int64_t *buf = PyMem_Malloc(sizeof(int64_t) * (s->nhex ? s->nhex : 1));
    if (!buf) {
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t n = 0;
    for (Py_ssize_t i = 0; i < s->nhex; i++) {
        int ok = 1;
        for (int j = 0; j < nt; j++)
            if (hexdist((int64_t)s->hq[i] - tq[j], (int64_t)s->hr[i] - tr[j]) <= s->view) {
                ok = 0;
                break;
            }
        if (ok) buf[n++] = PK(s->hq[i], s->hr[i]);
    }
    out->offs = buf;
    out->n = n;
    return 0;
}

static const OffArr *get_around(Shapes *s, int mask) {
    static const int uq[6] = {1, -1, 0, 0, 1, -1}, ur[6] = {0, 0, 1, -1, -1, 1};
    if (!s->around_done[mask]) {
        int tq[6], tr[6], nt = 0;
        for (int i = 0; i < 6; i++)
            if (mask >> i & 1) {
                tq[nt] = uq[i];
                tr[nt] = ur[i];
                nt++;
            }
        if (build_excluding(s, tq, tr, nt, &s->around[mask]) < 0) return NULL;
        s->around_done[mask] = 1;
    }
    return &s->around[mask];
}

/* The difference shape for d = p - t (t a stone within max(view, 2) of p): within view of p, not of t. */
static const OffArr *get_diff(Shapes *s, int64_t d) {
    int64_t dq, dr;
    unpack(d, &dq, &dr);
    if (dq < -s->R || dq > s->R || dr < -s->R || dr > s->R) {
        PyErr_SetString(PyExc_SystemError, "HTTTX board: difference shape out of range");
        return NULL;
    }
    Py_ssize_t slot = (Py_ssize_t)(dq + s->R) * s->side + (dr + s->R);
    if (!s->diff_done[slot]) {
        int tq = (int)-dq, tr = (int)-dr;
        if (build_excluding(s, &tq, &tr, 1, &s->diffs[slot]) < 0) return NULL;
        s->diff_done[slot] = 1;
    }
    return &s->diffs[slot];
}

/* ---------------------------------------------------------------- the hash table */

typedef struct {
    int64_t key, val, src;
} Slot;

typedef struct {
    Slot *s;
    size_t mask, count;
    int shift;
} Table;

static inline size_t home(const Table *t, int64_t k) {
    return (size_t)(((uint64_t)k * 0x9E3779B97F4A7C15ULL) >> t->shift);
}

static int table_init(Table *t, int bits) {
    size_t cap = (size_t)1 << bits;
    t->s = PyMem_Malloc(sizeof(Slot) * cap);
    if (!t->s) {
        PyErr_NoMemory();
        return -1;
    }
    for (size_t i = 0; i < cap; i++) t->s[i].key = EMPTY_KEY;
    t->mask = cap - 1;
    t->count = 0;
    t->shift = 64 - bits;
    return 0;
}

static inline Slot *table_find(const Table *t, int64_t k) {
    size_t i = home(t, k);
    for (;;) {
        Slot *e = &t->s[i];
        if (e->key == k) return e;
        if (e->key == EMPTY_KEY) return NULL;
        i = (i + 1) & t->mask;
    }
}

/* Make room for `extra` more keys at a load factor <= 1/2 (slot pointers are invalid afterwards). */
static int table_reserve(Table *t, size_t extra) {
    if ((t->count + extra) * 2 <= t->mask + 1) return 0;
    int bits = 64 - t->shift;
    while ((t->count + extra) * 2 > ((size_t)1 << bits)) bits++;
    Table nt;
    if (table_init(&nt, bits) < 0) return -1;
    for (size_t i = 0; i <= t->mask; i++) {
        Slot *e = &t->s[i];
        if (e->key == EMPTY_KEY) continue;
        size_t j = home(&nt, e->key);
        while (nt.s[j].key != EMPTY_KEY) j = (j + 1) & nt.mask;
        nt.s[j] = *e;
    }
    nt.count = t->count;
    PyMem_Free(t->s);
    *t = nt;
    return 0;
}

/* Insert k if absent (room must be reserved); returns 1 if inserted. */
static inline int table_add(Table *t, int64_t k, int64_t val, int64_t src) {
    size_t i = home(t, k);
    for (;;) {
        Slot *e = &t->s[i];
        if (e->key == k) return 0;
        if (e->key == EMPTY_KEY) {
            e->key = k;
            e->val = val;
            e->src = src;
            t->count++;
            return 1;
        }
        i = (i + 1) & t->mask;
    }
}

static void table_del(Table *t, int64_t k) {
    size_t i = home(t, k);
    while (t->s[i].key != k) {
        if (t->s[i].key == EMPTY_KEY) return;
        i = (i + 1) & t->mask;
    }
    size_t j = i;
    for (;;) {
        j = (j + 1) & t->mask;
        if (t->s[j].key == EMPTY_KEY) break;
        size_t h = home(t, t->s[j].key);
        /* the entry at j may stay if its home lies cyclically in (i, j] */
        if (i <= j ? (i < h && h <= j) : (i < h || h <= j)) continue;
        t->s[i] = t->s[j];
        i = j;
    }
    t->s[i].key = EMPTY_KEY;
    t->count--;
}

static inline int64_t val_or(const Table *t, int64_t k, int64_t dflt) {
    Slot *e = table_find(t, k);
    return e ? e->val : dflt;
}

/* ---------------------------------------------------------------- the Board */

typedef struct {
    int64_t key, idx, nnew;
} Hist;

typedef struct {
    PyObject_HEAD
    int view, win;
    Shapes *sh;
    Table t;
    int64_t *legal;
    Py_ssize_t nlegal, caplegal;
    Hist *hist;
    Py_ssize_t nhist, caphist;
    PyObject *cells;    /* dict (q, r) -> seat */
    PyObject *stones;   /* list of (q, r, seat) */
    PyObject *win_line; /* tuple or NULL */
    int winner;         /* -1: none */
    uint64_t zobrist;
} BoardObject;

static PyTypeObject BoardType;

static int legal_reserve(BoardObject *b, Py_ssize_t extra) {
    if (b->nlegal + extra <= b->caplegal) return 0;
    Py_ssize_t cap = b->caplegal ? b->caplegal : 256;
    while (cap < b->nlegal + extra) cap *= 2;
    int64_t *p = PyMem_Realloc(b->legal, sizeof(int64_t) * cap);
    if (!p) {
        PyErr_NoMemory();
        return -1;
    }
    b->legal = p;
    b->caplegal = cap;
    return 0;
}

static int hist_push(BoardObject *b, int64_t key, int64_t idx, int64_t nnew) {
    if (b->nhist == b->caphist) {
        Py_ssize_t cap = b->caphist ? b->caphist * 2 : 64;
        Hist *p = PyMem_Realloc(b->hist, sizeof(Hist) * cap);
        if (!p) {
            PyErr_NoMemory();
            return -1;
        }
        b->hist = p;
        b->caphist = cap;
    }
    b->hist[b->nhist].key = key;
    b->hist[b->nhist].idx = idx;
    b->hist[b->nhist].nnew = nnew;
    b->nhist++;
    return 0;
}

static BoardObject *board_alloc(PyTypeObject *type, int view, int win) {
    Shapes *sh = get_shapes(view);
    if (!sh) return NULL;
    BoardObject *b = (BoardObject *)type->tp_alloc(type, 0);
    if (!b) return NULL;
    b->view = view;
    b->win = win;
    b->sh = sh;
    b->winner = -1;
    b->t.s = NULL;
    return b;
}

static PyObject *Board_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"view_distance", "win_distance", NULL};
    PyObject *vo = NULL, *wo = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|OO:Board", kwlist, &vo, &wo)) return NULL;
    long long view = 8, win = 6;
    int ovf = 0;
    if (vo) {
        view = PyLong_AsLongLongAndOverflow(vo, &ovf);
        if (view == -1 && PyErr_Occurred()) return NULL;
        if (ovf) view = ovf > 0 ? LLONG_MAX : LLONG_MIN;
    }
    if (wo) {
        win = PyLong_AsLongLongAndOverflow(wo, &ovf);
        if (win == -1 && PyErr_Occurred()) return NULL;
        if (ovf) win = ovf > 0 ? LLONG_MAX : LLONG_MIN;
    }
    if (view < 1 || win < 2) {
        PyObject *vs = vo ? PyObject_Str(vo) : PyUnicode_FromString("8");
        PyObject *ws = wo ? PyObject_Str(wo) : PyUnicode_FromString("6");
        if (vs && ws)
            PyErr_Format(PyExc_ValueError, "need view_distance >= 1 and win_distance >= 2, got %U, %U", vs, ws);
        Py_XDECREF(vs);
        Py_XDECREF(ws);
        return NULL;
    }
    if (view > MAX_VIEW) {
        if (fallback) return PyObject_Call(fallback, args, kwds);
        PyErr_Format(PyExc_ValueError, "the C board supports view_distance <= %d, got %lld", MAX_VIEW, view);
        return NULL;
    }
    if (win > INT_MAX) win = INT_MAX;
    BoardObject *b = board_alloc(type, (int)view, (int)win);
    if (!b) return NULL;
    b->cells = PyDict_New();
    b->stones = PyList_New(0);
    if (!b->cells || !b->stones || table_init(&b->t, 10) < 0) {
        Py_DECREF(b);
        return NULL;
    }
    return (PyObject *)b;
}

static int Board_traverse(BoardObject *b, visitproc visit, void *arg) {
    Py_VISIT(b->cells);
    Py_VISIT(b->stones);
    Py_VISIT(b->win_line);
    return 0;
}

static int Board_clear(BoardObject *b) {
    Py_CLEAR(b->cells);
    Py_CLEAR(b->stones);
    Py_CLEAR(b->win_line);
    return 0;
}

static void Board_dealloc(BoardObject *b) {
    PyObject_GC_UnTrack(b);
    Board_clear(b);
    PyMem_Free(b->t.s);
    PyMem_Free(b->legal);
    PyMem_Free(b->hist);
    Py_TYPE(b)->tp_free((PyObject *)b);
}

/* ----- placing */

static int illegal(PyObject *qo, PyObject *ro, const char *what, BoardObject *b) {
    if (what)
        PyErr_Format(IllegalMove, "cell (%S, %S) %s", qo, ro, what);
    else
        PyErr_Format(IllegalMove, "cell (%S, %S) is more than %d from every stone", qo, ro, b->view);
    return -1;
}

static int won_already(BoardObject *b, PyObject *qo, PyObject *ro) {
    PyErr_Format(IllegalMove, "cell (%S, %S) cannot be played: the game is already won by %s", qo, ro,
                 SIDES[b->winner]);
    return -1;
}

/* A coordinate as a C value; 0 with *ok = 0 when it is outside (-COORD_LIMIT, COORD_LIMIT). */
static inline int coord(PyObject *o, int64_t *out, int *ok) {
    int ovf = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &ovf);
    if (v == -1 && !ovf && PyErr_Occurred()) return -1;
    *ok = !ovf && -COORD_LIMIT < v && v < COORD_LIMIT;
    *out = ovf ? (ovf > 0 ? INT64_MAX : INT64_MIN) : v; /* saturated, so range checks stay true */
    return 0;
}

static int parse_seat(PyObject *o, int *seat) {
    int ovf = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &ovf);
    if (v == -1 && !ovf && PyErr_Occurred()) return -1;
    if (ovf || (v != 0 && v != 1)) {
        PyErr_Format(PyExc_ValueError, "seat must be 0 (x) or 1 (o), got %R", o);
        return -1;
    }
    *seat = (int)v;
    return 0;
}

/* Walk one axis through key; on a win record it and return 1. */
static int walk_line(BoardObject *b, int64_t key, int64_t ax, int64_t v, int seat) {
    const Table *t = &b->t;
    int64_t c = key + ax;
    Py_ssize_t n = 1;
    while (val_or(t, c, 0) == v) {
        n++;
        c += ax;
    }
    c = key - ax;
    while (val_or(t, c, 0) == v) {
        n++;
        c -= ax;
    }
    if (n < b->win) return 0;
    PyObject *line = PyTuple_New(n);
    if (!line) return -1;
    for (Py_ssize_t i = 1; i <= n; i++) {
        PyObject *cell = coord_tuple(c + i * ax);
        if (!cell) {
            Py_DECREF(line);
            return -1;
        }
        PyTuple_SET_ITEM(line, i - 1, cell);
    }
    b->winner = seat;
    Py_XSETREF(b->win_line, line);
    return 1;
}

/* Record the stone in cells / stones and the hash. */
static int record(BoardObject *b, PyObject *qo, PyObject *ro, int64_t q, int64_t r, int seat) {
    PyObject *so = PyLong_FromLong(seat);
    PyObject *cell = PyTuple_Pack(2, qo, ro);
    PyObject *st = PyTuple_Pack(3, qo, ro, so);
    int rc = -1;
    if (so && cell && st && PyDict_SetItem(b->cells, cell, so) == 0) {
        if (PyList_Append(b->stones, st) == 0)
            rc = 0;
        else
            PyDict_DelItem(b->cells, cell);
    }
    Py_XDECREF(so);
    Py_XDECREF(cell);
    Py_XDECREF(st);
    if (rc == 0) b->zobrist ^= zobrist_of(q, r, seat);
    return rc;
}

static void unplace(BoardObject *b);

/* A stone on a cell nothing covers yet: its whole hexagon is a candidate. */
static int put_outside(BoardObject *b, PyObject *qo, PyObject *ro, int64_t q, int64_t r, int64_t key, int seat) {
    const OffArr *shape = &b->sh->full;
    if (table_reserve(&b->t, shape->n + 1) < 0 || legal_reserve(b, shape->n) < 0) return -1;
    if (hist_push(b, key, -1, 0) < 0) return -1;
    table_add(&b->t, key, -1 - seat, key);
    Py_ssize_t n0 = b->nlegal, n = n0;
    const int near = near_limit(key, b->view);
    for (Py_ssize_t i = 0; i < shape->n; i++) {
        int64_t c = key + shape->offs[i];
        if (near && !inside_limit(c)) continue;
        if (table_add(&b->t, c, n, key)) b->legal[n++] = c;
    }
    b->nlegal = n;
    b->hist[b->nhist - 1].nnew = n - n0;
    if (record(b, qo, ro, q, r, seat) < 0) {
        unplace(b);
        return -1;
    }
    int64_t v = -1 - seat;
    int w = walk_line(b, key, AX1, v, seat);
    if (!w) w = walk_line(b, key, AX2, v, seat);
    if (!w) w = walk_line(b, key, AX3, v, seat);
    return w;
}

/* The hot path: a validated stone; 1 if it wins, 0 if not, -1 with an exception set. */
static int place_impl(BoardObject *b, PyObject *qo, PyObject *ro, PyObject *so) {
    if (b->winner >= 0) return won_already(b, qo, ro);
    int64_t q, r;
    int okq, okr, seat;
    if (coord(qo, &q, &okq) < 0 || coord(ro, &r, &okr) < 0) return -1;
    if (parse_seat(so, &seat) < 0) return -1;
    if (!okq || !okr) return illegal(qo, ro, NULL, b);
    int64_t key = PK(q, r);
    Table *t = &b->t;
    Slot *e = table_find(t, key);
    if (!e) {
        if (b->nhist) return illegal(qo, ro, NULL, b);
        return put_outside(b, qo, ro, q, r, key, seat);
    }
    if (e->val < 0) return illegal(qo, ro, "is occupied", b);
    int64_t idx = e->val, v = -1 - seat;
    Shapes *sh = b->sh;
    /* choose the shape of newly covered cells before touching anything (it may need to be built) */
    int64_t a1 = val_or(t, key + AX1, 0), b1 = val_or(t, key - AX1, 0);
    int64_t a2 = val_or(t, key + AX2, 0), b2 = val_or(t, key - AX2, 0);
    int64_t a3 = val_or(t, key + AX3, 0), b3 = val_or(t, key - AX3, 0);
    const OffArr *shape;
    if (a1 < 0 || b1 < 0 || a2 < 0 || b2 < 0 || a3 < 0 || b3 < 0) {
        shape = get_around(sh, (a1 < 0) | (b1 < 0) << 1 | (a2 < 0) << 2 | (b2 < 0) << 3 | (a3 < 0) << 4 |
                                   (b3 < 0) << 5);
    } else {
        int64_t tk = 0;
        int found = 0;
        for (Py_ssize_t i = 0; i < sh->ring2.n; i++)
            if (val_or(t, key + sh->ring2.offs[i], 0) < 0) {
                tk = key + sh->ring2.offs[i];
                found = 1;
                break;
            }
        if (!found) tk = e->src;
        shape = get_diff(sh, key - tk);
    }
    if (!shape) return -1;
    if (table_reserve(t, shape->n) < 0 || legal_reserve(b, shape->n) < 0 || hist_push(b, key, idx, 0) < 0)
        return -1;
    e = table_find(t, key); /* the table may have grown */
    /* take the cell out of the legal list (swap with the last entry) */
    int64_t last = b->legal[--b->nlegal];
    if (last != key) {
        b->legal[idx] = last;
        table_find(t, last)->val = idx;
    }
    e->val = v;
    Py_ssize_t n0 = b->nlegal, n = n0;
    const int near = near_limit(key, b->view);
    for (Py_ssize_t i = 0; i < shape->n; i++) {
        int64_t c = key + shape->offs[i];
        if (near && !inside_limit(c)) continue;
        if (table_add(t, c, n, key)) b->legal[n++] = c;
    }
    b->nlegal = n;
    b->hist[b->nhist - 1].nnew = n - n0;
    if (record(b, qo, ro, q, r, seat) < 0) {
        unplace(b);
        return -1;
    }
    int w = 0;
    if ((a1 == v || b1 == v)) w = walk_line(b, key, AX1, v, seat);
    if (!w && (a2 == v || b2 == v)) w = walk_line(b, key, AX2, v, seat);
    if (!w && (a3 == v || b3 == v)) w = walk_line(b, key, AX3, v, seat);
    return w;
}

static PyObject *result(int rc) {
    if (rc < 0) return NULL;
    return PyBool_FromLong(rc);
}

static PyObject *Board_place(BoardObject *b, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_Format(PyExc_TypeError, "place() takes 3 arguments (q, r, seat), %zd given", nargs);
        return NULL;
    }
    return result(place_impl(b, args[0], args[1], args[2]));
}

static PyObject *Board_setup(BoardObject *b, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_Format(PyExc_TypeError, "setup() takes 3 arguments (q, r, seat), %zd given", nargs);
        return NULL;
    }
    PyObject *qo = args[0], *ro = args[1];
    if (b->winner >= 0) return result(won_already(b, qo, ro));
    int64_t q, r;
    int okq, okr, seat;
    if (coord(qo, &q, &okq) < 0 || coord(ro, &r, &okr) < 0) return NULL;
    if (parse_seat(args[2], &seat) < 0) return NULL;
    if (!okq || !okr) return result(illegal(qo, ro, "is too far from the origin", b));
    int64_t key = PK(q, r);
    Slot *e = table_find(&b->t, key);
    if (!e) return result(put_outside(b, qo, ro, q, r, key, seat));
    if (e->val < 0) return result(illegal(qo, ro, "is occupied", b));
    return result(place_impl(b, qo, ro, args[2]));
}

/* Take back the structures of the last stone (not its cells / stones entries). */
static void unplace(BoardObject *b) {
    Hist h = b->hist[--b->nhist];
    Table *t = &b->t;
    if (h.nnew) {
        for (Py_ssize_t i = b->nlegal - h.nnew; i < b->nlegal; i++) table_del(t, b->legal[i]);
        b->nlegal -= h.nnew;
    }
    if (h.idx < 0) {
        table_del(t, h.key);
    } else if (h.idx < b->nlegal) {
        int64_t moved = b->legal[h.idx];
        b->legal[h.idx] = h.key;
        table_find(t, h.key)->val = h.idx;
        table_find(t, moved)->val = b->nlegal;
        b->legal[b->nlegal++] = moved; /* capacity: the slot was used before */
    } else {
        table_find(t, h.key)->val = h.idx;
        b->legal[b->nlegal++] = h.key;
    }
}

static PyObject *Board_undo(BoardObject *b, PyObject *unused) {
    if (!b->nhist) {
        PyErr_SetString(PyExc_IndexError, "undo on a board without stones");
        return NULL;
    }
    int64_t key = b->hist[b->nhist - 1].key;
    Py_ssize_t ns = PyList_GET_SIZE(b->stones);
    PyObject *st = PyList_GET_ITEM(b->stones, ns - 1);
    Py_INCREF(st);
    if (PyList_SetSlice(b->stones, ns - 1, ns, NULL) < 0) {
        Py_DECREF(st);
        return NULL;
    }
    PyObject *cell = PyTuple_GetSlice(st, 0, 2);
    long seat = PyLong_AsLong(PyTuple_GET_ITEM(st, 2));
    Py_DECREF(st);
    if (!cell) return NULL;
    int rc = PyDict_DelItem(b->cells, cell);
    Py_DECREF(cell);
    if (rc < 0) return NULL;
    unplace(b);
    int64_t q, r;
    unpack(key, &q, &r);
    b->zobrist ^= zobrist_of(q, r, (int)seat);
    b->winner = -1;
    Py_CLEAR(b->win_line);
    Py_RETURN_NONE;
}

/* ----- queries */

static PyObject *Board_is_legal(BoardObject *b, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "is_legal() takes 2 arguments (q, r), %zd given", nargs);
        return NULL;
    }
    int64_t q, r;
    int okq, okr;
    if (b->winner >= 0) Py_RETURN_FALSE;
    if (coord(args[0], &q, &okq) < 0 || coord(args[1], &r, &okr) < 0) return NULL;
    if (!okq || !okr) Py_RETURN_FALSE;
    if (!b->nhist) Py_RETURN_TRUE;
    return PyBool_FromLong(val_or(&b->t, PK(q, r), -1) >= 0);
}

static PyObject *cells_list(const int64_t *keys, Py_ssize_t n) {
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *c = coord_tuple(keys[i]);
        if (!c) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, c);
    }
    return out;
}

static PyObject *Board_legal_cells(BoardObject *b, PyObject *unused) {
    if (!b->nhist) return Py_BuildValue("[(ii)]", 0, 0);
    if (b->winner >= 0) return PyList_New(0);
    return cells_list(b->legal, b->nlegal);
}

static PyObject *Board_legal_count(BoardObject *b, PyObject *unused) {
    if (!b->nhist) return PyLong_FromLong(1);
    return PyLong_FromSsize_t(b->winner >= 0 ? 0 : b->nlegal);
}

/* int(rng.random() * n), as the Python board computes it */
static int rng_index(PyObject *rng, Py_ssize_t n, Py_ssize_t *out) {
    PyObject *x = PyObject_CallMethodNoArgs(rng, str_random);
    if (!x) return -1;
    double d = PyFloat_AsDouble(x);
    Py_DECREF(x);
    if (d == -1.0 && PyErr_Occurred()) return -1;
    double v = d * (double)n;
    if (!(v >= 0.0 && v < (double)n)) {
        PyErr_SetString(PyExc_ValueError, "rng.random() returned a value outside [0, 1)");
        return -1;
    }
    *out = (Py_ssize_t)v;
    return 0;
}

static PyObject *Board_random_legal(BoardObject *b, PyObject *rng) {
    if (!b->nlegal || b->winner >= 0) {
        if (!b->nhist) return Py_BuildValue("(ii)", 0, 0);
        PyErr_SetString(IllegalMove, b->winner >= 0 ? "no legal cell: the game is won" : "no legal cell");
        return NULL;
    }
    Py_ssize_t i;
    if (rng_index(rng, b->nlegal, &i) < 0) return NULL;
    return coord_tuple(b->legal[i]);
}

/* The empty cells a stone on key would bring into range, in shape order; NULL with KeyError like the Python
 * board's ``self._src[key]`` when nothing is near and nothing covers key. */
static const OffArr *newly_shape(BoardObject *b, int64_t key, PyObject *pykey) {
    const Table *t = &b->t;
    Shapes *sh = b->sh;
    for (Py_ssize_t i = 0; i < sh->near.n; i++)
        if (val_or(t, key + sh->near.offs[i], 0) < 0) return get_diff(sh, -sh->near.offs[i]);
    Slot *e = table_find(t, key);
    if (!e) {
        PyErr_SetObject(PyExc_KeyError, pykey);
        return NULL;
    }
    return get_diff(sh, key - e->src);
}

static PyObject *python_key(PyObject *qo, PyObject *ro) {
    /* q + r * 0x9E3779: the pure board's key, for an identical KeyError */
    PyObject *stride = PyLong_FromLong(0x9E3779), *m = NULL, *k = NULL;
    if (stride) m = PyNumber_Multiply(ro, stride);
    if (m) k = PyNumber_Add(qo, m);
    Py_XDECREF(stride);
    Py_XDECREF(m);
    return k;
}

static PyObject *Board_newly_covered(BoardObject *b, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "newly_covered() takes 2 arguments (q, r), %zd given", nargs);
        return NULL;
    }
    int64_t q, r;
    int okq, okr;
    if (coord(args[0], &q, &okq) < 0 || coord(args[1], &r, &okr) < 0) return NULL;
    /* covered cells reach a view distance beyond COORD_LIMIT, so only much farther cells are turned away:
     * nothing is near a cell that far out and nothing covers it */
    const int64_t far = 1LL << 30;
    if (q <= -far || q >= far || r <= -far || r >= far) {
        PyObject *k = python_key(args[0], args[1]);
        if (k) {
            PyErr_SetObject(PyExc_KeyError, k);
            Py_DECREF(k);
        }
        return NULL;
    }
    int64_t key = PK(q, r);
    PyObject *pk = python_key(args[0], args[1]);
    if (!pk) return NULL;
    const OffArr *shape = newly_shape(b, key, pk);
    Py_DECREF(pk);
    if (!shape) return NULL;
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    const int near = near_limit(key, b->view);
    for (Py_ssize_t i = 0; i < shape->n; i++) {
        int64_t c = key + shape->offs[i];
        if (table_find(&b->t, c) || (near && !inside_limit(c))) continue;
        PyObject *cell = coord_tuple(c);
        if (!cell || PyList_Append(out, cell) < 0) {
            Py_XDECREF(cell);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(cell);
    }
    return out;
}

static PyObject *Board_random_pair(BoardObject *b, PyObject *rng) {
    Py_ssize_t n = b->nlegal;
    if (n < 2 || b->winner >= 0 || !b->nhist) {
        PyErr_SetString(IllegalMove, "no legal pair of cells on this board");
        return NULL;
    }
    Py_ssize_t i;
    if (rng_index(rng, n, &i) < 0) return NULL;
    int64_t a = b->legal[i];
    /* every legal cell is covered, so newly_shape cannot fail with KeyError here */
    const OffArr *shape = newly_shape(b, a, Py_None);
    if (!shape) return NULL;
    int64_t *fresh = PyMem_Malloc(sizeof(int64_t) * (shape->n ? shape->n : 1));
    if (!fresh) return PyErr_NoMemory();
    Py_ssize_t nf = 0;
    const int near = near_limit(a, b->view);
    for (Py_ssize_t j = 0; j < shape->n; j++) {
        int64_t c = a + shape->offs[j];
        if (!table_find(&b->t, c) && !(near && !inside_limit(c))) fresh[nf++] = c;
    }
    int64_t c;
    for (;;) {
        if (rng_index(rng, n + nf, &i) < 0) {
            PyMem_Free(fresh);
            return NULL;
        }
        c = i < n ? b->legal[i] : fresh[i - n];
        if (c != a) break;
    }
    PyMem_Free(fresh);
    PyObject *ta = coord_tuple(a), *tb = coord_tuple(c), *out = NULL;
    if (ta && tb) out = PyTuple_Pack(2, ta, tb);
    Py_XDECREF(ta);
    Py_XDECREF(tb);
    return out;
}

static PyObject *Board_seat_at(BoardObject *b, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "seat_at() takes 2 arguments (q, r), %zd given", nargs);
        return NULL;
    }
    PyObject *cell = PyTuple_Pack(2, args[0], args[1]);
    if (!cell) return NULL;
    PyObject *s = PyDict_GetItemWithError(b->cells, cell);
    Py_DECREF(cell);
    if (s) return Py_NewRef(s);
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
}

static PyObject *Board_line_length(BoardObject *b, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_Format(PyExc_TypeError, "line_length() takes 3 arguments (q, r, seat), %zd given", nargs);
        return NULL;
    }
    int64_t q, r;
    int ovq = 0, ovr = 0, ovs = 0;
    q = PyLong_AsLongLongAndOverflow(args[0], &ovq);
    if (q == -1 && PyErr_Occurred()) return NULL;
    r = PyLong_AsLongLongAndOverflow(args[1], &ovr);
    if (r == -1 && PyErr_Occurred()) return NULL;
    long long seat = PyLong_AsLongLongAndOverflow(args[2], &ovs);
    if (seat == -1 && PyErr_Occurred()) return NULL;
    Py_ssize_t out[3] = {1, 1, 1};
    /* far from every stone (|q| or |r| > 2**20 + 1), or a seat nothing matches: 1 on every axis, as the pure
     * board finds; otherwise compare raw cell states exactly like it does (-1 - seat against cov values) */
    const int64_t far = COORD_LIMIT + 2;
    if (!ovq && !ovr && !ovs && q > -far && q < far && r > -far && r < far && seat > -(1LL << 62) &&
        seat < (1LL << 62)) {
        int64_t key = PK(q, r), v = -1 - (int64_t)seat;
        const int64_t axes[3] = {AX1, AX2, AX3};
        for (int i = 0; i < 3; i++) {
            int64_t ax = axes[i], c = key + ax;
            Py_ssize_t n = 1;
            while (val_or(&b->t, c, INT64_MIN) == v) {
                n++;
                c += ax;
            }
            c = key - ax;
            while (val_or(&b->t, c, INT64_MIN) == v) {
                n++;
                c -= ax;
            }
            out[i] = n;
        }
    }
    return Py_BuildValue("(nnn)", out[0], out[1], out[2]);
}

static PyObject *Board_copy(BoardObject *b, PyObject *unused) {
    BoardObject *c = board_alloc(Py_TYPE(b), b->view, b->win);
    if (!c) return NULL;
    c->cells = PyDict_Copy(b->cells);
    c->stones = PyList_GetSlice(b->stones, 0, PyList_GET_SIZE(b->stones));
    c->win_line = Py_XNewRef(b->win_line);
    c->winner = b->winner;
    c->zobrist = b->zobrist;
    size_t cap = b->t.mask + 1;
    c->t = b->t;
    c->t.s = PyMem_Malloc(sizeof(Slot) * cap);
    c->legal = PyMem_Malloc(sizeof(int64_t) * (b->caplegal ? b->caplegal : 1));
    c->hist = PyMem_Malloc(sizeof(Hist) * (b->caphist ? b->caphist : 1));
    if (!c->cells || !c->stones || !c->t.s || !c->legal || !c->hist) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        Py_DECREF(c);
        return NULL;
    }
    memcpy(c->t.s, b->t.s, sizeof(Slot) * cap);
    if (b->nlegal) memcpy(c->legal, b->legal, sizeof(int64_t) * b->nlegal);
    if (b->nhist) memcpy(c->hist, b->hist, sizeof(Hist) * b->nhist);
    c->nlegal = b->nlegal;
    c->caplegal = b->caplegal;
    c->nhist = b->nhist;
    c->caphist = b->caphist;
    return (PyObject *)c;
}

static PyObject *Board_place_all(BoardObject *b, PyObject *seq) {
    PyObject *it = PyObject_GetIter(seq), *item;
    if (!it) return NULL;
    while ((item = PyIter_Next(it))) {
        PyObject *t = PySequence_Tuple(item);
        Py_DECREF(item);
        if (!t) goto fail;
        if (PyTuple_GET_SIZE(t) != 3) {
            PyErr_Format(PyExc_ValueError, "expected (q, r, seat), got %zd values", PyTuple_GET_SIZE(t));
            Py_DECREF(t);
            goto fail;
        }
        int rc = place_impl(b, PyTuple_GET_ITEM(t, 0), PyTuple_GET_ITEM(t, 1), PyTuple_GET_ITEM(t, 2));
        Py_DECREF(t);
        if (rc < 0) goto fail;
    }
    Py_DECREF(it);
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
fail:
    Py_DECREF(it);
    return NULL;
}

/* Pickle / copy.copy / deepcopy: the position is a pure function of the stone sequence (undo restores exactly),
 * so the stones are the state; replaying them with ``setup`` rebuilds the same legal order and undo history. */
static PyObject *Board_reduce(BoardObject *b, PyObject *unused) {
    return Py_BuildValue("(O(ii)O)", (PyObject *)Py_TYPE(b), b->view, b->win, b->stones);
}

static PyObject *Board_setstate(BoardObject *b, PyObject *stones) {
    if (b->nhist) {
        PyErr_SetString(PyExc_ValueError, "__setstate__ needs an empty board");
        return NULL;
    }
    PyObject *it = PyObject_GetIter(stones), *item;
    if (!it) return NULL;
    while ((item = PyIter_Next(it))) {
        PyObject *args[3];
        if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 3) {
            PyErr_SetString(PyExc_ValueError, "board state: expected (q, r, seat) tuples");
            Py_DECREF(item);
            Py_DECREF(it);
            return NULL;
        }
        for (int i = 0; i < 3; i++) args[i] = PyTuple_GET_ITEM(item, i);
        PyObject *res = Board_setup(b, args, 3);
        Py_DECREF(item);
        if (!res) {
            Py_DECREF(it);
            return NULL;
        }
        Py_DECREF(res);
    }
    Py_DECREF(it);
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
}

static Py_ssize_t Board_len(BoardObject *b) { return PyList_GET_SIZE(b->stones); }

static PyObject *Board_repr(BoardObject *b) {
    Py_ssize_t legal = !b->nhist ? 1 : (b->winner >= 0 ? 0 : b->nlegal);
    if (b->winner >= 0)
        return PyUnicode_FromFormat("Board(%zd stones, legal=%zd, winner=%d)", PyList_GET_SIZE(b->stones), legal,
                                    b->winner);
    return PyUnicode_FromFormat("Board(%zd stones, legal=%zd, winner=None)", PyList_GET_SIZE(b->stones), legal);
}

/* ----- attributes */

static PyObject *get_cells(BoardObject *b, void *c) { return Py_NewRef(b->cells); }
static PyObject *get_stones(BoardObject *b, void *c) { return Py_NewRef(b->stones); }
static PyObject *get_zobrist(BoardObject *b, void *c) { return PyLong_FromUnsignedLongLong(b->zobrist); }
static PyObject *get_view(BoardObject *b, void *c) { return PyLong_FromLong(b->view); }
static PyObject *get_win(BoardObject *b, void *c) { return PyLong_FromLong(b->win); }
static PyObject *get_winner(BoardObject *b, void *c) {
    if (b->winner < 0) Py_RETURN_NONE;
    return PyLong_FromLong(b->winner);
}
static PyObject *get_win_line(BoardObject *b, void *c) {
    if (!b->win_line) Py_RETURN_NONE;
    return Py_NewRef(b->win_line);
}

static PyGetSetDef Board_getset[] = {
    {"cells", (getter)get_cells, NULL, "occupied cell -> seat, in placement order (read-only)", NULL},
    {"stones", (getter)get_stones, NULL, "(q, r, seat) in placement order (read-only)", NULL},
    {"zobrist", (getter)get_zobrist, NULL, "64-bit Zobrist hash of the position", NULL},
    {"view_distance", (getter)get_view, NULL, NULL, NULL},
    {"win_distance", (getter)get_win, NULL, NULL, NULL},
    {"winner", (getter)get_winner, NULL, "the winning seat or None", NULL},
    {"win_line", (getter)get_win_line, NULL, "the winning cells or None", NULL},
    {NULL},
};

static PyMethodDef Board_methods[] = {
    {"place", (PyCFunction)(void (*)(void))Board_place, METH_FASTCALL,
     "place($self, q, r, seat, /)\n--\n\nA validated stone; True if it wins (IllegalMove if not allowed)."},
    {"setup", (PyCFunction)(void (*)(void))Board_setup, METH_FASTCALL,
     "setup($self, q, r, seat, /)\n--\n\nA stone on any empty cell, ignoring the view distance."},
    {"undo", (PyCFunction)Board_undo, METH_NOARGS, "Take back the last stone exactly."},
    {"is_legal", (PyCFunction)(void (*)(void))Board_is_legal, METH_FASTCALL, "is_legal($self, q, r, /)\n--\n\nTrue if a stone may go on (q, r) now."},
    {"legal_cells", (PyCFunction)Board_legal_cells, METH_NOARGS, "Every legal cell (a fresh list)."},
    {"legal_count", (PyCFunction)Board_legal_count, METH_NOARGS, NULL},
    {"random_legal", (PyCFunction)Board_random_legal, METH_O, "A uniformly random legal cell in O(1)."},
    {"newly_covered", (PyCFunction)(void (*)(void))Board_newly_covered, METH_FASTCALL,
     "The empty cells a stone on (q, r) would bring into range."},
    {"random_pair", (PyCFunction)Board_random_pair, METH_O, "A random legal turn without touching the board."},
    {"seat_at", (PyCFunction)(void (*)(void))Board_seat_at, METH_FASTCALL, NULL},
    {"line_length", (PyCFunction)(void (*)(void))Board_line_length, METH_FASTCALL,
     "Longest run of seat through (q, r) on each axis, counting (q, r) itself."},
    {"copy", (PyCFunction)Board_copy, METH_NOARGS, "An independent board with the same undo history."},
    {"place_all", (PyCFunction)Board_place_all, METH_O, "Place (q, r, seat) stones in order, validated."},
    {"__reduce__", (PyCFunction)Board_reduce, METH_NOARGS, NULL},
    {"__setstate__", (PyCFunction)Board_setstate, METH_O, NULL},
    {NULL},
};

static PySequenceMethods Board_as_sequence = {.sq_length = (lenfunc)Board_len};

static PyTypeObject BoardType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "hexarena_sdk.htttx._cboard.Board",
    .tp_basicsize = sizeof(BoardObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "Board(view_distance=8, win_distance=6)\n--\n\n"
              "The HTTTX mutable board in C: the same API and behaviour as board.PyBoard.",
    .tp_new = Board_new,
    .tp_dealloc = (destructor)Board_dealloc,
    .tp_traverse = (traverseproc)Board_traverse,
    .tp_clear = (inquiry)Board_clear,
    .tp_methods = Board_methods,
    .tp_getset = Board_getset,
    .tp_as_sequence = &Board_as_sequence,
    .tp_repr = (reprfunc)Board_repr,
};

static PyObject *set_fallback(PyObject *mod, PyObject *cls) {
    Py_XSETREF(fallback, Py_NewRef(cls));
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"set_fallback", set_fallback, METH_O, "The class Board(view, win) returns for view distances above MAX_VIEW."},
    {NULL},
};

static struct PyModuleDef cboard_module = {
    PyModuleDef_HEAD_INIT, "_cboard", "C accelerator for the HTTTX Board.", -1, module_methods,
};

PyMODINIT_FUNC PyInit__cboard(void) {
    PyObject *errors = PyImport_ImportModule("hexarena_sdk.errors");
    if (!errors) return NULL;
    IllegalMove = PyObject_GetAttrString(errors, "IllegalMove");
    Py_DECREF(errors);
    if (!IllegalMove) return NULL;
    str_random = PyUnicode_InternFromString("random");
    if (!str_random || PyType_Ready(&BoardType) < 0) return NULL;
    PyObject *m = PyModule_Create(&cboard_module);
    if (!m) return NULL;
    if (PyModule_AddObjectRef(m, "Board", (PyObject *)&BoardType) < 0 ||
        PyModule_AddIntConstant(m, "MAX_VIEW", MAX_VIEW) < 0 ||
        PyModule_AddIntConstant(m, "COORD_LIMIT", COORD_LIMIT) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
