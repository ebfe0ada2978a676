/* The compiled core of bots/solver.py: exact double-dummy search of a 1001 deal's card play.
 *
 * The same algorithm as solver.py's _Search, move for move (the same moves in the same order,
 * the same alpha-beta and transposition table at the start of each trick), so both give the same
 * values and the same best moves; the tests compare them on thousands of random positions. Cards
 * are 0..23 (suit * 6 + rank, rules/cards.py), hands 24-bit masks, seats 0..2 in playing order.
 * The GIL is held throughout, so the one static table is never used by two searches at once.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define MARRIAGE 32
#define MOST_POINTS 400
#define TABLE_BITS 18
#define TABLE_SIZE (1u << TABLE_BITS)

static const int CARD_POINTS[6] = {0, 2, 3, 4, 10, 11};
static const int MARRIAGE_VALUE[4] = {40, 60, 80, 100};

typedef struct {
    uint64_t key;
    uint32_t rest;
    uint32_t generation;
    int16_t lower, upper;
} Entry;

static Entry table[TABLE_SIZE];
static uint32_t generation = 0;
/* What the table's entries were found for: the rule options (the side is in each entry's key).
 * A solve that keeps the table goes on with it only while these stay the same. */
static int kept = 0, kept_must_beat = -1, kept_mofirst = -1;
/* Moves tried by every search since the import: the work a bot's budget counts (bots/strong.py),
 * the same on any machine for the same searches from the same table. */
static unsigned long long tried = 0;

typedef struct {
    uint32_t hands[3];
    int must_beat, mofirst, side;
} Search;

static inline uint32_t suit_mask(int suit) { return 0x3Fu << (6 * suit); }

static inline uint32_t above(int card) {
    /* The cards of card's suit higher than it. */
    return suit_mask(card / 6) & ~((2u << card) - 1u);
}

static inline uint32_t marriage_leads(uint32_t hand) {
    uint32_t queens = 0, kings_queens = 0;
    for (int s = 0; s < 4; s++) {
        queens |= 1u << (6 * s + 2);
        kings_queens |= (1u << (6 * s + 2)) | (1u << (6 * s + 3));
    }
    uint32_t both = hand & kings_queens;
    uint32_t q = both & (both >> 1) & queens;
    return q | (q << 1);
}

static inline int winning_index(const int *cards, int count, int trump) {
    int best = 0;
    for (int i = 1; i < count; i++) {
        int card = cards[i], top = cards[best];
        if ((card / 6 == top / 6 && card > top) || (card / 6 == trump && top / 6 != trump)) {
            best = i;
        }
    }
    return best;
}

static uint32_t follow_mask(uint32_t hand, const int *trick, int count, int trump, int must_beat) {
    int lead_suit = trick[0] / 6;
    uint32_t follow = hand & suit_mask(lead_suit);
    if (!must_beat) {
        if (follow) return follow;
        if (trump >= 0 && (hand & suit_mask(trump))) return hand & suit_mask(trump);
        return hand;
    }
    int best = trick[winning_index(trick, count, trump)];
    if (follow) {
        if (best / 6 == lead_suit) {
            uint32_t higher = follow & above(best);
            return higher ? higher : follow;
        }
        return follow;
    }
    if (trump >= 0) {
        uint32_t trumps = hand & suit_mask(trump);
        if (trumps) {
            if (best / 6 == trump) {
                uint32_t higher = trumps & above(best);
                return higher ? higher : trumps;
            }
            return trumps;
        }
    }
    return hand;
}

/* The cards of mask, aces first, then tens and so on; spades before clubs at a rank. */
static int cards_high_first(uint32_t mask, int *out) {
    int n = 0;
    for (int rank = 5; rank >= 0; rank--) {
        for (int s = 0; s < 4; s++) {
            int card = 6 * s + rank;
            if (mask >> card & 1u) out[n++] = card;
        }
    }
    return n;
}

static void reverse(int *cards, int n) {
    for (int i = 0; i < n / 2; i++) {
        int t = cards[i];
        cards[i] = cards[n - 1 - i];
        cards[n - 1 - i] = t;
    }
}

static int moves_of(const Search *search, const int *trick, int count, int seat, int first,
                    int trump, int *out) {
    uint32_t hand = search->hands[seat];
    if (count == 0) {
        int n = 0;
        if (!first || search->mofirst) {
            int leads[8];
            int m = cards_high_first(marriage_leads(hand), leads);
            for (int i = 0; i < m; i++) out[n++] = MARRIAGE + leads[i];
        }
        return n + cards_high_first(hand, out + n);
    }
    uint32_t legal = follow_mask(hand, trick, count, trump, search->must_beat);
    int index = winning_index(trick, count, trump);
    int winner = (seat + 3 - count + index) % 3;
    if ((search->side >> winner & 1) == (search->side >> seat & 1)) {
        return cards_high_first(legal, out); /* a partner takes it so far: points on it first */
    }
    /* An opponent takes it so far: the cards that beat his first (the cheapest first when this
     * seat plays last), then the others, the cheapest first. */
    int top = trick[index];
    uint32_t beating = legal & above(top);
    if (trump >= 0 && top / 6 != trump) beating |= legal & suit_mask(trump);
    int n = cards_high_first(beating, out);
    if (count == 2) reverse(out, n);
    int m = cards_high_first(legal & ~beating, out + n);
    reverse(out + n, m);
    return n + m;
}

static int value(Search *search, int *trick, int count, int leader, int trump, int first,
                 int alpha, int beta);

static int child(Search *search, int move, int *trick, int count, int leader, int trump,
                 int first, int seat, int alpha, int beta) {
    int gained = 0, card = move, result;
    tried++;
    if (move >= MARRIAGE) {
        card = move - MARRIAGE;
        trump = card / 6;
        if (search->side >> seat & 1) gained = MARRIAGE_VALUE[trump];
    }
    uint32_t bit = 1u << card;
    search->hands[seat] ^= bit;
    if (count < 2) {
        trick[count] = card;
        result = gained + value(search, trick, count + 1, leader, trump, first, alpha - gained,
                                beta - gained);
    } else {
        int cards[3] = {trick[0], trick[1], card};
        int winner = (leader + winning_index(cards, 3, trump)) % 3;
        if (search->side >> winner & 1) {
            gained += CARD_POINTS[cards[0] % 6] + CARD_POINTS[cards[1] % 6] + CARD_POINTS[card % 6];
        }
        int next_trick[3];
        result = gained + value(search, next_trick, 0, winner, trump, 0, alpha - gained,
                                beta - gained);
    }
    search->hands[seat] ^= bit;
    return result;
}

static int search_moves(Search *search, int *trick, int count, int leader, int trump, int first,
                        int alpha, int beta) {
    int seat = (leader + count) % 3;
    int ours = search->side >> seat & 1;
    int best = ours ? -1 : MOST_POINTS + 1;
    int moves[16];
    int n = moves_of(search, trick, count, seat, first, trump, moves);
    for (int i = 0; i < n; i++) {
        int v = child(search, moves[i], trick, count, leader, trump, first, seat, alpha, beta);
        if (ours) {
            if (v > best) {
                best = v;
                if (best > alpha) alpha = best;
            }
        } else if (v < best) {
            best = v;
            if (best < beta) beta = best;
        }
        if (alpha >= beta) break;
    }
    return best;
}

static int value(Search *search, int *trick, int count, int leader, int trump, int first,
                 int alpha, int beta) {
    if (count) return search_moves(search, trick, count, leader, trump, first, alpha, beta);
    uint32_t *h = search->hands;
    if (!(h[0] | h[1] | h[2])) return 0;
    uint64_t key = (uint64_t)h[0] | ((uint64_t)h[1] << 24) | ((uint64_t)(h[2] & 0xFFFFu) << 48);
    uint32_t rest = (h[2] >> 16) | ((uint32_t)(trump + 1) << 8) | ((uint32_t)leader << 11) |
                    ((uint32_t)search->side << 13);
    uint64_t mixed = key * 0x9E3779B97F4A7C15ull ^ ((uint64_t)rest * 0xC2B2AE3D27D4EB4Full);
    Entry *entry = &table[(mixed >> (64 - TABLE_BITS)) & (TABLE_SIZE - 1)];
    int lower = 0, upper = MOST_POINTS;
    if (entry->generation == generation && entry->key == key && entry->rest == rest) {
        lower = entry->lower;
        upper = entry->upper;
        /* Known exactly, or beyond the window: no search. Otherwise the window narrows and
         * stays open (lower < upper): an empty window would cut after one move. */
        if (lower >= beta || lower == upper) return lower;
        if (upper <= alpha) return upper;
        if (lower > alpha) alpha = lower;
        if (upper < beta) beta = upper;
    }
    int found = search_moves(search, trick, 0, leader, trump, first, alpha, beta);
    if (found <= alpha) {
        if (found < upper) upper = found;
    } else if (found >= beta) {
        if (found > lower) lower = found;
    } else {
        lower = upper = found;
    }
    entry->key = key;
    entry->rest = rest;
    entry->generation = generation;
    entry->lower = (int16_t)lower;
    entry->upper = (int16_t)upper;
    return found;
}

static void new_generation(void) {
    if (++generation == 0) {
        memset(table, 0, sizeof table);
        generation = 1;
    }
}

static int read_position(PyObject *args, Search *search, int *trick, int *count, int *leader,
                         int *trump, int *first, int *alpha, int *beta, int *keep,
                         int with_window) {
    unsigned long h0, h1, h2;
    PyObject *cards;
    int must_beat, mofirst, side;
    int ok = with_window
                 ? PyArg_ParseTuple(args, "kkkO!iipppiii|p", &h0, &h1, &h2, &PyTuple_Type, &cards,
                                    leader, trump, first, &must_beat, &mofirst, &side, alpha, beta,
                                    keep)
                 : PyArg_ParseTuple(args, "kkkO!iipppi", &h0, &h1, &h2, &PyTuple_Type, &cards,
                                    leader, trump, first, &must_beat, &mofirst, &side);
    if (!ok) return 0;
    Py_ssize_t n = PyTuple_GET_SIZE(cards);
    if (n > 2 || *leader < 0 || *leader > 2 || *trump < -1 || *trump > 3 ||
        (h0 | h1 | h2) >> 24) {
        PyErr_SetString(PyExc_ValueError, "not a position of the card play");
        return 0;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long card = PyLong_AsLong(PyTuple_GET_ITEM(cards, i));
        if (card < 0 || card > 23) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a card is 0 to 23");
            return 0;
        }
        trick[i] = (int)card;
    }
    *count = (int)n;
    search->hands[0] = (uint32_t)h0;
    search->hands[1] = (uint32_t)h1;
    search->hands[2] = (uint32_t)h2;
    search->must_beat = must_beat;
    search->mofirst = mofirst;
    search->side = side;
    return 1;
}

/* A new table for this search, unless it keeps the one of the searches before it (for the same
 * rules: an entry's key is the whole position and the side, so it holds for any deal). */
static void start(const Search *search, int keep) {
    if (keep && kept && search->must_beat == kept_must_beat && search->mofirst == kept_mofirst)
        return;
    new_generation();
    kept = keep;
    kept_must_beat = search->must_beat;
    kept_mofirst = search->mofirst;
}

static PyObject *solve(PyObject *self, PyObject *args) {
    Search search;
    int trick[3], count, leader, trump, first, alpha, beta, keep = 0;
    if (!read_position(args, &search, trick, &count, &leader, &trump, &first, &alpha, &beta,
                       &keep, 1))
        return NULL;
    start(&search, keep);
    return PyLong_FromLong(value(&search, trick, count, leader, trump, first, alpha, beta));
}

static PyObject *best(PyObject *self, PyObject *args) {
    Search search;
    int trick[3], count, leader, trump, first, alpha = 0, beta = MOST_POINTS + 1, keep = 0;
    if (!read_position(args, &search, trick, &count, &leader, &trump, &first, &alpha, &beta,
                       &keep, 0))
        return NULL;
    start(&search, 0);
    int seat = (leader + count) % 3;
    int ours = search.side >> seat & 1;
    int moves[16];
    int n = moves_of(&search, trick, count, seat, first, trump, moves);
    int chosen = -1, chosen_value = -1;
    for (int i = 0; i < n; i++) {
        int v = child(&search, moves[i], trick, count, leader, trump, first, seat, 0,
                      MOST_POINTS + 1);
        if (chosen < 0 || (ours ? v > chosen_value : v < chosen_value)) {
            chosen = moves[i];
            chosen_value = v;
        }
    }
    if (chosen < 0) {
        PyErr_SetString(PyExc_ValueError, "the seat to act has no card");
        return NULL;
    }
    return Py_BuildValue("(ii)", chosen, chosen_value);
}

static PyObject *nodes(PyObject *self, PyObject *unused) {
    return PyLong_FromUnsignedLongLong(tried);
}

static PyObject *forget(PyObject *self, PyObject *unused) {
    new_generation();
    kept = 0;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"solve", solve, METH_VARARGS,
     "solve(h0, h1, h2, trick, leader, trump, first, must_beat, mofirst, side, alpha, beta[, "
     "keep])"},
    {"best", best, METH_VARARGS,
     "best(h0, h1, h2, trick, leader, trump, first, must_beat, mofirst, side)"},
    {"nodes", nodes, METH_NOARGS, "nodes(): the moves tried by every search so far"},
    {"forget", forget, METH_NOARGS, "forget(): the next solve starts a new table, kept or not"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "bots._solver",
    "The compiled core of bots.solver (see there).", -1, methods,
};

PyMODINIT_FUNC PyInit__solver(void) { return PyModule_Create(&module); }
