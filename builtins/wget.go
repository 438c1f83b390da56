package builtins

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
)

const wgetUsage = `Usage: wget [OPTION]... [URL]...
Download URLs over HTTP or HTTPS through the sandbox's network gate
(sandsh --allow-net; without it every request is refused).

  -q,  --quiet                 quiet (no output)
  -O,  --output-document=FILE  write documents to FILE (- for stdout)
  -S,  --server-response       print the server response headers
       --header=STRING         insert STRING among the headers
       --post-data=STRING      use the POST method; send STRING as the data
       --post-file=FILE        use the POST method; send contents of FILE
       --method=HTTPMethod     use method "HTTPMethod" in the request
  -U,  --user-agent=AGENT      identify as AGENT instead of Wget/VERSION
  -T,  --timeout=SECONDS       set the timeout to SECONDS
       --max-redirect=NUM      maximum redirections allowed per page
  -t,  --tries=NUMBER          accepted (one try)
       --no-check-certificate  accepted; certificates are still verified
       --help                  display this help and exit
`

var wgetGetopt = Getopt{
	Short: "qO:SU:T:t:nv",
	Long: []string{"quiet", "output-document=", "server-response", "header=", "post-data=", "post-file=", "method=",
		"user-agent=", "timeout=", "max-redirect=", "tries=", "no-check-certificate", "no-verbose"},
	LongAlias: map[string]string{"quiet": "q", "output-document": "O", "server-response": "S", "user-agent": "U",
		"timeout": "T", "tries": "t"},
}

// wget's exit statuses (wget(1), "EXIT STATUS").
const (
	wgetGeneric  = 1
	wgetParse    = 2
	wgetFileIO   = 3
	wgetNetwork  = 4
	wgetTLS      = 5
	wgetProtocol = 7
	wgetServer   = 8
)

func wgetStatus(k NetErrorKind) int {
	switch k {
	case NetTLS:
		return wgetTLS
	case NetRedirects, NetTooBig:
		return wgetProtocol
	case NetURL:
		return wgetParse
	case NetOther:
		return wgetGeneric
	}
	return wgetNetwork
}

func runWget(ctx context.Context, env *Env, args []string) int {
	opts, urls, err := wgetGetopt.Parse(args[1:])
	if err != nil {
		fmt.Fprintf(env.Stderr, "wget: %v\nUsage: wget [OPTION]... [URL]...\n\nTry `wget --help' for more options.\n", err)
		return wgetParse
	}
	quiet, server := false, false
	output, method, ua := "", "", "Wget/1.21.4"
	var headers [][2]string
	var body []byte
	hasBody := false
	maxRedirs := 20
	var timeout time.Duration
	for _, o := range opts {
		switch o.Name {
		case "q":
			quiet = true
		case "O":
			output = o.Value
		case "S":
			server = true
		case "header":
			name, val, ok := strings.Cut(o.Value, ":")
			if ok && strings.TrimSpace(name) != "" {
				headers = append(headers, [2]string{strings.TrimSpace(name), strings.TrimSpace(val)})
			}
		case "post-data":
			body, hasBody = []byte(o.Value), true
		case "post-file":
			b, err := netReadData(env, o.Value)
			if err != nil {
				fmt.Fprintf(env.Stderr, "wget: %s: %s\n", o.Value, ErrText(err))
				return wgetFileIO
			}
			body, hasBody = b, true
		case "method":
			method = strings.ToUpper(o.Value)
		case "U":
			ua = o.Value
		case "T":
			secs, err := strconv.ParseFloat(o.Value, 64)
			if err != nil || secs < 0 || secs > 1e9 {
				fmt.Fprintf(env.Stderr, "wget: --timeout: Invalid time period '%s'\n", o.Value)
				return wgetParse
			}
			timeout = time.Duration(secs * float64(time.Second))
		case "max-redirect":
			n, err := strconv.Atoi(o.Value)
			if err != nil || n < 0 {
				fmt.Fprintf(env.Stderr, "wget: --max-redirect: Invalid number '%s'\n", o.Value)
				return wgetParse
			}
			maxRedirs = n
		}
	}
	if len(urls) == 0 {
		fmt.Fprintf(env.Stderr, "wget: missing URL\nUsage: wget [OPTION]... [URL]...\n\nTry `wget --help' for more options.\n")
		return wgetGeneric
	}
	if method == "" {
		method = "GET"
		if hasBody {
			method = "POST"
		}
	}
	req0 := NetRequest{Method: method, Body: body, FollowRedirects: maxRedirs > 0, MaxRedirects: maxRedirs, Timeout: timeout}
	req0.Header = curlMerge([][2]string{{"User-Agent", ua}, {"Accept", "*/*"}}, headers)
	if hasBody && !curlHasHeader(headers, "Content-Type") {
		req0.Header = append(req0.Header, [2]string{"Content-Type", "application/x-www-form-urlencoded"})
	}
	status := 0
	// -O FILE concatenates every document into FILE, truncated once.
	var joined []byte
	for _, raw := range urls {
		req := req0
		req.URL = netURL(raw)
		st, data := wgetOne(ctx, env, &req, quiet, server, output)
		if st != 0 {
			status = st
		}
		joined = append(joined, data...)
		if ctx.Err() != nil {
			return 130
		}
	}
	if output != "" && output != "-" {
		if err := netWriteFile(env, output, joined); err != nil {
			fmt.Fprintf(env.Stderr, "wget: %s: %s\n", output, ErrText(err))
			return wgetFileIO
		}
	}
	return status
}

// wgetOne fetches one URL. With -O - it writes the body to stdout, with -O
// FILE it returns it for the caller to write, and without -O it saves it
// under the URL's file name (index.html for a directory), adding .1, .2,
// … rather than overwrite, as wget does.
func wgetOne(ctx context.Context, env *Env, req *NetRequest, quiet, server bool, output string) (int, []byte) {
	now := env.System().Now().Format("2006-01-02 15:04:05")
	if !quiet {
		fmt.Fprintf(env.Stderr, "--%s--  %s\n", now, req.URL)
	}
	resp, ne := netDo(ctx, env, req)
	if ne != nil {
		if ctx.Err() != nil {
			return 130, nil
		}
		// The sandbox's refusals show even under -q, like curl -s's.
		if !quiet || ne.Kind == NetRestricted || ne.Kind == NetTooMany || ne.Kind == NetTooBig {
			fmt.Fprintf(env.Stderr, "wget: %s\n", ne.Msg)
		}
		return wgetStatus(ne.Kind), nil
	}
	if server {
		fmt.Fprintf(env.Stderr, "  %s %d %s\n", resp.Proto, resp.Status, resp.StatusText)
		for _, h := range resp.Header {
			fmt.Fprintf(env.Stderr, "  %s: %s\n", h[0], h[1])
		}
	}
	if !quiet {
		fmt.Fprintf(env.Stderr, "HTTP request sent, awaiting response... %d %s\n", resp.Status, resp.StatusText)
	}
	if resp.Status >= 400 {
		if !quiet {
			fmt.Fprintf(env.Stderr, "%s ERROR %d: %s.\n\n", now, resp.Status, resp.StatusText)
		}
		return wgetServer, nil
	}
	if !quiet {
		ct := netHeaderValue(resp.Header, "Content-Type")
		fmt.Fprintf(env.Stderr, "Length: %d [%s]\n", len(resp.Body), ct)
	}
	switch output {
	case "-":
		if _, err := env.Stdout.Write(resp.Body); err != nil {
			if IsBrokenPipe(err) {
				return StatusBrokenPipe, nil
			}
			fmt.Fprintf(env.Stderr, "wget: write error: %s\n", ErrText(err))
			return wgetFileIO, nil
		}
		return 0, nil
	case "":
	default:
		if !quiet {
			fmt.Fprintf(env.Stderr, "Saving to: ‘%s’\n\n", output)
		}
		return 0, resp.Body
	}
	name := netRemoteName(req.URL) // the URL asked for, not a redirect's, as wget does
	if name == "" {
		name = "index.html"
	}
	base := name
	for i := 1; i <= 10000; i++ {
		if _, err := env.FS.Stat(env.Abs(name)); err != nil {
			break
		}
		name = base + "." + strconv.Itoa(i)
	}
	if !quiet {
		fmt.Fprintf(env.Stderr, "Saving to: ‘%s’\n\n", name)
	}
	if err := netWriteFile(env, name, resp.Body); err != nil {
		fmt.Fprintf(env.Stderr, "wget: %s: %s\n", name, ErrText(err))
		return wgetFileIO, nil
	}
	if !quiet {
		fmt.Fprintf(env.Stderr, "%s - ‘%s’ saved [%d/%d]\n\n", now, name, len(resp.Body), len(resp.Body))
	}
	return 0, nil
}
