// glue.c: the entry points of autorag's tree-sitter module (engine/syntax).
//
// The host (Go, on wazero) calls:
//   lang_count(), lang_name(i)            the grammars linked in (langs.c, made by build.sh)
//   malloc(n), free(p)                    buffers in the module's memory
//   rules_set(lang, text, len)            the definition rules of a language (below)
//   cancel_word()                         the address of a word the host sets non-zero, from
//                                         another thread, to stop the parse running
//   parse(lang, src, len, budget)         parse and find the definitions within budget steps;
//                                         returns a result buffer
//
// Definitions are found by a walk over the syntax tree against rules, not by
// tree-sitter queries: compiling a query analyses the grammar's whole parse
// table, seconds per language and instance for the large grammars, where a
// rule costs nothing to set. One rule a line, words split by spaces:
//
//   TYPE NAME [COND...]
//
// TYPE is the definition node's type. NAME finds its name: paths separated
// by '|', tried in order; a path is steps separated by '/': a field name,
// ':type' (the first named child of that type), ':*' (the first named
// child), or '~decl' (down C declarators to the declared name). A COND is
// 'has=PATH', 'type=PATH=t1,t2' (the node at PATH has one of the types),
// 'text=PATH=w1,w2' (its text is one of the words) or 'parent=t1,t2'. The
// first rule of a node's type whose conditions hold makes it a definition.
//
// The budget is counted in steps, not time, so that a file parses or stops
// the same way on an idle machine and on a loaded one: a step is one of
// tree-sitter's progress callbacks (it calls one every 100 parse operations,
// error recovery and the tree's balancing included) or 100 nodes of the
// walk. The module reads no clock.
//
// parse returns a pointer to uint32 words: [status, count, steps spent, then
// count records of 7 words: rule index (twice), node start, node end, extended start, name start,
// name end] (byte offsets into src). The extended start takes in the comments,
// decorators and attributes just above the definition. The buffer is the
// module's and stays valid until the next call of parse. status is one of the
// ST_* values below; on anything but ST_OK count is 0.
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "glue.h"


static TSParser *parser;
uint32_t *out;
static uint32_t out_cap; // in words

__attribute__((export_name("lang_count"))) int32_t lang_count(void) { return nlangs; }

__attribute__((export_name("lang_name"))) const char *lang_name(int32_t i) {
  return (i >= 0 && i < nlangs) ? langs[i].name : 0;
}

__attribute__((export_name("malloc"))) void *export_malloc(uint32_t n) { return malloc(n); }

__attribute__((export_name("free"))) void export_free(void *p) { free(p); }

static uint32_t steps_left, steps_spent;

// cancel is set by the host (cancel_word) when the caller gave up; spend
// reads it at every step, a load from memory and no call to the host.
static volatile uint32_t cancel;

__attribute__((export_name("cancel_word"))) volatile uint32_t *cancel_word(void) { return &cancel; }

// spend takes one step of the budget; false when none is left or the host
// cancelled the parse.
bool spend(void) {
  if (steps_left == 0 || cancel) return false;
  steps_left--;
  steps_spent++;
  return true;
}

static bool parse_progress(TSParseState *s) {
  (void)s;
  return !spend(); // true cancels the parse
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

// leading_type says whether a node of type t, just above a definition,
// belongs to it: doc comments, decorators, attributes, annotations
// (LEAD_YES), or does when its text starts with '@' (LEAD_AT: Elixir's
// @doc, @spec and @impl are unary operators on a call).
int leading_type(const char *t) {
  if (strstr(t, "comment")) return LEAD_YES;
  if (!strcmp(t, "decorator") || !strcmp(t, "attribute_item") || !strcmp(t, "attribute_list") ||
      !strcmp(t, "annotation") || !strcmp(t, "marker_annotation") || has_suffix(t, "_annotation"))
    return LEAD_YES;
  return !strcmp(t, "unary_operator") ? LEAD_AT : LEAD_NO;
}

// leading reports whether the node n belongs to a definition just below
// it (leading_type).
bool leading(TSNode n, const char *src) {
  int l = leading_type(ts_node_type(n));
  return l == LEAD_YES || (l == LEAD_AT && src[ts_node_start_byte(n)] == '@');
}

// wrapper reports whether parent only wraps the definition n: Python's
// decorated_definition, JavaScript's export statement, a template
// declaration, Go's type, const or var declaration of one spec.
bool wrapper(TSNode parent, TSNode n) {
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
uint32_t end_row(TSNode n) {
  TSPoint e = ts_node_end_point(n);
  return (e.column == 0 && e.row > ts_node_start_point(n).row) ? e.row - 1 : e.row;
}

bool reserve(uint32_t words) {
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
  reserve(HEAD_WORDS);
  out[0] = status;
  out[1] = 0;
  out[2] = steps_spent;
  return out;
}

__attribute__((export_name("parse"))) uint32_t *parse(int32_t lang, const char *src, uint32_t len, uint32_t budget) {
  steps_left = budget;
  steps_spent = 0;
  if (lang < 0 || lang >= nlangs || lang >= MAX_LANGS) return fail(ST_BAD_LANG);
  if (!rules_ready(lang)) return fail(ST_NO_RULES);
  if (!parser) parser = ts_parser_new();
  if (!ts_parser_set_language(parser, langs[lang].language())) return fail(ST_BAD_LANG);
  TSParseOptions opts = {.payload = 0, .progress_callback = parse_progress};
  Source in = {src, len};
  TSInput input = {.payload = &in, .read = read_source, .encoding = TSInputEncodingUTF8};
  TSTree *tree = ts_parser_parse_with_options(parser, 0, input, opts);
  if (!tree) {
    ts_parser_reset(parser);
    return fail(cancel ? ST_CANCELLED : steps_left == 0 ? ST_TIMEOUT : ST_NO_TREE);
  }
  if (!reserve(HEAD_WORDS)) return fail(ST_NO_TREE);
  out[0] = ST_OK;
  out[1] = 0;
  uint32_t st = rules_walk(lang, tree, src);
  ts_tree_delete(tree);
  if (st == ST_TIMEOUT && cancel) st = ST_CANCELLED;
  if (st != ST_OK) return fail(st);
  out[2] = steps_spent;
  return out;
}
