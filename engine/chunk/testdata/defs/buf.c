#include <stdlib.h>
#include <string.h>

/* A growable byte buffer. */
struct buf {
    char *data;
    size_t len, cap;
};

/* buf_grow makes room for n more bytes. */
static int buf_grow(struct buf *b, size_t n)
{
    if (b->len + n <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap * 2 : 64;
    while (cap < b->len + n)
        cap *= 2;
    char *p = realloc(b->data, cap);
    if (!p)
        return -1;
    b->data = p;
    b->cap = cap;
    return 0;
}

int buf_append(struct buf *b, const char *s, size_t n)
{
    if (buf_grow(b, n) < 0)
        return -1;
    memcpy(b->data + b->len, s, n);
    b->len += n;
    return 0;
}
