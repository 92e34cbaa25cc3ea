package analyze

import (
	"strings"
	"testing"
)

const benchProse = "Retrieval systems rank passages by how well their terms match a query. " +
	"The classic BM25 function weighs each matching term by its inverse document frequency, " +
	"saturates repeated occurrences and normalizes for the length of the passage. "

const benchCode = "// GetUserByID loads one user from the store, or returns ErrNotFound.\n" +
	"func (s *Store) GetUserByID(ctx context.Context, id int64) (*User, error) {\n" +
	"\trow := s.db.QueryRowContext(ctx, \"SELECT name, email FROM users WHERE id = ?\", id)\n" +
	"\tvar u User\n\tif err := row.Scan(&u.Name, &u.Email); err != nil {\n" +
	"\t\treturn nil, fmt.Errorf(\"get user %d: %w\", id, err)\n\t}\n\treturn &u, nil\n}\n\n"

// benchMixed is prose outside ASCII: accented Latin, Greek, Cyrillic and
// CJK, where the tokenizer falls back to bleve's segmenter.
const benchMixed = "Die Zürcher Straßenbahn fährt über die Brücke; naïve café-Besucher grüßen. " +
	"Η γρήγορη καφέ αλεπού πηδά πάνω από τον σκύλο. Быстрая коричневая лиса прыгает. " +
	"東京の検索エンジンは日本語の文章を索引します。 Résumé: 3,5 % mehr Zugriffe (2024). "

// repeatTo repeats s up to n bytes.
func repeatTo(s string, n int) []byte {
	return []byte(strings.Repeat(s, n/len(s)+1)[:n])
}

func BenchmarkAnalyze(b *testing.B) {
	inputs := []struct {
		name string
		text []byte
	}{
		{"prose-2.4KB", repeatTo(benchProse, 2400)},
		{"go-code-2.4KB", repeatTo(benchCode, 2400)},
		{"mixed-unicode-2.4KB", repeatTo(benchMixed, 2400)},
	}
	a := Analyzer()
	for _, in := range inputs {
		b.Run(in.name, func(b *testing.B) {
			buf := make([]byte, len(in.text))
			b.SetBytes(int64(len(in.text)))
			b.ReportAllocs()
			for b.Loop() {
				copy(buf, in.text) // Analyze lower-cases in place
				a.Analyze(buf)
			}
		})
	}
}
