/* A small file for the golden test. */
#include <stdlib.h>

#define MAX_NODES 1024
#define SQUARE(x) ((x) * (x))

/* A node of the list. */
struct node {
    int value;
    struct node *next;
};

typedef struct node node_t;

enum color { RED, GREEN };

/* push prepends a value. */
static node_t *push(node_t *head, int value)
{
    node_t *n = malloc(sizeof *n);
    n->value = value;
    n->next = head;
    return n;
}

int main(void)
{
    return push(NULL, 1) == NULL;
}
