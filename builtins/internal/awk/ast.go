package awk

// The syntax tree. Names are resolved while parsing: every variable
// reference says whether it is a global, a function local or one of the
// special variables, and carries its slot index.

// Program is a parsed AWK program.
type Program struct {
	Begin     [][]Stmt
	Items     []*Item
	End       [][]Stmt
	BeginFile [][]Stmt
	EndFile   [][]Stmt
	Funcs     []*Func
	// Warnings are non-fatal remarks about the source, such as unknown
	// escape sequences, for the caller to print.
	Warnings []string

	globals map[string]int
	names   []string // global slot -> name
	funcIdx map[string]int
	calls   []*CallExpr // resolved to Funcs after parsing
}

// Item is a pattern-action rule. Pattern nil means every record; Pattern2
// non-nil makes it a range. Body nil means print $0.
type Item struct {
	Pos
	Pattern  Expr
	Pattern2 Expr
	Body     []Stmt
}

// Func is a user-defined function.
type Func struct {
	Name   string
	Params []string
	Body   []Stmt
}

// Expr is an expression node.
type Expr interface{ expr() }

// Stmt is a statement node.
type Stmt interface{ pos() *Pos }

// Pos is where a statement or rule starts, for runtime error messages.
type Pos struct {
	Src  string
	Line int
}

func (p *Pos) pos() *Pos { return p }

// CaseClause is one case of a switch; Value nil is default.
type CaseClause struct {
	Value Expr
	Body  []Stmt
}

type scope uint8

const (
	scopeGlobal scope = iota
	scopeLocal
	scopeSpecial
)

// Special variables, stored in the interpreter with side effects on set.
const (
	spNF = iota
	spNR
	spFNR
	spFS
	spOFS
	spORS
	spRS
	spSUBSEP
	spCONVFMT
	spOFMT
	spRSTART
	spRLENGTH
	spFILENAME
	spARGC
	spIGNORECASE
	spRT
	spERRNO
	spFPAT
	spFIELDWIDTHS
	numSpecials
)

var specialVars = map[string]int{
	"NF": spNF, "NR": spNR, "FNR": spFNR, "FS": spFS, "OFS": spOFS,
	"ORS": spORS, "RS": spRS, "SUBSEP": spSUBSEP, "CONVFMT": spCONVFMT,
	"OFMT": spOFMT, "RSTART": spRSTART, "RLENGTH": spRLENGTH,
	"FILENAME": spFILENAME, "ARGC": spARGC, "IGNORECASE": spIGNORECASE,
	"RT": spRT, "ERRNO": spERRNO, "FPAT": spFPAT, "FIELDWIDTHS": spFIELDWIDTHS,
}

type (
	// NumLit is a numeric constant.
	NumLit struct{ N float64 }
	// StrLit is a string constant.
	StrLit struct{ S string }
	// RegexLit is /re/: $0 ~ re as a value, the regex itself as an
	// argument of match, split, sub, gsub, gensub and ~.
	RegexLit struct {
		Src string
		re  *regex // compiled when parsing; never changed after
	}
	// VarExpr is a variable used as a scalar or, as the array of an
	// IndexExpr, InExpr and so on, as an array.
	VarExpr struct {
		Scope scope
		Index int
		Name  string
	}
	// FieldExpr is $Index.
	FieldExpr struct{ Index Expr }
	// IndexExpr is Array[Index...].
	IndexExpr struct {
		Array *VarExpr
		Index []Expr
	}
	// AssignExpr is Left = Right or Left op= Right (Op is tAssign or the
	// binary operator).
	AssignExpr struct {
		Left  Expr
		Op    token
		Right Expr
	}
	// CondExpr is Cond ? Yes : No.
	CondExpr struct{ Cond, Yes, No Expr }
	// BinaryExpr covers arithmetic, comparison, && and ||.
	BinaryExpr struct {
		Op   token
		L, R Expr
	}
	// UnaryExpr is -X, +X or !X.
	UnaryExpr struct {
		Op token
		X  Expr
	}
	// IncrExpr is ++X, X++, --X or X--.
	IncrExpr struct {
		X   Expr
		Op  token
		Pre bool
	}
	// MatchExpr is L ~ R or L !~ R.
	MatchExpr struct {
		L, R Expr
		Not  bool
	}
	// ConcatExpr joins its parts.
	ConcatExpr struct{ Parts []Expr }
	// InExpr is (Index...) in Array.
	InExpr struct {
		Index []Expr
		Array *VarExpr
	}
	// CallExpr calls a user function.
	CallExpr struct {
		Name string
		Args []Expr
		fn   *Func // nil if the function is never defined
		src  string
		line int
	}
	// BuiltinExpr calls a built-in function.
	BuiltinExpr struct {
		Name string
		Args []Expr
	}
	// GetlineExpr is one of the getline forms: plain (Cmd and File nil),
	// cmd | getline, or getline < file; Target nil means $0.
	GetlineExpr struct {
		Cmd    Expr
		File   Expr
		Target Expr
	}
	// GroupExpr is a parenthesized expression; it matters for print's
	// '>' and for telling (a)(b) from a list.
	GroupExpr struct{ X Expr }
	// multiExpr is (a, b) before it is known to be "(a, b) in arr" or a
	// print argument list. It never survives parsing.
	multiExpr struct{ Exprs []Expr }
	// fatalExpr stands for code gawk accepts but that is a fatal error
	// when it runs, such as printf without arguments.
	fatalExpr struct{ Msg string }
)

func (*NumLit) expr()      {}
func (*StrLit) expr()      {}
func (*RegexLit) expr()    {}
func (*VarExpr) expr()     {}
func (*FieldExpr) expr()   {}
func (*IndexExpr) expr()   {}
func (*AssignExpr) expr()  {}
func (*CondExpr) expr()    {}
func (*BinaryExpr) expr()  {}
func (*UnaryExpr) expr()   {}
func (*IncrExpr) expr()    {}
func (*MatchExpr) expr()   {}
func (*ConcatExpr) expr()  {}
func (*InExpr) expr()      {}
func (*CallExpr) expr()    {}
func (*BuiltinExpr) expr() {}
func (*GetlineExpr) expr() {}
func (*GroupExpr) expr()   {}
func (*multiExpr) expr()   {}
func (*fatalExpr) expr()   {}

type (
	// PrintStmt is print or printf with an optional redirection
	// (Redir is tGreater, tAppend or tPipe).
	PrintStmt struct {
		Pos
		Printf bool
		Args   []Expr
		Redir  token
		Dest   Expr
	}
	// ExprStmt evaluates an expression for its side effects.
	ExprStmt struct {
		Pos
		X Expr
	}
	// IfStmt is if/else.
	IfStmt struct {
		Pos
		Cond       Expr
		Then, Else []Stmt
	}
	// WhileStmt is while (Cond) Body.
	WhileStmt struct {
		Pos
		Cond Expr
		Body []Stmt
	}
	// DoStmt is do Body while (Cond).
	DoStmt struct {
		Pos
		Body []Stmt
		Cond Expr
	}
	// ForStmt is for (Init; Cond; Post) Body; any part may be nil.
	ForStmt struct {
		Pos
		Init Stmt
		Cond Expr
		Post Stmt
		Body []Stmt
	}
	// ForInStmt is for (Var in Array) Body.
	ForInStmt struct {
		Pos
		Var   Expr
		Array *VarExpr
		Body  []Stmt
	}
	// BlockStmt is { Body }.
	BlockStmt struct {
		Pos
		Body []Stmt
	}
	// NextStmt, NextfileStmt, BreakStmt and ContinueStmt change flow.
	NextStmt     struct{ Pos }
	NextfileStmt struct{ Pos }
	BreakStmt    struct{ Pos }
	ContinueStmt struct{ Pos }
	// ExitStmt is exit [Status].
	ExitStmt struct {
		Pos
		Status Expr
	}
	// ReturnStmt is return [Value].
	ReturnStmt struct {
		Pos
		Value Expr
	}
	// SwitchStmt is gawk's switch: the first case whose value equals Tag
	// (or whose regex matches it), else default, runs and falls through
	// until break.
	SwitchStmt struct {
		Pos
		Tag   Expr
		Cases []*CaseClause
	}
	// DeleteStmt is delete Array[Index] or, with Index nil, delete Array.
	DeleteStmt struct {
		Pos
		Array *VarExpr
		Index []Expr
	}
)
