package expand

import (
	"strings"
	"testing"
)

// TestCheckArithSyntax holds bash 5.2's messages for `echo $((EXPR))`
// (the text after "bash: line 1: "); "" where bash finds no syntax error
// (some of those fail later, when evaluated).
func TestCheckArithSyntax(t *testing.T) {
	tests := []struct{ expr, want string }{
		{"1+", "1+: syntax error: operand expected (error token is \"+\")"},
		{"1 + ", "1 + : syntax error: operand expected (error token is \"+ \")"},
		{"1 2", "1 2: syntax error in expression (error token is \"2\")"},
		{"a b", "a b: syntax error in expression (error token is \"b\")"},
		{" 1 +", "1 +: syntax error: operand expected (error token is \"+\")"},
		{"08", "08: value too great for base (error token is \"08\")"},
		{"09+1", "09: value too great for base (error token is \"09\")"},
		{"1?2", "1?2: `:' expected for conditional expression (error token is \"2\")"},
		{"1?2:", "1?2:: expression expected (error token is \":\")"},
		{"1 ? : 3", "1 ? : 3: expression expected (error token is \": 3\")"},
		{"++", "++: syntax error: operand expected (error token is \"+\")"},
		{"1++", "1++: syntax error: operand expected (error token is \"+\")"},
		{"x++ 2", "x++ 2: syntax error in expression (error token is \"2\")"},
		{"--", "--: syntax error: operand expected (error token is \"-\")"},
		{"1 = 2", "1 = 2: attempted assignment to non-variable (error token is \"= 2\")"},
		{"a = ", "a = : syntax error: operand expected (error token is \"= \")"},
		{"=1", "=1: syntax error: operand expected (error token is \"=1\")"},
		{"2#", "2#: invalid integer constant (error token is \"2#\")"},
		{"2#3", "2#3: value too great for base (error token is \"2#3\")"},
		{"65#1", "65#1: invalid arithmetic base (error token is \"65#1\")"},
		{"1..2", "1..2: syntax error: invalid arithmetic operator (error token is \"..2\")"},
		{"1.5", "1.5: syntax error: invalid arithmetic operator (error token is \".5\")"},
		{"$", "$: syntax error: operand expected (error token is \"$\")"},
		{"a[", "a[: bad array subscript (error token is \"a[\")"},
		{"a[1", "a[1: bad array subscript (error token is \"a[1\")"},
		{"a[1]]", "a[1]]: syntax error: invalid arithmetic operator (error token is \"]\")"},
		{"1 +* 2", "1 +* 2: syntax error: operand expected (error token is \"* 2\")"},
		{"*1", "*1: syntax error: operand expected (error token is \"*1\")"},
		{"1 , ", "1 , : syntax error: operand expected (error token is \", \")"},
		{"1,,2", "1,,2: syntax error: operand expected (error token is \",2\")"},
		{"1 &&", "1 &&: syntax error: operand expected (error token is \"&&\")"},
		{"&& 1", "&& 1: syntax error: operand expected (error token is \"&& 1\")"},
		{"1 || ", "1 || : syntax error: operand expected (error token is \"|| \")"},
		{"!", "!: syntax error: operand expected (error token is \"!\")"},
		{"~", "~: syntax error: operand expected (error token is \"~\")"},
		{"-", "-: syntax error: operand expected (error token is \"-\")"},
		{"+", "+: syntax error: operand expected (error token is \"+\")"},
		{"1 >> ", "1 >> : syntax error: operand expected (error token is \">> \")"},
		{"1 < < 2", "1 < < 2: syntax error: operand expected (error token is \"< 2\")"},
		{"()", "(): syntax error: operand expected (error token is \")\")"},
		{"( )", "( ): syntax error: operand expected (error token is \")\")"},
		{"1 (2)", "1 (2): syntax error in expression (error token is \"(2)\")"},
		{"x=1 y", "x=1 y: syntax error in expression (error token is \"y\")"},
		{"'1'", "'1': syntax error: operand expected (error token is \"'1'\")"},
		{"@", "@: syntax error: operand expected (error token is \"@\")"},
		{"1@", "1@: value too great for base (error token is \"1@\")"},
		{"0xg", "0xg: value too great for base (error token is \"0xg\")"},
		{"1e3", "1e3: value too great for base (error token is \"1e3\")"},
		{"10#", "10#: invalid integer constant (error token is \"10#\")"},
		{"10#a", "10#a: value too great for base (error token is \"10#a\")"},
		{"b#1", "b#1: syntax error: invalid arithmetic operator (error token is \"#1\")"},
		{"1;2", "1;2: syntax error: invalid arithmetic operator (error token is \";2\")"},
		{"1:2", "1:2: syntax error in expression (error token is \":2\")"},
		{"x:=1", "x:=1: syntax error in expression (error token is \":=1\")"},
		{"1 ? 2 : 3 : 4", "1 ? 2 : 3 : 4: syntax error in expression (error token is \": 4\")"},
		{"a[1]=", "a[1]=: syntax error: operand expected (error token is \"=\")"},
		{"a[1]+=", "a[1]+=: syntax error: operand expected (error token is \"+=\")"},
		{"5 ++", "5 ++: syntax error: operand expected (error token is \"+\")"},
		{"++a b", "++a b: syntax error in expression (error token is \"b\")"},
		{"a++ ++", "a++ ++: syntax error: operand expected (error token is \"+\")"},
		{"x[0", "x[0: bad array subscript (error token is \"x[0\")"},
		{"8#9", "8#9: value too great for base (error token is \"8#9\")"},
		{"1 2 3", "1 2 3: syntax error in expression (error token is \"2 3\")"},
		{"(1 2)", "(1 2): missing `)' (error token is \"2)\")"},
		{"( 1 + )", "( 1 + ): syntax error: operand expected (error token is \")\")"},
		{"1 + 2 3", "1 + 2 3: syntax error in expression (error token is \"3\")"},
		{"1 ? 2 3", "1 ? 2 3: `:' expected for conditional expression (error token is \"3\")"},
		{"a ? b", "a ? b: `:' expected for conditional expression (error token is \"b\")"},
		{"x = 1 = 2", "x = 1 = 2: attempted assignment to non-variable (error token is \"= 2\")"},
		{"5++", "5++: syntax error: operand expected (error token is \"+\")"},
		{"--x++", "--x++: ++: assignment requires lvalue (error token is \"++\")"},
		{"x++++", "x++++: syntax error: operand expected (error token is \"+\")"},
		{"a[1]++ 2", "a[1]++ 2: syntax error in expression (error token is \"2\")"},
		{"++x--", "++x--: --: assignment requires lvalue (error token is \"--\")"},
		{"++x++ ", "++x++ : ++: assignment requires lvalue (error token is \"++ \")"},
		{"x++--", "x++--: syntax error: operand expected (error token is \"-\")"},
		{"2**=3", "2**=3: syntax error: operand expected (error token is \"=3\")"},
		{"x**=2", "x**=2: syntax error: operand expected (error token is \"=2\")"},
		{"a&&=1", "a&&=1: syntax error: operand expected (error token is \"=1\")"},
		{"(1)=2", "(1)=2: attempted assignment to non-variable (error token is \"=2\")"},
		{"x++=1", "x++=1: attempted assignment to non-variable (error token is \"=1\")"},
		{"1#1", "1#1: invalid arithmetic base (error token is \"1#1\")"},
		{"2#1#1", "2#1#1: invalid number (error token is \"2#1#1\")"},
		{"0#1", "0#1: invalid number (error token is \"0#1\")"},
		{"1#", "1#: invalid arithmetic base (error token is \"1#\")"},
		{"10#9a", "10#9a: value too great for base (error token is \"10#9a\")"},
		{"0_", "0_: value too great for base (error token is \"0_\")"},
		{"a.b", "a.b: syntax error: invalid arithmetic operator (error token is \".b\")"},
		{"a[1].b", "a[1].b: syntax error: invalid arithmetic operator (error token is \".b\")"},
		{"a[b[1]", "a[b[1]: bad array subscript (error token is \"a[b[1]\")"},
		{"1 ~ 2", "1 ~ 2: syntax error in expression (error token is \"~ 2\")"},
		{"1 ! 2", "1 ! 2: syntax error in expression (error token is \"! 2\")"},
		{"1 !2", "1 !2: syntax error in expression (error token is \"!2\")"},
		{"1 === 2", "1 === 2: syntax error: operand expected (error token is \"= 2\")"},
		{"1 => 2", "1 => 2: attempted assignment to non-variable (error token is \"=> 2\")"},
		{"1 =< 2", "1 =< 2: attempted assignment to non-variable (error token is \"=< 2\")"},
		{"1 <> 2", "1 <> 2: syntax error: operand expected (error token is \"> 2\")"},
		{"a,b,", "a,b,: syntax error: operand expected (error token is \",\")"},
		{"(,)", "(,): syntax error: operand expected (error token is \",)\")"},
		{"( 1 ) ( 2 )", "( 1 ) ( 2 ): syntax error in expression (error token is \"( 2 )\")"},
		{"1\t+", "1\t+: syntax error: operand expected (error token is \"+\")"},
		{"1 ? 2 ", "1 ? 2 : `:' expected for conditional expression (error token is \"2 \")"},
		{"++1", ""},
		{"++ x", ""},
		{"-- x", ""},
		{"+ +1", ""},
		{"x+++y", ""},
		{"x+ ++y", ""},
		{"x---y", ""},
		{"a<<=1", ""},
		{"a>>=1", ""},
		{"x=(1)", ""},
		{"64#_", ""},
		{"0x1F", ""},
		{"0X", ""},
		{"017", ""},
		{"_1", ""},
		{"a[b[1]]", ""},
		{"x[1]++", ""},
		{"x[1] ++", ""},
		{"!x++", ""},
		{"1 ==2", ""},
		{"1 ? 2 : 3 ? 4 : 5", ""},
		{"a=b=c", ""},
		{"a+=b-=2", ""},
		{"0x", ""},
		{"36#z", ""},
		{"64#@", ""},
		{"a[[1]]", ""},
		{"1 ** -1", ""},
		{"1/0", ""},
	}
	for _, tc := range tests {
		got := ""
		if err := CheckArithSyntax(tc.expr); err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("CheckArithSyntax(%q):\n got %q\nwant %q", tc.expr, got, tc.want)
		}
	}
}

// TestCheckArithSyntaxDeep: past its depth bound the checker gives no
// verdict (the Go parser reports the nesting), and it returns at once.
func TestCheckArithSyntaxDeep(t *testing.T) {
	for _, s := range []string{strings.Repeat("(", 1<<19), strings.Repeat("- ", 1<<18) + "1", strings.Repeat("a=", 1<<18) + "1"} {
		if err := CheckArithSyntax(s); err != nil {
			t.Errorf("CheckArithSyntax(%.10q...) = %v, want no verdict", s, err)
		}
	}
}
