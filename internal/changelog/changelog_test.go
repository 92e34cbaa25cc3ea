package changelog

import "testing"

func TestRecordsStopAtDamage(t *testing.T) {
	hdr := Header("TEST", 1, [SumLen]byte{7})
	log := append([]byte(nil), hdr...)
	var ends []int
	for _, body := range []string{"one", "", "three"} {
		log = AppendRecord(log, []byte(body))
		ends = append(ends, len(log))
	}
	var got []string
	end := Records(log, hdr, func(b []byte) bool { got = append(got, string(b)); return true })
	if end != len(log) || len(got) != 3 || got[0] != "one" || got[1] != "" || got[2] != "three" {
		t.Fatalf("intact log: end %d of %d, bodies %q", end, len(log), got)
	}
	if end := Records(log, Header("TEST", 1, [SumLen]byte{8}), func([]byte) bool { return true }); end != 0 {
		t.Fatalf("a log of another base was read up to %d", end)
	}
	for cut := len(hdr); cut < len(log); cut++ {
		want := len(hdr)
		for _, e := range ends {
			if e <= cut {
				want = e
			}
		}
		if end := Records(log[:cut], hdr, func([]byte) bool { return true }); end != want {
			t.Fatalf("torn at %d: end %d, want %d", cut, end, want)
		}
	}
	bad := append([]byte(nil), log...)
	bad[ends[0]+1] ^= 1 // the second record's checksum, as its body is empty
	if end := Records(bad, hdr, func([]byte) bool { return true }); end != ends[0] {
		t.Fatalf("damaged second record: end %d, want %d", end, ends[0])
	}
	if end := Records(log, hdr, func(b []byte) bool { return string(b) != "three" }); end != ends[1] {
		t.Fatalf("rejected third record: end %d, want %d", end, ends[1])
	}
}
