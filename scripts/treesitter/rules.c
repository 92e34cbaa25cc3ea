// rules.c: the definition rules of each language (their text format is in
// glue.c's header) and the walk over a syntax tree that applies them.
#include <stdlib.h>
#include <string.h>

#include "glue.h"

#define MAX_STEPS 8
#define MAX_ALTS 4
#define MAX_CONDS 4
#define MAX_WORDS 16

enum { STEP_FIELD, STEP_CHILD, STEP_ANY, STEP_DECL };
enum { COND_HAS, COND_TYPE, COND_TEXT, COND_PARENT };

typedef struct {
  uint8_t op;
  TSFieldId field;
  const char *type;
} Step;

typedef struct {
  Step steps[MAX_STEPS];
  int n;
} Path;

typedef struct {
  uint8_t op;
  Path path;
  const char *words[MAX_WORDS];
  int nwords;
} Cond;

typedef struct {
  const char *type;
  Path name[MAX_ALTS];
  int nname;
  Cond conds[MAX_CONDS];
  int nconds;
} Rule;

// Bits of a RuleSet's per-symbol table: what the walk asks of every named
// node, answered by the node's symbol instead of string compares of its
// type's name (a symbol past the table is asked by name).
enum { SYM_RULED = 1, SYM_LEAD = 2, SYM_LEAD_AT = 4 };

typedef struct {
  char *text; // the rules' text, cut in place into the words below
  Rule *rules;
  int n;
  TSFieldId declarator;
  uint8_t *sym; // SYM_* bits of each symbol of the language, by the name of its type
  uint32_t nsym;
} RuleSet;

static RuleSet rulesets[MAX_LANGS];

bool rules_ready(int32_t lang) { return lang >= 0 && lang < MAX_LANGS && rulesets[lang].n > 0; }

// cut splits s at every sep, in place, into at most max parts.
static int cut(char *s, char sep, char **parts, int max) {
  int n = 0;
  while (s && n < max) {
    parts[n++] = s;
    s = strchr(s, sep);
    if (s) *s++ = 0;
  }
  return n;
}

static bool parse_path(const TSLanguage *l, char *s, Path *p) {
  char *steps[MAX_STEPS + 1];
  p->n = cut(s, '/', steps, MAX_STEPS + 1);
  if (p->n > MAX_STEPS) return false;
  for (int i = 0; i < p->n; i++) {
    Step *st = &p->steps[i];
    char *w = steps[i];
    if (!strcmp(w, "~decl")) {
      st->op = STEP_DECL;
    } else if (!strcmp(w, ":*")) {
      st->op = STEP_ANY;
    } else if (w[0] == ':') {
      st->op = STEP_CHILD;
      st->type = w + 1;
      if (!ts_language_symbol_for_name(l, w + 1, strlen(w + 1), true)) return false;
    } else {
      st->op = STEP_FIELD;
      st->field = ts_language_field_id_for_name(l, w, strlen(w));
      if (!st->field) return false;
    }
  }
  return true;
}

static bool parse_cond(const TSLanguage *l, char *s, Cond *c) {
  char *parts[3];
  int n = cut(s, '=', parts, 3);
  char *words = 0;
  if (!strcmp(parts[0], "has") && n == 2) {
    c->op = COND_HAS;
  } else if (!strcmp(parts[0], "type") && n == 3) {
    c->op = COND_TYPE;
    words = parts[2];
  } else if (!strcmp(parts[0], "text") && n == 3) {
    c->op = COND_TEXT;
    words = parts[2];
  } else if (!strcmp(parts[0], "parent") && n == 2) {
    c->op = COND_PARENT;
    c->path.n = 0;
    words = parts[1];
  } else {
    return false;
  }
  if (c->op != COND_PARENT && !parse_path(l, parts[1], &c->path)) return false;
  c->nwords = words ? cut(words, ',', (char **)c->words, MAX_WORDS) : 0;
  return true;
}

// parse_rule reads one line: TYPE NAME COND...
static bool parse_rule(const TSLanguage *l, char *line, Rule *r) {
  char *w[2 + MAX_CONDS + 1];
  int n = 0;
  for (char *t = strtok(line, " \t"); t && n < 2 + MAX_CONDS + 1; t = strtok(0, " \t")) w[n++] = t;
  if (n < 2 || n > 2 + MAX_CONDS) return false;
  r->type = w[0];
  if (!ts_language_symbol_for_name(l, w[0], strlen(w[0]), true)) return false;
  char *alts[MAX_ALTS + 1];
  r->nname = cut(w[1], '|', alts, MAX_ALTS + 1);
  if (r->nname > MAX_ALTS) return false;
  for (int i = 0; i < r->nname; i++)
    if (!parse_path(l, alts[i], &r->name[i])) return false;
  r->nconds = n - 2;
  for (int i = 0; i < r->nconds; i++)
    if (!parse_cond(l, w[2 + i], &r->conds[i])) return false;
  return true;
}

// symbol_table fills rs->sym: for every symbol, by its type's name,
// whether a rule names that type and whether it leads a definition
// (leading_type). ts_node_symbol gives the public symbol, whose name is
// that of every symbol it stands for, the name ts_node_type gives.
static bool symbol_table(const TSLanguage *l, RuleSet *rs) {
  rs->nsym = ts_language_symbol_count(l);
  rs->sym = calloc(rs->nsym ? rs->nsym : 1, 1);
  if (!rs->sym) return false;
  for (uint32_t s = 0; s < rs->nsym; s++) {
    const char *t = ts_language_symbol_name(l, (TSSymbol)s);
    if (!t) continue;
    for (int i = 0; i < rs->n; i++)
      if (!strcmp(rs->rules[i].type, t)) rs->sym[s] |= SYM_RULED;
    int lead = leading_type(t);
    rs->sym[s] |= lead == LEAD_YES ? SYM_LEAD : lead == LEAD_AT ? SYM_LEAD_AT : 0;
  }
  return true;
}

// rules_set reads the rules of lang from text, one a line; strtok's state
// is why lines are cut first. It returns 0, or the 1-based number of the
// first line it cannot read (an unknown node type or field included).
__attribute__((export_name("rules_set"))) uint32_t rules_set(int32_t lang, const char *text, uint32_t len) {
  if (lang < 0 || lang >= nlangs || lang >= MAX_LANGS) return 0xffffffffu;
  const TSLanguage *l = langs[lang].language();
  RuleSet rs = {.text = malloc(len + 1), .declarator = ts_language_field_id_for_name(l, "declarator", 10)};
  int nlines = 1;
  for (uint32_t i = 0; i < len; i++) nlines += text[i] == '\n';
  rs.rules = calloc(nlines, sizeof(Rule));
  char **lines = calloc(nlines, sizeof(char *));
  if (!rs.text || !rs.rules || !lines) return 0xffffffffu;
  memcpy(rs.text, text, len);
  rs.text[len] = 0;
  int n = cut(rs.text, '\n', lines, nlines);
  for (int i = 0; i < n; i++) {
    if (!lines[i][0]) continue;
    if (!parse_rule(l, lines[i], &rs.rules[rs.n++])) {
      free(lines);
      free(rs.rules);
      free(rs.text);
      return (uint32_t)i + 1;
    }
  }
  free(lines);
  if (!symbol_table(l, &rs)) {
    free(rs.rules);
    free(rs.text);
    return 0xffffffffu;
  }
  free(rulesets[lang].rules);
  free(rulesets[lang].text);
  free(rulesets[lang].sym);
  rulesets[lang] = rs;
  return 0;
}

// child_of_type finds the first named child of n of the type (any type
// when type is 0). A cursor, since ts_node_named_child(n, i) costs O(i).
static bool child_of_type(TSNode n, const char *type, TSNode *out) {
  TSTreeCursor c = ts_tree_cursor_new(n);
  bool found = false;
  for (bool ok = ts_tree_cursor_goto_first_child(&c); ok && !found; ok = ts_tree_cursor_goto_next_sibling(&c)) {
    TSNode k = ts_tree_cursor_current_node(&c);
    if (ts_node_is_named(k) && (!type || !strcmp(ts_node_type(k), type))) {
      *out = k;
      found = true;
    }
  }
  ts_tree_cursor_delete(&c);
  return found;
}

// declared descends C and C++ declarators (function, pointer, reference,
// parenthesized) to the declared name.
static TSNode declared(TSNode n, TSFieldId declarator) {
  for (;;) {
    TSNode d = declarator ? ts_node_child_by_field_id(n, declarator) : (TSNode){0};
    if (!ts_node_is_null(d)) {
      n = d;
      continue;
    }
    const char *t = ts_node_type(n);
    if ((!strcmp(t, "reference_declarator") || !strcmp(t, "parenthesized_declarator")) && child_of_type(n, 0, &d)) {
      n = d;
      continue;
    }
    return n;
  }
}

static bool resolve(const RuleSet *rs, TSNode n, const Path *p, TSNode *out) {
  for (int i = 0; i < p->n; i++) {
    const Step *st = &p->steps[i];
    switch (st->op) {
    case STEP_FIELD:
      n = ts_node_child_by_field_id(n, st->field);
      if (ts_node_is_null(n)) return false;
      break;
    case STEP_CHILD:
    case STEP_ANY:
      if (!child_of_type(n, st->op == STEP_CHILD ? st->type : 0, &n)) return false;
      break;
    case STEP_DECL:
      n = declared(n, rs->declarator);
      break;
    }
  }
  *out = n;
  return true;
}

static bool one_of(const Cond *c, const char *s, uint32_t len) {
  for (int i = 0; i < c->nwords; i++)
    if (strlen(c->words[i]) == len && !memcmp(c->words[i], s, len)) return true;
  return false;
}

static bool holds(const RuleSet *rs, TSNode n, TSNode parent, const Cond *c, const char *src) {
  TSNode m;
  if (c->op == COND_PARENT) return !ts_node_is_null(parent) && one_of(c, ts_node_type(parent), strlen(ts_node_type(parent)));
  if (!resolve(rs, n, &c->path, &m)) return false;
  switch (c->op) {
  case COND_TYPE:
    return one_of(c, ts_node_type(m), strlen(ts_node_type(m)));
  case COND_TEXT:
    return one_of(c, src + ts_node_start_byte(m), ts_node_end_byte(m) - ts_node_start_byte(m));
  default:
    return true;
  }
}

// match returns the index of the first rule that makes n a definition, and
// its name node; -1 when none does.
static int match(const RuleSet *rs, TSNode n, TSNode parent, const char *src, TSNode *name) {
  TSSymbol sym = ts_node_symbol(n);
  if (sym < rs->nsym && !(rs->sym[sym] & SYM_RULED)) return -1;
  const char *t = ts_node_type(n);
  for (int i = 0; i < rs->n; i++) {
    const Rule *r = &rs->rules[i];
    if (strcmp(r->type, t)) continue;
    bool ok = true;
    for (int k = 0; k < r->nconds && ok; k++) ok = holds(rs, n, parent, &r->conds[k], src);
    for (int k = 0; ok && k < r->nname; k++)
      if (resolve(rs, n, &r->name[k], name) && ts_node_end_byte(*name) > ts_node_start_byte(*name)) return i;
  }
  return -1;
}

// The walk keeps, for every depth of the cursor, the node there and where
// it would start as a definition, and the run of leading nodes (comments,
// attributes) among the siblings at that depth: ts_node_parent and
// ts_node_prev_sibling walk from the parent's first child, which made a
// file of many top-level definitions quadratic.
typedef struct {
  TSNode node;
  uint32_t ext; // start with the run of leading nodes just above it
} Frame;

typedef struct {
  bool valid, has_prev;
  uint32_t start, end_row, prev_end_row;
} Run;

typedef struct {
  Frame *frames;
  Run *runs;
  uint32_t cap;
} Stack;

static bool stack_reserve(Stack *s, uint32_t depth) {
  if (depth < s->cap) return true;
  uint32_t cap = s->cap ? s->cap * 2 : 256;
  while (cap <= depth) cap *= 2;
  Frame *f = realloc(s->frames, cap * sizeof(Frame));
  if (f) s->frames = f;
  Run *r = realloc(s->runs, cap * sizeof(Run));
  if (r) s->runs = r;
  if (!f || !r) return false;
  s->cap = cap;
  return true;
}

// is_leading is leading(n, src), by n's symbol where the table has it.
static bool is_leading(const RuleSet *rs, TSNode n, const char *src) {
  TSSymbol sym = ts_node_symbol(n);
  if (sym >= rs->nsym) return leading(n, src);
  uint8_t b = rs->sym[sym];
  return (b & SYM_LEAD) || ((b & SYM_LEAD_AT) && src[ts_node_start_byte(n)] == '@');
}

// advance takes the named node n, the next sibling at its depth, into run
// and returns where n starts with the leading nodes just above it. A
// comment that ends a line of code (x = 1  # note) starts no run.
static uint32_t advance(const RuleSet *rs, Run *run, TSNode n, const char *src) {
  uint32_t srow = ts_node_start_point(n).row, erow = end_row(n), ext = ts_node_start_byte(n);
  if (is_leading(rs, n, src)) {
    if (run->valid && srow <= run->end_row + 1) {
      run->end_row = erow;
    } else if (run->has_prev && run->prev_end_row == srow) {
      run->valid = false;
    } else {
      *run = (Run){.valid = true, .start = ts_node_start_byte(n), .end_row = erow};
    }
  } else {
    if (run->valid && run->end_row + 1 >= srow) ext = run->start;
    run->valid = false;
  }
  run->has_prev = true;
  run->prev_end_row = erow;
  return ext;
}

// extended is where the definition at depth d starts: its own run start,
// or its wrappers' (a decorated definition, an export statement).
static uint32_t extended(const Stack *s, uint32_t d) {
  while (d > 0 && wrapper(s->frames[d - 1].node, s->frames[d].node)) d--;
  return s->frames[d].ext;
}

static bool emit(uint32_t n, int rule, TSNode node, uint32_t ext, TSNode name) {
  if (!reserve(HEAD_WORDS + (n + 1) * RECORD_WORDS)) return false;
  uint32_t *r = out + HEAD_WORDS + n * RECORD_WORDS;
  r[0] = r[1] = (uint32_t)rule;
  r[2] = ts_node_start_byte(node);
  r[3] = ts_node_end_byte(node);
  r[4] = ext;
  r[5] = ts_node_start_byte(name);
  r[6] = ts_node_end_byte(name);
  return true;
}

// rules_walk visits every named node of tree in order and writes a record
// for each definition, spending a step of the budget every 100 nodes. It
// returns the status.
uint32_t rules_walk(int32_t lang, TSTree *tree, const char *src) {
  const RuleSet *rs = &rulesets[lang];
  TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(tree));
  Stack s = {0};
  uint32_t n = 0, visited = 0, depth = 0, st = ST_OK;
  if (!stack_reserve(&s, 0)) st = ST_NO_MEMORY;
  s.runs[0] = (Run){0};
  while (st == ST_OK) {
    TSNode node = ts_tree_cursor_current_node(&c);
    s.frames[depth].node = node;
    s.frames[depth].ext = ts_node_start_byte(node);
    if (ts_node_is_named(node)) {
      s.frames[depth].ext = advance(rs, &s.runs[depth], node, src);
      TSNode name, parent = depth ? s.frames[depth - 1].node : (TSNode){0};
      int rule = match(rs, node, parent, src, &name);
      if (rule >= 0 && !emit(n++, rule, node, extended(&s, depth), name)) st = ST_NO_MEMORY;
    }
    if (++visited % 100 == 0 && !spend()) st = ST_TIMEOUT;
    if (st != ST_OK) break;
    if (ts_tree_cursor_goto_first_child(&c)) {
      if (!stack_reserve(&s, ++depth)) st = ST_NO_MEMORY;
      else s.runs[depth] = (Run){0};
      continue;
    }
    bool more = false;
    while (!(more = ts_tree_cursor_goto_next_sibling(&c)) && ts_tree_cursor_goto_parent(&c)) depth--;
    if (!more) break;
  }
  ts_tree_cursor_delete(&c);
  free(s.frames);
  free(s.runs);
  if (st == ST_OK) out[1] = n;
  return st;
}
