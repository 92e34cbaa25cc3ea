// glue.h: what glue.c and rules.c share.
#ifndef AUTORAG_GLUE_H
#define AUTORAG_GLUE_H

#include <stdbool.h>
#include <stdint.h>

#include "tree_sitter/api.h"

enum {
  ST_OK = 0,
  ST_NO_RULES = 1,  // rules_set was not called (or failed) for this language
  ST_BAD_LANG = 2,  // language index out of range
  ST_TIMEOUT = 3,   // the parse or the walk spent its budget of steps
  ST_NO_TREE = 4,   // the parser gave no tree
  ST_NO_MEMORY = 5, // the result buffer could not grow
  ST_CANCELLED = 6  // the host set the cancel word
};

#define MAX_LANGS 64
#define HEAD_WORDS 3 // status, count, steps spent
#define RECORD_WORDS 7

typedef struct {
  const char *name;
  const TSLanguage *(*language)(void);
} Lang;

extern const Lang langs[];
extern const int32_t nlangs;

// glue.c
extern uint32_t *out;  // the result buffer: HEAD_WORDS, then the records
bool reserve(uint32_t words);
bool spend(void);
enum { LEAD_NO, LEAD_YES, LEAD_AT };
int leading_type(const char *t);
bool leading(TSNode n, const char *src);
bool wrapper(TSNode parent, TSNode n);
uint32_t end_row(TSNode n);

// rules.c
bool rules_ready(int32_t lang);
uint32_t rules_walk(int32_t lang, TSTree *tree, const char *src);

#endif
