/* The BSL scanner's hot part in C: lexer.py's ``scan_module`` (with ``add_tokens``) and the
 * clean-text path of ``decode_module``, on the UTF-8 bytes, producing the same Procedure objects
 * and problems. lexer.py stays the reference (and the fallback when this is not built);
 * tests/test_code_scanner_c.py and tools/check_scanner.py compare the two.
 *
 * Every regular expression of lexer.py is replayed here as a loop over the bytes with the same
 * possessive/greedy outcome; the comments name the pattern each loop stands for. Rare, text-
 * heavy steps (a preprocessor line's Unicode strip, a parameter list not seen yet, an extension
 * annotation's argument, a doc comment that opens with a //// rule) call back into lexer.py, so
 * their Unicode semantics are Python's own. The input is untrusted: every index is checked
 * against the buffer's end, nothing recurses on the input, any byte sequence is handled. */
#define PY_SSIZE_T_CLEAN
/* setup.py defines BSLSCAN_SOURCE_SHA as this file's sha256 (16 hex); lexer.py compares it with
 * the _bslscan.c beside it and leaves a build of another source unused (with a warning). */
#ifndef BSLSCAN_SOURCE_SHA
#define BSLSCAN_SOURCE_SHA "unknown"
#endif
#include <Python.h>
#include <structmember.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

/* -- configuration (set once by lexer.py: configure) -------------------------------------- */

static PyObject *Procedure, *Problem;             /* classes */
static PyObject *DIRECTIVES;                     /* dict: folded word -> English name */
static PyObject *ANNOTATIONS;                    /* dict: folded word -> kind */
static PyObject *PP_REGION, *PP_END_REGION, *PP_IF, *PP_ELSIF, *PP_ELSE, *PP_END_IF, *PP_INSERT,
    *PP_DELETE;                                  /* sets of folded words */
static PyObject *PARAMS;                         /* dict: list bytes -> tuple of Param (lexer._PARAMS) */
static PyObject *params_of;                      /* lexer._params_of(inner bytes) -> tuple */
static PyObject *then_sub;                       /* lexer._PP_THEN.sub("", s) */
static PyObject *annotation_of;                  /* lexer._annotation(word, rest) -> Annotation */
static PyObject *doc_rules;                      /* lexer._without_rules(doc str) -> str */
static PyObject *literal_calls;                  /* lexer._literal_calls(proc, body, words) */
static PyObject *MANAGER_FWD, *QUERY_FWD;        /* dict: class word bytes (forward) -> class */
static PyObject *NOT_CALLS;                      /* frozenset of folded keywords */
static PyObject *proc_fields;                    /* Procedure's first fields, passed positionally */
static PyObject *S_lower, *S_strip, *S_split, *S_empty, *S_call, *S_code, *S_write, *S_query,
    *S_slashes, *S_format, *S_create_ru, *S_create_en, *S_end_proc, *S_end_func;
/* a doc comment parameter's keys: interned, as Python's own dict literal has them (one object
 * each, however many parameters: marshal writes them once) */
static PyObject *S_name, *S_type, *S_text;
static PyObject *S_info, *S_description, *S_get, *S_params, *S_region, *S_space;   /* pack_procedures' */
static PyObject *S_end_line, *S_body, *S_inserts, *S_deletes;   /* attributes close_proc sets */
static PyObject *S_empty_bytes, *S_zero, *S_one;         /* b"" and 0: Procedure's body and counts to start */
/* Problem wording, all lexer.py's (str.format templates there: MSG_*, KINDS, NOT) */
static PyObject *S_region_not_closed, *S_not_open, *S_if_not_open, *S_unmatched, *S_not, *S_deep_region,
    *S_deep_if, *S_closed_by, *S_no_end_header, *S_no_end_eof, *S_no_header, *S_duplicate, *S_kind_proc,
    *S_kind_func, *S_long_list;
static Py_ssize_t max_depth;                     /* lexer.MAX_DEPTH: region and #Если nesting recorded */
static Py_ssize_t max_list_bytes, max_list_lines; /* lexer.MAX_LIST_BYTES, MAX_LIST_LINES */
#define NAMES_MAX 400000                         /* identifier bytes -> str tables' bound (names_tab) */

/* Keywords in either letter case per letter: each character's lower and upper UTF-8 forms. */
#define MAX_CHARS 32
typedef struct {
    int n;
    unsigned char lo[MAX_CHARS][4], up[MAX_CHARS][4];
    int lo_len[MAX_CHARS], up_len[MAX_CHARS];
    int is_end, is_function;
} Word;
#define MAX_WORDS 16
static Word STRUCT[MAX_WORDS], ASYNC[MAX_WORDS], EXPORT[MAX_WORDS], ENDS[MAX_WORDS];
static int n_struct, n_async, n_export, n_ends, configured;
/* The first two bytes a structural keyword (or Асинх) can open with: most code lines open with a
 * Cyrillic letter too (Если, Результат), so one byte does not tell them apart; two do. */
static unsigned char OPENS[65536];

/* A cheap hash of a byte run, eight bytes a step (the class-word filters and the name tables
 * below; the byte order is the machine's, the same all process long). */
#define HASH_MUL 0xff51afd7ed558ccdULL
static inline uint64_t hash_run(const unsigned char *s, Py_ssize_t n) {
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ (uint64_t)n, w;
    Py_ssize_t i = 0;
    for (; i + 8 <= n; i += 8) {
        memcpy(&w, s + i, 8);
        h = (h ^ w) * HASH_MUL;
        h ^= h >> 32;
    }
    if (i < n) {
        w = 0;
        memcpy(&w, s + i, (size_t)(n - i));
        h = (h ^ w) * HASH_MUL;
    }
    h ^= h >> 29;
    h *= 0xc4ceb9fe1a85ec53ULL;
    return h ^ (h >> 32);
}

/* The class words' filters (MANAGER_FWD, QUERY_FWD): a bit per hash of a key, so most words
 * before a dot (Объект.Свойство) are passed over without a bytes object and a dict lookup; a
 * set bit only sends the word on to the dict (which decides). Built by configure. */
#define FILTER_BITS 16
static uint64_t manager_filter[1 << (FILTER_BITS - 6)], query_filter[1 << (FILTER_BITS - 6)];

static inline int filter_has(const uint64_t *f, uint64_t h) {
    uint64_t k = h >> (64 - FILTER_BITS);
    return (int)(f[k >> 6] >> (k & 63) & 1);
}

static void fill_filter(uint64_t *f, PyObject *dict) {
    memset(f, 0, sizeof manager_filter);
    Py_ssize_t pos = 0;
    PyObject *k, *v;
    while (PyDict_Next(dict, &pos, &k, &v)) {
        if (!PyBytes_Check(k)) continue;            /* never equal to the bytes looked up */
        uint64_t x = hash_run((const unsigned char *)PyBytes_AS_STRING(k), PyBytes_GET_SIZE(k)) >> (64 - FILTER_BITS);
        f[x >> 6] |= 1ULL << (x & 63);
    }
}

static void mark_opens(const Word *ws, int n) {
    for (int k = 0; k < n; k++) {
        const unsigned char *forms[2] = {ws[k].lo[0], ws[k].up[0]};
        int lens[2] = {ws[k].lo_len[0], ws[k].up_len[0]};
        for (int f = 0; f < 2; f++) {
            if (lens[f] == 1)
                for (int b = 0; b < 256; b++) OPENS[forms[f][0] << 8 | b] = 1;
            else
                OPENS[forms[f][0] << 8 | forms[f][1]] = 1;
        }
    }
}

static unsigned char W_[256], ID0_[256];         /* identifier bytes; an identifier's first byte */
#define W(c) (W_[(unsigned char)(c)])
#define SP(c) ((c) == ' ' || (c) == '\t')

static void init_tables(void) {
    for (int c = 0; c < 256; c++) {
        int alpha = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c >= 0x80;
        ID0_[c] = (unsigned char)alpha;
        W_[c] = (unsigned char)(alpha || (c >= '0' && c <= '9'));
    }
}

/* ``word`` at t[i:end]; returns its end or -1. (Byte compares, not memcmp: a character is one
 * or two bytes and most lines fail at their first.) */
static Py_ssize_t match_word(const Word *w, const unsigned char *t, Py_ssize_t i, Py_ssize_t end) {
    for (int k = 0; k < w->n; k++) {
        int ll = w->lo_len[k], ul = w->up_len[k], b;
        for (b = 0; b < ll && i + b < end && t[i + b] == w->lo[k][b]; b++) {}
        if (b == ll) { i += ll; continue; }
        for (b = 0; b < ul && i + b < end && t[i + b] == w->up[k][b]; b++) {}
        if (b == ul) { i += ul; continue; }
        return -1;
    }
    return i;
}

/* Whether t[i:end] opens with a character's first (up to two) bytes ``f`` (of ``len``). */
static inline int opens_with(const unsigned char *t, Py_ssize_t i, Py_ssize_t end, const unsigned char *f, int len) {
    if (len == 0) return 1;
    if (i >= end || t[i] != f[0]) return 0;
    return len < 2 || (i + 1 < end && t[i + 1] == f[1]);
}

/* One of ``words`` at i followed by a non-identifier byte (or the end): its end, its index. */
static Py_ssize_t match_any(const Word *ws, int n, const unsigned char *t, Py_ssize_t i,
                            Py_ssize_t end, int *which) {
    for (int k = 0; k < n; k++) {
        /* a word whose first letter is not there in either case is passed without a call */
        if (ws[k].n && !opens_with(t, i, end, ws[k].lo[0], ws[k].lo_len[0])
            && !opens_with(t, i, end, ws[k].up[0], ws[k].up_len[0])) continue;
        Py_ssize_t e = match_word(&ws[k], t, i, end);
        if (e >= 0 && (e >= end || !W(t[e]))) {
            if (which) *which = k;
            return e;
        }
    }
    return -1;
}

static int load_words(PyObject *spec, Word *out, int *count) {
    /* spec: list of (list of (lower bytes, upper bytes), is_end, is_function) */
    Py_ssize_t n = PyList_Size(spec);
    if (n < 0) return -1;
    if (n > MAX_WORDS) { PyErr_SetString(PyExc_ValueError, "too many keywords"); return -1; }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyList_GET_ITEM(spec, i);
        PyObject *chars; int is_end, is_function;
        if (!PyArg_ParseTuple(item, "Opp", &chars, &is_end, &is_function)) return -1;
        Py_ssize_t m = PyList_Size(chars);
        if (m < 0) return -1;
        if (m > MAX_CHARS) { PyErr_SetString(PyExc_ValueError, "keyword too long"); return -1; }
        Word *w = &out[i];
        w->n = (int)m; w->is_end = is_end; w->is_function = is_function;
        for (Py_ssize_t k = 0; k < m; k++) {
            const char *lo, *up; Py_ssize_t ll, ul;
            if (!PyArg_ParseTuple(PyList_GET_ITEM(chars, k), "y#y#", &lo, &ll, &up, &ul)) return -1;
            if (ll > 4 || ul > 4) { PyErr_SetString(PyExc_ValueError, "not one character"); return -1; }
            memcpy(w->lo[k], lo, ll); memcpy(w->up[k], up, ul);
            w->lo_len[k] = (int)ll; w->up_len[k] = (int)ul;
        }
    }
    *count = (int)n;
    return 0;
}

/* The Procedure fields scan passes positionally, in this order (lexer._PROC_FIELDS, checked there
 * against the constructor's): name … end_line, body, inserts, deletes, the four token sets. */
#define N_FIELDS 19

/* Every object configure takes: the key and where it lands. */
static PyObject **const SLOTS[] = {
    &Procedure, &Problem, &DIRECTIVES, &ANNOTATIONS, &PP_REGION, &PP_END_REGION, &PP_IF, &PP_ELSIF,
    &PP_ELSE, &PP_END_IF, &PP_INSERT, &PP_DELETE, &PARAMS, &params_of, &then_sub, &annotation_of,
    &doc_rules, &literal_calls, &MANAGER_FWD, &QUERY_FWD, &NOT_CALLS, &proc_fields, &S_end_proc, &S_end_func,
    &S_region_not_closed, &S_not_open, &S_if_not_open, &S_unmatched, &S_not, &S_deep_region, &S_deep_if,
    &S_closed_by, &S_no_end_header, &S_no_end_eof, &S_no_header, &S_duplicate, &S_kind_proc, &S_kind_func,
    &S_long_list,
};
static const char *const KEYS[] = {
    "Procedure", "Problem", "DIRECTIVES", "ANNOTATIONS", "PP_REGION", "PP_END_REGION", "PP_IF", "PP_ELSIF",
    "PP_ELSE", "PP_END_IF", "PP_INSERT", "PP_DELETE", "PARAMS", "params_of", "then_sub", "annotation_of",
    "doc_rules", "literal_calls", "MANAGER_FWD", "QUERY_FWD", "NOT_CALLS", "fields", "END_PROCEDURE",
    "END_FUNCTION", "MSG_REGION_NOT_CLOSED", "MSG_NOT_OPEN", "MSG_IF_NOT_OPEN", "MSG_UNMATCHED", "NOT",
    "MSG_DEEP_REGION", "MSG_DEEP_IF", "MSG_CLOSED_BY", "MSG_NO_END_BEFORE_HEADER", "MSG_NO_END_BEFORE_EOF",
    "MSG_NO_HEADER", "MSG_DUPLICATE", "KIND_PROCEDURE", "KIND_FUNCTION", "MSG_LONG_LIST",
};
#define N_SLOTS ((int)(sizeof SLOTS / sizeof SLOTS[0]))
_Static_assert(sizeof SLOTS / sizeof SLOTS[0] == sizeof KEYS / sizeof KEYS[0], "a key per slot");
enum { K_PROCEDURE = 0, K_PROBLEM = 1, K_FIRST_DICT = 2, K_FIRST_SET = 4, K_PARAMS = 12, K_MANAGER = 18,
       K_QUERY = 19, K_NOT_CALLS = 20, K_FIELDS = 21, K_FIRST_STR = 22 };

/* configure(cfg): all or nothing. The scanner is off (``configured`` 0) from the call on; the
 * objects and keyword tables are read into temporaries, checked, and swapped in only when every
 * one is there, so a failed call leaves no half-set table (scan then refuses: not configured). */
static PyObject *configure(PyObject *Py_UNUSED(self), PyObject *cfg) {
    configured = 0;
    if (!PyDict_Check(cfg)) { PyErr_SetString(PyExc_TypeError, "configure: a dict"); return NULL; }
    PyObject *got[sizeof SLOTS / sizeof SLOTS[0]] = {0};
    static Word t_struct[MAX_WORDS], t_async[MAX_WORDS], t_export[MAX_WORDS], t_ends[MAX_WORDS];
    int c_struct, c_async, c_export, c_ends;
    for (int k = 0; k < N_SLOTS; k++) {
        PyObject *v = PyDict_GetItemString(cfg, KEYS[k]);
        if (!v) { PyErr_Format(PyExc_KeyError, "configure: %s missing", KEYS[k]); goto bad; }
        got[k] = Py_NewRef(v);
    }
    if (!PyCallable_Check(got[K_PROCEDURE]) || !PyCallable_Check(got[K_PROBLEM])) {
        PyErr_SetString(PyExc_TypeError, "configure: Procedure and Problem must be callable");
        goto bad;
    }
    for (int k = K_FIRST_DICT; k < K_FIELDS; k++) {
        int dict = k < K_FIRST_SET || k == K_PARAMS || k == K_MANAGER || k == K_QUERY;
        int ok = k > K_PARAMS && k < K_MANAGER ? PyCallable_Check(got[k])
                 : dict ? PyDict_Check(got[k]) : PyAnySet_Check(got[k]);
        if (!ok) {
            PyErr_Format(PyExc_TypeError, "configure: %s must be a %s", KEYS[k],
                         k > K_PARAMS && k < K_MANAGER ? "callable" : dict ? "dict" : "set");
            goto bad;
        }
    }
    PyObject *kw = got[K_FIELDS];
    if (!PyTuple_CheckExact(kw) || PyTuple_GET_SIZE(kw) != N_FIELDS) {
        PyErr_Format(PyExc_ValueError, "configure: fields must be a tuple of %d names", N_FIELDS);
        goto bad;
    }
    for (Py_ssize_t k = 0; k < N_FIELDS; k++)
        if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(kw, k))) {
            PyErr_SetString(PyExc_TypeError, "configure: fields must be str");
            goto bad;
        }
    for (int k = K_FIRST_STR; k < N_SLOTS; k++)
        if (!PyUnicode_Check(got[k])) { PyErr_Format(PyExc_TypeError, "configure: %s must be a str", KEYS[k]); goto bad; }
    PyObject *o = PyDict_GetItemString(cfg, "MAX_DEPTH");
    Py_ssize_t depth = o && PyLong_Check(o) ? PyLong_AsSsize_t(o) : -1;
    if (depth < 1) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "configure: MAX_DEPTH must be a positive int");
        goto bad;
    }
    Py_ssize_t bounds[2];
    const char *bound_keys[2] = {"MAX_LIST_BYTES", "MAX_LIST_LINES"};
    for (int k = 0; k < 2; k++) {
        o = PyDict_GetItemString(cfg, bound_keys[k]);
        bounds[k] = o && PyLong_Check(o) ? PyLong_AsSsize_t(o) : -1;
        if (bounds[k] < 1) {
            if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "configure: %s must be a positive int", bound_keys[k]);
            goto bad;
        }
    }
    const char *lists[4] = {"STRUCT", "ASYNC", "EXPORT", "ENDS"};
    Word *outs[4] = {t_struct, t_async, t_export, t_ends};
    int *counts[4] = {&c_struct, &c_async, &c_export, &c_ends};
    for (int k = 0; k < 4; k++) {
        if (!(o = PyDict_GetItemString(cfg, lists[k]))) {
            PyErr_Format(PyExc_KeyError, "configure: %s missing", lists[k]);
            goto bad;
        }
        if (load_words(o, outs[k], counts[k]) < 0) goto bad;
    }
    static uint64_t t_manager[sizeof manager_filter / 8], t_query[sizeof query_filter / 8];
    fill_filter(t_manager, got[K_MANAGER]);
    fill_filter(t_query, got[K_QUERY]);
    /* every piece is here: swap in */
    for (int k = 0; k < N_SLOTS; k++) Py_XSETREF(*SLOTS[k], got[k]);
    memcpy(STRUCT, t_struct, sizeof STRUCT); memcpy(ASYNC, t_async, sizeof ASYNC);
    memcpy(EXPORT, t_export, sizeof EXPORT); memcpy(ENDS, t_ends, sizeof ENDS);
    n_struct = c_struct; n_async = c_async; n_export = c_export; n_ends = c_ends;
    memcpy(manager_filter, t_manager, sizeof manager_filter); memcpy(query_filter, t_query, sizeof query_filter);
    max_depth = depth;
    max_list_bytes = bounds[0]; max_list_lines = bounds[1];
    memset(OPENS, 0, sizeof OPENS);
    mark_opens(STRUCT, n_struct);
    mark_opens(ASYNC, n_async);
    configured = 1;
    Py_RETURN_NONE;
bad:
    for (int k = 0; k < N_SLOTS; k++) Py_XDECREF(got[k]);
    return NULL;
}

/* -- strings and comments ---------------------------------------------------------------- */

#define ONES 0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL
#define HASZERO(v) (((v) - ONES) & ~(v) & HIGHS)       /* some byte of v is zero */
#define HASBYTE(v, c) HASZERO((v) ^ (ONES * (unsigned char)(c)))   /* some byte of v is c */

/* The first of t[i:end] that is a or b (or c), else end: eight bytes a step while none is (a
 * word with one is read again byte by byte, so the byte order does not matter). */
static inline Py_ssize_t find2(const unsigned char *t, Py_ssize_t i, Py_ssize_t end, unsigned char a,
                               unsigned char b) {
    for (; i + 8 <= end; i += 8) {
        uint64_t w;
        memcpy(&w, t + i, 8);
        if (HASBYTE(w, a) | HASBYTE(w, b)) break;
    }
    while (i < end && t[i] != a && t[i] != b) i++;
    return i;
}

static inline Py_ssize_t find3(const unsigned char *t, Py_ssize_t i, Py_ssize_t end, unsigned char a,
                               unsigned char b, unsigned char c) {
    for (; i + 8 <= end; i += 8) {
        uint64_t w;
        memcpy(&w, t + i, 8);
        if (HASBYTE(w, a) | HASBYTE(w, b) | HASBYTE(w, c)) break;
    }
    while (i < end && t[i] != a && t[i] != b && t[i] != c) i++;
    return i;
}

/* lexer._STRINGS_AND_COMMENTS at i (t[i] is | " or /): the match's end, or -1 (a lone /). */
static Py_ssize_t string_or_comment(const unsigned char *t, Py_ssize_t i, Py_ssize_t end) {
    unsigned char c = t[i];
    if (c == '/') {                              /* //[^\n]* */
        if (i + 1 >= end || t[i + 1] != '/') return -1;
        const unsigned char *nl = memchr(t + i, '\n', end - i);
        return nl ? nl - t : end;
    }
    Py_ssize_t j = i + 1;                        /* [^"\n]*+(?:""[^"\n]*+)*+"? */
    for (;;) {
        j = find2(t, j, end, '"', '\n');
        if (j + 1 < end && t[j] == '"' && t[j + 1] == '"') { j += 2; continue; }
        break;
    }
    if (j < end && t[j] == '"') j++;
    return j;
}

static inline int opens_string_or_comment(unsigned char c) { return c == '|' || c == '"' || c == '/'; }

/* A growable byte buffer. */
typedef struct { unsigned char *p; Py_ssize_t n, cap; } Buf;

static int buf_put(Buf *b, const unsigned char *s, Py_ssize_t n) {
    if (b->n + n > b->cap) {
        Py_ssize_t cap = b->cap ? b->cap : 4096;
        while (cap < b->n + n) cap *= 2;
        unsigned char *p = PyMem_Realloc(b->p, cap);
        if (!p) { PyErr_NoMemory(); return -1; }
        b->p = p; b->cap = cap;
    }
    if (n) memcpy(b->p + b->n, s, n);
    b->n += n;
    return 0;
}

/* lexer.split_code over t[start:end]: the code with each string and comment as one space, and
 * the string literals joined by \n. */
static int split_code_into(const unsigned char *t, Py_ssize_t start, Py_ssize_t end, Buf *code, Buf *strs,
                           int *n_strings) {
    Py_ssize_t i = start, from = start;
    *n_strings = 0;
    while ((i = find3(t, i, end, '|', '"', '/')) < end) {
        Py_ssize_t e = string_or_comment(t, i, end);
        if (e < 0) { i++; continue; }
        if (buf_put(code, t + from, i - from) < 0 || buf_put(code, (const unsigned char *)" ", 1) < 0) return -1;
        if (t[i] != '/') {
            if (*n_strings && buf_put(strs, (const unsigned char *)"\n", 1) < 0) return -1;
            if (buf_put(strs, t + i, e - i) < 0) return -1;
            ++*n_strings;
        }
        i = from = e;
    }
    return buf_put(code, t + from, end - from);
}

/* -- tokens of a body ---------------------------------------------------------------------- */

/* str.lower() of the UTF-8 run s[:n] without the str first, for the runs identifiers are made
 * of: ASCII and the Cyrillic block's U+0400..U+045F (Ё, А-Я, а-я and their kin), whose lower
 * forms are fixed (A-Z +32; U+0400..U+040F +0x50; U+0410..U+042F +0x20; the rest their own).
 * NULL with no error when the run holds anything else (the caller asks str.lower). */
#define LOWER_MAX 256
static PyObject *lower_fast(const unsigned char *s, Py_ssize_t n) {
    unsigned char out[LOWER_MAX];
    if (n > LOWER_MAX) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned char c = s[i];
        if (c < 0x80) { out[i] = c >= 'A' && c <= 'Z' ? c + 32 : c; continue; }
        if (i + 1 >= n || (c != 0xD0 && c != 0xD1)) return NULL;
        unsigned char d = s[i + 1];
        if (c == 0xD0 && d >= 0x80 && d <= 0x8F) { out[i] = 0xD1; out[i + 1] = d + 0x10; }        /* U+0400.. */
        else if (c == 0xD0 && d >= 0x90 && d <= 0x9F) { out[i] = 0xD0; out[i + 1] = d + 0x20; }   /* А..П */
        else if (c == 0xD0 && d >= 0xA0 && d <= 0xAF) { out[i] = 0xD1; out[i + 1] = d - 0x20; }   /* Р..Я */
        else if ((c == 0xD0 && d >= 0xB0 && d <= 0xBF) || (c == 0xD1 && d >= 0x80 && d <= 0x9F)) {
            out[i] = c; out[i + 1] = d;                                                        /* а..я, ё.. */
        } else return NULL;
        i++;
    }
    return PyUnicode_DecodeUTF8((const char *)out, n, "strict");
}

/* str.lower() of the UTF-8 run s[:n] (decoded strictly, as PyUnicode_DecodeUTF8). */
static PyObject *lower_run(const unsigned char *s, Py_ssize_t n) {
    PyObject *low = lower_fast(s, n);
    if (low || PyErr_Occurred()) return low;
    PyObject *str = PyUnicode_DecodeUTF8((const char *)s, n, "strict");
    if (!str) return NULL;
    low = PyObject_CallMethodNoArgs(str, S_lower);
    Py_DECREF(str);
    return low;
}

/* An identifier bytes -> str table, per process and bounded (NAMES_MAX names): open addressing
 * on hash_run, with no bytes object and no siphash a lookup. At most NAMES_PROBES slots are
 * looked at (input text cannot make a lookup slow by colliding hashes): a name that finds its
 * slots taken is decoded again each time instead of stored. */
typedef struct { uint64_t h; Py_ssize_t n; unsigned char *key; PyObject *val; } NameSlot;
typedef struct { NameSlot *slot; size_t mask, used; } Names;
static Names names_tab, local_tab;
#define NAMES_PROBES 16
#define NAMES_FIRST 4096                        /* slots at first; doubled at half full */

/* tab[s[:n]] (borrowed), or NULL */
static PyObject *names_get(const Names *tab, const unsigned char *s, Py_ssize_t n, uint64_t h) {
    if (!tab->slot) return NULL;
    for (size_t k = 0, i = (size_t)h & tab->mask; k < NAMES_PROBES; k++, i = (i + 1) & tab->mask) {
        const NameSlot *e = &tab->slot[i];
        if (!e->val) return NULL;
        if (e->h == h && e->n == n && memcmp(e->key, s, (size_t)n) == 0) return e->val;
    }
    return NULL;
}

/* Put a slot's entry (key, val owned) in a free slot of its probe run: 1, or 0 when none is. */
static int names_place(Names *tab, NameSlot entry) {
    for (size_t k = 0, i = (size_t)entry.h & tab->mask; k < NAMES_PROBES; k++, i = (i + 1) & tab->mask)
        if (!tab->slot[i].val) { tab->slot[i] = entry; tab->used++; return 1; }
    return 0;
}

/* Store tab[s[:n]] = val (a new reference taken) when there is room; never an error (a name not
 * stored is decoded again next time). */
static void names_put(Names *tab, const unsigned char *s, Py_ssize_t n, uint64_t h, PyObject *val) {
    if (tab->used >= NAMES_MAX) return;
    if (!tab->slot || 2 * (tab->used + 1) > tab->mask + 1) {          /* grow (or start) */
        size_t cap = tab->slot ? 2 * (tab->mask + 1) : NAMES_FIRST;
        NameSlot *slot = PyMem_Calloc(cap, sizeof *slot);
        if (!slot) return;
        Names grown = {slot, cap - 1, 0};
        for (size_t i = 0; tab->slot && i <= tab->mask; i++)
            if (tab->slot[i].val && !names_place(&grown, tab->slot[i])) {    /* no room: let go */
                PyMem_Free(tab->slot[i].key);
                Py_DECREF(tab->slot[i].val);
            }
        PyMem_Free(tab->slot);
        *tab = grown;
    }
    unsigned char *key = PyMem_Malloc(n ? (size_t)n : 1);
    if (!key) return;
    memcpy(key, s, (size_t)n);
    NameSlot entry = {h, n, key, Py_NewRef(val)};
    if (!names_place(tab, entry)) { PyMem_Free(key); Py_DECREF(val); }
}

/* An identifier's str, decoded once per process (bounded table). */
static PyObject *name_of(const unsigned char *s, Py_ssize_t n) {
    uint64_t h = hash_run(s, n);
    PyObject *v = names_get(&names_tab, s, n, h);
    if (v) return Py_NewRef(v);
    v = PyUnicode_DecodeUTF8((const char *)s, n, "strict");
    if (v) names_put(&names_tab, s, n, h, v);
    return v;
}

/* An unqualified call's name, or "" for a keyword that looks like a call (``Если (``). */
static PyObject *local_name_of(const unsigned char *s, Py_ssize_t n) {
    uint64_t h = hash_run(s, n);
    PyObject *v = names_get(&local_tab, s, n, h);
    if (v) return Py_NewRef(v);
    v = name_of(s, n);
    if (v) {
        PyObject *low = lower_run(s, n);
        int hit = low ? PySet_Contains(NOT_CALLS, low) : -1;
        Py_XDECREF(low);
        if (hit < 0) Py_CLEAR(v);
        else if (hit) { Py_DECREF(v); v = Py_NewRef(S_empty); }
        if (v) names_put(&local_tab, s, n, h, v);
    }
    return v;
}

static PyObject *lookup_bytes(PyObject *dict, const unsigned char *s, Py_ssize_t n) {
    /* borrowed value or NULL (an error set, or not there) */
    PyObject *key = PyBytes_FromStringAndSize((const char *)s, n);
    if (!key) return NULL;
    PyObject *v = PyDict_GetItemWithError(dict, key);
    Py_DECREF(key);
    return v;
}

static int add3(PyObject *set, PyObject *a, PyObject *b, PyObject *c) {
    PyObject *t = c ? PyTuple_Pack(3, a, b, c) : PyTuple_Pack(2, a, b);
    if (!t) return -1;
    int r = PySet_Add(set, t);
    Py_DECREF(t);
    return r;
}

/* The identifier bytes run ending before ``e`` (going back): its start. */
static inline Py_ssize_t run_back(const unsigned char *c, Py_ssize_t e) {
    Py_ssize_t s = e;
    while (s > 0 && W(c[s - 1])) s--;
    return s;
}

static inline Py_ssize_t spaces_back(const unsigned char *c, Py_ssize_t e) {
    while (e > 0 && SP(c[e - 1])) e--;
    return e;
}

/* ``[ \t]*+\.[ \t]*+(W++)`` read backwards from ``at`` (exclusive): the run's [start, end) and 1,
 * or 0 when the group does not match. */
static int qualifier_back(const unsigned char *c, Py_ssize_t at, Py_ssize_t *s, Py_ssize_t *e) {
    Py_ssize_t j = spaces_back(c, at);
    if (j == 0 || c[j - 1] != '.') return 0;
    j = spaces_back(c, j - 1);
    Py_ssize_t rs = run_back(c, j);
    if (rs == j) return 0;
    *s = rs; *e = j;
    return 1;
}

/* Calls: lexer._REV_CALL over the reversed code, read here forwards from each ``(``. */
static int calls(const unsigned char *c, Py_ssize_t n, PyObject *local, PyObject *qualified, PyObject *usages) {
    if (n <= 0) return 0;
    const unsigned char *p = c, *stop = c + n;
    while ((p = memchr(p, '(', stop - p)) != NULL) {
        Py_ssize_t at = p - c;
        p++;
        Py_ssize_t e = spaces_back(c, at), s = run_back(c, e);
        if (s == e || (c[s] >= '0' && c[s] <= '9')) continue;   /* no name, or a number */
        Py_ssize_t s1 = 0, e1 = 0, s2 = 0, e2 = 0, last = s;
        int has1 = qualifier_back(c, s, &s1, &e1), has2 = 0;
        if (has1) { last = s1; has2 = qualifier_back(c, s1, &s2, &e2); if (has2) last = s2; }
        if (last > 0 && c[last - 1] == '.') continue;           /* a method of an expression */
        if (!has1) {
            PyObject *nm = local_name_of(c + s, e - s);
            if (!nm) return -1;
            int r = PyUnicode_GET_LENGTH(nm) ? PySet_Add(local, nm) : 0;
            Py_DECREF(nm);
            if (r < 0) return -1;
            continue;
        }
        PyObject *nm = name_of(c + s, e - s), *q = nm ? name_of(c + s1, e1 - s1) : NULL;
        if (!q || add3(qualified, q, nm, NULL) < 0) { Py_XDECREF(nm); Py_XDECREF(q); return -1; }
        if (has2) {                 /* Справочники.X.Имя( — a manager call */
            PyObject *cls = lookup_bytes(MANAGER_FWD, c + s2, e2 - s2);
            int r = 0;
            if (cls) {
                PyObject *how = PyUnicode_Concat(S_call, nm);
                r = how ? add3(usages, cls, q, how) : -1;
                Py_XDECREF(how);
            } else if (PyErr_Occurred()) r = -1;
            if (r < 0) { Py_DECREF(nm); Py_DECREF(q); return -1; }
        }
        Py_DECREF(nm); Py_DECREF(q);
    }
    return 0;
}

/* ``[ \t]*+(ID)`` at i: the identifier's [start, end) and 1, or 0. */
static int ident_at(const unsigned char *c, Py_ssize_t n, Py_ssize_t i, Py_ssize_t *s, Py_ssize_t *e) {
    while (i < n && SP(c[i])) i++;
    if (i >= n || !ID0_[c[i]]) return 0;
    *s = i++;
    while (i < n && W(c[i])) i++;
    *e = i;
    return 1;
}

/* ``Слово.Имя``: for each dot with a class word of ``table`` right before it (lexer's reversed
 * ``\.[ \t]*+(word)(?!W)``), the name after it; in code also the method called on it
 * (``_AFTER_NAME``). */
static int class_words(const unsigned char *c, Py_ssize_t n, PyObject *table, const uint64_t *filter, int in_code,
                       PyObject *usages) {
    if (n <= 0) return 0;
    const unsigned char *p = c, *stop = c + n;
    while ((p = memchr(p, '.', stop - p)) != NULL) {
        Py_ssize_t d = p - c;
        p++;
        Py_ssize_t e = spaces_back(c, d), s = run_back(c, e);
        if (s == e || !filter_has(filter, hash_run(c + s, e - s))) continue;
        PyObject *cls = lookup_bytes(table, c + s, e - s);
        if (!cls) { if (PyErr_Occurred()) return -1; continue; }
        Py_ssize_t ns, ne;
        if (!ident_at(c, n, d + 1, &ns, &ne)) continue;
        PyObject *name = PyUnicode_DecodeUTF8((const char *)c + ns, ne - ns, "strict");
        if (!name) return -1;
        PyObject *how = S_query;
        if (in_code) {
            /* (?:[ \t]*+\.[ \t]*+(ID)[ \t]*+\()? — the method, when one is called */
            how = S_code;
            Py_ssize_t j = ne, ms, me;
            while (j < n && SP(c[j])) j++;
            if (j < n && c[j] == '.' && ident_at(c, n, j + 1, &ms, &me)) {
                Py_ssize_t k = me;
                while (k < n && SP(c[k])) k++;
                if (k < n && c[k] == '(') {
                    PyObject *m = PyUnicode_DecodeUTF8((const char *)c + ms, me - ms, "strict");
                    PyObject *low = m ? PyObject_CallMethodNoArgs(m, S_lower) : NULL;
                    Py_XDECREF(m);
                    if (!low) { Py_DECREF(name); return -1; }
                    Py_ssize_t ru = PyUnicode_Tailmatch(low, S_create_ru, 0, PY_SSIZE_T_MAX, -1);
                    Py_ssize_t en = ru == 0 ? PyUnicode_Tailmatch(low, S_create_en, 0, PY_SSIZE_T_MAX, -1) : 0;
                    Py_DECREF(low);
                    if (ru < 0 || en < 0) { Py_DECREF(name); return -1; }
                    if (ru == 1 || en == 1) how = S_write;
                }
            }
        }
        int r = add3(usages, cls, name, how);
        Py_DECREF(name);
        if (r < 0) return -1;
    }
    return 0;
}

/* lexer.add_tokens without its ``ОбщийМодуль(`` part (lexer._literal_calls, called after). */
static int body_tokens(const unsigned char *t, Py_ssize_t start, Py_ssize_t end,
                       PyObject *local, PyObject *qualified, PyObject *usages) {
    Buf code = {0}, strs = {0};
    int n_strings, r = split_code_into(t, start, end, &code, &strs, &n_strings);
    if (r == 0) r = calls(code.p, code.n, local, qualified, usages);
    if (r == 0) r = class_words(code.p, code.n, MANAGER_FWD, manager_filter, 1, usages);
    if (r == 0 && n_strings) r = class_words(strs.p, strs.n, QUERY_FWD, query_filter, 0, usages);
    PyMem_Free(code.p); PyMem_Free(strs.p);
    return r;
}

/* -- the structural scan ------------------------------------------------------------------ */

static inline Py_ssize_t count_nl(const unsigned char *t, Py_ssize_t a, Py_ssize_t b) {
    Py_ssize_t k = 0;
    while (a < b) {
        const unsigned char *q = memchr(t + a, '\n', b - a);
        if (!q) break;
        k++;
        a = q - t + 1;
    }
    return k;
}

static inline Py_ssize_t line_end(const unsigned char *t, Py_ssize_t i, Py_ssize_t n) {
    if (i >= n) return n;
    const unsigned char *q = memchr(t + i, '\n', n - i);
    return q ? q - t : n;
}

static inline int bspace(unsigned char c) {    /* bytes.strip()'s whitespace */
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == 0x0b || c == 0x0c;
}

/* lexer._doc_comment: the // lines right above ``stop``. */
static PyObject *doc_comment(const unsigned char *t, Py_ssize_t start, Py_ssize_t stop) {
    if (stop < start) stop = start;
    Py_ssize_t end = stop;
    while (end > start && t[end - 1] == '\n') end--;
    /* walk the lines back while each opens (after whitespace) with // */
    Py_ssize_t first = end + 1;              /* the block's first line start (none yet) */
    Py_ssize_t le = end;
    for (;;) {
        Py_ssize_t ls = le;
        while (ls > start && t[ls - 1] != '\n') ls--;
        Py_ssize_t i = ls;
        while (i < le && bspace(t[i])) i++;
        if (!(i + 1 < le && t[i] == '/' && t[i + 1] == '/')) break;
        first = ls;
        if (ls == start) break;
        le = ls - 1;
    }
    if (first > end) return Py_NewRef(S_empty);
    Buf b = {0};
    int firstpart = 1;
    for (Py_ssize_t ls = first; ls <= end;) {
        Py_ssize_t e = line_end(t, ls, end), s = ls, f = e;
        while (s < f && bspace(t[s])) s++;
        while (f > s && bspace(t[f - 1])) f--;
        if (!firstpart && buf_put(&b, (const unsigned char *)"\n", 1) < 0) goto fail;
        firstpart = 0;
        if (f - s > 2 && buf_put(&b, t + s + 2, f - s - 2) < 0) goto fail;
        ls = e + 1;
    }
    /* fast path: a first line with a letter or digit (ASCII, or Cyrillic: lead byte D0/D1, never
     * whitespace) is no //// rule: doc.strip("\n"); otherwise lexer decides, in Unicode */
    Py_ssize_t k = 0;
    int plain = 0;
    while (k < b.n && b.p[k] != '\n') {
        unsigned char c = b.p[k++];
        if ((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
            c == 0xD0 || c == 0xD1) { plain = 1; break; }
    }
    PyObject *out;
    if (plain) {
        Py_ssize_t a = 0, z = b.n;
        while (a < z && b.p[a] == '\n') a++;
        while (z > a && b.p[z - 1] == '\n') z--;
        out = PyUnicode_DecodeUTF8((const char *)b.p + a, z - a, "strict");
    } else {
        PyObject *doc = PyUnicode_DecodeUTF8((const char *)b.p, b.n, "strict");
        out = doc ? PyObject_CallOneArg(doc_rules, doc) : NULL;
        Py_XDECREF(doc);
    }
    PyMem_Free(b.p);
    return out;
fail:
    PyMem_Free(b.p);
    return NULL;
}

/* lexer._HeaderMemo: the last parameter list read in this scan — where the read began and
 * stopped, and its ``)`` (or -1). A later list opening in [start, stop] ends where that one did
 * (its first ``)`` or ``"`` is one the last read passed through: see lexer.py), so an unclosed
 * ``(`` is read once, not once per later header. */
typedef struct { Py_ssize_t start, stop, close; } HeaderMemo;

/* Bytes the parameter-list loop has read since import (tests hold it linear in the input). */
static unsigned long long list_bytes;

/* lexer._LIST at i: where the possessive ``(?:[^)"]++|"[^"\n]*+")*+`` stops. */
static Py_ssize_t list_stop(const unsigned char *t, Py_ssize_t n, Py_ssize_t i) {
    Py_ssize_t from = i;
    for (;;) {
        if (i < n && t[i] != ')' && t[i] != '"') {
            while (i < n && t[i] != ')' && t[i] != '"') i++;
            continue;
        }
        if (i < n && t[i] == '"') {
            Py_ssize_t j = i + 1;
            while (j < n && t[j] != '"' && t[j] != '\n') j++;
            if (j < n && t[j] == '"') { i = j + 1; continue; }
            list_bytes += (unsigned long long)(j - i);
        }
        break;
    }
    list_bytes += (unsigned long long)(i - from);
    return i;
}

/* lexer._signature's patterns at i (just after the keyword): _HEAD (name [ns, ne)), the list
 * [ls, lend) through the memo, _EXPORT (export, end). */
static int header_at(const unsigned char *t, Py_ssize_t n, Py_ssize_t i, HeaderMemo *memo, Py_ssize_t *ns,
                     Py_ssize_t *ne, Py_ssize_t *ls, Py_ssize_t *lend, int *export, Py_ssize_t *end) {
    if (i >= n || !SP(t[i])) return 0;                     /* [ \t]++ */
    while (i < n && SP(t[i])) i++;
    if (i >= n || !ID0_[t[i]]) return 0;                   /* (ID) */
    *ns = i++;
    while (i < n && W(t[i])) i++;
    *ne = i;
    while (i < n && SP(t[i])) i++;                         /* [ \t]*+\( */
    if (i >= n || t[i] != '(') return 0;
    *ls = ++i;
    if (!(memo->start <= i && i <= memo->stop)) {
        memo->start = i;
        memo->stop = list_stop(t, n, i);
        memo->close = memo->stop < n && t[memo->stop] == ')' ? memo->stop : -1;
    }
    if (memo->close < 0) return 0;                         /* \) */
    *lend = memo->close;
    i = memo->close + 1;
    Py_ssize_t j = i;                                      /* (?:[ \t]*+EXPORT(?!W))? */
    while (j < n && SP(t[j])) j++;
    Py_ssize_t e = match_any(EXPORT, n_export, t, j, n, NULL);
    *export = e >= 0;
    *end = e >= 0 ? e : i;
    return 1;
}

/* An end keyword in t[a:b] outside strings and comments, not inside an identifier (lexer's
 * _END_ON_LINE over the tail with strings and comments blanked; the tail is its own string). */
static int end_on_line(const unsigned char *t, Py_ssize_t a, Py_ssize_t b) {
    Py_ssize_t i = a;
    while (i < b) {
        unsigned char c = t[i];
        if (opens_string_or_comment(c)) {
            Py_ssize_t e = string_or_comment(t, i, b);
            if (e >= 0) { i = e; continue; }
        }
        if ((i == a || !W(t[i - 1])) && match_any(ENDS, n_ends, t, i, b, NULL) >= 0) return 1;
        i++;
    }
    return 0;
}

/* ``template.format(*args)``: a problem's wording from lexer.py's template (``args`` a
 * Py_BuildValue tuple format). */
static PyObject *fmt(PyObject *template, const char *format, ...) {
    va_list va;
    va_start(va, format);
    PyObject *args = Py_VaBuildValue(format, va);
    va_end(va);
    if (!args) return NULL;
    PyObject *method = PyObject_GetAttr(template, S_format);
    PyObject *r = method ? PyObject_Call(method, args, NULL) : NULL;
    Py_XDECREF(method);
    Py_DECREF(args);
    return r;
}

static int problem(PyObject *problems, const char *code, PyObject *msg, Py_ssize_t line) {
    if (!msg) return -1;
    PyObject *p = PyObject_CallFunction(Problem, "sOn", code, msg, line);
    Py_DECREF(msg);
    if (!p) return -1;
    int r = PyList_Append(problems, p);
    Py_DECREF(p);
    return r;
}

/* The open procedure. */
typedef struct {
    PyObject *proc, *name, *local, *qualified, *usages;
    Py_ssize_t start, line, inserts, deletes;
    int is_function;
} Open;

static void open_clear(Open *o) {
    Py_CLEAR(o->proc); Py_CLEAR(o->name); Py_CLEAR(o->local); Py_CLEAR(o->qualified); Py_CLEAR(o->usages);
}

static int set_attr_n(PyObject *o, PyObject *name, Py_ssize_t v) {
    PyObject *x = PyLong_FromSsize_t(v);
    if (!x) return -1;
    int r = PyObject_SetAttr(o, name, x);
    Py_DECREF(x);
    return r;
}

/* Whether body t[0:n] holds one of ``words`` (lexer._literal_calls finds nothing otherwise: most
 * bodies of a module that holds ``ОбщийМодуль(`` do not, and the call into Python is skipped).
 * A word that is not bytes: 1 (Python decides). */
static int holds_any(const unsigned char *t, Py_ssize_t n, PyObject *words) {
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(words); k++) {
        PyObject *w = PyTuple_GET_ITEM(words, k);
        if (!PyBytes_Check(w)) return 1;
        Py_ssize_t m = PyBytes_GET_SIZE(w);
        const unsigned char *s = (const unsigned char *)PyBytes_AS_STRING(w), *p, *stop = t + n;
        if (m == 0) return 1;
        if (m > n) continue;
        /* by the word's last byte (its ``(``: rarer than a Cyrillic lead byte) */
        for (p = t + m - 1; p < stop && (p = memchr(p, s[m - 1], (size_t)(stop - p))) != NULL; p++)
            if (memcmp(p - (m - 1), s, (size_t)m) == 0) return 1;
    }
    return 0;
}

static int close_proc(Open *o, PyObject *text, Py_ssize_t end_pos, Py_ssize_t end_line, PyObject *common,
                      PyObject *procedures) {
    const unsigned char *t = (const unsigned char *)PyBytes_AS_STRING(text);
    Py_ssize_t n = PyBytes_GET_SIZE(text);
    if (end_pos > n) end_pos = n;
    if (end_pos < o->start) end_pos = o->start;
    int r = -1;
    PyObject *body = PyBytes_FromStringAndSize((const char *)t + o->start, end_pos - o->start);
    if (!body) goto done;
    if (set_attr_n(o->proc, S_end_line, end_line) < 0 || PyObject_SetAttr(o->proc, S_body, body) < 0) goto done;
    if (o->inserts && set_attr_n(o->proc, S_inserts, o->inserts) < 0) goto done;
    if (o->deletes && set_attr_n(o->proc, S_deletes, o->deletes) < 0) goto done;
    if (body_tokens(t, o->start, end_pos, o->local, o->qualified, o->usages) < 0) goto done;
    if (PyTuple_GET_SIZE(common) && holds_any(t + o->start, end_pos - o->start, common)) {
        PyObject *x = PyObject_CallFunctionObjArgs(literal_calls, o->proc, body, common, NULL);
        if (!x) goto done;
        Py_DECREF(x);
    }
    r = PyList_Append(procedures, o->proc);
done:
    Py_XDECREF(body);
    open_clear(o);
    return r;
}

static PyObject *decode_range(const unsigned char *t, Py_ssize_t a, Py_ssize_t b) {
    if (b < a) b = a;
    return PyUnicode_DecodeUTF8((const char *)t + a, b - a, "strict");
}

static PyObject *lowered(const unsigned char *t, Py_ssize_t a, Py_ssize_t b) {
    return lower_run(t + a, b < a ? 0 : b - a);
}

static PyObject *stripped(PyObject *s) {       /* str.strip(), consuming s */
    if (!s) return NULL;
    PyObject *r = PyObject_CallMethodNoArgs(s, S_strip);
    Py_DECREF(s);
    return r;
}

/* ``#[ \t]*+ID`` or ``&[ \t]*+ID`` at i: the ID's [s, e). */
static int mark_ident(const unsigned char *t, Py_ssize_t n, Py_ssize_t i, Py_ssize_t *s, Py_ssize_t *e) {
    i++;
    while (i < n && SP(t[i])) i++;
    if (i >= n || !ID0_[t[i]]) return 0;
    *s = i++;
    while (i < n && W(t[i])) i++;
    *e = i;
    return 1;
}

/* lexer._STRUCT at a line start i: 1 pp, 2 dir, 3 keyword; [gs, ge) the group. For a keyword:
 * which word, whether Асинх opens it. */
static int struct_at(const unsigned char *t, Py_ssize_t n, Py_ssize_t i, Py_ssize_t *gs, Py_ssize_t *ge,
                     Py_ssize_t *ids, int *word, int *is_async) {
    while (i < n && SP(t[i])) i++;
    if (i >= n) return 0;
    *gs = i;
    unsigned char c = t[i];
    if (c == '#' || c == '&') {
        Py_ssize_t s, e;
        if (!mark_ident(t, n, i, &s, &e)) return 0;
        *ids = s; *ge = e;
        return c == '#' ? 1 : 2;
    }
    if (!OPENS[c << 8 | (i + 1 < n ? t[i + 1] : 0)]) return 0;
    for (int a = 0; a < n_async; a++) {          /* (?:ASYNC[ \t]++)?STRUCT(?!W) */
        Py_ssize_t e = match_word(&ASYNC[a], t, i, n);
        if (e < 0 || e >= n || !SP(t[e])) continue;
        while (e < n && SP(t[e])) e++;
        Py_ssize_t f = match_any(STRUCT, n_struct, t, e, n, word);
        if (f >= 0) { *ge = f; *is_async = 1; return 3; }
    }
    Py_ssize_t f = match_any(STRUCT, n_struct, t, i, n, word);
    if (f >= 0) { *ge = f; *is_async = 0; return 3; }
    return 0;
}

typedef struct {
    PyObject *regions, *region_lines, *conditions, *pending, *seen, *ctx_regions, *ctx_conditions;
} State;

static PyObject *scan(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *data, *common;
    if (!PyArg_ParseTuple(args, "SO!", &data, &PyTuple_Type, &common)) return NULL;
    if (!configured) { PyErr_SetString(PyExc_RuntimeError, "_bslscan is not configured (configure was not called, or failed)"); return NULL; }
    Py_ssize_t n = PyBytes_GET_SIZE(data) + 1;
    PyObject *text = PyBytes_FromStringAndSize(NULL, n);
    if (!text) return NULL;
    unsigned char *t = (unsigned char *)PyBytes_AS_STRING(text);
    t[0] = '\n';
    memcpy(t + 1, PyBytes_AS_STRING(data), n - 1);

    PyObject *procedures = PyList_New(0), *problems = PyList_New(0), *result = NULL;
    State st = {PyList_New(0), PyList_New(0), PyList_New(0), PyList_New(0), PyDict_New(), NULL, NULL};
    Open op = {0};
    HeaderMemo memo = {0, -1, -1};
    Py_ssize_t deep_regions = 0, deep_ifs = 0;       /* #Область / #Если past max_depth still open */
    int said_region = 0, said_if = 0, is_open = 0;
    Py_ssize_t n_regions = 0, comment_from = 0, comment_to = -1, line_no = 0, line_pos = 0, first = -1;
    Py_ssize_t search = 0;
    if (!procedures || !problems || !st.regions || !st.region_lines || !st.conditions || !st.pending || !st.seen)
        goto fail;

    for (;;) {
        const unsigned char *q = search < n ? memchr(t + search, '\n', n - search) : NULL;
        if (!q) break;
        Py_ssize_t nl = q - t, gs, ge, ids = 0;
        int word = 0, is_async = 0;
        int kind = struct_at(t, n, nl + 1, &gs, &ge, &ids, &word, &is_async);
        if (!kind) { search = nl + 1; continue; }
        search = ge;
        if (first < 0) first = nl;
        Py_ssize_t pos = nl + 1;
        line_no += count_nl(t, line_pos, pos);
        Py_ssize_t ln = line_no;
        line_pos = pos;
        Py_ssize_t le = line_end(t, ge, n);

        if (kind == 1) {                                     /* #Область, #Если, #Вставка… */
            PyObject *w = lowered(t, ids, ge), *rest = w ? stripped(decode_range(t, ge, le)) : NULL;
            int r = -1;
            Py_CLEAR(st.ctx_regions); Py_CLEAR(st.ctx_conditions);
            if (!rest) { Py_XDECREF(w); goto fail; }
            int hit;
#define IN(set) ((hit = PySet_Contains(set, w)) < 0 ? -1 : hit)
            if ((hit = IN(PP_REGION)) < 0) goto pp_done;
            if (hit && PyList_GET_SIZE(st.regions) >= max_depth) {   /* past the cap: counted only */
                n_regions++;
                r = 0;
                if (!said_region) { said_region = 1; r = problem(problems, "deep-nesting", Py_NewRef(S_deep_region), ln); }
                deep_regions++;
                goto pp_done;
            }
            if (hit) {
                PyObject *parts = PyObject_CallMethodOneArg(rest, S_split, S_slashes);
                PyObject *name = parts ? stripped(Py_NewRef(PyList_GET_ITEM(parts, 0))) : NULL;
                Py_XDECREF(parts);
                PyObject *lnobj = name ? PyLong_FromSsize_t(ln) : NULL;
                if (lnobj && PyList_Append(st.regions, name) == 0 && PyList_Append(st.region_lines, lnobj) == 0) {
                    n_regions++; r = 0;
                }
                Py_XDECREF(name); Py_XDECREF(lnobj);
                goto pp_done;
            }
            if ((hit = IN(PP_END_REGION)) < 0) goto pp_done;
            if (hit) {
                Py_ssize_t k = PyList_GET_SIZE(st.regions);
                if (deep_regions) { deep_regions--; r = 0; }
                else if (k) {
                    r = PyList_SetSlice(st.regions, k - 1, k, NULL);
                    if (r == 0) r = PyList_SetSlice(st.region_lines, k - 1, k, NULL);
                }
                else r = problem(problems, "unbalanced-region", Py_NewRef(S_not_open), ln);
                goto pp_done;
            }
            Py_ssize_t nc = PyList_GET_SIZE(st.conditions);
            if ((hit = IN(PP_IF)) < 0) goto pp_done;
            if (hit && nc >= max_depth) {
                r = 0;
                if (!said_if) { said_if = 1; r = problem(problems, "deep-nesting", Py_NewRef(S_deep_if), ln); }
                deep_ifs++;
                goto pp_done;
            }
            if (hit) {
                PyObject *c = PyObject_CallOneArg(then_sub, rest);
                r = c ? PyList_Append(st.conditions, c) : -1;
                Py_XDECREF(c);
                goto pp_done;
            }
            if ((hit = IN(PP_ELSIF)) < 0) goto pp_done;
            if (hit && nc && deep_ifs) { r = 0; goto pp_done; }
            if (hit && nc) {
                PyObject *c = PyObject_CallOneArg(then_sub, rest);
                r = c ? PyList_SetItem(st.conditions, nc - 1, c) : -1;
                goto pp_done;
            }
            if ((hit = IN(PP_ELSE)) < 0) goto pp_done;
            if (hit && nc && deep_ifs) { r = 0; goto pp_done; }
            if (hit && nc) {
                PyObject *c = fmt(S_not, "(O)", PyList_GET_ITEM(st.conditions, nc - 1));
                r = c ? PyList_SetItem(st.conditions, nc - 1, c) : -1;
                goto pp_done;
            }
            if ((hit = IN(PP_END_IF)) < 0) goto pp_done;
            if (hit) {
                if (deep_ifs) { deep_ifs--; r = 0; }
                else if (nc) r = PyList_SetSlice(st.conditions, nc - 1, nc, NULL);
                else r = problem(problems, "unbalanced-if", Py_NewRef(S_if_not_open), ln);
                goto pp_done;
            }
            r = 0;
            if (is_open) {
                if ((hit = IN(PP_INSERT)) < 0) { r = -1; goto pp_done; }
                if (hit) { op.inserts++; goto pp_done; }
                if ((hit = IN(PP_DELETE)) < 0) { r = -1; goto pp_done; }
                if (hit) op.deletes++;
            }
#undef IN
        pp_done:
            Py_DECREF(w); Py_DECREF(rest);
            if (r < 0) goto fail;
            if (!is_open) {
                comment_from = le; comment_to = -1;
                if (PyList_SetSlice(st.pending, 0, PY_SSIZE_T_MAX, NULL) < 0) goto fail;
            }
            continue;
        }
        if (kind == 2) {                                     /* &НаСервере, &Перед("X")… */
            if (!is_open) {
                if (comment_to < 0) comment_to = pos;
                PyObject *w = lowered(t, ids, ge), *rest = w ? decode_range(t, ge, le) : NULL;
                PyObject *pair = rest ? PyTuple_Pack(2, w, rest) : NULL;
                Py_XDECREF(w); Py_XDECREF(rest);
                if (!pair || PyList_Append(st.pending, pair) < 0) { Py_XDECREF(pair); goto fail; }
                Py_DECREF(pair);
            }
            continue;
        }
        const Word *kw = &STRUCT[word];
        if (kw->is_end) {
            if (!is_open) {
                PyObject *k = decode_range(t, gs, ge);
                if (!k || problem(problems, "unbalanced", fmt(S_unmatched, "(O)", k), ln) < 0) {
                    Py_XDECREF(k); goto fail;
                }
                Py_DECREF(k);
            } else {
                if (kw->is_function != op.is_function) {
                    PyObject *k = decode_range(t, gs, ge);
                    if (!k || problem(problems, "unbalanced", fmt(S_closed_by, "(OnOO)", op.name, op.line,
                            op.is_function ? S_kind_func : S_kind_proc, k), ln) < 0) {
                        Py_XDECREF(k); goto fail;
                    }
                    Py_DECREF(k);
                }
                is_open = 0;
                if (close_proc(&op, text, le, ln, common, procedures) < 0) goto fail;
            }
            comment_from = le; comment_to = -1;
            if (PyList_SetSlice(st.pending, 0, PY_SSIZE_T_MAX, NULL) < 0) goto fail;
            continue;
        }
        /* a header */
        if (is_open) {
            if (problem(problems, "unbalanced", fmt(S_no_end_header, "(OnO)", op.name, op.line,
                    op.is_function ? S_end_func : S_end_proc), ln) < 0) goto fail;
            is_open = 0;
            if (close_proc(&op, text, pos - 1, ln - 1, common, procedures) < 0) goto fail;
        }
        Py_ssize_t ns, ne, ls, lend, sig_end;
        int export;
        int got_header = header_at(t, n, ge, &memo, &ns, &ne, &ls, &lend, &export, &sig_end);
        /* a list over the bound is not a header's (lexer.MAX_LIST_BYTES first: the lines counted
         * are at most that many bytes) */
        int too_long = got_header && (lend - ls > max_list_bytes || count_nl(t, ls, lend) >= max_list_lines);
        if (!got_header || too_long) {
            PyObject *k = decode_range(t, gs, ge), *nm = too_long && k ? decode_range(t, ns, ne) : NULL;
            if (!k || (too_long && !nm)
                || problem(problems, "syntax", too_long ? fmt(S_long_list, "(OO)", k, nm) : fmt(S_no_header, "(O)", k), ln) < 0) {
                Py_XDECREF(k); Py_XDECREF(nm); goto fail;
            }
            Py_DECREF(k); Py_XDECREF(nm);
            comment_from = le; comment_to = -1;
            if (PyList_SetSlice(st.pending, 0, PY_SSIZE_T_MAX, NULL) < 0) goto fail;
            continue;
        }
        {
            PyObject *name = decode_range(t, ns, ne), *inner = NULL, *params = NULL, *plist = NULL;
            PyObject *doc = NULL, *directive = NULL, *annotation = NULL, *vals[12] = {0}, *proc = NULL;
            PyObject *lower = NULL, *cond = NULL, *key = NULL, *sets[4] = {0};
            int ok = 0;
            if (!name) goto h_done;
            inner = PyBytes_FromStringAndSize((const char *)t + ls, lend - ls);
            if (!inner) goto h_done;
            params = PyDict_GetItemWithError(PARAMS, inner);
            if (params) Py_INCREF(params);
            else if (PyErr_Occurred() || !(params = PyObject_CallOneArg(params_of, inner))) goto h_done;
            if (!(plist = PySequence_List(params))) goto h_done;
            if (!st.ctx_regions) {
                st.ctx_regions = PyList_GetSlice(st.regions, 0, PY_SSIZE_T_MAX);
                st.ctx_conditions = PyList_GetSlice(st.conditions, 0, PY_SSIZE_T_MAX);
                if (!st.ctx_regions || !st.ctx_conditions) goto h_done;
            }
            if (!(doc = doc_comment(t, comment_from, comment_to >= 0 ? comment_to : pos))) goto h_done;
            directive = Py_NewRef(S_empty);
            annotation = Py_NewRef(Py_None);
            for (Py_ssize_t k = 0; k < PyList_GET_SIZE(st.pending); k++) {
                PyObject *pair = PyList_GET_ITEM(st.pending, k), *w = PyTuple_GET_ITEM(pair, 0);
                PyObject *d = PyDict_GetItemWithError(DIRECTIVES, w);
                if (d) { Py_SETREF(directive, Py_NewRef(d)); continue; }
                if (PyErr_Occurred()) goto h_done;
                int hit = PyDict_Contains(ANNOTATIONS, w);
                if (hit < 0) goto h_done;
                if (hit) {
                    PyObject *a = PyObject_CallFunctionObjArgs(annotation_of, w, PyTuple_GET_ITEM(pair, 1), NULL);
                    if (!a) goto h_done;
                    Py_SETREF(annotation, a);
                }
            }
            for (int k = 0; k < 4; k++) if (!(sets[k] = PySet_New(NULL))) goto h_done;
            vals[0] = name; vals[1] = kw->is_function ? Py_True : Py_False; vals[2] = plist;
            vals[3] = export ? Py_True : Py_False; vals[4] = directive; vals[5] = annotation;
            vals[6] = is_async ? Py_True : Py_False; vals[7] = st.ctx_regions; vals[8] = st.ctx_conditions;
            vals[9] = doc;
            if (!(vals[10] = PyLong_FromSsize_t(ln))) goto h_done;
            vals[11] = vals[10];
            {
                PyObject *all[N_FIELDS];           /* body b"", inserts 0, deletes 0: the defaults */
                for (int k = 0; k < 12; k++) all[k] = vals[k];
                all[12] = S_empty_bytes; all[13] = S_zero; all[14] = S_zero;
                all[15] = sets[0]; all[16] = sets[1]; all[17] = sets[3]; all[18] = sets[2];
                proc = PyObject_Vectorcall(Procedure, all, N_FIELDS, NULL);
            }
            if (!proc) goto h_done;
            /* a repeated name under the same conditions */
            if (!(lower = lower_run(t + ns, ne - ns))) goto h_done;
            if (!(cond = PyList_AsTuple(st.conditions))) goto h_done;
            if (!(key = PyTuple_Pack(2, lower, cond))) goto h_done;
            {
                PyObject *was = PyDict_GetItemWithError(st.seen, key);
                if (was) {
                    if (problem(problems, "duplicate", fmt(S_duplicate, "(OOn)", name, was, ln), ln) < 0) goto h_done;
                } else if (PyErr_Occurred() || PyDict_SetItem(st.seen, key, vals[10]) < 0) goto h_done;
            }
            op.proc = Py_NewRef(proc); op.name = Py_NewRef(name);
            op.local = Py_NewRef(sets[0]); op.qualified = Py_NewRef(sets[1]); op.usages = Py_NewRef(sets[2]);
            op.start = pos; op.line = ln; op.inserts = op.deletes = 0; op.is_function = kw->is_function;
            is_open = 1;
            ok = 1;
        h_done:
            Py_XDECREF(name); Py_XDECREF(inner); Py_XDECREF(params); Py_XDECREF(plist); Py_XDECREF(doc);
            Py_XDECREF(directive); Py_XDECREF(annotation); Py_XDECREF(vals[10]); Py_XDECREF(proc);
            Py_XDECREF(lower); Py_XDECREF(cond); Py_XDECREF(key);
            for (int k = 0; k < 4; k++) Py_XDECREF(sets[k]);
            if (!ok) goto fail;
        }
        if (PyList_SetSlice(st.pending, 0, PY_SSIZE_T_MAX, NULL) < 0) goto fail;
        comment_to = -1;
        Py_ssize_t tail_end = line_end(t, sig_end, n);
        if (end_on_line(t, sig_end, tail_end)) {             /* a one-line procedure */
            line_no += count_nl(t, line_pos, tail_end);
            line_pos = tail_end;
            is_open = 0;
            if (close_proc(&op, text, tail_end, line_no, common, procedures) < 0) goto fail;
            comment_from = tail_end;
        }
    }
    {
        Py_ssize_t last_line = line_no + count_nl(t, line_pos, n);
        if (is_open) {
            if (problem(problems, "unbalanced", fmt(S_no_end_eof, "(OnO)", op.name, op.line,
                    op.is_function ? S_end_func : S_end_proc), op.line) < 0) goto fail;
            is_open = 0;
            if (close_proc(&op, text, n, last_line, common, procedures) < 0) goto fail;
        }
        Py_ssize_t k = PyList_GET_SIZE(st.regions);
        if (k) {
            PyObject *lnobj = PyList_GET_ITEM(st.region_lines, k - 1);
            Py_ssize_t rl = PyLong_AsSsize_t(lnobj);
            if (problem(problems, "unbalanced-region", fmt(S_region_not_closed, "(O)", PyList_GET_ITEM(st.regions, k - 1)), rl) < 0) goto fail;
        }
        PyObject *module_doc = first >= 0 ? doc_comment(t, 0, first + 1) : Py_NewRef(S_empty);
        if (!module_doc) goto fail;
        result = Py_BuildValue("(OOnnN)", procedures, problems, n_regions, last_line, module_doc);
    }
fail:
    if (is_open) open_clear(&op);
    Py_XDECREF(procedures); Py_XDECREF(problems); Py_DECREF(text);
    Py_XDECREF(st.regions); Py_XDECREF(st.region_lines); Py_XDECREF(st.conditions); Py_XDECREF(st.pending);
    Py_XDECREF(st.seen); Py_XDECREF(st.ctx_regions); Py_XDECREF(st.ctx_conditions);
    return result;
}

/* -- decoding ------------------------------------------------------------------------------ */


/* The length of the well-formed UTF-8 sequence at s (Unicode Table 3-7: no overlongs, no
 * surrogates, nothing above U+10FFFF — what Python's strict decoder accepts), or 0. */
static inline int utf8_seq(const unsigned char *s, Py_ssize_t left) {
    unsigned char c = s[0];
    if (c < 0x80) return 1;
    if (c < 0xC2) return 0;
    if (c < 0xE0) return left >= 2 && (s[1] & 0xC0) == 0x80 ? 2 : 0;
    if (c < 0xF0) {
        if (left < 3 || (s[2] & 0xC0) != 0x80) return 0;
        unsigned char lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
        return s[1] >= lo && s[1] <= hi ? 3 : 0;
    }
    if (c > 0xF4 || left < 4 || (s[2] & 0xC0) != 0x80 || (s[3] & 0xC0) != 0x80) return 0;
    unsigned char lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    return s[1] >= lo && s[1] <= hi ? 4 : 0;
}

/* decode(data) -> the text lexer.decode_module gives (BOM dropped, CRLF and lone CR as LF), or
 * None when the data holds a NUL byte or is not UTF-8 (lexer.py then words the problem). */
static PyObject *decode(PyObject *Py_UNUSED(self), PyObject *arg) {
    if (!PyBytes_Check(arg)) { PyErr_SetString(PyExc_TypeError, "bytes"); return NULL; }
    const unsigned char *s = (const unsigned char *)PyBytes_AS_STRING(arg);
    Py_ssize_t n = PyBytes_GET_SIZE(arg), i = 0, crs = 0;
    if (n >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF) i = 3;
    Py_ssize_t from = i;
    while (i < n) {
        /* Eight bytes at a time while they are plain ASCII (no NUL, no CR) and two-byte
         * sequences (C2..DF then 80..BF: Cyrillic, «», №'s neighbours): in each byte's top
         * bits a lead is 110, a continuation 10; every continuation must follow a lead, one
         * byte on (``carry``: a lead that ends the word). Anything else (three- and four-byte
         * sequences, C0/C1, a NUL, a stray byte) goes to the loop below, from the character it
         * starts in. SSL 3.1.12: 78 MB, half of it Cyrillic, half its files CRLF. */
        uint64_t carry = 0;
        while (i + 8 <= n) {
            uint64_t w;
            memcpy(&w, s + i, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
            w = __builtin_bswap64(w);   /* the shifts below read byte k + 1 as the next higher */
#endif
            uint64_t hi = w & HIGHS, b6 = (w << 1) & HIGHS, b5 = (w << 2) & HIGHS;
            uint64_t lead = hi & b6 & ~b5, cont = hi & ~b6;
            if ((hi & b6 & b5) || cont != ((lead << 8) | carry) || HASZERO(w)
                || HASZERO((w ^ (ONES * 0xC0)) & (ONES * 0xFE))) break;    /* C0, C1: overlong */
            crs |= HASZERO(w ^ (ONES * '\r')) != 0;     /* only whether there is one matters */
            carry = lead >> 56;
            i += 8;
        }
        if (carry) i--;              /* back to the lead the last word ended with */
        /* then byte by byte up to the next plain stretch; two-byte letters (Cyrillic) inline */
        Py_ssize_t stop = i + 64 < n ? i + 64 : n;
        while (i < stop) {
            unsigned char c = s[i];
            if (c < 0x80) {
                if (c == 0) Py_RETURN_NONE;
                crs += c == '\r';
                i++;
            } else if (c >= 0xC2 && c < 0xE0 && i + 1 < n && (s[i + 1] & 0xC0) == 0x80) {
                i += 2;
            } else {
                int k = utf8_seq(s + i, n - i);
                if (!k) Py_RETURN_NONE;
                i += k;
            }
        }
    }
    if (!crs) {
        if (from == 0) return Py_NewRef(arg);
        return PyBytes_FromStringAndSize((const char *)s + from, n - from);
    }
    PyObject *out = PyBytes_FromStringAndSize(NULL, n - from);
    if (!out) return NULL;
    unsigned char *o = (unsigned char *)PyBytes_AS_STRING(out), *w = o;
    for (i = from; i < n;) {
        const unsigned char *cr = memchr(s + i, '\r', n - i);
        Py_ssize_t e = cr ? cr - s : n;
        memcpy(w, s + i, e - i);
        w += e - i;
        if (!cr) break;
        if (e + 1 >= n || s[e + 1] != '\n') *w++ = '\n';         /* a lone CR ends a line */
        i = e + 1;
    }
    if (_PyBytes_Resize(&out, w - o) < 0) return NULL;
    return out;
}

/* -- doc comments ------------------------------------------------------------------------ */

/* What a doc comment's heading line may hold before its colon (doccomment._HEADING's class). */
static inline int heading_char(Py_UCS4 c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= 0x410 && c <= 0x44F) || c == 0x401
           || c == 0x451 || c == ' ';
}

/* sre's \w on str (``[^\W\d]`` is a word character that is not a decimal digit). */
static inline int word_char(Py_UCS4 c) { return Py_UNICODE_ISALNUM(c) || c == '_'; }

/* s[a:b] less the whitespace str.strip() takes (both ends, or the right one only). */
static PyObject *strip_range(PyObject *s, Py_ssize_t a, Py_ssize_t b, int left) {
    int kind = PyUnicode_KIND(s);
    const void *d = PyUnicode_DATA(s);
    while (left && a < b && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, d, a))) a++;
    while (b > a && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, d, b - 1))) b--;
    return PyUnicode_Substring(s, a, b);
}

/* doc_sections(doc, headings, type_and_text, max_text) -> (description lines, params, returns
 * lines, example lines): doccomment._sections's answer (it is the reference). One pass over the
 * comment's lines: a heading (letters and spaces, a colon) switches the section, a parameter
 * line ``Имя - …`` opens a parameter (its types and text by ``type_and_text``), other lines
 * are kept stripped or continue the last parameter's text. */
static PyObject *doc_sections(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *doc, *headings, *type_and_text;
    Py_ssize_t max_text;
    if (!PyArg_ParseTuple(args, "UO!On", &doc, &PyDict_Type, &headings, &type_and_text, &max_text)) return NULL;
    int kind = PyUnicode_KIND(doc);
    const void *d = PyUnicode_DATA(doc);
    Py_ssize_t n = PyUnicode_GET_LENGTH(doc);
#define C(i) PyUnicode_READ(kind, d, (i))
    PyObject *lists[4] = {PyList_New(0), PyList_New(0), PyList_New(0), PyList_New(0)};   /* description, params, returns, example */
    PyObject *out = NULL;
    int section = 0;
    Py_ssize_t base = -1, a = 0;
    if (!lists[0] || !lists[1] || !lists[2] || !lists[3]) goto done;
    for (;;) {
        Py_ssize_t e = a, colon = -1;
        while (e < n && C(e) != '\n') { if (colon < 0 && C(e) == ':') colon = e; e++; }
        if (colon >= 0) {                                       /* a heading? */
            Py_ssize_t i = a, j, k;
            while (i < e && Py_UNICODE_ISSPACE(C(i))) i++;
            for (j = i; j < e && heading_char(C(j)); j++) {}
            for (k = j; k < e && Py_UNICODE_ISSPACE(C(k)); k++) {}
            if (j > i && k < e && C(k) == ':') {
                Py_UCS4 key[32];
                int m = 0;
                for (Py_ssize_t x = i; x < j && m <= 31; x++) {
                    Py_UCS4 c = C(x);
                    if (c == ' ') continue;
                    key[m++] = c >= 'A' && c <= 'Z' ? c + 32 : c >= 0x410 && c <= 0x42F ? c + 32 : c == 0x401 ? 0x451 : c;
                }
                PyObject *sec = NULL;
                if (m <= 31) {                                  /* longer: no heading's word */
                    PyObject *k_ = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, key, m);
                    if (!k_) goto done;
                    sec = PyDict_GetItemWithError(headings, k_);
                    Py_DECREF(k_);
                    if (!sec && PyErr_Occurred()) goto done;
                }
                if (sec) {
                    if (!PyUnicode_Check(sec)) { PyErr_SetString(PyExc_TypeError, "a section: a str"); goto done; }
                    section = PyUnicode_CompareWithASCIIString(sec, "params") == 0 ? 1
                              : PyUnicode_CompareWithASCIIString(sec, "returns") == 0 ? 2
                              : PyUnicode_CompareWithASCIIString(sec, "example") == 0 ? 3 : 0;
                    base = -1;
                    if (section != 1) {                         /* the params' own line is not kept */
                        PyObject *rest = strip_range(doc, k + 1, e, 1);
                        int r = !rest ? -1 : PyUnicode_GET_LENGTH(rest) ? PyList_Append(lists[section], rest) : 0;
                        Py_XDECREF(rest);
                        if (r < 0) goto done;
                    }
                    goto next;
                }
            }
        }
        if (section != 1) {
            PyObject *line = strip_range(doc, a, e, section != 3);
            int r = line ? PyList_Append(lists[section], line) : -1;
            Py_XDECREF(line);
            if (r < 0) goto done;
            goto next;
        }
        {   /* a parameter: (\s*)([^\W\d]\w*)\s+-\s*(.*) */
            Py_ssize_t i = a, j = a, k = a, r = -1;
            while (i < e && Py_UNICODE_ISSPACE(C(i))) i++;
            if (i < e && word_char(C(i)) && !Py_UNICODE_ISDECIMAL(C(i))) {
                for (j = i + 1; j < e && word_char(C(j)); j++) {}
                for (k = j; k < e && Py_UNICODE_ISSPACE(C(k)); k++) {}
                if (k > j && k < e && C(k) == '-')
                    for (r = k + 1; r < e && Py_UNICODE_ISSPACE(C(r)); r++) {}
            }
            if (r >= 0 && (base < 0 || i - a <= base)) {
                base = i - a;
                PyObject *name = PyUnicode_Substring(doc, i, j), *rest = PyUnicode_Substring(doc, r, e);
                PyObject *tt = rest ? PyObject_CallOneArg(type_and_text, rest) : NULL, *p = NULL;
                int ok = name && tt && PyTuple_Check(tt) && PyTuple_GET_SIZE(tt) == 2;
                if (ok && (p = PyDict_New())
                    && (PyDict_SetItem(p, S_name, name) < 0 || PyDict_SetItem(p, S_type, PyTuple_GET_ITEM(tt, 0)) < 0
                        || PyDict_SetItem(p, S_text, PyTuple_GET_ITEM(tt, 1)) < 0))
                    Py_CLEAR(p);
                if (!ok && tt) PyErr_SetString(PyExc_TypeError, "type_and_text: a pair");
                int fail = !p || PyList_Append(lists[1], p) < 0;
                Py_XDECREF(name); Py_XDECREF(rest); Py_XDECREF(tt); Py_XDECREF(p);
                if (fail) goto done;
                goto next;
            }
            Py_ssize_t np = PyList_GET_SIZE(lists[1]);
            if (!np) goto next;
            PyObject *sub = strip_range(doc, a, e, 1);
            if (!sub) goto done;
            if (!PyUnicode_GET_LENGTH(sub)) { Py_DECREF(sub); goto next; }
            PyObject *p = PyList_GET_ITEM(lists[1], np - 1), *text = PyDict_GetItem(p, S_text);
            PyObject *joined = NULL, *cut = NULL;
            if (text && PyUnicode_Check(text)) {
                int star = PyUnicode_READ_CHAR(sub, 0) == '*';
                PyObject *sep = PyUnicode_FromString(star ? "\n" : " ");
                PyObject *head = sep ? PyUnicode_Concat(text, sep) : NULL;
                PyObject *whole = head ? PyUnicode_Concat(head, sub) : NULL;
                joined = !whole || star ? Py_XNewRef(whole) : strip_range(whole, 0, PyUnicode_GET_LENGTH(whole), 1);
                Py_XDECREF(sep); Py_XDECREF(head); Py_XDECREF(whole);
                if (joined) {
                    Py_ssize_t len = PyUnicode_GET_LENGTH(joined);
                    cut = PyUnicode_Substring(joined, 0, len < max_text ? len : max_text);
                }
            } else PyErr_SetString(PyExc_TypeError, "a parameter's text: a str");
            int fail = !cut || PyDict_SetItem(p, S_text, cut) < 0;
            Py_DECREF(sub); Py_XDECREF(joined); Py_XDECREF(cut);
            if (fail) goto done;
        }
    next:
        if (e >= n) break;
        a = e + 1;
    }
    out = PyTuple_Pack(4, lists[0], lists[1], lists[2], lists[3]);
done:
#undef C
    for (int f = 0; f < 4; f++) Py_XDECREF(lists[f]);
    return out;
}

/* -- search terms ------------------------------------------------------------------------ */

/* pack_procedures(ids, procs, desc_chars, (whole, memo, memo_max, whole_max, fallback),
 *                 (part_terms, terms_of_part, stem_memo, stem, part_max)) -> [bytes]:
 * terms.TermPacker.pack_procedures (terms.py's ``_pack_procedures_python`` is the reference: each
 * procedure's four texts, each text's ``terms``, then ``_pack_terms``). Each procedure's bytes
 * are its four texts' term counts, then each term's ``ids[term]`` (the packer's defaultdict: a
 * new term takes the next id there), native uint32. A text's terms come as ``terms.terms``
 * finds them, through the same memos: a text of at most ``whole_max`` characters looked up
 * whole in ``whole``; else split into ``WORD_RUNS`` chunks, each looked up in ``memo``; a chunk
 * not there put together from its ``_PART`` runs' terms as ``text.chunk_terms`` does
 * (``part_terms``; a run not met made here, or by ``terms_of_part`` when it mixes scripts).
 * terms.py's memos are filled while they hold fewer than ``memo_max``, text.py's fewer than
 * ``part_max``. The patterns' character classes are plain code points, so the loops below find
 * their matches; a text with a character NFC could change (``nfc_inert``) goes to ``fallback``
 * (``terms.terms``) whole. In Python the regular expressions, the calls a text, a chunk and a
 * run, and the ids cost SSL 3.1.12's readers ≈ 0.25 s of CPU (docs/perf/code.md, session 11). */

typedef struct { uint32_t *p; Py_ssize_t n, cap; } U32s;

static int u32_put(U32s *b, uint32_t v) {
    if (b->n == b->cap) {
        Py_ssize_t cap = b->cap ? 2 * b->cap : 256;
        if (cap > PY_SSIZE_T_MAX / 4) { PyErr_NoMemory(); return -1; }
        uint32_t *p = PyMem_Realloc(b->p, 4 * cap);
        if (!p) { PyErr_NoMemory(); return -1; }
        b->p = p; b->cap = cap;
    }
    b->p[b->n++] = v;
    return 0;
}

/* put_id's table: open addressing by the term's address; ``held``: its keys, in order */
typedef struct { PyObject **keys; uint32_t *vals; PyObject **held; size_t mask, n; PyObject **start_held, **start_keys; } Seen;

typedef struct {
    PyObject *ids, *whole, *memo, *fallback;            /* terms.py's */
    PyObject *part_terms, *terms_of_part, *stem_memo, *stem;   /* text.py's (text.chunk_memos) */
    Py_ssize_t memo_max, whole_max, part_max;
    Seen *seen;                                         /* put_id's */
} Terms;

/* ids[term] (a defaultdict: a term not there takes the next id through __missing__) */
static int term_id(PyObject *ids, PyObject *term, uint32_t *id) {
    PyObject *v = PyDict_Check(ids) ? PyDict_GetItemWithError(ids, term) : NULL;
    if (v) Py_INCREF(v);
    else if (PyErr_Occurred() || !(v = PyObject_GetItem(ids, term))) return -1;
    unsigned long u = PyLong_AsUnsignedLong(v);
    Py_DECREF(v);
    if (u == (unsigned long)-1 && PyErr_Occurred()) return -1;
    if (u > UINT32_MAX) { PyErr_SetString(PyExc_OverflowError, "a term id past uint32"); return -1; }
    *id = (uint32_t)u;
    return 0;
}

/* The ids one pack_procedures call has looked up, by the term object: a module's terms are the same
 * few objects over and over (memoized lists; SSL 3.1.12: 1.09 M occurrences, 0.35 M objects a
 * module), and a pointer's probe costs a fraction of a dict lookup. A term's id never changes
 * (the ids only grow); the keys are held, so no address is reused while the call runs. */
static inline size_t seen_slot(const Seen *c, PyObject *k) {
    size_t i = (size_t)(((uintptr_t)k >> 4) * 0x9E3779B97F4A7C15ull >> 20) & c->mask;
    while (c->keys[i] && c->keys[i] != k) i = (i + 1) & c->mask;
    return i;
}

/* the table twice as large, from the keys held (a call starts on SEEN_START slots of its stack) */
static int seen_grow(Seen *c) {
    size_t cap = 2 * (c->mask + 1);
    PyObject **keys = PyMem_Calloc(cap, sizeof(PyObject *));
    uint32_t *vals = keys ? PyMem_Malloc(cap * sizeof(uint32_t)) : NULL;
    PyObject **held = vals ? PyMem_Realloc(c->held == c->start_held ? NULL : c->held, cap / 2 * sizeof(PyObject *)) : NULL;
    if (!held) { PyMem_Free(keys); PyMem_Free(vals); PyErr_NoMemory(); return -1; }
    if (c->held == c->start_held) memcpy(held, c->held, c->n * sizeof(PyObject *));
    Seen g = {keys, vals, held, cap - 1, c->n, c->start_held, c->start_keys};
    for (size_t k = 0; k < c->n; k++) {      /* c->held may have moved: the keys from held */
        size_t i = seen_slot(c, held[k]), j = seen_slot(&g, held[k]);
        g.keys[j] = c->keys[i];
        g.vals[j] = c->vals[i];
    }
    if (c->keys != c->start_keys) { PyMem_Free(c->keys); PyMem_Free(c->vals); }
    *c = g;
    return 0;
}

static void seen_clear(Seen *c) {
    for (size_t k = 0; k < c->n; k++) Py_DECREF(c->held[k]);
    if (c->keys != c->start_keys) { PyMem_Free(c->keys); PyMem_Free(c->vals); }
    if (c->held != c->start_held) PyMem_Free(c->held);
}

/* ``term``'s id onto ``out``: from ``seen``, or ``ids`` (then kept in ``seen``) */
static int put_id(const Terms *cx, PyObject *term, U32s *out) {
    Seen *c = cx->seen;
    size_t i = seen_slot(c, term);
    if (c->keys[i]) return u32_put(out, c->vals[i]);
    uint32_t id;
    if (term_id(cx->ids, term, &id) < 0) return -1;
    i = seen_slot(c, term);          /* the same slot: nothing put in ``seen`` meanwhile */
    c->keys[i] = c->held[c->n++] = Py_NewRef(term);
    c->vals[i] = id;
    if (c->n * 2 > c->mask && seen_grow(c) < 0) return -1;     /* held has room for (mask + 1) / 2 */
    return u32_put(out, id);
}

/* each term of ``list`` (held by the caller) through put_id; then onto ``keep`` when given */
static int list_ids(const Terms *cx, PyObject *list, U32s *out, PyObject *keep) {
    if (!PyList_Check(list)) { PyErr_SetString(PyExc_TypeError, "terms: a list"); return -1; }
    for (Py_ssize_t j = 0; j < PyList_GET_SIZE(list); j++) {    /* the size again: ids[...] may run code */
        PyObject *t = Py_NewRef(PyList_GET_ITEM(list, j));
        int r = put_id(cx, t, out);
        Py_DECREF(t);
        if (r < 0) return -1;
    }
    return keep ? PyList_SetSlice(keep, PY_SSIZE_T_MAX, PY_SSIZE_T_MAX, list) : 0;
}

/* A character's class in text.py's patterns: WORD_RUNS = [0-9A-Za-zА-Яа-яЁё], and inside a run
 * _PART's digits, capitals [A-ZА-ЯЁ], small letters [a-zа-яё]. */
enum { TC_NONE, TC_DIGIT, TC_LOWER, TC_UPPER };

static inline int term_class(Py_UCS4 c) {
    if (c < 128) {
        if (c >= '0' && c <= '9') return TC_DIGIT;
        if (c >= 'a' && c <= 'z') return TC_LOWER;
        return c >= 'A' && c <= 'Z' ? TC_UPPER : TC_NONE;
    }
    if ((c >= 0x430 && c <= 0x44F) || c == 0x451) return TC_LOWER;
    return (c >= 0x410 && c <= 0x42F) || c == 0x401 ? TC_UPPER : TC_NONE;
}

/* Whether NFC leaves ``s`` as it is, told cheaply: every character below U+0300 or in U+0400–
 * U+045F (Latin-1, the Latin extensions, basic Cyrillic) is a starter no normalization form
 * changes, alone or beside another (tests/test_code_terms.py checks every pair). */
static int nfc_inert(PyObject *s) {
    int kind = PyUnicode_KIND(s);
    if (kind == PyUnicode_1BYTE_KIND) return 1;
    if (kind != PyUnicode_2BYTE_KIND) return 0;
    const Py_UCS2 *d = PyUnicode_2BYTE_DATA(s);
    for (Py_ssize_t i = 0, n = PyUnicode_GET_LENGTH(s); i < n; i++)
        if (d[i] >= 0x300 && (d[i] < 0x400 || d[i] > 0x45F)) return 0;
    return 1;
}

/* text.py's _whole_term of s[a:b] (a WORD_RUNS chunk): lower case, ё → е */
static PyObject *whole_term(int kind, const void *d, Py_ssize_t a, Py_ssize_t b) {
    Py_UCS4 max = 0;
    for (int pass = 0; pass < 2; pass++) {
        PyObject *out = pass ? PyUnicode_New(b - a, max) : NULL;
        if (pass && !out) return NULL;
        for (Py_ssize_t i = a; i < b; i++) {
            Py_UCS4 c = PyUnicode_READ(kind, d, i);
            if (c == 0x401 || c == 0x451) c = 0x435;
            else if (term_class(c) == TC_UPPER) c += 32;      /* A-Z → a-z, А-Я → а-я */
            if (pass) PyUnicode_WRITE(PyUnicode_KIND(out), PyUnicode_DATA(out), i - a, c);
            else if (c > max) max = c;
        }
        if (pass) return out;
    }
    return NULL;
}

/* The end of the _PART match at i of the run ending at e: [A-ZА-ЯЁ]+(?=[A-ZА-ЯЁ][a-zа-яё]) |
 * [A-ZА-ЯЁ]?[a-zа-яё]+ | [A-ZА-ЯЁ]+ | [0-9]+, tried in that order. Every character of a run
 * is in one class, so a match starts at each end. */
static Py_ssize_t part_end(int kind, const void *d, Py_ssize_t i, Py_ssize_t e) {
    int k = term_class(PyUnicode_READ(kind, d, i));
    Py_ssize_t j = i + 1;
    while (j < e && term_class(PyUnicode_READ(kind, d, j)) == k) j++;
    if (k != TC_UPPER || j == e || term_class(PyUnicode_READ(kind, d, j)) != TC_LOWER) return j;
    if (j - i >= 2) return j - 1;                  /* capitals before Capital+small: HTTP|Сервис */
    while (++j < e && term_class(PyUnicode_READ(kind, d, j)) == TC_LOWER) {}
    return j;                                      /* one capital and its small letters */
}

/* text._terms_of_part of s[a:b], a _PART run: a run that mixes Latin and Cyrillic letters goes to
 * ``terms_of_part`` (its homoglyphs and script splits are Python's); any other is one word —
 * its folded form f and stem(f) (``stem_memo``, or ``stem`` on a word not met): ([stem, f] or
 * [stem] when they are the same, [stem], 1), stored in ``part_terms`` while it is not full. */
static PyObject *part_terms_of(const Terms *cx, PyObject *s, PyObject *part, Py_ssize_t a, Py_ssize_t b) {
    int kind = PyUnicode_KIND(s), latin = 0, cyrillic = 0;
    const void *d = PyUnicode_DATA(s);
    for (Py_ssize_t i = a; i < b; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, d, i);
        if (c >= 0x400) cyrillic = 1;
        else if (c > '9') latin = 1;
    }
    if (latin && cyrillic) return PyObject_CallOneArg(cx->terms_of_part, part);
    PyObject *f = whole_term(kind, d, a, b), *stem = f ? PyDict_GetItemWithError(cx->stem_memo, f) : NULL;
    if (stem) Py_INCREF(stem);
    else if (f && !PyErr_Occurred()) stem = PyObject_CallOneArg(cx->stem, f);
    int same = stem ? PyObject_RichCompareBool(f, stem, Py_EQ) : -1;
    PyObject *with = same < 0 ? NULL : PyList_New(same ? 1 : 2), *without = with ? PyList_New(1) : NULL;
    if (without) {
        PyList_SET_ITEM(with, 0, Py_NewRef(stem));
        if (!same) PyList_SET_ITEM(with, 1, Py_NewRef(f));
        PyList_SET_ITEM(without, 0, Py_NewRef(stem));
    }
    PyObject *got = without ? PyTuple_Pack(3, with, without, S_one) : NULL;
    Py_XDECREF(f); Py_XDECREF(stem); Py_XDECREF(with); Py_XDECREF(without);
    if (got && PyDict_GET_SIZE(cx->part_terms) < cx->part_max && PyDict_SetItem(cx->part_terms, part, got) < 0)
        Py_CLEAR(got);
    return got;
}

/* text.chunk_terms(chunk, surfaces=True) of chunk == s[a:b]: each _PART run's terms with
 * surfaces (``part_terms``, or part_terms_of on a run not met), then the whole chunk's term
 * when the runs make more than one word. A new list. */
static PyObject *chunk_terms(const Terms *cx, PyObject *s, PyObject *chunk, Py_ssize_t a, Py_ssize_t b) {
    int kind = PyUnicode_KIND(s);
    const void *d = PyUnicode_DATA(s);
    PyObject *out = PyList_New(0);
    Py_ssize_t words = 0;
    for (Py_ssize_t i = a; out && i < b;) {
        Py_ssize_t j = part_end(kind, d, i, b);
        PyObject *part = i == a && j == b ? Py_NewRef(chunk) : PyUnicode_Substring(s, i, j);
        PyObject *got = part ? PyDict_GetItemWithError(cx->part_terms, part) : NULL;
        if (got) Py_INCREF(got);
        else if (part && !PyErr_Occurred()) got = part_terms_of(cx, s, part, i, j);
        Py_XDECREF(part);
        Py_ssize_t w = -1;
        if (!got) {}
        else if (!PyTuple_Check(got) || PyTuple_GET_SIZE(got) != 3 || !PyList_Check(PyTuple_GET_ITEM(got, 0)))
            PyErr_SetString(PyExc_TypeError, "a part's terms: (list, list, int)");
        else if ((w = PyLong_AsSsize_t(PyTuple_GET_ITEM(got, 2))) < 0) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a part's words: negative");
        } else if (PyList_SetSlice(out, PY_SSIZE_T_MAX, PY_SSIZE_T_MAX, PyTuple_GET_ITEM(got, 0)) < 0) w = -1;
        Py_XDECREF(got);
        if (w < 0) Py_CLEAR(out);
        words = w > 1 || words > 1 ? 2 : words + w;      /* only "more than one" matters */
        i = j;
    }
    if (out && words > 1) {
        PyObject *t = whole_term(kind, d, a, b);
        if (!t || PyList_Append(out, t) < 0) Py_CLEAR(out);
        Py_XDECREF(t);
    }
    return out;
}

/* terms._terms of ``s`` (NFC-inert) as ids onto ``out``, the terms onto ``keep`` when given:
 * each WORD_RUNS chunk's terms from ``memo``, or chunk_terms stored there. */
static int text_ids(const Terms *cx, PyObject *s, U32s *out, PyObject *keep) {
    int kind = PyUnicode_KIND(s);
    const void *d = PyUnicode_DATA(s);
    Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (term_class(PyUnicode_READ(kind, d, i)) == TC_NONE) continue;
        Py_ssize_t e = i + 1;
        while (e < n && term_class(PyUnicode_READ(kind, d, e)) != TC_NONE) e++;
        PyObject *chunk = PyUnicode_Substring(s, i, e);
        PyObject *list = chunk ? PyDict_GetItemWithError(cx->memo, chunk) : NULL;
        if (list) Py_INCREF(list);
        else if (chunk && !PyErr_Occurred() && (list = chunk_terms(cx, s, chunk, i, e))
                 && PyDict_GET_SIZE(cx->memo) < cx->memo_max && PyDict_SetItem(cx->memo, chunk, list) < 0)
            Py_CLEAR(list);
        int r = list ? list_ids(cx, list, out, keep) : -1;
        Py_XDECREF(chunk); Py_XDECREF(list);
        if (r < 0) return -1;
        i = e;
    }
    return 0;
}

/* terms.terms(t) as ids onto ``out`` */
static int terms_ids(const Terms *cx, PyObject *t, U32s *out) {
    int short_ = PyUnicode_CheckExact(t) && PyUnicode_GET_LENGTH(t) <= cx->whole_max;
    PyObject *list = short_ ? PyDict_GetItemWithError(cx->whole, t) : NULL;
    if (list) {
        Py_INCREF(list);
        int r = list_ids(cx, list, out, NULL);
        Py_DECREF(list);
        return r;
    }
    if (PyErr_Occurred()) return -1;
    if (!PyUnicode_CheckExact(t) || !nfc_inert(t)) {      /* Python's own normalization and split */
        if (!(list = PyObject_CallOneArg(cx->fallback, t))) return -1;
        int r = list_ids(cx, list, out, NULL);
        Py_DECREF(list);
        return r;
    }
    if (!short_) return text_ids(cx, t, out, NULL);
    PyObject *keep = PyList_New(0);
    int r = keep ? text_ids(cx, t, out, keep) : -1;
    if (r == 0 && PyDict_GET_SIZE(cx->whole) < cx->memo_max) r = PyDict_SetItem(cx->whole, t, keep);
    Py_XDECREF(keep);
    return r;
}

/* A procedure's four texts, as terms.TermPacker.pack_procedures gathers them (its Python is the
 * reference): p.name, p.info.get("description", "")[:desc_chars], " ".join([x.name for x in
 * p.params]), p.region[-1] if p.region else "". New references, or -1. */
static int proc_texts(PyObject *p, Py_ssize_t desc_chars, PyObject *texts[4]) {
    PyObject *info = NULL, *desc = NULL, *params = NULL, *names = NULL, *region = NULL;
    texts[0] = texts[1] = texts[2] = texts[3] = NULL;
    if (!(texts[0] = PyObject_GetAttr(p, S_name)) || !(info = PyObject_GetAttr(p, S_info))) goto fail;
    if (PyDict_CheckExact(info)) {
        desc = PyDict_GetItemWithError(info, S_description);
        desc = desc ? Py_NewRef(desc) : PyErr_Occurred() ? NULL : Py_NewRef(S_empty);
    } else desc = PyObject_CallMethodObjArgs(info, S_get, S_description, S_empty, NULL);
    if (!desc) goto fail;
    texts[1] = PyUnicode_CheckExact(desc)
        ? PyUnicode_Substring(desc, 0, desc_chars)
        : PySequence_GetSlice(desc, 0, desc_chars);
    if (!texts[1] || !(params = PyObject_GetAttr(p, S_params))) goto fail;
    /* a tuple of its own (for a list, not the list itself): a ``name`` property could change
     * the list while its items are read */
    PyObject *seq = PySequence_Tuple(params);
    if (!seq) goto fail;
    Py_ssize_t np = PyTuple_GET_SIZE(seq);
    names = PyList_New(np);
    for (Py_ssize_t i = 0; names && i < np; i++) {
        PyObject *name = PyObject_GetAttr(PyTuple_GET_ITEM(seq, i), S_name);
        if (!name) Py_CLEAR(names);
        else PyList_SET_ITEM(names, i, name);
    }
    Py_DECREF(seq);
    if (!names || !(texts[2] = PyUnicode_Join(S_space, names)) || !(region = PyObject_GetAttr(p, S_region))) goto fail;
    int any = PyObject_IsTrue(region);
    if (any < 0 || !(texts[3] = any ? PySequence_GetItem(region, -1) : Py_NewRef(S_empty))) goto fail;
    Py_DECREF(info); Py_DECREF(desc); Py_DECREF(params); Py_DECREF(names); Py_DECREF(region);
    return 0;
fail:
    Py_XDECREF(info); Py_XDECREF(desc); Py_XDECREF(params); Py_XDECREF(names); Py_XDECREF(region);
    for (int f = 0; f < 4; f++) Py_CLEAR(texts[f]);
    return -1;
}

#define SEEN_START 1024     /* SSL 3.1.12: 160 term objects a module on average */

static PyObject *pack_procedures(PyObject *Py_UNUSED(self), PyObject *args) {
    Terms cx;
    PyObject *procs;
    Py_ssize_t desc_chars;
    if (!PyArg_ParseTuple(args, "OO!n(O!O!nnO)(O!OO!On)", &cx.ids, &PyList_Type, &procs, &desc_chars,
                          &PyDict_Type, &cx.whole, &PyDict_Type, &cx.memo, &cx.memo_max, &cx.whole_max, &cx.fallback,
                          &PyDict_Type, &cx.part_terms, &cx.terms_of_part, &PyDict_Type, &cx.stem_memo, &cx.stem,
                          &cx.part_max))
        return NULL;
    if (desc_chars < 0) { PyErr_SetString(PyExc_ValueError, "desc_chars: not negative"); return NULL; }
    Py_ssize_t n = PyList_GET_SIZE(procs);
    PyObject *start_keys[SEEN_START] = {NULL}, *start_held[SEEN_START / 2];
    uint32_t start_vals[SEEN_START];
    Seen seen = {start_keys, start_vals, start_held, SEEN_START - 1, 0, start_held, start_keys};
    cx.seen = &seen;
    PyObject *out = PyList_New(n), *texts[4] = {NULL, NULL, NULL, NULL};
    U32s ids = {0};
    if (!out) return NULL;
    Py_INCREF(procs);          /* held, and each procedure: a callback may run any code */
    for (Py_ssize_t p = 0; p < n; p++) {
        if (p >= PyList_GET_SIZE(procs)) { PyErr_SetString(PyExc_RuntimeError, "procs changed"); goto fail; }
        PyObject *proc = Py_NewRef(PyList_GET_ITEM(procs, p));
        int r = proc_texts(proc, desc_chars, texts);
        Py_DECREF(proc);
        if (r < 0) goto fail;
        uint32_t count[4];
        ids.n = 0;
        for (int f = 0; f < 4; f++) {
            Py_ssize_t before = ids.n;
            if (terms_ids(&cx, texts[f], &ids) < 0) goto fail;
            if (ids.n - before > UINT32_MAX) { PyErr_SetString(PyExc_OverflowError, "a text's terms past uint32"); goto fail; }
            count[f] = (uint32_t)(ids.n - before);
        }
        for (int f = 0; f < 4; f++) Py_CLEAR(texts[f]);
        PyObject *b = PyBytes_FromStringAndSize(NULL, 16 + 4 * ids.n);
        if (!b) goto fail;
        memcpy(PyBytes_AS_STRING(b), count, 16);
        if (ids.n) memcpy(PyBytes_AS_STRING(b) + 16, ids.p, 4 * ids.n);
        PyList_SET_ITEM(out, p, b);
    }
    Py_DECREF(procs);
    PyMem_Free(ids.p);
    seen_clear(&seen);
    return out;
fail:
    for (int f = 0; f < 4; f++) Py_XDECREF(texts[f]);
    Py_DECREF(procs);
    PyMem_Free(ids.p);
    seen_clear(&seen);
    Py_DECREF(out);
    return NULL;
}

/* list_bytes() -> the bytes the parameter-list loop has read since import (a work count). */
static PyObject *py_list_bytes(PyObject *Py_UNUSED(self), PyObject *Py_UNUSED(arg)) {
    return PyLong_FromUnsignedLongLong(list_bytes);
}

/* split_code(body) -> (code, strings): lexer.split_code's answer (tests compare the two). */
static PyObject *py_split_code(PyObject *Py_UNUSED(self), PyObject *arg) {
    if (!PyBytes_Check(arg)) { PyErr_SetString(PyExc_TypeError, "bytes"); return NULL; }
    const unsigned char *t = (const unsigned char *)PyBytes_AS_STRING(arg);
    Py_ssize_t n = PyBytes_GET_SIZE(arg);
    Buf code = {0}, strs = {0};
    PyObject *out = NULL, *list = NULL;
    int n_strings;
    if (split_code_into(t, 0, n, &code, &strs, &n_strings) < 0) goto done;
    if (!(list = PyList_New(0))) goto done;
    for (Py_ssize_t a = 0, i = 0; n_strings && i <= strs.n; i++) {
        if (i == strs.n || strs.p[i] == '\n') {
            PyObject *s = PyBytes_FromStringAndSize((const char *)strs.p + a, i - a);
            if (!s || PyList_Append(list, s) < 0) { Py_XDECREF(s); goto done; }
            Py_DECREF(s);
            a = i + 1;
        }
    }
    out = Py_BuildValue("(y#O)", code.p ? (const char *)code.p : "", code.n, list);
done:
    Py_XDECREF(list);
    PyMem_Free(code.p); PyMem_Free(strs.p);
    return out;
}

/* -- the link's calls ---------------------------------------------------------------------- */

static PyObject *S_proc, *S_local_calls, *S_qualified_calls, *S_literal_module_calls, *S_usages,
    *S_callees, *S_casefold;

/* memo[s], or s.casefold() put there: borrowed (the memo holds it); NULL: an error. */
static PyObject *folded_of(PyObject *memo, PyObject *s) {
    if (!PyUnicode_Check(s)) { PyErr_SetString(PyExc_TypeError, "a name in a call: a str"); return NULL; }
    PyObject *f = PyDict_GetItemWithError(memo, s);
    if (f || PyErr_Occurred()) return f;
    if (!(f = PyObject_CallMethodNoArgs(s, S_casefold))) return NULL;
    int bad = PyDict_SetItem(memo, s, f);
    Py_DECREF(f);
    return bad < 0 ? NULL : f;
}

/* Where a slots class keeps an attribute (its member's offset), or -1: read it by getattr. */
static Py_ssize_t slot_offset(PyTypeObject *type, PyObject *name) {
    PyObject *d = _PyType_Lookup(type, name);
    if (!d || !Py_IS_TYPE(d, &PyMemberDescr_Type)) return -1;
    PyMemberDef *m = ((PyMemberDescrObject *)d)->d_member;
    return m->type == T_OBJECT_EX && !(m->flags & READONLY) ? m->offset : -1;
}

/* obj.name read in place (borrowed: no reference taken, so no write to the object's page)
 * where it is a slot of type ``type``; else by getattr, the new reference in ``*held``. */
static PyObject *attr_of(PyObject *obj, PyTypeObject **type, Py_ssize_t *off, PyObject *name, PyObject **held) {
    if (Py_TYPE(obj) != *type) { *type = Py_TYPE(obj); *off = slot_offset(*type, name); }
    if (*off >= 0) {
        PyObject *v = *(PyObject **)((char *)obj + *off);
        if (v) return v;
    }
    return *held = PyObject_GetAttr(obj, name);
}

/* A procedure's tokens (``attr_of``) as a sequence: borrowed when a tuple, else a new list in
 * ``*held`` (a set, as the scanner leaves them). */
static PyObject *tokens_of(PyObject *proc, PyTypeObject **type, Py_ssize_t *off, PyObject *name, PyObject **held) {
    PyObject *v = attr_of(proc, type, off, name, held);
    if (!v || PyTuple_CheckExact(v)) return v;
    PyObject *seq = PySequence_Fast(v, "a procedure's calls: a collection");
    Py_XSETREF(*held, seq);
    return seq;
}

/* (a, b) of a two-item token, borrowed (from ``*held``, a new reference, when not a tuple). */
static int pair_of(PyObject *item, PyObject **held, PyObject **a, PyObject **b) {
    if (!PyTuple_CheckExact(item) && !(item = *held = PySequence_Fast(item, "a call: (module, name)"))) return -1;
    if (PySequence_Fast_GET_SIZE(item) != 2) { PyErr_SetString(PyExc_ValueError, "a call: (module, name)"); return -1; }
    *a = PySequence_Fast_GET_ITEM(item, 0);
    *b = PySequence_Fast_GET_ITEM(item, 1);
    return 0;
}

/* resolve_calls(procs, pids, folded, names, global_names, common, managers): link.py's
 * ``_resolve_module`` (its reference): the callees of one module's procedures ``procs[pid]``
 * (``ProcEntry``) set as a sorted tuple where it calls any. A step per call in Python was most of the
 * link's serial part (SSL 3.1.12: 235 k calls); here the tokens are read without a reference
 * taken (no write to the pages the card child shares). */
static PyObject *resolve_calls(PyObject *Py_UNUSED(self), PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 7) { PyErr_SetString(PyExc_TypeError, "resolve_calls takes 7 arguments"); return NULL; }
    PyObject *procs = args[0], *pids = args[1], *folded = args[2], *names = args[3],
             *global_names = args[4], *common = args[5], *managers = args[6];
    if (!PyList_Check(procs) || !PyList_Check(pids) || !PyDict_Check(folded) || !PyDict_Check(names)
        || !PyDict_Check(global_names) || !PyDict_Check(common) || !PyDict_Check(managers)) {
        PyErr_SetString(PyExc_TypeError, "resolve_calls(list, list, dict, dict, dict, dict, dict)");
        return NULL;
    }
    PyObject *entry, *proc, *out = NULL, *seq, *held = NULL, *held_proc = NULL, *held_seq = NULL,
             *held_item = NULL;
    /* the slots read in place (``attr_of``): ProcEntry.proc, then Procedure's four token fields */
    PyTypeObject *types[5] = {NULL, NULL, NULL, NULL, NULL};   /* (per call: a type outlives none) */
    Py_ssize_t offs[5];
    PyObject *fields[5] = {S_proc, S_local_calls, S_qualified_calls, S_literal_module_calls, S_usages};
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(pids); k++) {
        PyObject *pid_obj = PyList_GET_ITEM(pids, k);
        Py_ssize_t pid = PyLong_AsSsize_t(pid_obj);
        if (pid == -1 && PyErr_Occurred()) goto fail;
        if (pid < 0 || pid >= PyList_GET_SIZE(procs)) { PyErr_SetString(PyExc_IndexError, "a procedure id"); goto fail; }
        entry = PyList_GET_ITEM(procs, pid);     /* (the list holds it: no code runs that drops it) */
        if (!(proc = attr_of(entry, &types[0], &offs[0], S_proc, &held_proc)) || !(out = PySet_New(NULL))) goto fail;
        /* Имя(: the module's own procedure, else a global module's export; not itself */
        if (!(seq = tokens_of(proc, &types[1], &offs[1], fields[1], &held_seq))) goto fail;
        for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(seq); j++) {
            PyObject *f = folded_of(folded, PySequence_Fast_GET_ITEM(seq, j)), *t;
            if (!f) goto fail;
            if (!(t = PyDict_GetItemWithError(names, f))) {
                if (PyErr_Occurred() || (!(t = PyDict_GetItemWithError(global_names, f)) && PyErr_Occurred())) goto fail;
            }
            if (t) {
                int self_call = PyObject_RichCompareBool(t, pid_obj, Py_EQ);
                if (self_call < 0 || (!self_call && PySet_Add(out, t) < 0)) goto fail;
            }
        }
        Py_CLEAR(held_seq);
        /* Модуль.Имя( and ОбщийМодуль("Модуль").Имя(: a common module's procedure */
        for (int c = 2; c <= 3; c++) {
            if (!(seq = tokens_of(proc, &types[c], &offs[c], fields[c], &held_seq))) goto fail;
            for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(seq); j++) {
                PyObject *q, *n, *fq, *m, *fn, *t;
                if (pair_of(PySequence_Fast_GET_ITEM(seq, j), &held, &q, &n) < 0) goto fail;
                if (!(fq = folded_of(folded, q))) goto fail;
                if ((m = PyDict_GetItemWithError(common, fq))) {
                    if (!PyDict_Check(m)) { PyErr_SetString(PyExc_TypeError, "a module's names: a dict"); goto fail; }
                    if (!(fn = folded_of(folded, n))) goto fail;
                    if ((t = PyDict_GetItemWithError(m, fn)) && PySet_Add(out, t) < 0) goto fail;
                }
                if (PyErr_Occurred()) goto fail;
                Py_CLEAR(held);
            }
            Py_CLEAR(held_seq);
        }
        /* Справочники.X.Имя( (a usage (class, object, "call:Имя")): the manager module's */
        if (!(seq = tokens_of(proc, &types[4], &offs[4], fields[4], &held_seq))) goto fail;
        for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(seq); j++) {
            PyObject *item = PySequence_Fast_GET_ITEM(seq, j), *how, *fo, *key, *m, *t;
            /* (a usage as any sequence of three, as the reference unpacks it: ``held_item``
             * keeps a list's items, ``PySequence_Fast`` of a tuple is the tuple) */
            Py_CLEAR(held_item);
            if (!(item = held_item = PySequence_Fast(item, "a usage: (class, name, how)"))) goto fail;
            if (PySequence_Fast_GET_SIZE(item) != 3 || !PyUnicode_Check(how = PySequence_Fast_GET_ITEM(item, 2))) {
                PyErr_SetString(PyExc_TypeError, "a usage: (class, name, how)");
                goto fail;
            }
            int call = PyUnicode_Tailmatch(how, S_call, 0, PY_SSIZE_T_MAX, -1);
            if (call < 0) goto fail;
            if (!call) continue;
            if (!(fo = folded_of(folded, PySequence_Fast_GET_ITEM(item, 1)))) goto fail;
            if (!(key = PyTuple_Pack(2, PySequence_Fast_GET_ITEM(item, 0), fo))) goto fail;
            m = PyDict_GetItemWithError(managers, key);
            Py_DECREF(key);
            if (!m) { if (PyErr_Occurred()) goto fail; continue; }
            if (!PyDict_Check(m)) { PyErr_SetString(PyExc_TypeError, "a module's names: a dict"); goto fail; }
            if (!(held = PyUnicode_Substring(how, 5, PyUnicode_GET_LENGTH(how)))) goto fail;
            PyObject *fn = folded_of(folded, held);
            if (!fn) goto fail;
            if ((t = PyDict_GetItemWithError(m, fn)) && PySet_Add(out, t) < 0) goto fail;
            if (PyErr_Occurred()) goto fail;
            Py_CLEAR(held);
        }
        Py_CLEAR(held_seq);
        Py_CLEAR(held_item);
        if (PySet_GET_SIZE(out)) {      /* most call nothing resolvable: their shared empty tuple stays */
            PyObject *list = PySequence_List(out), *callees;
            if (!list) goto fail;
            if (PyList_Sort(list) < 0) { Py_DECREF(list); goto fail; }
            callees = PyList_AsTuple(list);
            Py_DECREF(list);
            if (!callees) goto fail;
            int bad = PyObject_SetAttr(entry, S_callees, callees);
            Py_DECREF(callees);
            if (bad < 0) goto fail;
        }
        Py_CLEAR(out); Py_CLEAR(held_proc);
    }
    Py_RETURN_NONE;
fail:
    Py_XDECREF(held); Py_XDECREF(held_seq); Py_XDECREF(held_item); Py_XDECREF(out); Py_XDECREF(held_proc);
    return NULL;
}

static PyMethodDef methods[] = {
    {"configure", configure, METH_O, "Set the tables and callbacks lexer.py owns (once)."},
    {"scan", scan, METH_VARARGS, "scan(data, common_module) -> (procedures, problems, regions, lines, module_doc)"},
    {"decode", decode, METH_O, "decode(data) -> lexer.decode_module's text, or None (a problem: lexer words it)"},
    {"list_bytes", py_list_bytes, METH_NOARGS, "list_bytes() -> bytes the parameter-list loop has read (a work count)"},
    {"split_code", py_split_code, METH_O, "split_code(body) -> (code, strings), as lexer.split_code"},
    {"pack_procedures", pack_procedures, METH_VARARGS,
     "pack_procedures(ids, procs, desc_chars, terms_memos, text_memos) -> [bytes], as terms._pack_procedures_python"},
    {"doc_sections", doc_sections, METH_VARARGS,
     "doc_sections(doc, headings, type_and_text, max_text) -> doccomment._sections's answer"},
    {"resolve_calls", (PyCFunction)(void (*)(void))resolve_calls, METH_FASTCALL,
     "resolve_calls(procs, pids, folded, names, global_names, common, managers): link._resolve_module"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_bslscan", NULL, -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__bslscan(void) {
    init_tables();
    /* the interned names live for the process (a failed import leaves what it made to the next
     * try: each is set only when still NULL) */
    struct { PyObject **var; const char *s; } strs[] = {
        {&S_lower, "lower"}, {&S_strip, "strip"}, {&S_split, "split"}, {&S_empty, ""}, {&S_call, "call:"},
        {&S_code, "code"}, {&S_write, "write"}, {&S_query, "query"}, {&S_slashes, "//"},
        {&S_format, "format"}, {&S_create_ru, "создать"}, {&S_create_en, "create"},
        {&S_name, "name"}, {&S_type, "type"}, {&S_text, "text"},
        {&S_info, "info"}, {&S_description, "description"}, {&S_get, "get"}, {&S_params, "params"},
        {&S_region, "region"}, {&S_space, " "},
        {&S_end_line, "end_line"}, {&S_body, "body"}, {&S_inserts, "inserts"}, {&S_deletes, "deletes"},
        {&S_proc, "proc"}, {&S_local_calls, "local_calls"}, {&S_qualified_calls, "qualified_calls"},
        {&S_literal_module_calls, "literal_module_calls"}, {&S_usages, "usages"}, {&S_callees, "callees"},
        {&S_casefold, "casefold"},
    };
    for (size_t k = 0; k < sizeof strs / sizeof strs[0]; k++)
        if (!*strs[k].var && !(*strs[k].var = PyUnicode_InternFromString(strs[k].s))) return NULL;
    if (!S_empty_bytes && !(S_empty_bytes = PyBytes_FromStringAndSize(NULL, 0))) return NULL;
    if (!S_zero && !(S_zero = PyLong_FromLong(0))) return NULL;
    if (!S_one && !(S_one = PyLong_FromLong(1))) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    /* lexer.py uses the module only when this matches the _bslscan.c beside it */
    if (PyModule_AddStringConstant(m, "SOURCE_SHA", BSLSCAN_SOURCE_SHA) < 0) { Py_DECREF(m); return NULL; }
    return m;
}
