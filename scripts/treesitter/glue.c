// glue.c: the entry points of autorag's tree-sitter module (engine/syntax).
//
// The host (Go, on wazero) calls, in this order:
//   lang_count(), lang_name(i)            the grammars linked in (langs.c, made by build.sh)
//   malloc(n), free(p)                    buffers in the module's memory
//   query_set(lang, src, len)             compile the definitions query of a language
//   capture_name(lang, id, &len)          the name of a query capture ("name", "definition.class")
//   parse(lang, src, len, budget_us)      parse and run the query; returns a result buffer
//
// parse returns a pointer to uint32 words: [status, count, then count records of
// 7 words: kind capture id, pattern index, node start, node end, extended start, name start, name
// end] (byte offsets into src). The extended start takes in the comments, decorators
// and attributes just above the definition. The buffer is the module's and stays
// valid until the next call of parse. status is one of the ST_* values below; on
// anything but ST_OK count is 0.
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tree_sitter/api.h"

typedef struct {
  const char *name;
  const TSLanguage *(*language)(void);
} Lang;

extern const Lang langs[];
extern const int32_t nlangs;

enum {
  ST_OK = 0,
  ST_NO_QUERY = 1,   // query_set was not called (or failed) for this language
  ST_BAD_LANG = 2,   // language index out of range
  ST_TIMEOUT = 3,    // the parse or the query ran past its budget
  ST_NO_TREE = 4,    // the parser gave no tree
  ST_MATCH_LIMIT = 5 // the query cursor hit its match limit
};

#define MAX_LANGS 64
#define RECORD_WORDS 7
#define MATCH_LIMIT 4096

static TSParser *parser;
static TSQuery *queries[MAX_LANGS];
static TSQueryCursor *cursor;
static uint32_t *out;
static uint32_t out_cap; // in words

__attribute__((export_name("lang_count"))) int32_t lang_count(void) { return nlangs; }

__attribute__((export_name("lang_name"))) const char *lang_name(int32_t i) {
  return (i >= 0 && i < nlangs) ? langs[i].name : 0;
}

__attribute__((export_name("malloc"))) void *export_malloc(uint32_t n) { return malloc(n); }

__attribute__((export_name("free"))) void export_free(void *p) { free(p); }

// query_set compiles src as the definitions query of lang. It returns 0, or the
// query error (TSQueryError) * 2^24 + the error's byte offset + 1.
__attribute__((export_name("query_set"))) uint32_t query_set(int32_t lang, const char *src, uint32_t len) {
  if (lang < 0 || lang >= nlangs || lang >= MAX_LANGS) return 0xffffffffu;
  uint32_t off = 0;
  TSQueryError kind = TSQueryErrorNone;
  TSQuery *q = ts_query_new(langs[lang].language(), src, len, &off, &kind);
  if (!q) return ((uint32_t)kind << 24) + off + 1;
  if (queries[lang]) ts_query_delete(queries[lang]);
  queries[lang] = q;
  return 0;
}

__attribute__((export_name("capture_name"))) const char *capture_name(int32_t lang, uint32_t id, uint32_t *len) {
  *len = 0;
  if (lang < 0 || lang >= nlangs || lang >= MAX_LANGS || !queries[lang]) return 0;
  if (id >= ts_query_capture_count(queries[lang])) return 0;
  return ts_query_capture_name_for_id(queries[lang], id, len);
}

static uint64_t now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static uint64_t deadline;

static bool parse_progress(TSParseState *s) {
  (void)s;
  return now_us() > deadline; // true cancels the parse
}

static bool query_progress(TSQueryCursorState *s) {
  (void)s;
  return now_us() > deadline;
}

typedef struct {
  const char *src;
  uint32_t len;
} Source;

static const char *read_source(void *payload, uint32_t i, TSPoint p, uint32_t *n) {
  (void)p;
  Source *s = payload;
  *n = i < s->len ? s->len - i : 0;
  return i < s->len ? s->src + i : "";
}

static bool has_suffix(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

// leading reports whether a node of this type, just above a definition,
// belongs to it: doc comments, decorators, attributes, annotations.
static bool leading(TSNode n, const char *src) {
  const char *t = ts_node_type(n);
  if (strstr(t, "comment")) return true;
  if (!strcmp(t, "decorator") || !strcmp(t, "attribute_item") || !strcmp(t, "attribute_list") ||
      !strcmp(t, "annotation") || !strcmp(t, "marker_annotation") || has_suffix(t, "_annotation"))
    return true;
  // Elixir's @doc, @spec and @impl are unary operators on a call.
  return !strcmp(t, "unary_operator") && src[ts_node_start_byte(n)] == '@';
}

// wrapper reports whether parent only wraps the definition n: Python's
// decorated_definition, JavaScript's export statement, a template
// declaration, Go's type, const or var declaration of one spec.
static bool wrapper(TSNode parent, TSNode n) {
  const char *t = ts_node_type(parent);
  if (!strcmp(t, "decorated_definition") || !strcmp(t, "template_declaration")) return true;
  if (!strcmp(t, "type_declaration") || !strcmp(t, "const_declaration") || !strcmp(t, "var_declaration"))
    return ts_node_named_child_count(parent) == 1;
  if (!strcmp(t, "export_statement")) {
    TSNode d = ts_node_child_by_field_name(parent, "declaration", 11);
    return !ts_node_is_null(d) && ts_node_eq(d, n);
  }
  return false;
}

// end_row is the row of n's last character: a line comment that takes in
// its newline ends at column 0 of the next row.
static uint32_t end_row(TSNode n) {
  TSPoint e = ts_node_end_point(n);
  return (e.column == 0 && e.row > ts_node_start_point(n).row) ? e.row - 1 : e.row;
}

// extended_start is where the definition n begins once its wrappers and the
// comments and attributes on the lines just above it are taken in. A comment
// that ends a line of code (x = 1  # note) is not taken in.
static uint32_t extended_start(TSNode n, const char *src) {
  for (TSNode p = ts_node_parent(n); !ts_node_is_null(p) && wrapper(p, n); p = ts_node_parent(p)) n = p;
  uint32_t start = ts_node_start_byte(n), row = ts_node_start_point(n).row;
  for (TSNode s = ts_node_prev_named_sibling(n); !ts_node_is_null(s); s = ts_node_prev_named_sibling(s)) {
    if (!leading(s, src) || end_row(s) + 1 < row) break;
    TSNode before = ts_node_prev_sibling(s);
    if (!ts_node_is_null(before) && !leading(before, src) && end_row(before) == ts_node_start_point(s).row) break;
    start = ts_node_start_byte(s);
    row = ts_node_start_point(s).row;
  }
  return start;
}

// capture_node finds the node of capture id in match m.
static bool capture_node(const TSQueryMatch *m, uint32_t id, TSNode *n) {
  for (uint16_t i = 0; i < m->capture_count; i++) {
    if (m->captures[i].index == id) {
      *n = m->captures[i].node;
      return true;
    }
  }
  return false;
}

// predicate evaluates one text predicate of n steps: #eq?, #not-eq?,
// #any-of? and #not-any-of? with a capture and strings. Others (#match?
// and the directives) are not evaluated: the queries do not use them.
static bool predicate(const TSQuery *q, const TSQueryMatch *m, const char *src, const TSQueryPredicateStep *st, uint32_t n) {
  if (n < 3 || st[0].type != TSQueryPredicateStepTypeString || st[1].type != TSQueryPredicateStepTypeCapture) return true;
  uint32_t len;
  const char *op = ts_query_string_value_for_id(q, st[0].value_id, &len);
  bool eq = !strcmp(op, "eq?") || !strcmp(op, "any-of?");
  bool ne = !strcmp(op, "not-eq?") || !strcmp(op, "not-any-of?");
  if (!eq && !ne) return true;
  TSNode node;
  if (!capture_node(m, st[1].value_id, &node)) return ne;
  const char *text = src + ts_node_start_byte(node);
  uint32_t tlen = ts_node_end_byte(node) - ts_node_start_byte(node);
  bool hit = false;
  for (uint32_t k = 2; k < n && !hit; k++) {
    if (st[k].type != TSQueryPredicateStepTypeString) continue;
    const char *v = ts_query_string_value_for_id(q, st[k].value_id, &len);
    hit = len == tlen && !memcmp(v, text, len);
  }
  return eq ? hit : !hit;
}

// satisfied reports whether match m passes its pattern's text predicates.
static bool satisfied(const TSQuery *q, const TSQueryMatch *m, const char *src) {
  uint32_t steps;
  const TSQueryPredicateStep *st = ts_query_predicates_for_pattern(q, m->pattern_index, &steps);
  for (uint32_t i = 0; i < steps;) {
    uint32_t j = i;
    while (j < steps && st[j].type != TSQueryPredicateStepTypeDone) j++;
    if (!predicate(q, m, src, st + i, j - i)) return false;
    i = j + 1;
  }
  return true;
}

static bool reserve(uint32_t words) {
  if (words <= out_cap) return true;
  uint32_t cap = out_cap ? out_cap * 2 : 1024;
  while (cap < words) cap *= 2;
  uint32_t *p = realloc(out, (size_t)cap * 4);
  if (!p) return false;
  out = p;
  out_cap = cap;
  return true;
}

static uint32_t *fail(uint32_t status) {
  reserve(2);
  out[0] = status;
  out[1] = 0;
  return out;
}

// collect runs the query of lang over tree, writing one record per match
// that captures a definition. It returns the status.
static uint32_t collect(int32_t lang, TSTree *tree, const char *src) {
  TSQuery *q = queries[lang];
  TSQueryCursorOptions opts = {.payload = 0, .progress_callback = query_progress};
  ts_query_cursor_exec_with_options(cursor, q, ts_tree_root_node(tree), &opts);
  uint32_t n = 0;
  TSQueryMatch m;
  while (ts_query_cursor_next_match(cursor, &m)) {
    int def = -1, name = -1;
    for (uint16_t i = 0; i < m.capture_count; i++) {
      uint32_t len;
      const char *c = ts_query_capture_name_for_id(q, m.captures[i].index, &len);
      if (len == 4 && !memcmp(c, "name", 4)) {
        if (name < 0) name = i;
      } else if (len > 11 && !memcmp(c, "definition.", 11)) {
        def = i;
      }
    }
    if (def < 0 || name < 0 || !satisfied(q, &m, src)) continue;
    if (!reserve(2 + (n + 1) * RECORD_WORDS)) return ST_NO_TREE;
    TSNode d = m.captures[def].node, nm = m.captures[name].node;
    uint32_t *r = out + 2 + n * RECORD_WORDS;
    r[0] = m.captures[def].index;
    r[1] = m.pattern_index;
    r[2] = ts_node_start_byte(d);
    r[3] = ts_node_end_byte(d);
    r[4] = extended_start(d, src);
    r[5] = ts_node_start_byte(nm);
    r[6] = ts_node_end_byte(nm);
    n++;
  }
  if (now_us() > deadline) return ST_TIMEOUT;
  if (ts_query_cursor_did_exceed_match_limit(cursor)) return ST_MATCH_LIMIT;
  out[1] = n;
  return ST_OK;
}

__attribute__((export_name("parse"))) uint32_t *parse(int32_t lang, const char *src, uint32_t len, uint32_t budget_us) {
  if (lang < 0 || lang >= nlangs || lang >= MAX_LANGS) return fail(ST_BAD_LANG);
  if (!queries[lang]) return fail(ST_NO_QUERY);
  if (!parser) parser = ts_parser_new();
  if (!cursor) {
    cursor = ts_query_cursor_new();
    ts_query_cursor_set_match_limit(cursor, MATCH_LIMIT);
  }
  if (!ts_parser_set_language(parser, langs[lang].language())) return fail(ST_BAD_LANG);
  deadline = now_us() + budget_us;
  TSParseOptions opts = {.payload = 0, .progress_callback = parse_progress};
  Source in = {src, len};
  TSInput input = {.payload = &in, .read = read_source, .encoding = TSInputEncodingUTF8};
  TSTree *tree = ts_parser_parse_with_options(parser, 0, input, opts);
  if (!tree) {
    ts_parser_reset(parser);
    return fail(now_us() > deadline ? ST_TIMEOUT : ST_NO_TREE);
  }
  if (!reserve(2)) return fail(ST_NO_TREE);
  out[0] = ST_OK;
  out[1] = 0;
  uint32_t st = collect(lang, tree, src);
  ts_tree_delete(tree);
  if (st != ST_OK) return fail(st);
  return out;
}
