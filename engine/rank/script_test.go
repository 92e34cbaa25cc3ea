package rank

import "testing"

func TestScriptOf(t *testing.T) {
	for text, want := range map[string]Script{
		"what is the capital of France?": ScriptLatin,
		"Wie viele Einwohner hat Köln?":  ScriptLatin,
		"Ko\u0308ln und Mu\u0308nchen":   ScriptLatin,
		"Người ta đã xây dựng gì ở đó?":  ScriptLatin,
		"维京人在哪一年入侵了英格兰？":                 ScriptCJK,
		"2010 年 NFL 的 MVP 是谁":            ScriptCJK,
		"東京タワーはいつ建てられましたか":               ScriptCJK,
		"서울의 인구는 얼마입니까":                  ScriptCJK,
		"Какой город столица России":     ScriptOther,
		"Какой город столица NFL":        ScriptOther,
		"एनएफएल में कितनी टीमें हैं":     ScriptOther,
		"Ποια είναι η πρωτεύουσα":        ScriptOther,
		"ما هي عاصمة مصر":                ScriptOther,
		"Russia Россия":                  ScriptLatin, // no majority
		"ใครเป็นผู้ร้องเพลงชาติในการแข่งขัน Super Bowl 50": ScriptOther, // Thai writes no spaces
		"NASUWT คืออะไร?": ScriptOther,
		"1996 ?":          ScriptLatin,
		"":                ScriptLatin,
	} {
		if got := ScriptOf(text); got != want {
			t.Errorf("ScriptOf(%q) = %v, want %v", text, got, want)
		}
	}
}
