package wordpiece

import (
	"strings"
	"testing"
)

// chunkText is about 2.4 KB of mixed prose, code and accented text, the
// size of a default chunk.
func chunkText() string {
	const para = "The refresh pipeline walks the folder, hashes every changed file and re-embeds only the chunks " +
		"whose text is new. Statins lowered cardiovascular mortality in the cohort, while the control group " +
		"showed no difference in breast cancer recurrence. Call getUserName() before parseConfigFile(path) to load " +
		"settings. Le café était fermé; die Größe ändert sich. "
	return strings.Repeat(para, 2400/len(para)+1)[:2400]
}

func BenchmarkAppendChunk(b *testing.B) {
	tk := testTokenizer(b)
	text := chunkText()
	dst := tk.Append(nil, text)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		dst = tk.Append(dst[:0], text)
	}
	b.ReportMetric(float64(len(dst))*float64(b.N)/b.Elapsed().Seconds(), "tokens/s")
}

func BenchmarkAppendQuery(b *testing.B) {
	tk := testTokenizer(b)
	text := "how do statins affect cholesterol"
	var dst []int
	b.ReportAllocs()
	for b.Loop() {
		dst = tk.Append(dst[:0], text)
	}
}

func BenchmarkAppendCJK(b *testing.B) {
	tk := testTokenizer(b)
	text := strings.Repeat("中文分词测试：我爱北京天安门。日本語のテキスト、한국어 텍스트. ", 40)
	dst := tk.Append(nil, text)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		dst = tk.Append(dst[:0], text)
	}
}
