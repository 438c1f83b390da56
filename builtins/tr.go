package builtins

import (
	"context"
	"errors"
	"fmt"

	trengine "github.com/sandsh/sandsh/builtins/internal/tr"
)

const trUsage = `Usage: tr [OPTION]... STRING1 [STRING2]
Translate, squeeze, and/or delete characters from standard input,
writing to standard output.  STRING1 and STRING2 specify arrays of
characters ARRAY1 and ARRAY2 that control the action.

  -c, -C, --complement    use the complement of ARRAY1
  -d, --delete            delete characters in ARRAY1, do not translate
  -s, --squeeze-repeats   replace each sequence of a repeated character
                            that is listed in the last specified ARRAY,
                            with a single occurrence of that character
  -t, --truncate-set1     first truncate ARRAY1 to length of ARRAY2
      --help     display this help and exit

ARRAYs are specified as strings of characters.  Most represent themselves.
Interpreted sequences are:

  \NNN            character with octal value NNN (1 to 3 octal digits)
  \\              backslash
  \a \b \f \n \r \t \v  the usual control characters
  CHAR1-CHAR2     all characters from CHAR1 to CHAR2 in ascending order
  [CHAR*]         in ARRAY2, copies of CHAR until length of ARRAY1
  [CHAR*REPEAT]   REPEAT copies of CHAR, REPEAT octal if starting with 0
  [:alnum:] [:alpha:] [:blank:] [:cntrl:] [:digit:] [:graph:] [:lower:]
  [:print:] [:punct:] [:space:] [:upper:] [:xdigit:]  character classes
  [=CHAR=]        all characters which are equivalent to CHAR
`

var trGetopt = Getopt{
	Short:     "cCdst",
	Long:      []string{"complement", "delete", "squeeze-repeats", "truncate-set1"},
	LongAlias: map[string]string{"complement": "c", "delete": "d", "squeeze-repeats": "s", "truncate-set1": "t"},
}

func runTr(ctx context.Context, env *Env, args []string) int {
	name := args[0]
	opts, ops, err := trGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError(name, err, 1)
	}
	var o trengine.Options
	for _, op := range opts {
		switch op.Name {
		case "c", "C":
			o.Complement = true
		case "d":
			o.Delete = true
		case "s":
			o.Squeeze = true
		case "t":
			o.Truncate = true
		}
	}
	if st := textTrCheckOperands(env, name, o, ops); st >= 0 {
		return st
	}
	var set2 *string
	if len(ops) == 2 {
		set2 = &ops[1]
	}
	warn := func(msg string) { env.Errorf(name, "%s", msg) }
	t, err := trengine.New(o, ops[0], set2, warn)
	if err != nil {
		env.Errorf(name, "%v", err)
		return 1
	}
	if err := t.Run(ctx, env.Stdin, env.Stdout); err != nil {
		var re *trengine.ReadError
		if errors.As(err, &re) {
			env.Errorf(name, "read error: %s", ErrText(re.Err))
			return 1
		}
		return env.WriteError(name, err)
	}
	return 0
}

// textTrCheckOperands applies GNU tr's rules on how many sets each mode
// takes.
func textTrCheckOperands(env *Env, name string, o trengine.Options, ops []string) int {
	minOps, maxOps := 1, 2
	if o.Delete && !o.Squeeze {
		maxOps = 1
	}
	if (o.Delete && o.Squeeze) || (!o.Delete && !o.Squeeze) {
		minOps = 2
	}
	switch {
	case len(ops) == 0:
		return env.UsageError(name, errors.New("missing operand"), 1)
	case len(ops) < minOps:
		why := "Two strings must be given when translating."
		if o.Delete {
			why = "Two strings must be given when both deleting and squeezing repeats."
		}
		return env.UsageError(name, fmt.Errorf("missing operand after '%s'\n%s", ops[len(ops)-1], why), 1)
	case len(ops) > maxOps:
		msg := fmt.Sprintf("extra operand '%s'", ops[maxOps])
		if maxOps == 1 {
			msg += "\nOnly one string may be given when deleting without squeezing repeats."
		}
		return env.UsageError(name, errors.New(msg), 1)
	}
	return -1
}
