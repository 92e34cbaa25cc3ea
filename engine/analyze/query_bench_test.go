package analyze

import "testing"

// benchQueries are questions as the query path analyzes them: detected
// (DetectQuery, for fusion) and analyzed in each language of the index.
var benchQueries = []struct {
	name  string
	text  string
	langs []string
}{
	{"en", "how long do we wait before retrying a failed carrier call", []string{"en"}},
	{"en-in-en+de", "how long do we wait before retrying a failed carrier call", []string{"en", "de"}},
	{"de", "Wie viele Punkte ließ die Verteidigung der Panthers in der Saison zu?", []string{"de"}},
	{"tr", "Ankara'nın nüfusu 2010 yılında kaç kişiydi?", []string{"tr"}},
	{"ar", "ما هي الدول التي يمر بها نهر النيل؟", []string{"ar"}},
	{"el", "Πόσες ώρες κρατά ένα ταξίδι με πλοίο για τη Νάξο;", []string{"el"}},
	{"hi", "भारत के नागरिकों को मतदान का अधिकार कब मिला?", []string{"hi"}},
	{"th", "รถไฟไปหาดใหญ่ใช้เวลากี่ชั่วโมง", []string{"th"}},
}

// BenchmarkQueryAnalysis is the analysis a query costs: detection and the
// terms of each language the index holds.
func BenchmarkQueryAnalysis(b *testing.B) {
	for _, q := range benchQueries {
		b.Run(q.name, func(b *testing.B) {
			TermsIn(q.text, q.langs) // build the chains outside the loop
			b.ReportAllocs()
			for b.Loop() {
				DetectQuery(q.text)
				TermsIn(q.text, q.langs)
			}
		})
	}
}
