package sed

// Program is a compiled sed script. It holds no run state, so one Program
// could be run several times.
type Program struct {
	cmds []command
	opt  Options
	// quiet is set by a "#n" first line, like -n.
	quiet bool
	// outNames and inNames are the files of w/W (and s///w) and R
	// commands, each once, in the order they appear; commands refer to
	// them by index.
	outNames []string
	inNames  []string
	// endLoc is where compilation ended, for errors found at run time.
	endLoc string
}

type addrKind uint8

const (
	addrNull  addrKind = iota // +0 or ~0 as second address: ends at once
	addrLine                  // N
	addrLast                  // $
	addrRegex                 // /re/ or \cREc
	addrMod                   // first~step
	addrPlus                  // addr1,+N
	addrMult                  // addr1,~N
)

type address struct {
	kind addrKind
	n    int64 // line number, first line of first~step, or N of +N/~N
	step int64
	re   *rx // nil for the empty regex: the last one used
}

// command is one compiled sed command. Which fields are used depends on op.
type command struct {
	a1, a2 *address
	negate bool
	op     byte

	// text is the text of a, i and c with its final newline (nil: nothing
	// to print), or the command line of e (nil: run the pattern space).
	text  []byte
	label string // b, t, T, ':'
	jump  int    // b, t, T: target index; '{': index of its '}'
	num   int    // q, Q: exit status; l: wrap width; -1 when not given
	fname string // r
	file  int    // w, W: index into Program.outNames; R: into inNames
	sub   *subst
	ytab  *[256]byte
	ymap  map[rune]rune // y in UTF-8 mode
}

// subst is the compiled form of an s command.
type subst struct {
	re     *rx // nil for the empty regex
	repl   []replPart
	maxRef int
	global bool
	// print is 1 for p before e, 2 for p after e (GNU's encoding).
	print int
	eval  bool
	numb  int // replace the numb-th match (0 when not given)
	out   int // w file index, -1 for none
}

// replType says how a replacement part's case is converted.
type replType uint8

const (
	replAsIs       replType = 0
	replUpper      replType = 1
	replLower      replType = 2
	replUpperFirst replType = 4
	replLowerFirst replType = 8
	replModifiers           = replUpperFirst | replLowerFirst
)

// replPart is literal text followed by an optional group reference.
type replPart struct {
	lit   []byte
	group int // -1 for none; 0 is the whole match (&)
	typ   replType
}
