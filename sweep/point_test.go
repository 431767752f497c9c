package sweep

import "testing"

func TestCompareReplaceConstKeepsCommentsAndLines(t *testing.T) {
	src := []byte("kernel k\nconst S = 4   # stages\nconst SS = 2\n")
	got, err := ReplaceConst("k.sms", src, "S", "2 * 3")
	if err != nil {
		t.Fatal(err)
	}
	want := "kernel k\nconst S = 2 * 3   # stages\nconst SS = 2\n"
	if string(got) != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	if _, err := ReplaceConst("k.sms", src, "S", "1 # x"); err == nil {
		t.Error("a value with a comment was accepted")
	}
}
