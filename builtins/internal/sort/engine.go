package sort

import (
	"bufio"
	"bytes"
	"container/heap"
	"context"
	"errors"
	"fmt"
	"github.com/sandsh/sandsh/builtins/internal/guard"
	"io"
	"math"
	"slices"
	"sync"
)

// ErrTooLarge is returned when the input does not fit the 32-bit offsets
// the line table uses to stay compact.
var ErrTooLarge = errors.New("input too large to sort in memory")

// line locates one record in Sorter.data: the text (without delimiter)
// and the bounds of its first key, relative to the text.
type line struct {
	off, n uint32
	kb, kl uint32
}

// Sorter accumulates every input line in one buffer and sorts an index of
// them, which keeps memory near the input size.
type Sorter struct {
	cfg   *Config
	cmp   *comparer
	data  []byte
	lines []line
	// Workers is how many goroutines may sort; 1 disables parallelism.
	Workers int
	// Max bounds the bytes of input held (0: only the 32-bit offsets).
	Max int
}

// NewSorter returns an empty Sorter for cfg.
func NewSorter(cfg *Config) *Sorter {
	return &Sorter{cfg: cfg, cmp: newComparer(cfg), Workers: 1}
}

// Grow reserves room for n more bytes of input, a hint from file sizes.
func (s *Sorter) Grow(n int64) {
	if n > 0 && n < math.MaxUint32 && (s.Max <= 0 || n <= int64(s.Max)) {
		s.data = slices.Grow(s.data, int(n)+1)
	}
}

// Read appends all of r to the sorter. A final record without delimiter
// gets one, as GNU sort does.
func (s *Sorter) Read(ctx context.Context, r io.Reader) error {
	start := len(s.data)
	for {
		if cap(s.data)-len(s.data) < 512 {
			s.data = slices.Grow(s.data, max(len(s.data)/2, 256<<10))
		}
		n, err := r.Read(s.data[len(s.data):cap(s.data)])
		s.data = s.data[:len(s.data)+n]
		if len(s.data) >= math.MaxUint32 {
			return ErrTooLarge
		}
		if s.Max > 0 && len(s.data) > s.Max {
			return &guard.InputError{Max: s.Max}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	if len(s.data) > start && s.data[len(s.data)-1] != s.cfg.Delim {
		s.data = append(s.data, s.cfg.Delim)
	}
	s.index(start)
	return nil
}

// index records the lines of data[start:].
func (s *Sorter) index(start int) {
	data := s.data
	keys := len(s.cfg.Keys) > 0
	// One exact allocation for the index: appending would leave up to
	// twice its size behind as garbage on a big input.
	s.lines = slices.Grow(s.lines, bytes.Count(data[start:], []byte{s.cfg.Delim}))
	for p := start; p < len(data); {
		e := bytes.IndexByte(data[p:], s.cfg.Delim)
		if e < 0 {
			e = len(data) - p
		}
		l := line{off: uint32(p), n: uint32(e)}
		if keys {
			b, lim := s.cmp.firstKey(data[p : p+e])
			l.kb, l.kl = uint32(b), uint32(lim)
		}
		s.lines = append(s.lines, l)
		p += e + 1
	}
}

type cancelled struct{ err error }

// Sort orders the lines read so far. It stops early, returning ctx's
// error, when ctx is cancelled.
func (s *Sorter) Sort(ctx context.Context) (err error) {
	if len(s.lines) < 2 {
		return nil
	}
	workers := s.Workers
	if len(s.lines) < 1<<16 {
		workers = 1
	}
	if workers <= 1 {
		return sortPart(ctx, s.cfg, s.data, s.lines)
	}
	mid := len(s.lines) / 2
	var wg sync.WaitGroup
	var errA error
	wg.Add(1)
	go func() {
		defer wg.Done()
		errA = sortPart(ctx, s.cfg, s.data, s.lines[:mid])
	}()
	errB := sortPart(ctx, s.cfg, s.data, s.lines[mid:])
	wg.Wait()
	if errA != nil {
		return errA
	}
	if errB != nil {
		return errB
	}
	s.lines = mergeHalves(s.cfg, s.data, s.lines, mid)
	return nil
}

// lineCmp returns the comparison of two indexed lines. Without keys and
// -r plain byte order suffices; otherwise ties on everything fall back to
// input order so the sort is stable.
func lineCmp(ctx context.Context, cfg *Config, data []byte) func(x, y line) int {
	if len(cfg.Keys) == 0 {
		if cfg.Reverse {
			return func(x, y line) int {
				return bytes.Compare(data[y.off:y.off+y.n], data[x.off:x.off+x.n])
			}
		}
		return func(x, y line) int {
			return bytes.Compare(data[x.off:x.off+x.n], data[y.off:y.off+y.n])
		}
	}
	c := newComparer(cfg)
	calls := 0
	return func(x, y line) int {
		calls++
		if calls&0xffff == 0 {
			if err := ctx.Err(); err != nil {
				panic(cancelled{err})
			}
		}
		d := c.compare(data[x.off:x.off+x.n], data[y.off:y.off+y.n],
			int(x.kb), int(x.kl), int(y.kb), int(y.kl))
		if d == 0 {
			return int(int64(x.off) - int64(y.off))
		}
		return d
	}
}

func sortPart(ctx context.Context, cfg *Config, data []byte, lines []line) (err error) {
	defer func() {
		if r := recover(); r != nil {
			c, ok := r.(cancelled)
			if !ok {
				panic(r)
			}
			err = c.err
		}
	}()
	slices.SortFunc(lines, lineCmp(ctx, cfg, data))
	return ctx.Err()
}

// mergeHalves merges the sorted runs lines[:mid] and lines[mid:] in place,
// with a copy of the first run as the only extra memory.
func mergeHalves(cfg *Config, data []byte, lines []line, mid int) []line {
	cmp := lineCmp(context.Background(), cfg, data)
	a := append([]line(nil), lines[:mid]...)
	i, j, k := 0, mid, 0
	// k < j always holds (k == i + j - mid and i < mid), so lines[k] is
	// never an element of the second run that is still to be merged.
	for i < len(a) && j < len(lines) {
		if cmp(lines[j], a[i]) < 0 {
			lines[k] = lines[j]
			j++
		} else {
			lines[k] = a[i]
			i++
		}
		k++
	}
	copy(lines[k:], a[i:]) // the rest of the second run is in place
	return lines
}

// Write outputs the sorted lines, dropping repeats under -u.
func (s *Sorter) Write(ctx context.Context, w io.Writer) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	data := s.data
	var prev *line
	for i := range s.lines {
		l := &s.lines[i]
		if s.cfg.Unique && prev != nil && s.cmp.compare(data[prev.off:prev.off+prev.n], data[l.off:l.off+l.n],
			int(prev.kb), int(prev.kl), int(l.kb), int(l.kl)) == 0 {
			continue
		}
		prev = l
		if _, err := bw.Write(data[l.off : l.off+l.n+1]); err != nil {
			return err
		}
		if i&0xfff == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
	}
	return bw.Flush()
}

// Disorder describes the first out-of-order line found by Check.
type Disorder struct {
	Line int
	Text []byte
}

// Check reads r and reports the first line that is out of order (or, with
// -u, equal to its predecessor). It returns nil when r is sorted.
func Check(ctx context.Context, cfg *Config, r io.Reader) (*Disorder, error) {
	c := newComparer(cfg)
	lr := newLineReader(r, cfg.Delim)
	var prev []byte
	for n := 1; ; n++ {
		cur, err := lr.next()
		if err == io.EOF {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		if n > 1 {
			d := c.compareFull(prev, cur)
			if d > 0 || (cfg.Unique && d == 0) {
				return &Disorder{Line: n, Text: append([]byte(nil), cur...)}, nil
			}
		}
		prev = append(prev[:0], cur...)
		if n%4096 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
}

// compareFull compares two lines, finding their first keys itself.
func (c *comparer) compareFull(a, b []byte) int {
	ab, al := c.firstKey(a)
	bb, bl := c.firstKey(b)
	return c.compare(a, b, ab, al, bb, bl)
}

// lineReader yields records without their delimiter.
type lineReader struct {
	r     *bufio.Reader
	delim byte
	long  []byte
}

func newLineReader(r io.Reader, delim byte) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10), delim: delim}
}

func (l *lineReader) next() ([]byte, error) {
	b, err := l.r.ReadSlice(l.delim)
	if errors.Is(err, bufio.ErrBufferFull) {
		l.long = append(l.long[:0], b...)
		for errors.Is(err, bufio.ErrBufferFull) {
			b, err = l.r.ReadSlice(l.delim)
			l.long = append(l.long, b...)
		}
		b = l.long
	}
	if err == io.EOF && len(b) > 0 {
		err = nil
	}
	if err != nil {
		return nil, err
	}
	if b[len(b)-1] == l.delim {
		b = b[:len(b)-1]
	}
	return b, nil
}

// Merge merges already sorted inputs onto w (sort -m). Ties go to the
// earlier input, as in GNU sort.
func Merge(ctx context.Context, cfg *Config, inputs []io.Reader, w io.Writer) error {
	c := newComparer(cfg)
	h := &mergeHeap{c: c}
	for i, r := range inputs {
		cur := &cursor{idx: i, lr: newLineReader(r, cfg.Delim)}
		ok, err := cur.advance(c)
		if err != nil {
			return err
		}
		if ok {
			h.items = append(h.items, cur)
		}
	}
	heap.Init(h)
	bw := bufio.NewWriterSize(w, 64<<10)
	var last []byte
	haveLast := false
	for n := 0; h.Len() > 0; n++ {
		if n&0xfff == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		cur := h.items[0]
		if !(cfg.Unique && haveLast && c.compareFull(last, cur.text) == 0) {
			bw.Write(cur.text)
			if err := bw.WriteByte(cfg.Delim); err != nil {
				return err
			}
			if cfg.Unique {
				last = append(last[:0], cur.text...)
				haveLast = true
			}
		}
		ok, err := cur.advance(c)
		if err != nil {
			return err
		}
		if ok {
			heap.Fix(h, 0)
		} else {
			heap.Pop(h)
		}
	}
	return bw.Flush()
}

type cursor struct {
	idx    int
	lr     *lineReader
	text   []byte
	kb, kl int
}

func (cu *cursor) advance(c *comparer) (bool, error) {
	t, err := cu.lr.next()
	if err == io.EOF {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	cu.text = t
	cu.kb, cu.kl = c.firstKey(t)
	return true, nil
}

type mergeHeap struct {
	c     *comparer
	items []*cursor
}

func (h *mergeHeap) Len() int { return len(h.items) }
func (h *mergeHeap) Less(i, j int) bool {
	a, b := h.items[i], h.items[j]
	d := h.c.compare(a.text, b.text, a.kb, a.kl, b.kb, b.kl)
	if d == 0 {
		return a.idx < b.idx
	}
	return d < 0
}
func (h *mergeHeap) Swap(i, j int) { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *mergeHeap) Push(x any)    { h.items = append(h.items, x.(*cursor)) }
func (h *mergeHeap) Pop() any {
	x := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return x
}

// String describes cfg for debugging.
func (cfg *Config) String() string {
	return fmt.Sprintf("keys=%d tab=%d u=%v s=%v r=%v", len(cfg.Keys), cfg.Tab, cfg.Unique, cfg.Stable, cfg.Reverse)
}
