/* _chex: the hot path of the immutable Hex API (HexGame.play / random_move / to_move / outcome / legal) in C.
 *
 * Why this shape: the public API is what the referee, the conformance suite and generic tools call, and in pure
 * Python it spends most of a move on interpreter overhead (attribute reads, a Python-level union-find). Here
 * the common case -- a cell move on a board whose union-find fits in bytes (N <= 15) -- is done in one C call
 * that copies the two byte arrays, unions the stone with its same-coloured neighbours exactly like
 * game._place (same path halving, so even the private parent array is byte-identical) and builds the new
 * HexState. Everything else (swap, resign, every error, boards above 15x15, terminal positions) is delegated
 * to the pure-Python reference methods, so messages and rare rules have a single source of truth.
 *
 * States stay instances of the Python class game.HexState (a __slots__ class): this module reads and writes
 * its slots at the offsets published by the class's member descriptors, checked at init. The pure-Python
 * engine therefore keeps working on states made here and vice versa.
 *
 * Usage (see accel.py): init(HexState, HexGame, Termination.NORMAL, SWAP, geometry) once, then subclass
 * FastHex together with HexGame; FastHex's methods come first in the MRO.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <string.h>

#define MAX_SIZE 26
#define MAX_NODES (MAX_SIZE * MAX_SIZE + 4)
#define EMPTY 0
#define BLACK 1
#define WHITE 2

/* Slot offsets in game.HexState, read from its member descriptors by init(). */
enum { S_CELLS, S_GEO, S_PARENT, S_HASH, S_LAST, S_PLY, S_SIZE, S_SWAP, S_SWAPPED, S_TERM, S_WINNER, S_COUNT };
static const char *slot_names[S_COUNT] = {"_cells", "_geo", "_parent", "hash", "last", "ply",
                                          "size", "swap", "swapped", "termination", "winner"};
static Py_ssize_t slot_off[S_COUNT];

static PyTypeObject *state_type = NULL; /* game.HexState */
static PyObject *py_play = NULL;        /* HexGame.play (the reference, for everything off the fast path) */
static PyObject *py_random_move = NULL;
static PyObject *py_outcome = NULL;
static PyObject *py_legal = NULL;
static PyObject *py_to_move = NULL;
static PyObject *term_normal = NULL; /* Termination.NORMAL */
static PyObject *swap_move = NULL;   /* SWAP */
static PyObject *geometry_fn = NULL; /* geometry(size) -> Geometry */
static PyObject *str_random = NULL;

/* Per board size, what the hot path needs from geometry.Geometry, as C arrays. */
typedef struct {
    int ready;
    int n2;
    int top, bottom, left, right;
    uint8_t nb_count[MAX_SIZE * MAX_SIZE];
    uint16_t nbs[MAX_SIZE * MAX_SIZE][6];
    uint64_t zblack[MAX_SIZE * MAX_SIZE];
    uint64_t zwhite[MAX_SIZE * MAX_SIZE];
    PyObject *cells; /* tuple of (row, col) tuples, shared with Geometry.cells */
} Geo;

static Geo geos[MAX_SIZE + 1];

#define SLOT(obj, k) (*(PyObject **)((char *)(obj) + slot_off[k]))

static int load_geo(int size) {
    Geo *g = &geos[size];
    PyObject *geo = NULL, *nbs = NULL, *zb = NULL, *zw = NULL, *cells = NULL;
    int ok = -1;
    geo = PyObject_CallFunction(geometry_fn, "i", size);
    if (geo == NULL) goto done;
    nbs = PyObject_GetAttrString(geo, "nbs");
    zb = PyObject_GetAttrString(geo, "zblack");
    zw = PyObject_GetAttrString(geo, "zwhite");
    cells = PyObject_GetAttrString(geo, "cells");
    if (nbs == NULL || zb == NULL || zw == NULL || cells == NULL) goto done;
    int n2 = size * size;
    if (!PyTuple_Check(nbs) || PyTuple_GET_SIZE(nbs) != n2 || !PyTuple_Check(zb) || PyTuple_GET_SIZE(zb) != n2 ||
        !PyTuple_Check(zw) || PyTuple_GET_SIZE(zw) != n2 || !PyTuple_Check(cells) || PyTuple_GET_SIZE(cells) != n2) {
        PyErr_SetString(PyExc_TypeError, "_chex: unexpected Geometry layout");
        goto done;
    }
    for (int i = 0; i < n2; i++) {
        PyObject *t = PyTuple_GET_ITEM(nbs, i);
        if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) > 6) {
            PyErr_SetString(PyExc_TypeError, "_chex: unexpected neighbour table");
            goto done;
        }
        g->nb_count[i] = (uint8_t)PyTuple_GET_SIZE(t);
        for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(t); k++) {
            long v = PyLong_AsLong(PyTuple_GET_ITEM(t, k));
            if (v < 0 || v >= n2 + 4) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "_chex: neighbour out of range");
                goto done;
            }
            g->nbs[i][k] = (uint16_t)v;
        }
        g->zblack[i] = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(zb, i));
        g->zwhite[i] = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(zw, i));
        if (PyErr_Occurred()) goto done;
    }
    g->n2 = n2;
    g->top = n2;
    g->bottom = n2 + 1;
    g->left = n2 + 2;
    g->right = n2 + 3;
    Py_INCREF(cells);
    g->cells = cells;
    g->ready = 1;
    ok = 0;
done:
    Py_XDECREF(geo);
    Py_XDECREF(nbs);
    Py_XDECREF(zb);
    Py_XDECREF(zw);
    Py_XDECREF(cells);
    return ok;
}

/* The Geo of a state's size, or NULL with no exception when the fast path does not apply. */
static Geo *geo_of(PyObject *state, int *err) {
    PyObject *size_obj = SLOT(state, S_SIZE);
    *err = 0;
    if (size_obj == NULL || !PyLong_CheckExact(size_obj)) return NULL;
    long size = PyLong_AsLong(size_obj);
    if (size < 1 || size > MAX_SIZE) {
        PyErr_Clear();
        return NULL;
    }
    Geo *g = &geos[size];
    if (!g->ready && load_geo((int)size) < 0) {
        *err = 1;
        return NULL;
    }
    return g;
}

static PyObject *call_ref(PyObject *fn, PyObject *const *args, Py_ssize_t nargs) {
    return PyObject_Vectorcall(fn, args, nargs, NULL);
}

static int check_ready(void) {
    if (state_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_chex.init() was not called");
        return 0;
    }
    return 1;
}

/* FastHex.play(self, state, move) */
static PyObject *fast_play(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    PyObject *full[3] = {self, NULL, NULL};
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "play() takes 2 arguments (%zd given)", nargs);
        return NULL;
    }
    if (!check_ready()) return NULL;
    full[1] = args[0];
    full[2] = args[1];
    PyObject *state = args[0], *move = args[1];
    if (Py_TYPE(state) != state_type || SLOT(state, S_TERM) != Py_None) goto slow;
    if (!PyTuple_CheckExact(move) || PyTuple_GET_SIZE(move) != 2) goto slow;
    PyObject *ro = PyTuple_GET_ITEM(move, 0), *co = PyTuple_GET_ITEM(move, 1);
    if (!PyLong_CheckExact(ro) || !PyLong_CheckExact(co)) goto slow;
    int err;
    Geo *g = geo_of(state, &err);
    if (err) return NULL;
    if (g == NULL) goto slow;
    int size = (int)(g - geos);
    int overflow = 0;
    long r = PyLong_AsLongAndOverflow(ro, &overflow);
    if (overflow) goto slow;
    long c = PyLong_AsLongAndOverflow(co, &overflow);
    if (overflow) goto slow;
    if (r < 0 || r >= size || c < 0 || c >= size) goto slow;
    PyObject *cells_obj = SLOT(state, S_CELLS), *parent_obj = SLOT(state, S_PARENT);
    PyObject *ply_obj = SLOT(state, S_PLY), *swapped_obj = SLOT(state, S_SWAPPED), *hash_obj = SLOT(state, S_HASH);
    if (cells_obj == NULL || parent_obj == NULL || ply_obj == NULL || swapped_obj == NULL || hash_obj == NULL)
        goto slow;
    if (!PyByteArray_CheckExact(cells_obj) || !PyByteArray_CheckExact(parent_obj) || !PyLong_CheckExact(ply_obj) ||
        !PyLong_CheckExact(hash_obj) || !PyBool_Check(swapped_obj))
        goto slow;
    Py_ssize_t nodes = g->n2 + 4;
    if (PyByteArray_GET_SIZE(cells_obj) != nodes || PyByteArray_GET_SIZE(parent_obj) != nodes) goto slow;
    int i = (int)(r * size + c);
    const uint8_t *old_cells = (const uint8_t *)PyByteArray_AS_STRING(cells_obj);
    if (old_cells[i]) goto slow; /* occupied: the reference raises the error */
    long ply = PyLong_AsLong(ply_obj);
    if (ply < 0) {
        PyErr_Clear();
        goto slow;
    }
    int swapped = swapped_obj == Py_True;
    uint64_t hash = PyLong_AsUnsignedLongLong(hash_obj);
    if (hash == (uint64_t)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        goto slow;
    }

    uint8_t colour = ((ply - swapped) & 1) ? WHITE : BLACK;
    PyObject *cells_new = PyByteArray_FromStringAndSize((const char *)old_cells, nodes);
    if (cells_new == NULL) return NULL;
    PyObject *parent_new = PyByteArray_FromStringAndSize(PyByteArray_AS_STRING(parent_obj), nodes);
    if (parent_new == NULL) {
        Py_DECREF(cells_new);
        return NULL;
    }
    uint8_t *cells = (uint8_t *)PyByteArray_AS_STRING(cells_new);
    uint8_t *parent = (uint8_t *)PyByteArray_AS_STRING(parent_new);
    cells[i] = colour;
    int root = i;
    for (int k = 0; k < g->nb_count[i]; k++) {
        int nb = g->nbs[i][k];
        if (cells[nb] == colour) {
            int x = nb;
            while (parent[x] != x) {
                parent[x] = parent[parent[x]];
                x = parent[x];
            }
            if (x != root) {
                parent[root] = (uint8_t)x;
                root = x;
            }
        }
    }
    int a = colour == BLACK ? g->top : g->left;
    int b = colour == BLACK ? g->bottom : g->right;
    while (parent[a] != a) {
        parent[a] = parent[parent[a]];
        a = parent[a];
    }
    int won = 0;
    if (a == root) {
        while (parent[b] != b) {
            parent[b] = parent[parent[b]];
            b = parent[b];
        }
        won = b == root;
    }
    hash ^= colour == BLACK ? g->zblack[i] : g->zwhite[i];

    PyObject *ply_new = PyLong_FromLong(ply + 1);
    PyObject *hash_new = PyLong_FromUnsignedLongLong(hash);
    PyObject *winner = won ? PyLong_FromLong(ply % 2) : Py_NewRef(Py_None);
    PyObject *s = state_type->tp_alloc(state_type, 0);
    if (ply_new == NULL || hash_new == NULL || winner == NULL || s == NULL) {
        Py_XDECREF(ply_new);
        Py_XDECREF(hash_new);
        Py_XDECREF(winner);
        Py_XDECREF(s);
        Py_DECREF(cells_new);
        Py_DECREF(parent_new);
        return NULL;
    }
    SLOT(s, S_SIZE) = Py_NewRef(SLOT(state, S_SIZE));
    SLOT(s, S_SWAP) = Py_XNewRef(SLOT(state, S_SWAP));
    SLOT(s, S_GEO) = Py_XNewRef(SLOT(state, S_GEO));
    SLOT(s, S_CELLS) = cells_new;
    SLOT(s, S_PARENT) = parent_new;
    SLOT(s, S_PLY) = ply_new;
    SLOT(s, S_SWAPPED) = Py_NewRef(swapped_obj);
    SLOT(s, S_LAST) = Py_NewRef(move);
    SLOT(s, S_HASH) = hash_new;
    SLOT(s, S_WINNER) = winner;
    SLOT(s, S_TERM) = Py_NewRef(won ? term_normal : Py_None);
    return s;
slow:
    return call_ref(py_play, full, 3);
}

/* The next double from rng.random(), or -1 with an exception set. */
static double next_random(PyObject *rng) {
    PyObject *args[1] = {rng};
    PyObject *v = PyObject_VectorcallMethod(str_random, args, 1 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
    if (v == NULL) return -1.0;
    double d = PyFloat_AsDouble(v);
    Py_DECREF(v);
    if (d == -1.0 && PyErr_Occurred()) return -1.0;
    return d;
}

/* FastHex.random_move(self, state, rng): the reference's rejection sampling, same rng calls, same result. */
static PyObject *fast_random_move(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    PyObject *full[3] = {self, NULL, NULL};
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "random_move() takes 2 arguments (%zd given)", nargs);
        return NULL;
    }
    if (!check_ready()) return NULL;
    full[1] = args[0];
    full[2] = args[1];
    PyObject *state = args[0], *rng = args[1];
    if (Py_TYPE(state) != state_type || SLOT(state, S_TERM) != Py_None) goto slow;
    PyObject *ply_obj = SLOT(state, S_PLY), *swap_obj = SLOT(state, S_SWAP), *cells_obj = SLOT(state, S_CELLS);
    if (ply_obj == NULL || swap_obj == NULL || cells_obj == NULL || !PyLong_CheckExact(ply_obj) ||
        !PyBool_Check(swap_obj) || !PyByteArray_CheckExact(cells_obj))
        goto slow;
    long ply = PyLong_AsLong(ply_obj);
    if (ply == 1 && swap_obj == Py_True) goto slow;
    int err;
    Geo *g = geo_of(state, &err);
    if (err) return NULL;
    if (g == NULL || PyByteArray_GET_SIZE(cells_obj) != g->n2 + 4) goto slow;
    Py_ssize_t n2 = g->n2;
    PyObject *result = NULL;
    Py_INCREF(cells_obj); /* rng.random() is arbitrary Python code: keep the array alive whatever it does */
    for (;;) {
        double d = next_random(rng);
        if (d == -1.0 && PyErr_Occurred()) goto out;
        /* Python's int(rnd() * n2): the same IEEE product, truncated toward zero. */
        double p = d * (double)n2;
        Py_ssize_t i;
        if (p >= 0.0 && p < (double)n2) {
            i = (Py_ssize_t)p;
        } else {
            /* A strange rng (only a broken one leaves [0, 1)): reproduce int() and Python indexing. */
            PyObject *f = PyFloat_FromDouble(p);
            if (f == NULL) goto out;
            PyObject *io = PyNumber_Long(f);
            Py_DECREF(f);
            if (io == NULL) goto out;
            i = PyLong_AsSsize_t(io);
            Py_DECREF(io);
            if (i == -1 && PyErr_Occurred()) {
                PyErr_SetString(PyExc_IndexError, "cannot fit 'int' into an index-sized integer");
                goto out;
            }
        }
        /* Re-read the buffer each time: rng.random() is arbitrary Python code. */
        Py_ssize_t len = PyByteArray_GET_SIZE(cells_obj), ci = i < 0 ? i + len : i;
        if (ci < 0 || ci >= len) {
            PyErr_SetString(PyExc_IndexError, "bytearray index out of range");
            goto out;
        }
        if (((const uint8_t *)PyByteArray_AS_STRING(cells_obj))[ci]) continue;
        Py_ssize_t ti = i < 0 ? i + n2 : i;
        if (ti < 0 || ti >= n2) {
            PyErr_SetString(PyExc_IndexError, "tuple index out of range");
            goto out;
        }
        result = Py_NewRef(PyTuple_GET_ITEM(g->cells, ti));
        goto out;
    }
out:
    Py_DECREF(cells_obj);
    return result;
slow:
    return call_ref(py_random_move, full, 3);
}

static PyObject *fast_to_move(PyObject *self, PyObject *state) {
    if (!check_ready()) return NULL;
    if (Py_TYPE(state) == state_type && SLOT(state, S_TERM) == Py_None) {
        PyObject *ply = SLOT(state, S_PLY);
        if (ply != NULL && PyLong_CheckExact(ply)) {
            long v = PyLong_AsLong(ply);
            if (v >= 0) return PyLong_FromLong(v & 1);
            PyErr_Clear();
        }
    } else if (Py_TYPE(state) == state_type && SLOT(state, S_TERM) != NULL) {
        Py_RETURN_NONE;
    }
    PyObject *args[2] = {self, state};
    return call_ref(py_to_move, args, 2);
}

static PyObject *fast_outcome(PyObject *self, PyObject *state) {
    if (!check_ready()) return NULL;
    if (Py_TYPE(state) == state_type && (SLOT(state, S_TERM) == Py_None || SLOT(state, S_WINNER) == Py_None))
        Py_RETURN_NONE;
    PyObject *args[2] = {self, state};
    return call_ref(py_outcome, args, 2);
}

/* FastHex.legal(self, state): every empty cell in row-major order, then SWAP when allowed. */
static PyObject *fast_legal(PyObject *self, PyObject *state) {
    PyObject *full[2] = {self, state};
    if (!check_ready()) return NULL;
    if (Py_TYPE(state) != state_type || SLOT(state, S_TERM) == NULL) goto slow;
    if (SLOT(state, S_TERM) != Py_None) return PyList_New(0);
    PyObject *cells_obj = SLOT(state, S_CELLS), *ply_obj = SLOT(state, S_PLY), *swap_obj = SLOT(state, S_SWAP);
    if (cells_obj == NULL || ply_obj == NULL || swap_obj == NULL || !PyByteArray_CheckExact(cells_obj) ||
        !PyLong_CheckExact(ply_obj) || !PyBool_Check(swap_obj))
        goto slow;
    int err;
    Geo *g = geo_of(state, &err);
    if (err) return NULL;
    if (g == NULL || PyByteArray_GET_SIZE(cells_obj) != g->n2 + 4) goto slow;
    const uint8_t *cells = (const uint8_t *)PyByteArray_AS_STRING(cells_obj);
    int empties = 0;
    for (int i = 0; i < g->n2; i++) empties += cells[i] == EMPTY;
    int with_swap = swap_obj == Py_True && PyLong_AsLong(ply_obj) == 1;
    PyObject *out = PyList_New(empties + with_swap);
    if (out == NULL) return NULL;
    Py_ssize_t k = 0;
    for (int i = 0; i < g->n2; i++)
        if (cells[i] == EMPTY) PyList_SET_ITEM(out, k++, Py_NewRef(PyTuple_GET_ITEM(g->cells, i)));
    if (with_swap) PyList_SET_ITEM(out, k, Py_NewRef(swap_move));
    return out;
slow:
    return call_ref(py_legal, full, 2);
}

static PyMethodDef fast_methods[] = {
    {"play", (PyCFunction)(void (*)(void))fast_play, METH_FASTCALL, "HexGame.play, C fast path for cell moves."},
    {"random_move", (PyCFunction)(void (*)(void))fast_random_move, METH_FASTCALL,
     "HexGame.random_move, same rng calls as the reference."},
    {"to_move", (PyCFunction)fast_to_move, METH_O, "HexGame.to_move."},
    {"outcome", (PyCFunction)fast_outcome, METH_O, "HexGame.outcome (None without a call into Python)."},
    {"legal", (PyCFunction)fast_legal, METH_O, "HexGame.legal."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject FastHexType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "hexarena.games.hex._chex.FastHex",
    .tp_basicsize = sizeof(PyObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Mixin whose C methods shadow HexGame's hot methods; put it first among the bases.",
    .tp_methods = fast_methods,
    .tp_new = PyType_GenericNew,
};

/* init(HexState, HexGame, Termination.NORMAL, SWAP, geometry) */
static PyObject *mod_init(PyObject *mod, PyObject *args) {
    (void)mod;
    PyObject *stype, *game_cls, *normal, *swap, *geo_fn;
    if (!PyArg_ParseTuple(args, "O!OOOO", &PyType_Type, &stype, &game_cls, &normal, &swap, &geo_fn)) return NULL;
    PyTypeObject *st = (PyTypeObject *)stype;
    Py_ssize_t offs[S_COUNT];
    for (int k = 0; k < S_COUNT; k++) {
        PyObject *d = PyDict_GetItemString(st->tp_dict, slot_names[k]);
        if (d == NULL || Py_TYPE(d) != &PyMemberDescr_Type) {
            PyErr_Format(PyExc_TypeError, "_chex: HexState.%s is not a __slots__ member", slot_names[k]);
            return NULL;
        }
        PyMemberDef *m = ((PyMemberDescrObject *)d)->d_member;
        if (m->type != T_OBJECT_EX || m->flags != 0) {
            PyErr_Format(PyExc_TypeError, "_chex: HexState.%s is not a plain object slot", slot_names[k]);
            return NULL;
        }
        offs[k] = m->offset;
    }
    if (st->tp_dictoffset != 0 || st->tp_itemsize != 0) {
        PyErr_SetString(PyExc_TypeError, "_chex: HexState must have __slots__ and no __dict__");
        return NULL;
    }
    PyObject *p = PyObject_GetAttrString(game_cls, "play");
    PyObject *r = PyObject_GetAttrString(game_cls, "random_move");
    PyObject *o = PyObject_GetAttrString(game_cls, "outcome");
    PyObject *l = PyObject_GetAttrString(game_cls, "legal");
    PyObject *t = PyObject_GetAttrString(game_cls, "to_move");
    PyObject *rs = PyUnicode_InternFromString("random");
    if (p == NULL || r == NULL || o == NULL || l == NULL || t == NULL || rs == NULL) {
        Py_XDECREF(t);
        Py_XDECREF(p);
        Py_XDECREF(r);
        Py_XDECREF(o);
        Py_XDECREF(l);
        Py_XDECREF(rs);
        return NULL;
    }
    memcpy(slot_off, offs, sizeof offs);
    Py_XSETREF(state_type, (PyTypeObject *)Py_NewRef(stype));
    Py_XSETREF(py_play, p);
    Py_XSETREF(py_random_move, r);
    Py_XSETREF(py_outcome, o);
    Py_XSETREF(py_legal, l);
    Py_XSETREF(py_to_move, t);
    Py_XSETREF(str_random, rs);
    Py_XSETREF(term_normal, Py_NewRef(normal));
    Py_XSETREF(swap_move, Py_NewRef(swap));
    Py_XSETREF(geometry_fn, Py_NewRef(geo_fn));
    for (int s = 0; s <= MAX_SIZE; s++) {
        Py_CLEAR(geos[s].cells);
        geos[s].ready = 0;
    }
    Py_RETURN_NONE;
}

static PyMethodDef mod_methods[] = {
    {"init", mod_init, METH_VARARGS, "init(HexState, HexGame, Termination.NORMAL, SWAP, geometry)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef chex_module = {
    PyModuleDef_HEAD_INIT, "_chex", "C hot path for the immutable Hex API (see accel.py).", -1, mod_methods,
};

PyMODINIT_FUNC PyInit__chex(void) {
    if (PyType_Ready(&FastHexType) < 0) return NULL;
    PyObject *m = PyModule_Create(&chex_module);
    if (m == NULL) return NULL;
    if (PyModule_AddObjectRef(m, "FastHex", (PyObject *)&FastHexType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
