package gdate

import (
	"testing"
	"time"
)

func TestFormat(t *testing.T) {
	tm := time.Date(2024, 3, 10, 7, 8, 9, 12345678, time.FixedZone("XST", 5*3600+30*60))
	for f, want := range map[string]string{
		"%Y-%m-%d %H:%M:%S":   "2024-03-10 07:08:09",
		"%-d %_H %e %k %l %p": "10  7 10  7  7 AM",
		"%N %3N %:z %::z %z":  "012345678 012 +05:30 +05:30:00 +0530",
		"%j %U %W %V %G %u":   "070 10 10 10 2024 7",
		"%^a %#b %10A|%-10A|": "SUN MAR     Sunday|Sunday|",
		"%s %Z %% %q %C %y":   "1710034689 XST % 1 20 24",
		"%E%Y %Q":             "%E2024 %Q",
	} {
		if got := Format(tm, f); got != want {
			t.Errorf("Format(%q) = %q, want %q", f, got, want)
		}
	}
}

func TestParse(t *testing.T) {
	now := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC) // a Tuesday
	for in, want := range map[string]string{
		"now":                          "2024-01-02 03:04:05",
		"":                             "2024-01-02 00:00:00",
		"2024-05-06":                   "2024-05-06 00:00:00",
		"2024-05-06 07:08:09":          "2024-05-06 07:08:09",
		"2024-05-06T07:08:09Z":         "2024-05-06 07:08:09",
		"2024-05-06T07:08:09+0100":     "2024-05-06 06:08:09",
		"@86400":                       "1970-01-02 00:00:00",
		"yesterday":                    "2024-01-01 03:04:05",
		"2 days ago":                   "2023-12-31 03:04:05",
		"next friday":                  "2024-01-05 00:00:00",
		"last friday":                  "2023-12-29 00:00:00",
		"Jan 31 +1 month":              "2024-03-02 00:00:00",
		"12/25/2023 5pm":               "2023-12-25 17:00:00",
		"Wed Jan  3 10:00:00 UTC 2024": "2024-01-03 10:00:00",
	} {
		got, err := Parse(in, now, time.UTC)
		if err != nil || got.UTC().Format("2006-01-02 15:04:05") != want {
			t.Errorf("Parse(%q) = %v, %v; want %s", in, got, err, want)
		}
	}
	for _, in := range []string{"garbage", "2024-13-01", "2024-02-30", "25:00", "@1 +1 day", "noon"} {
		if _, err := Parse(in, now, time.UTC); err == nil {
			t.Errorf("Parse(%q) accepted", in)
		}
	}
}

func TestLoadTZ(t *testing.T) {
	at := time.Date(2024, 7, 1, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		tz   string
		set  bool
		want string
	}{
		{"", false, "UTC +0000"},
		{"", true, "UTC +0000"},
		{"Europe/Paris", true, "CEST +0200"},
		{":Asia/Tokyo", true, "JST +0900"},
		{"XYZ-3", true, "XYZ +0300"},
		{"<+0530>-5:30", true, "+0530 +0530"},
		{"Nowhere/Zone", true, "Nowhere +0000"},
	} {
		if got := Format(at.In(LoadTZ(c.tz, c.set)), "%Z %z"); got != c.want {
			t.Errorf("LoadTZ(%q) gives %q, want %q", c.tz, got, c.want)
		}
	}
}
