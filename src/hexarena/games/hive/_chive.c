/* _chive: Hive move generation (board.PyBoard.moves / count_moves / cut_cells) and the alpha-beta bot's leaf
 * evaluation (bots/hive/evaluation.assess_py) in C.
 *
 * Why this shape: search and random play spend nearly all their time generating moves, and in pure Python
 * that is interpreter overhead (dict probes per neighbour, sets per piece). The board's state stays the Python
 * objects it is (``stacks`` dict of cell -> tuple of piece ids, ``pos`` list, ``ply``, ``stunned``): many
 * callers read and write them directly, and play/undo are cheap. Each call here copies the few (<= 28)
 * stacks onto a small local grid, generates there, and returns Python objects. The rules are a line-by-line
 * transcription of board.py (same slides table, same gates, same Pillbug and Mosquito cases), so the move
 * *set* is identical; the order of the list differs (board.py leaves it unspecified).
 *
 * A hive too spread for the grid (impossible for a connected hive of 28 pieces, but a hand-built board can be
 * anything) or a malformed stack makes a function return None: the caller then runs the Python code.
 *
 * Static scratch arrays are safe: every phase that touches them runs without calling back into Python (no
 * object is created until the move list is complete in local memory).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define GW 64           /* grid row stride: local index = lq * GW + lr */
#define GN (GW * GW)
#define OFF 4           /* local coordinate of the hive's minimum q and r */
#define MAX_SPAN 48     /* a wider hive is left to Python */
#define NPIECES 32
#define MAX_STACKS 40
#define MAX_MOVES 8192
#define PACK_K (1LL << 20)

enum { Q, S, B, G, A, M, L, P };
static const int KIND[16] = {Q, S, S, B, B, G, G, G, A, A, A, M, L, P, -1, -1};
static const int FIRST_INDEX[8] = {0, 1, 3, 5, 8, 11, 12, 13};
static const int KIND_COUNT[8] = {1, 2, 2, 3, 3, 1, 1, 1};
/* E, SE, SW, W, NW, NE: the board.py order, so neighbouring entries flank a step. */
static const int DIRS[6] = {GW, 1, 1 - GW, -GW, -1, GW - 1};

static uint8_t H[GN];       /* stack height per local cell (0 = empty) */
static int8_t TOP[GN];      /* top piece id where H > 0 */
static uint32_t mark[GN];   /* visited stamps (ant flood, ladybug, placement sets) */
static uint32_t mark2[GN];
static uint32_t seen[NPIECES][GN]; /* (piece, destination) already emitted */
static uint32_t gen_mark = 0, gen_seen = 0;
static int num_[GN], low_[GN];
static uint32_t dfs_stamp[GN];
static uint32_t gen_dfs = 0;
static uint8_t is_cut[GN];
static uint8_t slides_n[64];
static int8_t slides_d[64][6];

typedef struct {
    int n;
    int cells[MAX_STACKS]; /* local indices, in the dict's order */
    int height[MAX_STACKS];
    long long minq, minr;
    int where[NPIECES]; /* local index of each piece on the board, -1 if not */
} Grid;

typedef struct {
    int n;
    int16_t pid[MAX_MOVES];
    int16_t dest[MAX_MOVES];
} Moves;

static void init_slides(void) {
    for (int mask = 0; mask < 64; mask++) {
        int k = 0;
        for (int i = 0; i < 6; i++) {
            if (mask >> i & 1) continue;
            int left = mask >> ((i + 5) % 6) & 1;
            int right = mask >> ((i + 1) % 6) & 1;
            if (left != right) slides_d[mask][k++] = (int8_t)i;
        }
        slides_n[mask] = (uint8_t)k;
    }
}

static inline long long floor_div_k(long long x) {
    long long q = x / PACK_K;
    if ((x % PACK_K) != 0 && ((x < 0) != (PACK_K < 0))) q--;
    return q;
}

static void clear_grid(Grid *g) {
    for (int i = 0; i < g->n; i++) H[g->cells[i]] = 0;
    g->n = 0;
}

/* Copy ``stacks`` onto the grid. Returns 1 on success, 0 when the board is not for us (grid left clear). */
static int load(PyObject *stacks, Grid *g) {
    g->n = 0;
    if (!PyDict_Check(stacks)) return 0;
    for (int p = 0; p < NPIECES; p++) g->where[p] = -1;
    Py_ssize_t n = PyDict_GET_SIZE(stacks);
    if (n > MAX_STACKS) return 0;
    long long qs[MAX_STACKS], rs[MAX_STACKS];
    PyObject *sts[MAX_STACKS];
    Py_ssize_t it = 0;
    PyObject *key, *value;
    int i = 0;
    long long minq = 0, maxq = 0, minr = 0, maxr = 0;
    while (PyDict_Next(stacks, &it, &key, &value)) {
        if (!PyLong_CheckExact(key) || !PyTuple_CheckExact(value)) return 0;
        int overflow = 0;
        long long cell = PyLong_AsLongLongAndOverflow(key, &overflow);
        if (overflow || (cell == -1 && PyErr_Occurred())) {
            PyErr_Clear();
            return 0;
        }
        if (cell > (1LL << 50) || cell < -(1LL << 50)) return 0;
        long long q = floor_div_k(cell + PACK_K / 2);
        long long r = cell - q * PACK_K;
        qs[i] = q;
        rs[i] = r;
        sts[i] = value;
        if (i == 0 || q < minq) minq = q;
        if (i == 0 || q > maxq) maxq = q;
        if (i == 0 || r < minr) minr = r;
        if (i == 0 || r > maxr) maxr = r;
        i++;
    }
    if (maxq - minq > MAX_SPAN || maxr - minr > MAX_SPAN) return 0;
    g->minq = minq;
    g->minr = minr;
    for (int j = 0; j < i; j++) {
        Py_ssize_t h = PyTuple_GET_SIZE(sts[j]);
        if (h < 1 || h > 15) {
            clear_grid(g);
            return 0;
        }
        int idx = (int)(qs[j] - minq + OFF) * GW + (int)(rs[j] - minr + OFF);
        for (Py_ssize_t k = 0; k < h; k++) {
            PyObject *o = PyTuple_GET_ITEM(sts[j], k);
            long p = PyLong_Check(o) ? PyLong_AsLong(o) : -1;
            if (p < 0 || p >= NPIECES || (p & 15) >= 14) {
                PyErr_Clear();
                clear_grid(g);
                return 0;
            }
            g->where[p] = idx;
            if (k == h - 1) TOP[idx] = (int8_t)p;
        }
        H[idx] = (uint8_t)h;
        g->cells[g->n] = idx;
        g->height[g->n] = (int)h;
        g->n++;
    }
    return 1;
}

static inline long long packed(const Grid *g, int idx) {
    long long q = idx / GW - OFF + g->minq;
    long long r = idx % GW - OFF + g->minr;
    return q * PACK_K + r;
}

static inline int mask6(int c) {
    int m = 0;
    for (int i = 0; i < 6; i++)
        if (H[c + DIRS[i]]) m |= 1 << i;
    return m;
}

/* ------------------------------------------------------------------------------------------ articulation points */
static int dfs_counter;

static void dfs(int c, int parent) {
    int n = num_[c] = dfs_counter++;
    dfs_stamp[c] = gen_dfs;
    int lc = n, children = 0;
    for (int i = 0; i < 6; i++) {
        int nb = c + DIRS[i];
        if (nb == parent || !H[nb]) continue;
        if (dfs_stamp[nb] != gen_dfs) {
            dfs(nb, c);
            children++;
            int ln = low_[nb];
            if (ln < lc) lc = ln;
            if (ln >= n && parent >= 0) is_cut[c] = 1;
        } else if (num_[nb] < lc) {
            lc = num_[nb];
        }
    }
    low_[c] = lc;
    if (parent < 0 && children > 1) is_cut[c] = 1;
}

/* is_cut[c] = the single piece at c holds the hive together (board.cut_cells). */
static void compute_cut(const Grid *g) {
    for (int i = 0; i < g->n; i++) is_cut[g->cells[i]] = 0;
    if (g->n <= 2) return;
    if (++gen_dfs == 0) {
        memset(dfs_stamp, 0, sizeof dfs_stamp);
        gen_dfs = 1;
    }
    dfs_counter = 0;
    dfs(g->cells[0], -1);
    for (int i = 0; i < g->n; i++)
        if (g->height[i] != 1) is_cut[g->cells[i]] = 0;
}

/* ------------------------------------------------------------------------------------------ move generation */
typedef struct {
    Moves *out;
} Sink;

static int overflowed;

static inline void emit(Sink *s, int pid, int dest) {
    if (seen[pid][dest] == gen_seen) return;
    seen[pid][dest] = gen_seen;
    Moves *o = s->out;
    if (o->n >= MAX_MOVES) {
        overflowed = 1;
        return;
    }
    o->pid[o->n] = (int16_t)pid;
    o->dest[o->n] = (int16_t)dest;
    o->n++;
}

static inline uint32_t next_mark(void) {
    if (++gen_mark == 0) {
        memset(mark, 0, sizeof mark);
        memset(mark2, 0, sizeof mark2);
        gen_mark = 1;
    }
    return gen_mark;
}

static void gen_slides(Sink *s, int pid, int c) {
    int m = mask6(c);
    for (int k = 0; k < slides_n[m]; k++) emit(s, pid, c + DIRS[slides_d[m][k]]);
}

static void gen_ant(Sink *s, int pid, int src) {
    uint32_t st = next_mark();
    int todo[GN / 4];
    int nt = 0;
    mark[src] = st;
    todo[nt++] = src;
    while (nt) {
        int c = todo[--nt];
        int m = mask6(c);
        for (int k = 0; k < slides_n[m]; k++) {
            int n = c + DIRS[slides_d[m][k]];
            if (mark[n] != st) {
                mark[n] = st;
                if (nt < GN / 4) todo[nt++] = n;
                else overflowed = 1;
                emit(s, pid, n);
            }
        }
    }
}

static void gen_spider(Sink *s, int pid, int src) {
    int m1 = mask6(src);
    for (int a = 0; a < slides_n[m1]; a++) {
        int n1 = src + DIRS[slides_d[m1][a]];
        int m2 = mask6(n1);
        for (int b = 0; b < slides_n[m2]; b++) {
            int n2 = n1 + DIRS[slides_d[m2][b]];
            if (n2 == src) continue;
            int m3 = mask6(n2);
            for (int c = 0; c < slides_n[m3]; c++) {
                int n3 = n2 + DIRS[slides_d[m3][c]];
                if (n3 != src && n3 != n1) emit(s, pid, n3);
            }
        }
    }
}

static void gen_jumps(Sink *s, int pid, int src) {
    for (int i = 0; i < 6; i++) {
        int c = src + DIRS[i];
        if (H[c]) {
            c += DIRS[i];
            while (H[c]) c += DIRS[i];
            emit(s, pid, c);
        }
    }
}

/* Beetle-style steps from src (mover lifted), with height gates; mode 0 all, 1 onto occupied, 2 onto empty.
 * Writes the destinations to dst and returns their number. */
static int climb_steps(int src, int mode, int *dst) {
    int hs = H[src];
    int hts[6];
    for (int i = 0; i < 6; i++) hts[i] = H[src + DIRS[i]];
    int k = 0;
    for (int i = 0; i < 6; i++) {
        int hn = hts[i];
        if (mode == 1 && !hn) continue;
        if (mode == 2 && hn) continue;
        int barrier = hs > hn ? hs : hn;
        int hl = hts[(i + 5) % 6], hr = hts[(i + 1) % 6];
        if (barrier == 0) {
            if ((hl > 0) != (hr > 0)) dst[k++] = src + DIRS[i];
        } else if (hl <= barrier || hr <= barrier) {
            dst[k++] = src + DIRS[i];
        }
    }
    return k;
}

static void gen_climb(Sink *s, int pid, int src) {
    int d[6];
    int k = climb_steps(src, 0, d);
    for (int i = 0; i < k; i++) emit(s, pid, d[i]);
}

static void gen_ladybug(Sink *s, int pid, int src) {
    uint32_t st = next_mark();
    int d1[6], d2[6], d3[6];
    int k1 = climb_steps(src, 1, d1);
    for (int a = 0; a < k1; a++) {
        int k2 = climb_steps(d1[a], 1, d2);
        for (int b = 0; b < k2; b++) {
            int s2 = d2[b];
            if (mark2[s2] == st) continue;
            mark2[s2] = st;
            int k3 = climb_steps(s2, 2, d3);
            for (int c = 0; c < k3; c++)
                if (d3[c] != src) emit(s, pid, d3[c]);
        }
    }
}

/* Pillbug ability from ``user``: an unpinned, unstunned lone neighbour over it to an empty neighbour. */
static void gen_throws(Sink *s, int user, int stunned) {
    int hu = H[user];
    int hts[6];
    for (int i = 0; i < 6; i++) hts[i] = H[user + DIRS[i]];
    int starts[6], ends[6], ns = 0, ne = 0;
    for (int i = 0; i < 6; i++) {
        int hn = hts[i];
        int barrier = hu > hn ? hu : hn;
        if (hts[(i + 5) % 6] > barrier && hts[(i + 1) % 6] > barrier) continue;
        int c = user + DIRS[i];
        if (hn == 0) ends[ne++] = c;
        else if (hn == 1 && !is_cut[c] && TOP[c] != stunned) starts[ns++] = TOP[c];
    }
    if (ns && ne)
        for (int a = 0; a < ns; a++)
            for (int b = 0; b < ne; b++) emit(s, starts[a], ends[b]);
}

static void gen_mosquito(Sink *s, int pid, int src, int near) {
    if (near & (1 << A)) {
        gen_ant(s, pid, src);
    } else {
        if (near & ((1 << Q) | (1 << P))) gen_slides(s, pid, src);
        if (near & (1 << S)) gen_spider(s, pid, src);
    }
    if (near & (1 << G)) gen_jumps(s, pid, src);
    if (near & (1 << B)) gen_climb(s, pid, src);
    if (near & (1 << L)) gen_ladybug(s, pid, src);
}

/* board.movement_dests (without the ``throws`` split). */
static void gen_movements(Sink *s, Grid *g, int color, int stunned) {
    compute_cut(g);
    int base = color << 4;
    for (int pid = base; pid < base + 14; pid++) {
        int src = g->where[pid];
        if (src < 0 || pid == stunned || TOP[src] != pid) continue;
        int kind = KIND[pid & 15];
        int h = H[src];
        if (h > 1) {
            H[src] = (uint8_t)(h - 1);
            gen_climb(s, pid, src);
            H[src] = (uint8_t)h;
            continue;
        }
        int near = 0;
        if (kind == M) {
            for (int i = 0; i < 6; i++) {
                int c = src + DIRS[i];
                if (H[c]) near |= 1 << KIND[TOP[c] & 15];
            }
            near &= ~(1 << M);
            if (!near) continue;
        }
        if (kind == P || (near & (1 << P))) gen_throws(s, src, stunned);
        if (is_cut[src]) continue;
        H[src] = 0;
        switch (kind) {
        case A: gen_ant(s, pid, src); break;
        case Q:
        case P: gen_slides(s, pid, src); break;
        case S: gen_spider(s, pid, src); break;
        case G: gen_jumps(s, pid, src); break;
        case B: gen_climb(s, pid, src); break;
        case L: gen_ladybug(s, pid, src); break;
        default: gen_mosquito(s, pid, src, near); break;
        }
        H[src] = (uint8_t)h;
    }
}

/* ------------------------------------------------------------------------------------------ the whole move list */
typedef struct {
    int over;         /* result() >= 0: no moves at all */
    int nkinds;       /* placeable piece ids */
    int kinds[8];
    int ncells;       /* placement cells (local indices), or the origin when the board is empty */
    int cells[GN / 8];
    int empty_board;
} Placements;

/* Reads the arguments. Returns 1, or 0 when they are not what a PyBoard holds (then the Python code runs and
 * raises whatever it raises), or -1 with an exception set for a call with the wrong number of arguments. */
static int parse_common(PyObject *const *args, Py_ssize_t nargs, PyObject **stacks, long *ply, long *stunned,
                        int *kindmask, int inhand[NPIECES]) {
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "expected (stacks, pos, ply, stunned, kinds)");
        return -1;
    }
    *stacks = args[0];
    PyObject *pos = args[1], *kinds = args[4];
    if (!PyDict_Check(*stacks) || !PyList_Check(pos) || PyList_GET_SIZE(pos) != NPIECES || !PyTuple_Check(kinds))
        return 0;
    for (int p = 0; p < NPIECES; p++) inhand[p] = PyList_GET_ITEM(pos, p) == Py_None;
    *ply = PyLong_Check(args[2]) ? PyLong_AsLong(args[2]) : -1;
    *stunned = PyLong_Check(args[3]) ? PyLong_AsLong(args[3]) : -2;
    if (PyErr_Occurred() || *ply < 0 || *stunned < -1 || *stunned >= NPIECES) {
        PyErr_Clear();
        return 0;
    }
    *kindmask = 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(kinds); i++) {
        PyObject *o = PyTuple_GET_ITEM(kinds, i);
        long k = PyLong_Check(o) ? PyLong_AsLong(o) : -1;
        if (k < 0 || k > 7) {
            PyErr_Clear();
            return 0;
        }
        *kindmask |= 1 << k;
    }
    return 1;
}

static int queen_neighbours(const Grid *g, int color, const int inhand[NPIECES]) {
    if (inhand[color << 4]) return 0;
    int c = g->where[color << 4];
    if (c < 0) return -1; /* pos and stacks disagree */
    int n = 0;
    for (int i = 0; i < 6; i++) n += H[c + DIRS[i]] > 0;
    return n;
}

/* Everything moves()/count_moves() need. Returns 1 when done, 0 to fall back to Python, -1 on error. */
static int generate(PyObject *const *args, Py_ssize_t nargs, Grid *g, Placements *pl, Sink *s) {
    PyObject *stacks;
    long ply, stunned;
    int kindmask, inhand[NPIECES];
    int ok = parse_common(args, nargs, &stacks, &ply, &stunned, &kindmask, inhand);
    if (ok <= 0) return ok;
    int r = load(stacks, g);
    if (r <= 0) return r;
    pl->over = 0;
    pl->nkinds = 0;
    pl->ncells = 0;
    pl->empty_board = g->n == 0;
    s->out->n = 0;
    overflowed = 0;
    int wq = queen_neighbours(g, 0, inhand), bq = queen_neighbours(g, 1, inhand);
    if (wq < 0 || bq < 0) {
        clear_grid(g);
        return 0;
    }
    if (wq == 6 || bq == 6) {
        pl->over = 1;
        clear_grid(g);
        return 1;
    }
    int color = (int)(ply & 1);
    long turn = ply >> 1;
    int queen_in_hand = inhand[color << 4];
    for (int kind = 0; kind < 8; kind++) {
        if (!(kindmask >> kind & 1)) continue;
        if (turn == 0 && kind == Q) continue;
        if (turn >= 3 && queen_in_hand && kind != Q) continue;
        int base = color << 4 | FIRST_INDEX[kind];
        for (int p = base; p < base + KIND_COUNT[kind]; p++)
            if (inhand[p]) {
                pl->kinds[pl->nkinds++] = p;
                break;
            }
    }
    if (pl->nkinds && g->n) {
        if (ply == 1 || g->n == 1) {
            for (int i = 0; i < 6; i++) pl->cells[pl->ncells++] = g->cells[0] + DIRS[i];
        } else {
            uint32_t bad = next_mark();
            for (int i = 0; i < g->n; i++) {
                int c = g->cells[i];
                if ((TOP[c] >> 4) != color)
                    for (int d = 0; d < 6; d++) mark[c + DIRS[d]] = bad;
            }
            for (int i = 0; i < g->n; i++) {
                int c = g->cells[i];
                if ((TOP[c] >> 4) != color) continue;
                for (int d = 0; d < 6; d++) {
                    int n = c + DIRS[d];
                    if (mark[n] != bad && !H[n] && mark2[n] != bad) {
                        mark2[n] = bad;
                        pl->cells[pl->ncells++] = n;
                    }
                }
            }
        }
    }
    if (ply >= 2 && g->n && !queen_in_hand) {
        if (++gen_seen == 0) {
            memset(seen, 0, sizeof seen);
            gen_seen = 1;
        }
        gen_movements(s, g, color, (int)stunned);
    }
    clear_grid(g);
    if (overflowed) return 0;
    return 1;
}

static PyObject *pair(long pid, PyObject *cell) {
    PyObject *p = PyLong_FromLong(pid);
    if (p == NULL) return NULL;
    PyObject *t = PyTuple_New(2);
    if (t == NULL) {
        Py_DECREF(p);
        return NULL;
    }
    PyTuple_SET_ITEM(t, 0, p);
    Py_INCREF(cell);
    PyTuple_SET_ITEM(t, 1, cell);
    return t;
}

static Moves moves_buf;

static PyObject *c_moves(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    Grid g;
    Placements pl;
    Sink s = {&moves_buf};
    int r = generate(args, nargs, &g, &pl, &s);
    if (r < 0) return NULL;
    if (r == 0) Py_RETURN_NONE;
    if (pl.over) return PyList_New(0);
    /* Copy what the static buffers hold before creating objects (object creation may run Python code). */
    int nm = moves_buf.n;
    int16_t *mp = PyMem_Malloc(sizeof(int16_t) * 2 * (nm ? nm : 1));
    if (mp == NULL) return PyErr_NoMemory();
    memcpy(mp, moves_buf.pid, sizeof(int16_t) * nm);
    memcpy(mp + nm, moves_buf.dest, sizeof(int16_t) * nm);
    Py_ssize_t total = (Py_ssize_t)pl.nkinds * (pl.empty_board ? 1 : pl.ncells) + nm;
    PyObject *out = PyList_New(total ? total : 1);
    if (out == NULL) {
        PyMem_Free(mp);
        return NULL;
    }
    Py_ssize_t k = 0;
    if (pl.nkinds) {
        int ncells = pl.empty_board ? 1 : pl.ncells;
        for (int i = 0; i < ncells; i++) {
            PyObject *cell = PyLong_FromLongLong(pl.empty_board ? 0 : packed(&g, pl.cells[i]));
            if (cell == NULL) goto fail;
            for (int j = 0; j < pl.nkinds; j++) {
                PyObject *t = pair(pl.kinds[j], cell);
                if (t == NULL) {
                    Py_DECREF(cell);
                    goto fail;
                }
                PyList_SET_ITEM(out, k++, t);
            }
            Py_DECREF(cell);
        }
    }
    for (int i = 0; i < nm; i++) {
        PyObject *cell = PyLong_FromLongLong(packed(&g, mp[nm + i]));
        if (cell == NULL) goto fail;
        PyObject *t = pair(mp[i], cell);
        Py_DECREF(cell);
        if (t == NULL) goto fail;
        PyList_SET_ITEM(out, k++, t);
    }
    if (total == 0) {
        PyObject *t = Py_BuildValue("(ii)", -1, 0);
        if (t == NULL) goto fail;
        PyList_SET_ITEM(out, 0, t);
    }
    PyMem_Free(mp);
    return out;
fail:
    /* unfilled slots are NULL, which list deallocation tolerates */
    PyMem_Free(mp);
    Py_DECREF(out);
    return NULL;
}

static PyObject *c_count_moves(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    Grid g;
    Placements pl;
    Sink s = {&moves_buf};
    int r = generate(args, nargs, &g, &pl, &s);
    if (r < 0) return NULL;
    if (r == 0) Py_RETURN_NONE;
    if (pl.over) return PyLong_FromLong(0);
    long n = (long)pl.nkinds * (pl.empty_board ? 1 : pl.ncells) + moves_buf.n;
    return PyLong_FromLong(n ? n : 1);
}

static PyObject *c_cut_cells(PyObject *self, PyObject *stacks) {
    Grid g;
    int r = load(stacks, &g);
    if (r < 0) return NULL;
    if (r == 0) Py_RETURN_NONE;
    compute_cut(&g);
    long long cells[MAX_STACKS];
    int n = 0;
    for (int i = 0; i < g.n; i++)
        if (is_cut[g.cells[i]]) cells[n++] = packed(&g, g.cells[i]);
    clear_grid(&g);
    PyObject *set = PyFrozenSet_New(NULL);
    if (set == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *c = PyLong_FromLongLong(cells[i]);
        if (c == NULL || PySet_Add(set, c) < 0) {
            Py_XDECREF(c);
            Py_DECREF(set);
            return NULL;
        }
        Py_DECREF(c);
    }
    return set;
}

/* ------------------------------------------------------------------------------------------ leaf evaluation */
/* evaluation.assess_py (the alpha-beta bot's leaf score) in C: the same terms, line by line, on the same grid as
 * move generation, so the articulation test and the slide table are shared. The weights come from Python (one
 * tuple, see evaluation.py), so the two cannot drift apart; the result is white's point of view. */
enum {
    W_WIN, W_NEXT_ENEMY, W_NEXT_OWN_STUCK, W_NEXT_OWN_FREE, W_FIFTH, W_QUEEN_FREE, W_BEETLE_ON_QUEEN,
    W_PILLBUG_GUARD, W_BURIED_PIECE, W_VALUE, N_WEIGHTS = W_VALUE + 8
};
static uint8_t near_queen[GN]; /* 0: touches no queen; c + 1: touches colour c's queen; 3: both */

static inline int crawler(int kind) { return kind == Q || kind == S || kind == A || kind == P; }

/* evaluation._movable: can the top piece of ``cell`` move at all (is_cut computed, piece still in place)? */
static int movable(int cell) {
    if (H[cell] > 1) return 1;
    if (is_cut[cell]) return 0;
    int kind = KIND[TOP[cell] & 15];
    if (kind == M) {
        for (int i = 0; i < 6; i++) {
            int n = cell + DIRS[i];
            if (H[n]) {
                int k = KIND[TOP[n] & 15];
                if (!crawler(k) && k != M) return 1;
            }
        }
    } else if (!crawler(kind)) {
        return 1;
    }
    return slides_n[mask6(cell)] > 0;
}

static int touches_pillbug(int cell) {
    for (int i = 0; i < 6; i++) {
        int n = cell + DIRS[i];
        if (H[n] && KIND[TOP[n] & 15] == P) return 1;
    }
    return 0;
}

/* Returns 1 with *out set, or 0 when the board is not for us (the caller runs the Python code). */
static int assess_grid(PyObject *stacks, const Grid *g, const int inhand[NPIECES], int kindmask,
                       const long long w[N_WEIGHTS], long long *out) {
    long long score = 0;
    int touched[12], ntouched = 0;
    int done = 0;
    for (int c = 0; c < 2 && !done; c++) {
        if (inhand[c << 4]) continue;
        int q = g->where[c << 4];
        if (q < 0) break; /* pos and stacks disagree */
        long long pen = 0;
        int n = 0;
        for (int i = 0; i < 6; i++) {
            int cell = q + DIRS[i];
            if (!H[cell]) continue;
            n++;
            if (!near_queen[cell]) touched[ntouched++] = cell;
            near_queen[cell] = near_queen[cell] ? 3 : (uint8_t)(c + 1);
            int top = TOP[cell];
            if (top >> 4 != c) pen += w[W_NEXT_ENEMY];
            else if (movable(cell)) pen += w[W_NEXT_OWN_FREE];
            else pen += w[W_NEXT_OWN_STUCK];
            if (top >> 4 == c && H[cell] == 1) {
                int kind = KIND[top & 15];
                if (kind == P || (kind == M && touches_pillbug(cell))) pen -= w[W_PILLBUG_GUARD];
            }
        }
        if (n == 6) {
            *out = c == 1 ? w[W_WIN] : -w[W_WIN];
            done = 2;
            break;
        }
        if (n == 5) pen += w[W_FIFTH];
        if (H[q] > 1) {
            if (TOP[q] >> 4 != c) pen += w[W_BEETLE_ON_QUEEN];
        } else if (!is_cut[q] && slides_n[mask6(q)]) {
            pen -= w[W_QUEEN_FREE];
        }
        score -= c == 0 ? pen : -pen;
    }
    int ok = 1;
    if ((!inhand[0] && g->where[0] < 0) || (!inhand[16] && g->where[16] < 0)) ok = 0;
    if (ok && done != 2) {
        for (int i = 0; i < g->n; i++) {
            int cell = g->cells[i];
            int top = TOP[cell], tc = top >> 4;
            int touches = near_queen[cell] ? near_queen[cell] - 1 : -1;
            if (touches >= 0 && touches != tc) continue; /* next to the enemy queen: counted there */
            int kind = KIND[top & 15];
            if (kind == Q || !movable(cell)) continue;
            long long v = w[W_VALUE + kind] * (H[cell] > 1 ? 4 : 2);
            score += tc == 0 ? v : -v;
        }
        /* buried pieces: the grid keeps only the top, so read the stacked tuples (load checked them) */
        Py_ssize_t it = 0;
        PyObject *key, *value;
        while (PyDict_Next(stacks, &it, &key, &value)) {
            Py_ssize_t h = PyTuple_GET_SIZE(value);
            if (h < 2) continue;
            long tc = PyLong_AsLong(PyTuple_GET_ITEM(value, h - 1)) >> 4;
            for (Py_ssize_t k = 0; k < h - 1; k++) {
                long pc = PyLong_AsLong(PyTuple_GET_ITEM(value, k)) >> 4;
                if (pc != tc) score += pc == 0 ? -w[W_BURIED_PIECE] : w[W_BURIED_PIECE];
            }
        }
        for (int pid = 0; pid < 14; pid++) {
            int kind = KIND[pid];
            if (!(kindmask >> kind & 1)) continue;
            if (inhand[pid]) score += w[W_VALUE + kind];
            if (inhand[16 | pid]) score -= w[W_VALUE + kind];
        }
        *out = score;
    }
    for (int i = 0; i < ntouched; i++) near_queen[touched[i]] = 0;
    return ok;
}

static PyObject *c_assess(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "expected (stacks, pos, kinds, weights)");
        return NULL;
    }
    PyObject *weights = args[3];
    if (!PyTuple_Check(weights) || PyTuple_GET_SIZE(weights) != N_WEIGHTS) {
        PyErr_Format(PyExc_ValueError, "weights must be a tuple of %d ints", N_WEIGHTS);
        return NULL;
    }
    long long w[N_WEIGHTS];
    for (int i = 0; i < N_WEIGHTS; i++) {
        w[i] = PyLong_AsLongLong(PyTuple_GET_ITEM(weights, i));
        if (w[i] == -1 && PyErr_Occurred()) return NULL;
        if (w[i] > (1LL << 40) || w[i] < -(1LL << 40)) {
            PyErr_SetString(PyExc_ValueError, "a weight is out of range (|w| <= 2**40)");
            return NULL;
        }
    }
    PyObject *common[5] = {args[0], args[1], Py_None, Py_None, args[2]};
    PyObject *stacks;
    long ply, stunned;
    int kindmask, inhand[NPIECES];
    PyObject *zero = PyLong_FromLong(0), *minus1 = PyLong_FromLong(-1);
    if (zero == NULL || minus1 == NULL) {
        Py_XDECREF(zero);
        Py_XDECREF(minus1);
        return NULL;
    }
    common[2] = zero;
    common[3] = minus1;
    int ok = parse_common(common, 5, &stacks, &ply, &stunned, &kindmask, inhand);
    Py_DECREF(zero);
    Py_DECREF(minus1);
    if (ok < 0) return NULL;
    if (ok == 0) Py_RETURN_NONE;
    Grid g;
    int r = load(stacks, &g);
    if (r <= 0) Py_RETURN_NONE;
    compute_cut(&g);
    long long score = 0;
    ok = assess_grid(stacks, &g, inhand, kindmask, w, &score);
    clear_grid(&g);
    if (!ok) Py_RETURN_NONE;
    return PyLong_FromLongLong(score);
}

static PyMethodDef mod_methods[] = {
    {"moves", (PyCFunction)(void (*)(void))c_moves, METH_FASTCALL,
     "moves(stacks, pos, ply, stunned, kinds) -> list of (piece, cell), or None to ask for the Python code."},
    {"count_moves", (PyCFunction)(void (*)(void))c_count_moves, METH_FASTCALL,
     "count_moves(stacks, pos, ply, stunned, kinds) -> int, or None to ask for the Python code."},
    {"cut_cells", (PyCFunction)c_cut_cells, METH_O,
     "cut_cells(stacks) -> frozenset of articulation cells (single pieces), or None."},
    {"assess", (PyCFunction)(void (*)(void))c_assess, METH_FASTCALL,
     "assess(stacks, pos, kinds, weights) -> white's leaf score (evaluation.assess_py), or None."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef chive_module = {
    PyModuleDef_HEAD_INIT, "_chive", "Hive move generation in C (see accel.py).", -1, mod_methods,
};

PyMODINIT_FUNC PyInit__chive(void) {
    init_slides();
    return PyModule_Create(&chive_module);
}
