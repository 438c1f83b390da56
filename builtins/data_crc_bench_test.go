package builtins

import "testing"

func BenchmarkDataCRC(b *testing.B) {
	t := dataCRCTables()
	buf := make([]byte, 1<<20)
	b.SetBytes(int64(len(buf)))
	for i := 0; i < b.N; i++ {
		dataCRCUpdate(t, 0, buf)
	}
}
