package worker

// HeadTail keeps the first and the last bytes written to it, as a
// Result keeps a call's output (Call.MaxOutput), for a caller that also
// sends the output elsewhere as it comes (Call.Stdout, Call.Stderr).
// It is safe for concurrent use.
type HeadTail struct{ h headTail }

// NewHeadTail keeps at most max bytes: the first half and the last.
func NewHeadTail(max int) *HeadTail { return &HeadTail{h: headTail{max: max}} }

func (h *HeadTail) Write(p []byte) (int, error) { return h.h.Write(p) }

// Kept returns the bytes kept, whether the middle was dropped, and how
// many bytes were written in all.
func (h *HeadTail) Kept() (kept []byte, cut bool, total int64) {
	kept, cut = h.h.bytes()
	return kept, cut, h.h.written()
}
