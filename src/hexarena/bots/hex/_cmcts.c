/* The Hex MCTS engine in C: a step-for-step port of engine_py.py (read that file for the why).
 *
 * Every decision must equal the Python reference's for the same seed and iteration count (the tests compare the
 * root statistics of both): the same xorshift64* draws, the same floating-point operations in the same order,
 * ties broken on the first child, the same node layout. Change one, change the other.
 *
 * The search runs without the GIL (it touches only its own memory); every CHECK_EVERY simulations it reads the
 * monotonic clock and the host's stop flag (one byte the host sets, ``stopping.StopSignal``). It never takes the GIL
 * back before it is done: waiting for the GIL is waiting for whichever thread holds it, which on a busy machine may
 * not be running, and a wait that straddles the deadline lands on the clock.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXS 26
#define MAXN (MAXS * MAXS)
#define BLACK 1
#define WHITE 2
#define WIN 1
#define LOSS (-1)
#define TOP (-1)
#define BOTTOM (-2)
#define LEFT (-3)
#define RIGHT (-4)
#define NOWHERE (-5)

#define EXPLORATION 0.25
#define RAVE_BIAS 0.0025
#define PRIOR_N 8.0
#define PRIOR_SAVE 0.9
#define PRIOR_BRIDGE 0.65
#define PRIOR_NEAR 0.55
#define PRIOR_PLAIN 0.5
#define EXPAND_AFTER 2
/* Simulations between reads of the clock and the stop flag. The Python reference checks more often: only when a
 * search stops depends on this, never the tree. */
#define CHECK_EVERY 64

static const int RING[6][2] = {{0, 1}, {-1, 1}, {-1, 0}, {0, -1}, {1, -1}, {1, 0}};

typedef struct {
    int size, n2;
    int rg[MAXN * 6];
    int br[MAXN * 18];
} Geo;

typedef struct {
    int32_t first;
    int16_t move;
    int16_t nchild;
    int8_t proof;
    int32_t real;
    double visits, wins, rv, rw;
} Node;

typedef struct {
    Node *nodes;
    long count, cap;
} Tree;

static int owner(int code) {
    if (code == TOP || code == BOTTOM) return BLACK;
    if (code == LEFT || code == RIGHT) return WHITE;
    return 0;
}

static int code_of(int size, int r, int c) {
    int rin = r >= 0 && r < size, cin = c >= 0 && c < size;
    if (rin && cin) return r * size + c;
    if (cin) return r < 0 ? TOP : BOTTOM;
    if (rin) return c < 0 ? LEFT : RIGHT;
    return NOWHERE;
}

static void geo_init(Geo *g, int size) {
    g->size = size;
    g->n2 = size * size;
    for (int r = 0; r < size; r++)
        for (int c = 0; c < size; c++) {
            int x = r * size + c;
            for (int k = 0; k < 6; k++) {
                g->rg[6 * x + k] = code_of(size, r + RING[k][0], c + RING[k][1]);
                int a = RING[k][0], b = RING[k][1], d = RING[(k + 1) % 6][0], e = RING[(k + 1) % 6][1];
                int c1 = code_of(size, r + a, c + b), c2 = code_of(size, r + d, c + e);
                int *o = &g->br[18 * x + 3 * k];
                if (c1 < 0 || c2 < 0) {
                    o[0] = NOWHERE;
                    o[1] = -1;
                    o[2] = -1;
                } else {
                    o[0] = code_of(size, r + a + d, c + b + e);
                    o[1] = c1;
                    o[2] = c2;
                }
            }
        }
}

typedef struct {
    uint64_t s;
} Rng;

static void rng_seed(Rng *r, uint64_t seed) {
    r->s = seed * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL;
    if (r->s == 0) r->s = 1;
}

static int rng_below(Rng *r, int n) {
    uint64_t s = r->s;
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    r->s = s;
    return (int)((((s * 0x2545F4914F6CDD1DULL) >> 32) * (uint64_t)n) >> 32);
}

static inline int colour_at(const uint8_t *board, int code) { return code >= 0 ? board[code] : owner(code); }

static int save_reply(const uint8_t *board, const int *rg, int last, int me) {
    if (last < 0) return -1;
    const int *nb = rg + 6 * last;
    for (int k = 0; k < 6; k++) {
        int b = nb[(k + 1) % 6];
        if (b < 0 || board[b]) continue;
        if (colour_at(board, nb[k]) == me && colour_at(board, nb[(k + 2) % 6]) == me) return b;
    }
    return -1;
}

static int winner_of_full(const uint8_t *board, const Geo *g) {
    int size = g->size, stack[MAXN], sp = 0;
    uint8_t seen[MAXN];
    memset(seen, 0, (size_t)g->n2);
    for (int c = 0; c < size; c++)
        if (board[c] == BLACK) {
            seen[c] = 1;
            stack[sp++] = c;
        }
    int last_row = size * (size - 1);
    while (sp) {
        int x = stack[--sp];
        if (x >= last_row) return BLACK;
        const int *nb = g->rg + 6 * x;
        for (int k = 0; k < 6; k++) {
            int y = nb[k];
            if (y >= 0 && !seen[y] && board[y] == BLACK) {
                seen[y] = 1;
                stack[sp++] = y;
            }
        }
    }
    return WHITE;
}

/* Empty cells where ``colour`` connects at once, ascending, into out; returns how many. */
static int winning_cells(const uint8_t *board, const Geo *g, int colour, int *out) {
    int n2 = g->n2, a = colour == BLACK ? TOP : LEFT, b = colour == BLACK ? BOTTOM : RIGHT;
    uint8_t reach[2][MAXN];
    int stack[MAXN];
    for (int e = 0; e < 2; e++) {
        int edge = e == 0 ? a : b, sp = 0;
        uint8_t *seen = reach[e];
        memset(seen, 0, (size_t)n2);
        for (int x = 0; x < n2; x++) {
            if (board[x] != colour) continue;
            for (int k = 0; k < 6; k++)
                if (g->rg[6 * x + k] == edge) {
                    seen[x] = 1;
                    stack[sp++] = x;
                    break;
                }
        }
        while (sp) {
            int x = stack[--sp];
            for (int k = 0; k < 6; k++) {
                int y = g->rg[6 * x + k];
                if (y >= 0 && !seen[y] && board[y] == colour) {
                    seen[y] = 1;
                    stack[sp++] = y;
                }
            }
        }
    }
    int count = 0;
    for (int x = 0; x < n2; x++) {
        if (board[x]) continue;
        int ta = 0, tb = 0;
        for (int k = 0; k < 6; k++) {
            int y = g->rg[6 * x + k];
            if (y == a || (y >= 0 && reach[0][y])) ta = 1;
            if (y == b || (y >= 0 && reach[1][y])) tb = 1;
        }
        if (ta && tb) out[count++] = x;
    }
    return count;
}

static inline int free_pair(const uint8_t *board, const uint8_t *used, int c1, int c2) {
    return c1 >= 0 && !board[c1] && !board[c2] && !used[c1] && !used[c2];
}

static int touches(const Geo *g, int x, int code) {
    for (int k = 0; k < 6; k++)
        if (g->rg[6 * x + k] == code) return 1;
    return 0;
}

static int virtually_connected(const uint8_t *board, const Geo *g, int colour) {
    int n2 = g->n2, a = colour == BLACK ? TOP : LEFT, b = colour == BLACK ? BOTTOM : RIGHT;
    uint8_t used[MAXN], seen[MAXN];
    int stack[MAXN], sp = 0;
    memset(used, 0, (size_t)n2);
    memset(seen, 0, (size_t)n2);
    for (int x = 0; x < n2; x++)
        if (board[x] == colour && touches(g, x, a)) {
            seen[x] = 1;
            stack[sp++] = x;
        }
    for (int x = 0; x < n2; x++) {
        if (board[x] != colour || seen[x]) continue;
        for (int k = 0; k < 6; k++) {
            const int *q = g->br + 18 * x + 3 * k;
            if (q[0] == a && free_pair(board, used, q[1], q[2])) {
                used[q[1]] = used[q[2]] = 1;
                seen[x] = 1;
                stack[sp++] = x;
                break;
            }
        }
    }
    while (sp) {
        int x = stack[--sp];
        if (touches(g, x, b)) return 1;
        for (int k = 0; k < 6; k++) {
            const int *q = g->br + 18 * x + 3 * k;
            if (q[0] == b && free_pair(board, used, q[1], q[2])) return 1;
        }
        for (int k = 0; k < 6; k++) {
            int y = g->rg[6 * x + k];
            if (y >= 0 && !seen[y] && board[y] == colour) {
                seen[y] = 1;
                stack[sp++] = y;
            }
        }
        for (int k = 0; k < 6; k++) {
            const int *q = g->br + 18 * x + 3 * k;
            int p = q[0];
            if (p >= 0 && !seen[p] && board[p] == colour && free_pair(board, used, q[1], q[2])) {
                used[q[1]] = used[q[2]] = 1;
                seen[p] = 1;
                stack[sp++] = p;
            }
        }
    }
    return 0;
}

static double prior(const uint8_t *board, const Geo *g, int cell, int me, int last, int save) {
    if (cell == save) return PRIOR_SAVE;
    const int *b = g->br + 18 * cell;
    for (int k = 0; k < 6; k++) {
        int p = b[3 * k], c1 = b[3 * k + 1], c2 = b[3 * k + 2];
        if (c1 >= 0 && !board[c1] && !board[c2] && colour_at(board, p) == me) return PRIOR_BRIDGE;
    }
    if (last >= 0)
        for (int k = 0; k < 6; k++)
            if (g->rg[6 * cell + k] == last) return PRIOR_NEAR;
    return PRIOR_PLAIN;
}

static int tree_grow(Tree *t, long want) {
    if (want <= t->cap) return 0;
    long cap = t->cap ? t->cap : 4096;
    while (cap < want) cap *= 2;
    Node *n = realloc(t->nodes, (size_t)cap * sizeof(Node));
    if (n == NULL) return -1;
    t->nodes = n;
    t->cap = cap;
    return 0;
}

/* Returns -1 on out of memory. */
static int expand(Tree *t, long node, const uint8_t *board, const Geo *g, int me, int last, int is_root,
                  long max_nodes) {
    int n2 = g->n2, mine[MAXN], theirs[MAXN], cand[MAXN], nc = 0;
    int nm = winning_cells(board, g, me, mine);
    if (nm) {
        cand[nc++] = mine[0];
        t->nodes[node].proof = LOSS;
    } else {
        int nt = winning_cells(board, g, 3 - me, theirs);
        if (nt >= 2) {
            t->nodes[node].proof = WIN;
            if (!is_root) return 0;
            memcpy(cand, theirs, sizeof(int) * (size_t)nt);
            nc = nt;
        } else if (!is_root && virtually_connected(board, g, me)) {
            t->nodes[node].proof = LOSS;
            return 0;
        } else if (virtually_connected(board, g, 3 - me)) {
            t->nodes[node].proof = WIN;
            if (!is_root) return 0;
            if (nt) {
                cand[nc++] = theirs[0];
            } else {
                for (int x = 0; x < n2; x++)
                    if (!board[x]) cand[nc++] = x;
            }
        } else if (nt) {
            cand[nc++] = theirs[0];
        } else {
            for (int x = 0; x < n2; x++)
                if (!board[x]) cand[nc++] = x;
        }
    }
    if (t->count + nc > max_nodes) return 0;
    if (tree_grow(t, t->count + nc) < 0) return -1;
    int save = save_reply(board, g->rg, last, me);
    t->nodes[node].first = (int32_t)t->count;
    t->nodes[node].nchild = (int16_t)nc;
    for (int i = 0; i < nc; i++) {
        Node *c = &t->nodes[t->count++];
        c->move = (int16_t)cand[i];
        c->first = -1;
        c->nchild = 0;
        c->visits = PRIOR_N;
        c->wins = PRIOR_N * prior(board, g, cand[i], me, last, save);
        c->rv = 0.0;
        c->rw = 0.0;
        c->real = 0;
        c->proof = nm ? WIN : 0;
    }
    return 0;
}

static long select_child(const Tree *t, long node) {
    const Node *u = &t->nodes[node];
    double lg = log((double)u->real + 1.0);
    long best = -1;
    double best_v = -1.0;
    for (long c = u->first; c < u->first + u->nchild; c++) {
        const Node *ch = &t->nodes[c];
        if (ch->proof == WIN) return c;
        if (ch->proof == LOSS) continue;
        double n = ch->visits, q = ch->wins / n, rv = ch->rv;
        if (rv > 0.0) {
            double beta = rv / (rv + n + rv * n * RAVE_BIAS);
            q = (1.0 - beta) * q + beta * ch->rw / rv;
        }
        double v = q + EXPLORATION * sqrt(lg / n);
        if (v > best_v) {
            best = c;
            best_v = v;
        }
    }
    return best;
}

static int playout(uint8_t *board, const Geo *g, int me, int last, uint8_t *played, Rng *rng) {
    int n2 = g->n2, empties[MAXN], pos[MAXN], count = 0;
    for (int x = 0; x < n2; x++)
        if (!board[x]) {
            pos[x] = count;
            empties[count++] = x;
        }
    while (count) {
        int x = save_reply(board, g->rg, last, me);
        if (x < 0) x = empties[rng_below(rng, count)];
        int i = pos[x];
        count--;
        int y = empties[count];
        empties[i] = y;
        pos[y] = i;
        board[x] = (uint8_t)me;
        played[x] = (uint8_t)me;
        last = x;
        me = 3 - me;
    }
    return winner_of_full(board, g);
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* engine_py._best_child: the first proven win, else the most simulated child not proven lost (all of them when
   every one is), ties to the higher mean; -1 if none */
static long best_child(const Tree *t, long node) {
    const Node *u = &t->nodes[node];
    if (u->first < 0) return -1;
    long end = u->first + u->nchild;
    int any_alive = 0;
    for (long c = u->first; c < end; c++) {
        if (t->nodes[c].proof == WIN) return c;
        if (t->nodes[c].proof != LOSS) any_alive = 1;
    }
    long best = -1;
    for (long c = u->first; c < end; c++) {
        const Node *ch = &t->nodes[c];
        if (any_alive && ch->proof == LOSS) continue;
        if (best < 0) {
            best = c;
            continue;
        }
        const Node *b = &t->nodes[best];
        if (ch->real > b->real || (ch->real == b->real && ch->wins / ch->visits > b->wins / b->visits)) best = c;
    }
    return best;
}

/* engine_py.principal_line: the best child at each node while the search has played it */
static PyObject *principal_line(const Tree *t) {
    PyObject *line = PyList_New(0);
    if (line == NULL) return NULL;
    for (long node = best_child(t, 0); node >= 0 && t->nodes[node].real > 0; node = best_child(t, node)) {
        PyObject *cell = PyLong_FromLong((long)t->nodes[node].move);
        if (cell == NULL || PyList_Append(line, cell) < 0) {
            Py_XDECREF(cell);
            Py_DECREF(line);
            return NULL;
        }
        Py_DECREF(cell);
    }
    return line;
}

/* search(size, cells, to_play, last, iterations, seconds, seed, should_stop=None, max_nodes=...) */
static PyObject *py_search(PyObject *self, PyObject *args, PyObject *kwargs) {
    (void)self;
    static char *kw[] = {"size", "cells", "to_play", "last", "iterations", "seconds", "seed", "should_stop",
                         "max_nodes", NULL};
    int size, to_play, last;
    long long iterations;
    double seconds;
    unsigned long long seed;
    Py_buffer cells;
    PyObject *stop = Py_None;
    long long max_nodes = 2000000;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iy*iiLdK|OL", kw, &size, &cells, &to_play, &last, &iterations,
                                     &seconds, &seed, &stop, &max_nodes))
        return NULL;
    if (size < 1 || size > MAXS || cells.len < (Py_ssize_t)size * size || (to_play != BLACK && to_play != WHITE) ||
        last < -1 || last >= size * size) {
        PyBuffer_Release(&cells);
        PyErr_SetString(PyExc_ValueError, "_cmcts.search: bad arguments");
        return NULL;
    }
    Geo *g = malloc(sizeof(Geo));
    Tree t = {NULL, 0, 0};
    if (g == NULL || tree_grow(&t, 1) < 0) {
        free(g);
        free(t.nodes);
        PyBuffer_Release(&cells);
        return PyErr_NoMemory();
    }
    geo_init(g, size);
    int n2 = g->n2;
    uint8_t root_board[MAXN], board[MAXN], played[MAXN];
    for (int x = 0; x < n2; x++) root_board[x] = ((const uint8_t *)cells.buf)[x];
    PyBuffer_Release(&cells);
    Py_buffer stopview = {0};
    const unsigned char *stopflag = NULL;
    if (stop != Py_None) {
        if (PyObject_GetBuffer(stop, &stopview, PyBUF_SIMPLE) < 0 || stopview.len < 1) {
            if (stopview.obj != NULL) PyBuffer_Release(&stopview);
            else PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "should_stop must be a buffer of at least one byte (stopping.stop_flag())");
            free(g);
            free(t.nodes);
            return NULL;
        }
        stopflag = (const unsigned char *)stopview.buf;
    }
    if (max_nodes < n2 + 1) max_nodes = n2 + 1;
    Node *root = &t.nodes[0];
    memset(root, 0, sizeof(Node));
    root->first = -1;
    root->move = -1;
    t.count = 1;
    Rng rng;
    rng_seed(&rng, (uint64_t)seed);
    int oom = 0;
    long long done = 0;
    long path[MAXN + 2];
    PyThreadState *ts = PyEval_SaveThread();
    double deadline = now() + seconds;
    if (expand(&t, 0, root_board, g, to_play, last, 1, (long)max_nodes) < 0) oom = 1;
    while (!oom && done < iterations && !t.nodes[0].proof) {
        if (done % CHECK_EVERY == 0 && done) {
            if (seconds > 0 && now() >= deadline) break;
            if (stopflag != NULL && __atomic_load_n(stopflag, __ATOMIC_RELAXED)) break;
        }
        done++;
        memcpy(board, root_board, (size_t)n2);
        memset(played, 0, (size_t)n2);
        long node = 0;
        int me = to_play, prev = last, depth = 0;
        path[depth++] = 0;
        while (!t.nodes[node].proof) {
            if (t.nodes[node].first < 0) {
                if (t.nodes[node].real < EXPAND_AFTER) break;
                if (expand(&t, node, board, g, me, prev, 0, (long)max_nodes) < 0) {
                    oom = 1;
                    break;
                }
                if (t.nodes[node].proof || t.nodes[node].first < 0) break;
            }
            long c = select_child(&t, node);
            if (c < 0) {
                t.nodes[node].proof = WIN;
                break;
            }
            int x = t.nodes[c].move;
            board[x] = (uint8_t)me;
            played[x] = (uint8_t)me;
            prev = x;
            me = 3 - me;
            node = c;
            path[depth++] = c;
        }
        if (oom) break;
        int winner;
        if (t.nodes[node].proof)
            winner = t.nodes[node].proof == WIN ? 3 - me : me;
        else
            winner = playout(board, g, me, prev, played, &rng);
        int mover = 3 - to_play;
        for (int i = 0; i < depth; i++) {
            Node *u = &t.nodes[path[i]];
            u->visits += 1.0;
            u->real += 1;
            if (winner == mover) u->wins += 1.0;
            if (u->first >= 0) {
                int child_mover = 3 - mover;
                double won = winner == child_mover ? 1.0 : 0.0;
                for (long c = u->first; c < u->first + u->nchild; c++) {
                    Node *ch = &t.nodes[c];
                    if (played[ch->move] == child_mover) {
                        ch->rv += 1.0;
                        ch->rw += won;
                    }
                }
            }
            mover = 3 - mover;
        }
        for (int i = depth - 1; i > 0 && t.nodes[path[i]].proof; i--) {
            Node *child = &t.nodes[path[i]], *parent = &t.nodes[path[i - 1]];
            if (child->proof == WIN) {
                parent->proof = LOSS;
            } else {
                int all = 1;
                for (long c = parent->first; c < parent->first + parent->nchild; c++)
                    if (t.nodes[c].proof != LOSS) {
                        all = 0;
                        break;
                    }
                if (!all) break;
                parent->proof = WIN;
            }
        }
    }
    PyEval_RestoreThread(ts);
    if (stopview.obj != NULL) PyBuffer_Release(&stopview);
    PyObject *out = NULL;
    if (oom) {
        PyErr_NoMemory();
        goto done;
    }
    Node *r0 = &t.nodes[0];
    PyObject *children = PyList_New(0);
    if (children == NULL) goto done;
    if (r0->first >= 0)
        for (long c = r0->first; c < r0->first + r0->nchild; c++) {
            Node *ch = &t.nodes[c];
            PyObject *item = Py_BuildValue("(iiddi)", (int)ch->move, (int)ch->real, ch->wins, ch->visits,
                                           (int)ch->proof);
            if (item == NULL || PyList_Append(children, item) < 0) {
                Py_XDECREF(item);
                Py_DECREF(children);
                goto done;
            }
            Py_DECREF(item);
        }
    PyObject *line = principal_line(&t);
    if (line == NULL) {
        Py_DECREF(children);
        goto done;
    }
    out = Py_BuildValue("(NLilN)", children, done, (int)r0->proof, t.count, line);
done:
    free(t.nodes);
    free(g);
    return out;
}

static PyMethodDef methods[] = {
    {"search", (PyCFunction)(void (*)(void))py_search, METH_VARARGS | METH_KEYWORDS,
     "search(size, cells, to_play, last, iterations, seconds, seed, should_stop=None, max_nodes=2000000)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_cmcts", "Hex MCTS engine (see engine_py.py).", -1,
                                    methods};

PyMODINIT_FUNC PyInit__cmcts(void) { return PyModule_Create(&module); }
