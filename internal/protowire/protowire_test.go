package protowire

import (
	"bytes"
	"testing"

	up "google.golang.org/protobuf/encoding/protowire"
)

// same checks every Consume function against upstream's on b.
func same(t *testing.T, b []byte) {
	t.Helper()
	if v, n := ConsumeVarint(b); true {
		uv, un := up.ConsumeVarint(b)
		if v != uv || n != un {
			t.Fatalf("ConsumeVarint(%x) = %d, %d; upstream %d, %d", b, v, n, uv, un)
		}
	}
	num, typ, n := ConsumeTag(b)
	unum, utyp, un := up.ConsumeTag(b)
	if int32(num) != int32(unum) || int8(typ) != int8(utyp) || n != un {
		t.Fatalf("ConsumeTag(%x) = %d, %d, %d; upstream %d, %d, %d", b, num, typ, n, unum, utyp, un)
	}
	if (ParseError(n) == nil) != (up.ParseError(un) == nil) {
		t.Fatalf("ParseError(%d) = %v; upstream %v", n, ParseError(n), up.ParseError(un))
	}
	if v, n := ConsumeBytes(b); true {
		uv, un := up.ConsumeBytes(b)
		if !bytes.Equal(v, uv) || n != un {
			t.Fatalf("ConsumeBytes(%x) = %x, %d; upstream %x, %d", b, v, n, uv, un)
		}
	}
	if v, n := ConsumeFixed32(b); true {
		uv, un := up.ConsumeFixed32(b)
		if v != uv || n != un {
			t.Fatalf("ConsumeFixed32(%x) differs", b)
		}
	}
	if v, n := ConsumeFixed64(b); true {
		uv, un := up.ConsumeFixed64(b)
		if v != uv || n != un {
			t.Fatalf("ConsumeFixed64(%x) differs", b)
		}
	}
	if n > 0 {
		rest := b[n:]
		for _, tp := range []Type{typ, VarintType, Fixed32Type, Fixed64Type, BytesType, StartGroupType, EndGroupType, 6, 7} {
			if got, want := ConsumeFieldValue(num, tp, rest), up.ConsumeFieldValue(up.Number(num), up.Type(tp), rest); got != want {
				t.Fatalf("ConsumeFieldValue(%d, %d, %x) = %d; upstream %d", num, tp, rest, got, want)
			}
		}
	}
}

func seeds() [][]byte {
	var s [][]byte
	s = append(s, nil, []byte{0}, []byte{0x80}, []byte{0x08, 0x96, 0x01}, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01},
		[]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02}, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01},
		[]byte{0xf8, 0xff, 0xff, 0xff, 0x0f}, []byte{0xf8, 0xff, 0xff, 0xff, 0x7f}, []byte{0x07})
	s = append(s, up.AppendBytes(up.AppendTag(nil, 2, up.BytesType), []byte("hello")))
	g := up.AppendTag(nil, 5, up.StartGroupType)
	g = up.AppendVarint(up.AppendTag(g, 1, up.VarintType), 300)
	g = up.AppendTag(up.AppendTag(g, 7, up.StartGroupType), 7, up.EndGroupType)
	g = up.AppendTag(g, 5, up.EndGroupType)
	s = append(s, g, up.AppendTag(g[:len(g)-1], 6, up.EndGroupType))
	s = append(s, up.AppendFixed32(up.AppendTag(nil, 3, up.Fixed32Type), 0xdeadbeef), up.AppendFixed64(up.AppendTag(nil, 4, up.Fixed64Type), 1<<60))
	return s
}

func TestConsumeMatchesUpstream(t *testing.T) {
	for _, b := range seeds() {
		for i := 0; i <= len(b); i++ {
			same(t, b[:i])
		}
	}
}

func TestAppendMatchesUpstream(t *testing.T) {
	for _, v := range []uint64{0, 1, 127, 128, 300, 1<<32 - 1, 1 << 63, 1<<64 - 1} {
		if got, want := AppendVarint(nil, v), up.AppendVarint(nil, v); !bytes.Equal(got, want) || SizeVarint(v) != up.SizeVarint(v) {
			t.Fatalf("varint %d: %x, upstream %x", v, got, want)
		}
	}
	for _, num := range []Number{1, 15, 16, 2047, MaxValidNumber} {
		for typ := range Type(6) {
			if got, want := AppendTag(nil, num, typ), up.AppendTag(nil, up.Number(num), up.Type(typ)); !bytes.Equal(got, want) {
				t.Fatalf("tag %d/%d: %x, upstream %x", num, typ, got, want)
			}
		}
	}
	v := bytes.Repeat([]byte("x"), 200)
	if !bytes.Equal(AppendBytes(nil, v), up.AppendBytes(nil, v)) || !bytes.Equal(AppendString(nil, "ünï"), up.AppendString(nil, "ünï")) {
		t.Fatal("length-delimited values differ")
	}
}

func FuzzConsume(f *testing.F) {
	for _, b := range seeds() {
		f.Add(b)
	}
	f.Fuzz(same)
}
