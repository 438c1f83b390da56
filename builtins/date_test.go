package builtins

import (
	"testing"
	"time"
)

// The test clock reads Tue 2024-01-02 03:04:05 UTC.
func TestDateCommand(t *testing.T) {
	shellRunCases(t, []shellCase{
		{args: []string{"date"}, out: "Tue Jan  2 03:04:05 UTC 2024\n"},
		{args: []string{"date", "+%s"}, out: "1704164645\n"},
		{args: []string{"date", "-u", "+%F %T %Z"}, out: "2024-01-02 03:04:05 UTC\n"},
		{args: []string{"date", "+%F %T %Z"}, env: []string{"TZ=Asia/Tokyo"}, out: "2024-01-02 12:04:05 JST\n"},
		{args: []string{"date", "+%F %T %Z"}, env: []string{"TZ=America/New_York"}, out: "2024-01-01 22:04:05 EST\n"},
		{args: []string{"date", "-d", "yesterday", "+%F %T"}, out: "2024-01-01 03:04:05\n"},
		{args: []string{"date", "-d", "tomorrow", "+%F"}, out: "2024-01-03\n"},
		{args: []string{"date", "-d", "now", "+%T"}, out: "03:04:05\n"},
		{args: []string{"date", "-d", "", "+%F %T"}, out: "2024-01-02 00:00:00\n"},
		{args: []string{"date", "-d", "3 days ago", "+%F"}, out: "2023-12-30\n"},
		{args: []string{"date", "-d", "+2 weeks", "+%F"}, out: "2024-01-16\n"},
		{args: []string{"date", "-d", "next monday", "+%F %T"}, out: "2024-01-08 00:00:00\n"},
		{args: []string{"date", "-d", "monday", "+%F"}, out: "2024-01-08\n"},
		{args: []string{"date", "-d", "tuesday", "+%F"}, out: "2024-01-02\n"},
		{args: []string{"date", "-d", "next tuesday", "+%F"}, out: "2024-01-09\n"},
		{args: []string{"date", "-d", "last monday", "+%F"}, out: "2024-01-01\n"},
		{args: []string{"date", "-d", "last year", "+%Y"}, out: "2023\n"},
		{args: []string{"date", "-d", "10:30", "+%F %T"}, out: "2024-01-02 10:30:00\n"},
		{args: []string{"date", "-d", "Mar 5", "+%F"}, out: "2024-03-05\n"},
		{args: []string{"date", "-d", "1 hour ago", "+%T"}, out: "02:04:05\n"},
		{args: []string{"date", "-d", "@0", "+%F %T"}, out: "1970-01-01 00:00:00\n"},
		{args: []string{"date", "-I"}, out: "2024-01-02\n"},
		{args: []string{"date", "-Iseconds"}, out: "2024-01-02T03:04:05+00:00\n"},
		{args: []string{"date", "-R"}, out: "Tue, 02 Jan 2024 03:04:05 +0000\n"},
		{args: []string{"date", "-r", "f", "+%F"}, files: map[string]string{"f": "x"},
			setup: func(e *Env) {
				e.FS.Chtimes(e.Abs("f"), time.Unix(0, 0), time.Date(2020, 5, 6, 7, 8, 9, 0, time.UTC))
			}, out: "2020-05-06\n"},
		{args: []string{"date", "-d", "nonsense"}, status: 1, errHas: "invalid date 'nonsense'"},
		{args: []string{"date", "010203042024"}, status: 1, errHas: "cannot set date"},
		{args: []string{"date", "-s", "now"}, status: 1, errHas: "cannot set date"},
		{args: []string{"date", "+%Y", "+%m"}, status: 1, errHas: "extra operand"},
	})
}
