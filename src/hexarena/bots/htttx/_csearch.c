/* The HTTTX search engine in C: a port of search_py.py (read that file for the algorithm and the why).
 *
 * Every decision here must equal the Python reference's for the same position and node budget (the tests play
 * both in lockstep): integer arithmetic only, every sort a total order (ties broken on cell / pair indexes), the
 * same node counting, the same transposition-table indexing and replacement. Change one, change the other.
 *
 * What differs is how the same values are found, because this is the engine that plays: what Python recomputes
 * from the windows' counts at every node, place/undo keep here as stones come and go (each colour's threat and
 * building windows as sets, every cell's ordering score, the candidate cells as a set, which cells are empty and
 * safe), a pair's worth and the blockers a threat pair leaves are computed from the counts without placing its
 * stones, the top cells are selected, not sorted, and the short move lists are insertion-sorted.
 * cc -DCHECK_SCORES checks the kept scores against the counts at every read, and the kept candidates against the grid.
 *
 * The search runs without the GIL (it touches only its own memory); every TIME_MASK + 1 nodes it reads the
 * monotonic clock and the host's stop flag (one byte the host sets, ``stopping.StopSignal``). It never takes the GIL
 * back before it is done: a thread waiting for the GIL waits for whichever thread holds it, and on a busy machine
 * that thread may not be running, so a wait that straddles the deadline lands on the clock.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define N 128
#define NN (N * N)
#define WIN 1000000LL
#define INF 2000000LL
#define MATE_BAND 1000
#define QDEPTH 6
#define K_ROOT 16
#define K_INNER 9
#define M_INNER 14
#define KB_MAIN 6
#define KB_Q 3
#define KT 8
#define MT 6
#define TSS_TURNS 3
#define KT_TSS 12
#define TSS_SHARE 0.3
#define T_INNER 2
#define LEAF_TSS 24
#define LEAF_TURNS 2
#define SIDE_KEY 0x9E3779B97F4A7C15ULL
#define EXACT 0
#define LOWER 1
#define UPPER 2
#define TIME_MASK 63
#define WCAP 2000
#define MAXL 10
#define MAXTW 60

typedef long long i64;
typedef unsigned long long u64;

typedef struct {
    u64 key;
    i64 score;
    int depth, flag, a, b, used;
} TTEntry;

typedef struct {
    i64 score;
    int c;
} Cell;

typedef struct {
    i64 score;
    i64 score2;
    int a, b;
} Pair;

/* A set of window indexes with O(1) add and remove (``pos[w]``: index in ``items`` + 1, 0 when absent). Which order
 * the items are in never matters: every user sorts what it derives from them on a total order. */
typedef struct {
    int *items;
    int *pos;
    int n;
} WSet;

typedef struct {
    int L;
    i64 W[MAXL + 2];
    /* fv[x][y]: what a stone adds to the evaluation through one window holding x of its colour and y of the
     * other's (cell_score's term, a table instead of branches) */
    i64 fv[MAXL + 2][MAXL + 2];
    /* dfs[x][y] / dfo[x][y]: what one more stone of sd in a window holding x of sd's and y of the other's changes a
     * cell's score for sd (fv[x + 1][y] - fv[x][y]) and for the other side (fv[y][x + 1] - fv[y][x]) */
    int32_t dfs[MAXL + 1][MAXL + 1], dfo[MAXL + 1][MAXL + 1];
    /* the evaluation table (search_py.check_table): own[count] for the side to move's windows, opp[count] for the
     * opponent's; sum_own[c] / sum_opp[c]: each summed over the windows holding colour c's stones only */
    i64 own[MAXL + 2], opp[MAXL + 2];
    i64 sum_own[2], sum_opp[2];
    /* per colour: its threat windows (>= L - 2 stones, no enemy) and its building windows (L - 4 .. L - 3 stones,
     * at least one, no enemy), kept up to date by place/undo instead of scanning the board for them */
    WSet threats[2], builds[2];
    int *wsets;
    /* csc[sd][c]: cell_score(c, sd) of every cell, kept up to date by place/undo (a stone changes the windows
     * through it, and with them the score of every cell in those windows) */
    int32_t csc[2][NN];
    int blo;
    int side;
    int q0, r0;
    unsigned char grid[NN];
    /* avail[c]: c is empty and safe (a cell a window's empties may name), kept by place/undo */
    unsigned char avail[NN];
    unsigned char nearc[NN];
    unsigned char cnt[2][3 * NN];
    int nthreat[2];
    u64 key;
    /* the candidate cells: empty, safe and near a stone (nearc > 0), kept by place/undo */
    WSet cands;
    int nstones;
    int axes[3];
    int near_offs[64];
    int nnear;
    i64 hist[NN];
    TTEntry *tt;
    u64 tt_mask;
    i64 nodes, max_nodes;
    i64 tss_left;
    double tss_deadline;
    double deadline;
    const unsigned char *stop; /* the host's stop flag, read without the GIL (NULL: none) */
    PyThreadState *ts;
    int aborted;
    /* scratch */
    u64 mask[NN];
    i64 tsc[NN];
    Cell *cells;
} S;

static u64 splitmix64(u64 x) {
    x = x + 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

static u64 zob(int q, int r, int seat) {
    u64 x = (((u64)(uint32_t)q) << 33) | (((u64)(uint32_t)r) << 1) | (u64)seat;
    return splitmix64(x);
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int safe(S *s, int c) {
    int x = c % N, y = c / N;
    return s->L <= x && x < N - s->L && s->L <= y && y < N - s->L;
}

#ifdef CHECK_SCORES /* cc -DCHECK_SCORES: every cell_score is checked against the windows' counts */
static i64 full_cell_score(S *s, int c, int sd);
#endif

static void ws_add(WSet *ws, int w) {
    ws->pos[w] = ws->n + 1;
    ws->items[ws->n++] = w;
}

static void ws_del(WSet *ws, int w) {
    int i = ws->pos[w] - 1, last = ws->items[--ws->n];
    ws->items[i] = last;
    ws->pos[last] = i + 1;
    ws->pos[w] = 0;
}

#define HOT static inline __attribute__((always_inline))

/* The L windows through c along d (window i starting i cells before c) changed: their cells' scores change by
 * da[i] for sd and db[i] for the other side. A cell k cells past c lies in windows max(0, -k) .. min(L - 1,
 * L - 1 - k), so each of the 2 L - 1 cells takes one running sum of the windows' changes (instead of every window
 * adding to each of its L cells). */
HOT void rescore(S *s, int c, const int d, int sd, const int32_t *da, const int32_t *db, const int L) {
    int32_t *A = s->csc[sd] + c, *B = s->csc[1 - sd] + c;
    int32_t sa = 0, sb = 0;
#pragma GCC unroll 10
    for (int i = L - 1; i >= 1; i--) { /* cells before c: windows i .. L - 1 */
        sa += da[i];
        sb += db[i];
        A[-i * d] += sa;
        B[-i * d] += sb;
    }
    sa += da[0];
    sb += db[0];
    A[0] += sa;
    B[0] += sb;
#pragma GCC unroll 10
    for (int k = 1; k < L; k++) { /* cells past c: windows 0 .. L - 1 - k */
        sa -= da[L - k];
        sb -= db[L - k];
        A[k * d] += sa;
        B[k * d] += sb;
    }
}

/* place (up = 1) or undo (up = 0) sd's stone on c, for a win distance L the compiler may know (place_L6: every
 * loop over a window's cells unrolled, every offset a constant) */
/* the cells within hex distance 2 (near = 2), as offsets on the grid: the search's near_offs when near is 2 */
static const int NEAR2[18] = {-2 * N,     -2 * N + 1, -2 * N + 2, -N - 1, -N,    -N + 1, -N + 2, -2,    -1,
                              1,          2,          N - 2,      N - 1,  N,     N + 1,  2 * N - 2, 2 * N - 1, 2 * N};

HOT void move_stone(S *s, int c, int sd, const int L, const int up) {
    unsigned char *cs = s->cnt[sd], *co = s->cnt[1 - sd];
    const int t = L - 2, blo = L - 4 > 1 ? L - 4 : 1;
    i64 ds_own = 0, ds_opp = 0, do_own = 0, do_opp = 0;
    int dts = 0, dto = 0;
    int32_t da[MAXL] = {0}, db[MAXL] = {0}; /* (all L written before rescore reads them) */
#pragma GCC unroll 3
    for (int a = 0; a < 3; a++) {
        const int d = a == 0 ? 1 : (a == 1 ? N : 1 - N), base = a * NN;
#pragma GCC unroll 10
        for (int i = 0; i < L; i++) {
            int w = base + c - i * d;
            /* x: sd's stones in the window without this one */
            int x = up ? cs[w] : cs[w] - 1, y = co[w];
            if (y == 0) {
                ds_own += s->own[x + 1] - s->own[x];
                ds_opp += s->opp[x + 1] - s->opp[x];
                if (x + 1 >= t && x < t) {
                    dts++;
                    if (up)
                        ws_add(&s->threats[sd], w);
                    else
                        ws_del(&s->threats[sd], w);
                }
                int was = x >= blo && x < t, now_ = x + 1 >= blo && x + 1 < t; /* a building window without / with */
                if (was != now_) {
                    if (was == up)
                        ws_del(&s->builds[sd], w);
                    else
                        ws_add(&s->builds[sd], w);
                }
            } else if (x == 0) {
                do_own += s->own[y];
                do_opp += s->opp[y];
                if (y >= t) {
                    dto--;
                    if (up)
                        ws_del(&s->threats[1 - sd], w);
                    else
                        ws_add(&s->threats[1 - sd], w);
                }
                if (y >= blo && y < t) {
                    if (up)
                        ws_del(&s->builds[1 - sd], w);
                    else
                        ws_add(&s->builds[1 - sd], w);
                }
            }
            cs[w] = (unsigned char)(up ? x + 1 : x);
            da[i] = up ? s->dfs[x][y] : -s->dfs[x][y];
            db[i] = up ? s->dfo[x][y] : -s->dfo[x][y];
        }
        rescore(s, c, d, sd, da, db, L);
    }
    if (up) {
        s->sum_own[sd] += ds_own;
        s->sum_opp[sd] += ds_opp;
        s->sum_own[1 - sd] -= do_own;
        s->sum_opp[1 - sd] -= do_opp;
        s->nthreat[sd] += dts;
        s->nthreat[1 - sd] += dto;
        s->grid[c] = (unsigned char)(sd + 1);
        s->avail[c] = 0;
        if (s->cands.pos[c]) ws_del(&s->cands, c);
        if (L == 6 && s->nnear == 18) {
#pragma GCC unroll 18
            for (int k = 0; k < 18; k++) {
                int e = c + NEAR2[k];
                if (s->nearc[e]++ == 0 && s->avail[e]) ws_add(&s->cands, e);
            }
        } else
            for (int k = 0; k < s->nnear; k++) {
                int e = c + s->near_offs[k];
                if (s->nearc[e]++ == 0 && s->avail[e]) ws_add(&s->cands, e);
            }
        s->nstones++;
    } else {
        s->sum_own[sd] -= ds_own;
        s->sum_opp[sd] -= ds_opp;
        s->sum_own[1 - sd] += do_own;
        s->sum_opp[1 - sd] += do_opp;
        s->nthreat[sd] -= dts;
        s->nthreat[1 - sd] -= dto;
        s->grid[c] = 0;
        s->avail[c] = (unsigned char)safe(s, c);
        if (L == 6 && s->nnear == 18) {
#pragma GCC unroll 18
            for (int k = 0; k < 18; k++) {
                int e = c + NEAR2[k];
                if (--s->nearc[e] == 0 && s->cands.pos[e]) ws_del(&s->cands, e);
            }
        } else
            for (int k = 0; k < s->nnear; k++) {
                int e = c + s->near_offs[k];
                if (--s->nearc[e] == 0 && s->cands.pos[e]) ws_del(&s->cands, e);
            }
        if (s->nearc[c] && s->avail[c]) ws_add(&s->cands, c);
        s->nstones--;
    }
    s->key ^= zob(c % N + s->q0, c / N + s->r0, sd);
}

static void place_L6(S *s, int c, int sd) { move_stone(s, c, sd, 6, 1); }
static void undo_L6(S *s, int c, int sd) { move_stone(s, c, sd, 6, 0); }
static void place_any(S *s, int c, int sd) { move_stone(s, c, sd, s->L, 1); }
static void undo_any(S *s, int c, int sd) { move_stone(s, c, sd, s->L, 0); }

static void place(S *s, int c, int sd) {
    if (s->L == 6)
        place_L6(s, c, sd);
    else
        place_any(s, c, sd);
}

static void undo(S *s, int c, int sd) {
    if (s->L == 6)
        undo_L6(s, c, sd);
    else
        undo_any(s, c, sd);
}

/* what a stone of sd on c adds to sd's windows by W (the ordering's value; kept by place/undo) */
static i64 cell_score(S *s, int c, int sd) {
#ifdef CHECK_SCORES
    if (s->csc[sd][c] != full_cell_score(s, c, sd)) abort();
#endif
    return s->csc[sd][c];
}

#ifdef CHECK_SCORES
/* cell_score from the windows' counts */
static i64 full_cell_score(S *s, int c, int sd) {
    const unsigned char *cs = s->cnt[sd], *co = s->cnt[1 - sd];
    i64 v = 0;
    int L = s->L;
    for (int a = 0; a < 3; a++) {
        int d = s->axes[a];
        const unsigned char *ps = cs + a * NN + c, *po = co + a * NN + c;
        for (int i = 0; i < L; i++) v += s->fv[ps[-i * d]][po[-i * d]];
    }
    return v;
}
#endif

/* what stones of sd on a and b add to sd's evaluation together, given each one's cell_score (sa, sb): what place
 * twice would add, without placing: the windows holding both count a's stone when b's term is taken */
static i64 pair_gain(S *s, int a, i64 sa, int b, i64 sb, int sd) {
    const unsigned char *cs = s->cnt[sd], *co = s->cnt[1 - sd];
    int L = s->L;
    int xa = a % N, ya = a / N, xb = b % N, yb = b / N;
    i64 v = sa + sb;
    for (int ax = 0; ax < 3; ax++) {
        int ta, tb;
        if (ax == 0) {
            if (ya != yb) continue;
            ta = xa;
            tb = xb;
        } else if (ax == 1) {
            if (xa != xb) continue;
            ta = ya;
            tb = yb;
        } else {
            if (xa + ya != xb + yb) continue;
            ta = xa;
            tb = xb;
        }
        int dist = ta > tb ? ta - tb : tb - ta;
        if (dist >= L) continue;
        int d = s->axes[ax], base = ax * NN;
        for (int i = 0; i < L; i++) {
            /* the window starting i cells before a along the axis covers parameters ta - i .. ta - i + L - 1 */
            if (tb < ta - i || tb > ta - i + L - 1) continue;
            int w = base + a - i * d;
            int x = cs[w], y = co[w];
            v += s->fv[x + 1][y] - s->fv[x][y];
        }
    }
    return v;
}


static int cmp_cell(const void *pa, const void *pb) {
    const Cell *a = (const Cell *)pa, *b = (const Cell *)pb;
    if (a->score != b->score) return a->score > b->score ? -1 : 1;
    return a->c < b->c ? -1 : (a->c > b->c ? 1 : 0);
}

/* a sorts before b: higher score, then higher score2, then lower cells (a total order: the pairs differ) */
static inline int pair_before(const Pair *a, const Pair *b) {
    if (a->score != b->score) return a->score > b->score;
    if (a->score2 != b->score2) return a->score2 > b->score2;
    if (a->a != b->a) return a->a < b->a;
    return a->b < b->b;
}

/* the move lists are short (tens of pairs): an insertion sort beats qsort's calls, and the order being total, any
 * sort gives the same list */
static void sort_pairs(Pair *p, int n) {
    for (int i = 1; i < n; i++) {
        Pair x = p[i];
        int j = i - 1;
        while (j >= 0 && pair_before(&x, &p[j])) {
            p[j + 1] = p[j];
            j--;
        }
        p[j + 1] = x;
    }
}

static void sort_ints(int *v, int n) {
    for (int i = 1; i < n; i++) {
        int x = v[i], j = i - 1;
        while (j >= 0 && x < v[j]) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = x;
    }
}

/* all candidates scored for sd, sorted best first, into s->cells; returns how many */
static int scored_candidates(S *s, int sd) {
    int n = s->cands.n;
    for (int i = 0; i < n; i++) {
        int c = s->cands.items[i];
        s->cells[i].score = cell_score(s, c, sd);
        s->cells[i].c = c;
    }
    qsort(s->cells, (size_t)n, sizeof(Cell), cmp_cell);
    return n;
}

/* a before b in the total order of cells: higher score, then lower index */
static inline int cell_before(i64 sa, int ca, const Cell *b) { return sa > b->score || (sa == b->score && ca < b->c); }

/* keep out[0..*n) the best k of the cells offered so far (best first) */
static inline void offer(Cell *out, int *n, int k, i64 sc, int c) {
    int m = *n;
    if (m == k) {
        if (!cell_before(sc, c, &out[m - 1])) return;
        m--;
    }
    int j = m;
    while (j > 0 && cell_before(sc, c, &out[j - 1])) {
        out[j] = out[j - 1];
        j--;
    }
    out[j].score = sc;
    out[j].c = c;
    *n = m + 1;
}

/* top k cells for sd into out (best first, in scored_candidates' order, without sorting them all); returns count.
 * The candidates' order in their set does not matter: the k best by a total order are the same in any order. */
static int top_cells(S *s, int sd, int k, Cell *out) {
    int n = 0, nc = s->cands.n;
    const int *items = s->cands.items;
#ifdef CHECK_SCORES /* the kept set is every empty safe cell near a stone */
    int every = 0;
    for (int c = 0; c < NN; c++) every += s->avail[c] && s->nearc[c] > 0 && safe(s, c) && s->grid[c] == 0;
    for (int i = 0; i < nc; i++)
        if (!(s->avail[items[i]] && s->nearc[items[i]] > 0)) abort();
    if (every != nc) abort();
#endif
    if (k <= 0) return 0;
    for (int i = 0; i < nc; i++) {
        int c = items[i];
        i64 sc = cell_score(s, c, sd);
        if (n == k && !cell_before(sc, c, &out[k - 1])) continue;
        offer(out, &n, k, sc, c);
    }
    return n;
}

/* threat windows of sd (in no particular order) into out (up to cap); returns how many there are (may exceed cap) */
static int threat_windows(S *s, int sd, int *out, int cap) {
    const WSet *ws = &s->threats[sd];
    int n = ws->n < cap ? ws->n : cap;
    memcpy(out, ws->items, sizeof(int) * (size_t)n);
    return ws->n;
}

static int window_empties(S *s, int w, int *out) {
    int a = w / NN, st = w - a * NN, d = s->axes[a], n = 0;
    for (int i = 0; i < s->L; i++) {
        int c = st + i * d;
        if (s->avail[c]) out[n++] = c;
    }
    return n;
}

/* move lists are malloc'd Pair arrays; *n receives the count */
static Pair *pair_moves(S *s, int sd, int k, int m, int *n) {
    Cell top[K_ROOT + 4];
    int nt = top_cells(s, sd, k, top);
    int cap = nt * (nt - 1) / 2 + 1;
    Pair *p = (Pair *)malloc(sizeof(Pair) * (size_t)cap);
    int np = 0;
    for (int i = 0; i < nt; i++)
        for (int j = i + 1; j < nt; j++) {
            int ci = top[i].c, cj = top[j].c;
            int a = ci < cj ? ci : cj, b = ci < cj ? cj : ci;
            i64 gain = pair_gain(s, ci, top[i].score, cj, top[j].score, sd);
            p[np].score = gain + s->hist[a] + s->hist[b];
            p[np].score2 = 0;
            p[np].a = a;
            p[np].b = b;
            np++;
        }
    sort_pairs(p, np);
    if (np > m) np = m;
    *n = np;
    return p;
}

static int cmp_int(const void *pa, const void *pb) {
    int a = *(const int *)pa, b = *(const int *)pb;
    return a < b ? -1 : (a > b ? 1 : 0);
}

static Pair *block_moves(S *s, int sd, int kb, int *n) {
    int o = 1 - sd;
    int wins[MAXTW + 1];
    int nw = threat_windows(s, o, wins, MAXTW + 1);
    *n = 0;
    if (nw > MAXTW) return NULL;
    int hot[MAXTW * MAXL];
    int nh = 0;
    int e[MAXL];
    for (int i = 0; i < nw; i++) {
        int ne = window_empties(s, wins[i], e);
        for (int k = 0; k < ne; k++) {
            if (s->mask[e[k]] == 0) hot[nh++] = e[k];
            s->mask[e[k]] |= (1ULL << i);
        }
    }
    u64 full = nw == 64 ? ~0ULL : ((1ULL << nw) - 1);
    sort_ints(hot, nh);
    i64 score[MAXTW * MAXL];
    for (int i = 0; i < nh; i++) score[i] = cell_score(s, hot[i], sd);
    int nsingle = 0;
    for (int i = 0; i < nh; i++)
        if (s->mask[hot[i]] == full) nsingle++;
    int cap = nh * (nh - 1) / 2 + nsingle * (kb + 2) + 1;
    Pair *p = (Pair *)malloc(sizeof(Pair) * (size_t)cap);
    int np = 0;
    for (int i = 0; i < nh; i++) {
        int a = hot[i];
        for (int j = i + 1; j < nh; j++) {
            int b = hot[j];
            if ((s->mask[a] | s->mask[b]) == full) {
                p[np].score = score[i] + score[j] + s->hist[a] + s->hist[b];
                p[np].score2 = 0;
                p[np].a = a;
                p[np].b = b;
                np++;
            }
        }
    }
    if (nsingle) {
        Cell top[KB_MAIN + K_ROOT + 4];
        int nt = top_cells(s, sd, kb + 2, top);
        for (int i = 0; i < nh; i++) {
            int a = hot[i];
            if (s->mask[a] != full) continue;
            int cnt = 0;
            for (int j = 0; j < nt; j++) {
                int b = top[j].c;
                if (b == a || cnt >= kb) continue;
                cnt++;
                if (s->mask[b] != 0) continue; /* b is a hot cell: (a, b) is listed already */
                p[np].score = score[i] + top[j].score + s->hist[a] + s->hist[b];
                p[np].score2 = 0;
                p[np].a = a < b ? a : b;
                p[np].b = a < b ? b : a;
                np++;
            }
        }
    }
    for (int i = 0; i < nh; i++) s->mask[hot[i]] = 0;
    sort_pairs(p, np);
    *n = np;
    return p;
}

/* The windows through a cell that one more turn of sd could make a threat (no enemy stone, at least L - 4 of sd's):
 * the only ones blockers must look at. */
typedef struct {
    int n;
    int w[3 * MAXL], ax[3 * MAXL], cnt[3 * MAXL];
    /* the cell's line and place on it along each axis: a window along ax starting i cells before the cell holds
     * another cell when that cell is on the same line within L places of its start (lo) */
    int line[3], at[3];
    int lo[3 * MAXL];
} Live;

HOT void live_windows(S *s, int c, int sd, Live *out, const int L) {
    const unsigned char *cs = s->cnt[sd], *co = s->cnt[1 - sd];
    int t = L - 2, x = c % N, y = c / N;
    out->n = 0;
    out->line[0] = y;
    out->at[0] = x;
    out->line[1] = x;
    out->at[1] = y;
    out->line[2] = x + y;
    out->at[2] = x;
#pragma GCC unroll 3
    for (int ax = 0; ax < 3; ax++) {
        const int d = ax == 0 ? 1 : (ax == 1 ? N : 1 - N), base = ax * NN;
#pragma GCC unroll 10
        for (int i = 0; i < L; i++) {
            int w = base + c - i * d;
            if (co[w] == 0 && cs[w] + 2 >= t) {
                out->w[out->n] = w;
                out->ax[out->n] = ax;
                out->lo[out->n] = out->at[ax] - i;
                out->cnt[out->n++] = cs[w];
            }
        }
    }
}

/* 1 when l's window k holds m's cell */
static inline int live_holds(const Live *l, int k, const Live *m, int L) {
    int ax = l->ax[k];
    return m->line[ax] == l->line[ax] && m->at[ax] >= l->lo[k] && m->at[ax] < l->lo[k] + L;
}

/* Stones the opponent needs to spoil every threat window of sd through a or b once sd has stones on both (3:
 * more than a turn has, a win; 0: no such window), given each cell's live windows. The stones are not placed: a
 * window's count is taken with them added and its empty cells without them, which is what placing them gives. */
HOT int blockers(S *s, int a, const Live *la, int b, const Live *lb, const int L) {
    int t = L - 2;
    int wins[2 * 3 * MAXL];
    int nw = 0;
    for (int k = 0; k < la->n; k++) {
        int both = la->cnt[k] + 2 >= t && live_holds(la, k, lb, L); /* (only matters when it decides) */
        if (la->cnt[k] + 1 + both >= t) wins[nw++] = la->w[k];
    }
    for (int k = 0; k < lb->n; k++)
        if (lb->cnt[k] + 1 >= t && !live_holds(lb, k, la, L)) wins[nw++] = lb->w[k];
    if (nw == 0) return 0;
    /* the windows each empty cell blocks, as bits in s->mask (zero again before returning) */
    int cells[2 * 3 * MAXL * MAXL];
    int nc = 0;
    u64 *mask = s->mask;
    const unsigned char *avail = s->avail;
    for (int k = 0; k < nw; k++) {
        int w = wins[k], ax = w / NN, st = w - ax * NN, d = s->axes[ax];
#pragma GCC unroll 10
        for (int i = 0; i < L; i++) {
            int c = st + i * d;
            if (!avail[c] || c == a || c == b) continue;
            if (mask[c] == 0) cells[nc++] = c;
            mask[c] |= 1ULL << k;
        }
    }
    u64 full = nw == 64 ? ~0ULL : ((1ULL << nw) - 1);
    int kk = 3;
    for (int i = 0; i < nc && kk > 1; i++)
        if (mask[cells[i]] == full) kk = 1;
    for (int i = 0; i < nc && kk > 2; i++) {
        u64 mi = mask[cells[i]];
        for (int j = i + 1; j < nc; j++)
            if ((mi | mask[cells[j]]) == full) {
                kk = 2;
                break;
            }
    }
    for (int i = 0; i < nc; i++) mask[cells[i]] = 0;
    return kk;
}

/* the k best cells of sd's building windows by what they add to them (ties: lower index), best first */
static int threat_cells(S *s, int sd, int k, Cell *top) {
    const unsigned char *cs = s->cnt[sd];
    int L = s->L;
    int nc = 0;
    Cell *touched = s->cells;
    const WSet *ws = &s->builds[sd];
    for (int q = 0; q < ws->n; q++) {
        int w = ws->items[q];
        int ax = w / NN, st = w - ax * NN, d = s->axes[ax];
        i64 add = s->W[cs[w] + 1];
        for (int i = 0; i < L; i++) {
            int c = st + i * d;
            if (s->avail[c]) {
                if (s->tsc[c] == 0) touched[nc++].c = c;
                s->tsc[c] += add;
            }
        }
    }
    int nt = 0;
    for (int i = 0; i < nc; i++) {
        int c = touched[i].c;
        offer(top, &nt, k, s->tsc[c], c);
        s->tsc[c] = 0;
    }
    return nt;
}

/* blocker_pairs for a win distance L the compiler may know (blocker_pairs_L6) */
HOT Pair *blocker_pairs_L(S *s, int sd, int k, int min_blockers, int *n, const int L) {
    Cell top[KT_TSS];
    int nt = threat_cells(s, sd, k, top);
    Live live[KT_TSS];
    for (int i = 0; i < nt; i++) live_windows(s, top[i].c, sd, &live[i], L);
    Pair *p = (Pair *)malloc(sizeof(Pair) * (size_t)(KT_TSS * KT_TSS / 2 + 1));
    int np = 0;
    for (int i = 0; i < nt; i++)
        for (int j = i + 1; j < nt; j++) {
            int ca = top[i].c, cb = top[j].c;
            int kk = blockers(s, ca, &live[i], cb, &live[j], L);
            if (kk >= min_blockers) {
                p[np].score = kk;
                p[np].score2 = top[i].score + top[j].score;
                p[np].a = ca < cb ? ca : cb;
                p[np].b = ca < cb ? cb : ca;
                np++;
            }
        }
    sort_pairs(p, np);
    *n = np;
    return p;
}

static Pair *blocker_pairs_L6(S *s, int sd, int k, int min_blockers, int *n) {
    return blocker_pairs_L(s, sd, k, min_blockers, n, 6);
}

/* pairs of the k best threat cells with at least min_blockers blockers, most first (all of them) */
static Pair *blocker_pairs(S *s, int sd, int k, int min_blockers, int *n) {
    if (s->L == 6) return blocker_pairs_L6(s, sd, k, min_blockers, n);
    return blocker_pairs_L(s, sd, k, min_blockers, n, s->L);
}

static Pair *threat_moves(S *s, int sd, int *n) {
    Pair *p = blocker_pairs(s, sd, KT, 1, n);
    if (*n > MT) *n = MT;
    return p;
}

static Pair *block_moves(S *s, int sd, int kb, int *n);
static int tss_every_block_loses(S *s, int sd, int turns);

/* one more position for the threat-space search: 0 when its bound or its share of the clock is spent (then the
 * bound is spent for good) */
static int tss_spend(S *s) {
    if (s->tss_left <= 0) return 0;
    if (s->tss_deadline > 0 && (s->tss_left & 31) == 0 && now() >= s->tss_deadline) {
        s->tss_left = 0;
        return 0;
    }
    s->tss_left--;
    s->nodes++;
    return 1;
}

/* threat-space search (search_py.PySearch.tss): a turn of sd winning within turns attacking turns, into *fa, *fb */
static int tss(S *s, int sd, int turns, int *fa, int *fb) {
    int n;
    Pair *m = blocker_pairs(s, sd, KT_TSS, turns == 1 ? 3 : 2, &n);
    int won = 0;
    for (int i = 0; i < n && !won; i++) {
        if (!tss_spend(s)) break;
        place(s, m[i].a, sd);
        place(s, m[i].b, sd);
        won = tss_every_block_loses(s, sd, turns);
        undo(s, m[i].b, sd);
        undo(s, m[i].a, sd);
        if (won) {
            *fa = m[i].a;
            *fb = m[i].b;
        }
    }
    free(m);
    return won;
}

static int tss_every_block_loses(S *s, int sd, int turns) {
    int o = 1 - sd, n;
    Pair *r = block_moves(s, o, 0, &n);
    if (n == 0) {
        free(r);
        return 1;
    }
    if (turns == 1) {
        free(r);
        return 0;
    }
    int all = 1;
    for (int i = 0; i < n && all; i++) {
        if (!tss_spend(s)) {
            all = 0;
            break;
        }
        place(s, r[i].a, o);
        place(s, r[i].b, o);
        int fa, fb;
        all = s->nthreat[o] == 0 && tss(s, sd, turns - 1, &fa, &fb);
        undo(s, r[i].b, o);
        undo(s, r[i].a, o);
    }
    free(r);
    return all;
}

/* the shortest threat-space win of sd within most attacking turns: its attacking turns (0: none found), its first turn into *fa, *fb */
static int tss_win(S *s, int sd, int most, int *fa, int *fb) {
    if (s->nthreat[0] || s->nthreat[1]) return 0;
    for (int turns = 1; turns <= most; turns++)
        if (tss(s, sd, turns, fa, fb)) return turns;
    return 0;
}

static int top_cells(S *s, int sd, int k, Cell *out);

/* search_py.PySearch.defences: the root's turns less those the opponent's threat-space win survives */
static Pair *defences(S *s, Pair *moves, int *n) {
    int sd = s->side, o = 1 - sd, ta, tb;
    if (!tss_win(s, o, TSS_TURNS, &ta, &tb)) return moves;
    Cell top[K_ROOT];
    int nt = top_cells(s, sd, K_ROOT, top);
    int cap = *n + 1 + 2 * nt;
    Pair *c = (Pair *)malloc(sizeof(Pair) * (size_t)cap);
    int nc = 0;
    for (int i = 0; i < *n; i++) c[nc++] = moves[i];
    int xs[2] = {ta, tb};
    for (int e = -1; e < 2 * nt; e++) {
        int a, b;
        if (e < 0) {
            a = ta;
            b = tb;
        } else {
            int x = xs[e / nt], y = top[e % nt].c;
            if (x == y) continue;
            a = x < y ? x : y;
            b = x < y ? y : x;
        }
        int dup = 0;
        for (int j = 0; j < nc && !dup; j++) dup = c[j].a == a && c[j].b == b;
        if (dup) continue;
        c[nc].a = a;
        c[nc].b = b;
        c[nc].score = c[nc].score2 = 0;
        nc++;
    }
    Pair *out = (Pair *)malloc(sizeof(Pair) * (size_t)(nc + 1));
    int nr = 0;
    for (int i = 0; i < nc; i++) {
        if (s->tss_left <= 0) break;
        place(s, c[i].a, sd);
        place(s, c[i].b, sd);
        int fa, fb;
        /* a turn making a threat of its own only delays the combination (it stands after the block): no answer */
        int lost = s->nthreat[sd] > 0 || tss_win(s, o, TSS_TURNS, &fa, &fb);
        int spent = s->tss_left <= 0;
        undo(s, c[i].b, sd);
        undo(s, c[i].a, sd);
        if (spent) break;
        if (!lost) out[nr++] = c[i];
    }
    if (nr == 0) {
        free(c);
        free(out);
        return moves;
    }
    free(c);
    free(moves);
    *n = nr;
    return out;
}

static void tick(S *s) {
    s->nodes++;
    if (s->nodes >= s->max_nodes) {
        s->aborted = 1;
        return;
    }
    if ((s->nodes & TIME_MASK) == 0) {
        if (s->deadline > 0 && now() >= s->deadline) {
            s->aborted = 1;
            return;
        }
        if (s->stop != NULL && __atomic_load_n(s->stop, __ATOMIC_RELAXED)) {
            s->aborted = 1;
            return;
        }
    }
}

/* the position's worth to sd when sd is to move, by the evaluation table (the Python reference's evalx, W's sum,
 * is its move ordering's: here fv and pair_gain order the moves) */
static i64 eval_side(S *s, int sd) { return s->sum_own[sd] - s->sum_opp[1 - sd]; }

static i64 qsearch(S *s, i64 alpha, i64 beta, int ply, int qd);

static i64 child_q(S *s, int a, int b, i64 alpha, i64 beta, int ply, int qd) {
    int sd = s->side;
    place(s, a, sd);
    place(s, b, sd);
    s->side = 1 - sd;
    i64 v = -qsearch(s, -beta, -alpha, ply + 1, qd - 1);
    s->side = sd;
    undo(s, b, sd);
    undo(s, a, sd);
    return v;
}

/* search_py.PySearch.leaf_tss: the attacking turns of a threat-space win of sd in at most LEAF_TURNS within LEAF_TSS
 * positions (0: none),
 * the root's bound and clock share left as they were */
static int leaf_tss(S *s, int sd) {
    i64 left = s->tss_left;
    double deadline = s->tss_deadline;
    s->tss_left = LEAF_TSS;
    s->tss_deadline = 0;
    int fa, fb, turns = tss_win(s, sd, LEAF_TURNS, &fa, &fb);
    s->tss_left = left;
    s->tss_deadline = deadline;
    return turns;
}

static i64 qsearch(S *s, i64 alpha, i64 beta, int ply, int qd) {
    tick(s);
    if (s->aborted) return 0;
    int sd = s->side;
    if (s->nthreat[sd] > 0) return WIN - ply;
    int n;
    if (s->nthreat[1 - sd] > 0) {
        Pair *m = block_moves(s, sd, KB_Q, &n);
        if (n == 0) {
            free(m);
            return -(WIN - ply - 1);
        }
        if (qd <= 0) {
            free(m);
            return eval_side(s, sd);
        }
        i64 best = -INF;
        for (int i = 0; i < n; i++) {
            i64 v = child_q(s, m[i].a, m[i].b, alpha, beta, ply, qd);
            if (s->aborted) break;
            if (v > best) {
                best = v;
                if (v > alpha) {
                    alpha = v;
                    if (alpha >= beta) break;
                }
            }
        }
        free(m);
        return s->aborted ? 0 : best;
    }
    i64 stand = eval_side(s, sd);
    if (stand >= beta || qd <= 0) return stand;
    if (qd == QDEPTH && LEAF_TSS > 0) {
        int turns = leaf_tss(s, sd);
        if (turns > 0) return WIN - ply - 2 * turns;
    }
    i64 best = stand;
    if (stand > alpha) alpha = stand;
    Pair *m = threat_moves(s, sd, &n);
    if (n > 0 && m[0].score >= 3) { /* won next turn (alphabeta's reason) */
        free(m);
        return WIN - ply - 2;
    }
    /* past the horizon's first attacking turn only double threats (search_py.PySearch.qsearch's reason) */
    if (qd < QDEPTH)
        while (n > 0 && m[n - 1].score < 2) n--;
    for (int i = 0; i < n; i++) {
        i64 v = child_q(s, m[i].a, m[i].b, alpha, beta, ply, qd);
        if (s->aborted) break;
        if (v > best) {
            best = v;
            if (v > alpha) {
                alpha = v;
                if (alpha >= beta) break;
            }
        }
    }
    free(m);
    return s->aborted ? 0 : best;
}

static i64 alphabeta(S *s, int depth, i64 alpha, i64 beta, int ply) {
    if (depth <= 0) return qsearch(s, alpha, beta, ply, QDEPTH);
    tick(s);
    if (s->aborted) return 0;
    int sd = s->side;
    if (s->nthreat[sd] > 0) return WIN - ply;
    u64 key = s->key ^ (sd ? SIDE_KEY : 0ULL);
    TTEntry *e = &s->tt[key & s->tt_mask];
    int tta = -1, ttb = -1;
    if (e->used && e->key == key) {
        if (e->a >= 0) {
            tta = e->a;
            ttb = e->b;
        }
        if (e->depth >= depth) {
            i64 sc = e->score;
            if (sc > WIN - MATE_BAND)
                sc -= ply;
            else if (sc < -(WIN - MATE_BAND))
                sc += ply;
            if (e->flag == EXACT || (e->flag == LOWER && sc >= beta) || (e->flag == UPPER && sc <= alpha)) return sc;
        }
    }
    int n;
    Pair *m;
    if (s->nthreat[1 - sd] > 0) {
        m = block_moves(s, sd, KB_MAIN, &n);
        if (n == 0) {
            free(m);
            return -(WIN - ply - 1);
        }
    } else {
        int nt;
        Pair *t = threat_moves(s, sd, &nt);
        if (nt > 0 && t[0].score >= 3) {
            /* a turn leaving more threats than two stones can spoil, and the opponent has none: won next turn */
            free(t);
            return WIN - ply - 2;
        }
        if (nt > T_INNER) nt = T_INNER;
        int np;
        Pair *p = pair_moves(s, sd, K_INNER, M_INNER, &np);
        m = (Pair *)malloc(sizeof(Pair) * (size_t)(np + nt + 1));
        n = 0;
        /* double threats first (the opponent's whole turn goes to blocking them), then the pairs by worth, then
         * the single threats */
        for (int pass = 0; pass < 3; pass++) {
            int k = pass == 1 ? np : nt;
            for (int i = 0; i < k; i++) {
                Pair q = pass == 1 ? p[i] : t[i];
                if (pass != 1 && (pass == 0) != (q.score >= 2)) continue;
                int dup = 0;
                for (int j = 0; j < n && !dup; j++) dup = m[j].a == q.a && m[j].b == q.b;
                if (!dup) m[n++] = q;
            }
        }
        free(p);
        free(t);
    }
    if (tta >= 0) {
        int found = -1;
        for (int i = 0; i < n; i++)
            if (m[i].a == tta && m[i].b == ttb) {
                found = i;
                break;
            }
        if (found < 0) {
            m = (Pair *)realloc(m, sizeof(Pair) * (size_t)(n + 1));
            found = n++;
        }
        for (int i = found; i > 0; i--) m[i] = m[i - 1];
        m[0].a = tta;
        m[0].b = ttb;
    }
    i64 alpha0 = alpha, best = -INF;
    int ba = -1, bb = -1;
    for (int i = 0; i < n; i++) {
        int a = m[i].a, b = m[i].b;
        place(s, a, sd);
        place(s, b, sd);
        s->side = 1 - sd;
        i64 v;
        if (i == 0)
            v = -alphabeta(s, depth - 1, -beta, -alpha, ply + 1);
        else {
            v = -alphabeta(s, depth - 1, -alpha - 1, -alpha, ply + 1);
            if (!s->aborted && alpha < v && v < beta) v = -alphabeta(s, depth - 1, -beta, -alpha, ply + 1);
        }
        s->side = sd;
        undo(s, b, sd);
        undo(s, a, sd);
        if (s->aborted) {
            free(m);
            return 0;
        }
        if (v > best) {
            best = v;
            ba = a;
            bb = b;
            if (v > alpha) {
                alpha = v;
                if (alpha >= beta) {
                    s->hist[a] += depth * depth * 8;
                    s->hist[b] += depth * depth * 8;
                    break;
                }
            }
        }
    }
    free(m);
    int flag = best <= alpha0 ? UPPER : (best >= beta ? LOWER : EXACT);
    i64 sc = best;
    if (sc > WIN - MATE_BAND)
        sc += ply;
    else if (sc < -(WIN - MATE_BAND))
        sc -= ply;
    e->used = 1;
    e->key = key;
    e->depth = depth;
    e->flag = flag;
    e->score = sc;
    e->a = ba;
    e->b = bb;
    return best;
}

static Pair *root_moves(S *s, int *n) {
    int sd = s->side;
    if (s->nthreat[1 - sd] > 0) {
        Pair *m = block_moves(s, sd, K_ROOT, n);
        if (*n > 0) return m;
        free(m);
    }
    Pair *m = pair_moves(s, sd, K_ROOT, K_ROOT * K_ROOT, n);
    int nt;
    Pair *t = threat_moves(s, sd, &nt);
    m = (Pair *)realloc(m, sizeof(Pair) * (size_t)(*n + nt + 1));
    for (int i = 0; i < nt; i++) {
        int dup = 0;
        for (int j = 0; j < *n; j++)
            if (m[j].a == t[i].a && m[j].b == t[i].b) {
                dup = 1;
                break;
            }
        if (!dup) m[(*n)++] = t[i];
    }
    free(t);
    return m;
}

static PyObject *coords(S *s, int a, int b) {
    return Py_BuildValue("(iiii)", a % N + s->q0, a / N + s->r0, b % N + s->q0, b / N + s->r0);
}

static PyObject *coords_score(S *s, int a, int b, i64 sc) {
    return Py_BuildValue("(iiiiL)", a % N + s->q0, a / N + s->r0, b % N + s->q0, b / N + s->r0, sc);
}

/* pv as (a, b) pairs into out (cap entries); returns count */
static int pv_from(S *s, int a, int b, int limit, int *out) {
    int n = 0, sd = s->side;
    int placed[64 * 3];
    int np = 0;
    out[n * 2] = a;
    out[n * 2 + 1] = b;
    n++;
    place(s, a, sd);
    place(s, b, sd);
    placed[np++] = a;
    placed[np++] = b;
    placed[np++] = sd;
    sd = 1 - sd;
    while (n < limit && s->nthreat[sd] == 0) {
        u64 key = s->key ^ (sd ? SIDE_KEY : 0ULL);
        TTEntry *e = &s->tt[key & s->tt_mask];
        if (!e->used || e->key != key || e->a < 0) break;
        if (s->grid[e->a] || s->grid[e->b]) break;
        int ea = e->a, eb = e->b;
        out[n * 2] = ea;
        out[n * 2 + 1] = eb;
        n++;
        place(s, ea, sd);
        place(s, eb, sd);
        placed[np++] = ea;
        placed[np++] = eb;
        placed[np++] = sd;
        sd = 1 - sd;
    }
    while (np > 0) {
        int ps = placed[--np], pb = placed[--np], pa = placed[--np];
        undo(s, pb, ps);
        undo(s, pa, ps);
    }
    return n;
}

/* table (None or (own, opp), L + 1 integers each, 0 first, within +-WCAP: search_py.check_table) into own/opp;
 * None gives W for both. Returns 0, or -1 with the error set. */
static int read_table(PyObject *table, int L, const i64 *W, i64 *own, i64 *opp) {
    if (table == Py_None) {
        for (int k = 0; k <= L; k++) own[k] = opp[k] = W[k];
        return 0;
    }
    PyObject *rows = PySequence_Fast(table, "an evaluation table is (own, opp)");
    if (rows == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(rows) != 2) {
        PyErr_Format(PyExc_ValueError, "an evaluation table is (own, opp), got %zd lists", PySequence_Fast_GET_SIZE(rows));
        Py_DECREF(rows);
        return -1;
    }
    for (int r = 0; r < 2; r++) {
        const char *name = r == 0 ? "own" : "opp";
        i64 *out = r == 0 ? own : opp;
        PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(rows, r), "an evaluation table's rows are sequences");
        if (row == NULL) {
            Py_DECREF(rows);
            return -1;
        }
        int bad = PySequence_Fast_GET_SIZE(row) != L + 1;
        if (bad)
            PyErr_Format(PyExc_ValueError, "evaluation table '%s' needs %d values for win distance %d, got %zd", name,
                         L + 1, L, PySequence_Fast_GET_SIZE(row));
        for (int k = 0; !bad && k <= L; k++) {
            PyObject *item = PySequence_Fast_GET_ITEM(row, k);
            long long v = PyLong_Check(item) && !PyBool_Check(item) ? PyLong_AsLongLong(item) : WCAP + 1;
            if (v == -1 && PyErr_Occurred()) {
                PyErr_Clear();
                v = WCAP + 1;
            }
            if (v > WCAP || v < -WCAP || (k == 0 && v != 0)) {
                bad = 1;
                PyErr_Format(PyExc_ValueError, "evaluation table '%s' must be integers within +-%d starting with 0",
                             name, WCAP);
            }
            out[k] = v;
        }
        Py_DECREF(row);
        if (bad) {
            Py_DECREF(rows);
            return -1;
        }
    }
    Py_DECREF(rows);
    return 0;
}

static PyObject *search(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *stones, *stop, *table = Py_None;
    int to_move, L, nearv, max_depth, tt_bits = 18, tss_nodes = 0;
    long long max_nodes;
    double seconds;
    if (!PyArg_ParseTuple(args, "OiiiiLdO|iiO", &stones, &to_move, &L, &nearv, &max_depth, &max_nodes, &seconds, &stop,
                          &tt_bits, &tss_nodes, &table))
        return NULL;
    if (tss_nodes < 0) return PyErr_Format(PyExc_ValueError, "tss_nodes must be >= 0, got %d", tss_nodes);
    if (L < 4 || L > MAXL) return PyErr_Format(PyExc_ValueError, "win_distance must be 4..%d, got %d", MAXL, L);
    if (nearv < 1 || nearv > 2) return PyErr_Format(PyExc_ValueError, "near must be 1 or 2, got %d", nearv);
    if (tt_bits < 4 || tt_bits > 26) return PyErr_Format(PyExc_ValueError, "tt_bits must be 4..26, got %d", tt_bits);
    i64 Wt[MAXL + 2], own[MAXL + 2], opp[MAXL + 2];
    {
        i64 v = 1;
        Wt[0] = 0;
        for (int k = 1; k <= L; k++) {
            Wt[k] = v;
            v = v * 6 < WCAP ? v * 6 : WCAP;
        }
    }
    if (read_table(table, L, Wt, own, opp) < 0) return NULL;
    double started = now();
    PyObject *seq = PySequence_Fast(stones, "stones must be a sequence of (q, r, seat)");
    if (seq == NULL) return NULL;
    Py_ssize_t ns = PySequence_Fast_GET_SIZE(seq);
    int *sq = (int *)malloc(sizeof(int) * (size_t)(ns * 3 + 1));
    for (Py_ssize_t i = 0; i < ns; i++) {
        PyObject *it = PySequence_Fast_GET_ITEM(seq, i);
        int q, r, seat;
        if (!PyArg_ParseTuple(it, "iii", &q, &r, &seat)) {
            free(sq);
            Py_DECREF(seq);
            return NULL;
        }
        sq[i * 3] = q;
        sq[i * 3 + 1] = r;
        sq[i * 3 + 2] = seat ? 1 : 0;
    }
    Py_DECREF(seq);
    S *s = (S *)calloc(1, sizeof(S));
    if (s == NULL) {
        free(sq);
        return PyErr_NoMemory();
    }
    s->tt = (TTEntry *)calloc((size_t)1 << tt_bits, sizeof(TTEntry));
    s->cells = (Cell *)malloc(sizeof(Cell) * NN);
    /* one block for the four window sets: items and positions of 3 * NN windows each */
    s->wsets = (int *)calloc((size_t)8 * 3 * NN + 2 * NN, sizeof(int));
    if (s->wsets != NULL) {
        for (int k = 0; k < 4; k++) {
            WSet *ws = k < 2 ? &s->threats[k] : &s->builds[k - 2];
            ws->items = s->wsets + (size_t)(2 * k) * 3 * NN;
            ws->pos = s->wsets + (size_t)(2 * k + 1) * 3 * NN;
        }
        s->cands.items = s->wsets + (size_t)8 * 3 * NN;
        s->cands.pos = s->cands.items + NN;
    }
    if (s->tt == NULL || s->cells == NULL || s->wsets == NULL) {
        free(s->tt);
        free(s->wsets);
        free(s->cells);
        free(s);
        free(sq);
        return PyErr_NoMemory();
    }
    s->tt_mask = ((u64)1 << tt_bits) - 1;
    s->L = L;
    for (int k = 0; k <= L; k++) {
        s->W[k] = Wt[k];
        s->own[k] = own[k];
        s->opp[k] = opp[k];
    }
    for (int x = 0; x <= MAXL; x++)
        for (int y = 0; y <= MAXL; y++) s->fv[x][y] = y == 0 ? s->W[x + 1] - s->W[x] : (x == 0 ? s->W[y] : 0);
    for (int x = 0; x < MAXL + 1; x++)
        for (int y = 0; y < MAXL + 1; y++) {
            s->dfs[x][y] = (int32_t)(s->fv[x + 1][y] - s->fv[x][y]);
            s->dfo[x][y] = (int32_t)(s->fv[y][x + 1] - s->fv[y][x]);
        }
    for (int c = 0; c < NN; c++) s->avail[c] = (unsigned char)safe(s, c);
    s->blo = L - 4 > 1 ? L - 4 : 1;
    /* on the empty grid every window is empty: each cell scores what a stone adds to its 3 L windows */
    for (int c = 0; c < NN; c++) s->csc[0][c] = s->csc[1][c] = (int32_t)(3 * L * s->fv[0][0]);
    s->side = to_move ? 1 : 0;
    int cq = 0, cr = 0;
    if (ns > 0) {
        int *qs = (int *)malloc(sizeof(int) * (size_t)ns), *rs = (int *)malloc(sizeof(int) * (size_t)ns);
        for (Py_ssize_t i = 0; i < ns; i++) {
            qs[i] = sq[i * 3];
            rs[i] = sq[i * 3 + 1];
        }
        qsort(qs, (size_t)ns, sizeof(int), cmp_int);
        qsort(rs, (size_t)ns, sizeof(int), cmp_int);
        cq = qs[(ns - 1) / 2];
        cr = rs[(ns - 1) / 2];
        free(qs);
        free(rs);
    }
    s->q0 = cq - N / 2;
    s->r0 = cr - N / 2;
    s->axes[0] = 1;
    s->axes[1] = N;
    s->axes[2] = 1 - N;
    for (int dy = -nearv; dy <= nearv; dy++)
        for (int dx = -nearv; dx <= nearv; dx++) {
            int d = abs(dx) > abs(dy) ? abs(dx) : abs(dy);
            if (abs(dx + dy) > d) d = abs(dx + dy);
            if (d > 0 && d <= nearv) s->near_offs[s->nnear++] = dy * N + dx;
        }
    for (Py_ssize_t i = 0; i < ns; i++) {
        int x = sq[i * 3] - s->q0, y = sq[i * 3 + 1] - s->r0;
        if (L <= x && x < N - L && L <= y && y < N - L && s->grid[y * N + x] == 0) place(s, y * N + x, sq[i * 3 + 2]);
    }
    free(sq);
    s->max_nodes = max_nodes;
    Py_buffer stopview = {0};
    PyObject *result = NULL;
    if (stop != Py_None) {
        if (PyObject_GetBuffer(stop, &stopview, PyBUF_SIMPLE) < 0 || stopview.len < 1) {
            if (stopview.obj == NULL) PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "stop must be a buffer of at least one byte (stopping.stop_flag())");
            goto done;
        }
        s->stop = (const unsigned char *)stopview.buf;
    }

    int sd = s->side;
    if (s->nstones == 0) {
        result = Py_BuildValue("(OiiiNN)", Py_None, 0, 0, 0, PyList_New(0), PyList_New(0));
        goto done;
    }
    if (s->nthreat[sd] > 0) {
        /* the first threat window in index order (the Python reference's choice) */
        int w = s->threats[sd].items[0];
        for (int i = 1; i < s->threats[sd].n; i++)
            if (s->threats[sd].items[i] < w) w = s->threats[sd].items[i];
        int e[MAXL];
        int ne = window_empties(s, w, e);
        int a = ne > 0 ? e[0] : -1, b = -1;
        if (ne >= 2)
            b = e[1];
        else if (ne == 1) {
            int nc = scored_candidates(s, sd);
            for (int i = 0; i < nc; i++)
                if (s->cells[i].c != a && (b < 0 || s->cells[i].c < b)) b = s->cells[i].c;
        }
        if (a >= 0 && b >= 0) {
            PyObject *mv = coords(s, a, b);
            PyObject *pv = PyList_New(1);
            Py_INCREF(mv);
            PyList_SET_ITEM(pv, 0, mv);
            PyObject *root = PyList_New(1);
            PyList_SET_ITEM(root, 0, coords_score(s, a, b, WIN));
            result = Py_BuildValue("(NLiiNN)", mv, WIN, 1, 1, pv, root);
            goto done;
        }
    }
    s->tss_left = tss_nodes;
    s->tss_deadline = seconds > 0 ? started + seconds * TSS_SHARE : 0.0;
    if (tss_nodes > 0) {
        int ta = -1, tb = -1, turns;
        Py_BEGIN_ALLOW_THREADS
        turns = tss_win(s, sd, TSS_TURNS, &ta, &tb);
        Py_END_ALLOW_THREADS
        if (turns > 0) {
            PyObject *mv = coords(s, ta, tb);
            PyObject *pv = PyList_New(1);
            Py_INCREF(mv);
            PyList_SET_ITEM(pv, 0, mv);
            PyObject *root = PyList_New(1);
            PyList_SET_ITEM(root, 0, coords_score(s, ta, tb, WIN - 2 * turns));
            result = Py_BuildValue("(NLiLNN)", mv, WIN - 2 * turns, turns, s->nodes, pv, root);
            goto done;
        }
    }
    int n;
    Pair *moves = root_moves(s, &n);
    if (n == 0) {
        free(moves);
        result = Py_BuildValue("(OiiiNN)", Py_None, 0, 0, 0, PyList_New(0), PyList_New(0));
        goto done;
    }
    if (tss_nodes > 0 && s->nthreat[sd] == 0 && s->nthreat[1 - sd] == 0) {
        Py_BEGIN_ALLOW_THREADS
        moves = defences(s, moves, &n);
        Py_END_ALLOW_THREADS
    }
    i64 *scores = (i64 *)malloc(sizeof(i64) * (size_t)n);
    i64 *ns_ = (i64 *)malloc(sizeof(i64) * (size_t)n);
    int *order = (int *)malloc(sizeof(int) * (size_t)n);
    Pair *tmp = (Pair *)malloc(sizeof(Pair) * (size_t)n);
    for (int i = 0; i < n; i++) scores[i] = -INF;
    int best_a = moves[0].a, best_b = moves[0].b;
    i64 best_score = -INF;
    int depth_done = 0;
    s->deadline = seconds > 0 ? started + seconds : 0.0;
    s->ts = PyEval_SaveThread();
    for (int depth = 1; depth <= max_depth; depth++) {
        i64 alpha = -INF, it_score = -INF;
        int ia = -1, ib = -1;
        for (int i = 0; i < n; i++) ns_[i] = -INF;
        int complete = 1;
        for (int i = 0; i < n; i++) {
            int a = moves[i].a, b = moves[i].b;
            place(s, a, sd);
            place(s, b, sd);
            s->side = 1 - sd;
            i64 vv;
            if (i == 0)
                vv = -alphabeta(s, depth - 1, -INF, -alpha, 1);
            else {
                vv = -alphabeta(s, depth - 1, -alpha - 1, -alpha, 1);
                if (!s->aborted && vv > alpha) vv = -alphabeta(s, depth - 1, -INF, -alpha, 1);
            }
            s->side = sd;
            undo(s, b, sd);
            undo(s, a, sd);
            if (s->aborted) {
                complete = 0;
                break;
            }
            ns_[i] = vv;
            if (vv > it_score) {
                it_score = vv;
                ia = a;
                ib = b;
                if (vv > alpha) alpha = vv;
            }
        }
        if (!complete) {
            if (ia >= 0 && (ns_[0] > -INF || depth_done == 0)) {
                best_a = ia;
                best_b = ib;
                best_score = it_score;
            }
            break;
        }
        depth_done = depth;
        /* stable sort by score, best first */
        for (int i = 0; i < n; i++) order[i] = i;
        for (int i = 1; i < n; i++) {
            int x = order[i], j = i - 1;
            while (j >= 0 && ns_[order[j]] < ns_[x]) {
                order[j + 1] = order[j];
                j--;
            }
            order[j + 1] = x;
        }
        for (int i = 0; i < n; i++) {
            tmp[i] = moves[order[i]];
            scores[i] = ns_[order[i]];
        }
        memcpy(moves, tmp, sizeof(Pair) * (size_t)n);
        best_a = moves[0].a;
        best_b = moves[0].b;
        best_score = scores[0];
        if (best_score > WIN - MATE_BAND || best_score < -(WIN - MATE_BAND)) break;
    }
    if (best_score == -INF) best_score = 0;
    int pv[16 * 2];
    int npv = pv_from(s, best_a, best_b, 8, pv);
    PyEval_RestoreThread(s->ts);
    PyObject *pvl = PyList_New(npv);
    for (int i = 0; i < npv; i++) PyList_SET_ITEM(pvl, i, coords(s, pv[i * 2], pv[i * 2 + 1]));
    int nr = 0;
    for (int i = 0; i < n; i++)
        if (scores[i] > -INF) nr++;
    PyObject *rootl = PyList_New(nr);
    nr = 0;
    for (int i = 0; i < n; i++)
        if (scores[i] > -INF) PyList_SET_ITEM(rootl, nr++, coords_score(s, moves[i].a, moves[i].b, scores[i]));
    result = Py_BuildValue("(NLiLNN)", coords(s, best_a, best_b), best_score, depth_done, s->nodes, pvl, rootl);
    free(scores);
    free(ns_);
    free(order);
    free(tmp);
    free(moves);
done:
    if (stopview.obj != NULL) PyBuffer_Release(&stopview);
    free(s->tt);
    free(s->wsets);
    free(s->cells);
    free(s);
    return result;
}

static PyMethodDef methods[] = {
    {"search", search, METH_VARARGS,
     "search(stones, to_move, win_distance, near, max_depth, max_nodes, seconds, stop, tt_bits=18, tss_nodes=0, "
     "table=None) -> "
     "(move, score, depth, nodes, pv, root): the same as search_py.search"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_csearch", "The HTTTX search engine (C).", -1, methods};

PyMODINIT_FUNC PyInit__csearch(void) { return PyModule_Create(&module); }
