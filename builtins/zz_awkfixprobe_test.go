package builtins

import (
	"bytes"
	"context"
	"os"
	"testing"
	"time"
)

func TestZZAwkfixProbe(t *testing.T) {
	if os.Getenv("AWKFIX_PROBE") == "" {
		t.Skip()
	}
	for _, args := range [][]string{
		{"base64"}, {"base64", "-d"}, {"base32"}, {"md5sum"}, {"sha256sum"}, {"cksum"}, {"sum"},
		{"od", "-c"}, {"xxd"}, {"xxd", "-p"}, {"hexdump", "-C"}, {"strings"}, {"cmp", "-", "big"},
		{"gzip"}, {"jq", "-R", "."}, {"jq", "."}, {"tar", "tf", "-"}, {"zcat"}, {"wc"}, {"sort"}, {"awk", "{n++}"}, {"sed", "s/a/b/"}, {"grep", "x"}, {"tail", "-n", "1"}, {"tr", "a", "b"},
		{"cat"}, {"uniq"}, {"cut", "-c1"}, {"head", "-c", "1000000000"}, {"split", "-l", "1000000"},
	} {
		env := testEnv(t, map[string]string{"big": "x"})
		var out, errb bytes.Buffer
		sub := env.Sub()
		sub.Stdin, sub.Stdout, sub.Stderr = dataEndless{chunk: []byte("QUJD\n1 "), pos: new(int)}, &out, &errb
		ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
		start := time.Now()
		st := sub.Run(ctx, args)
		cancel()
		t.Logf("%v: status %d took %v stderr %q", args, st, time.Since(start), errb.String())
	}
}
