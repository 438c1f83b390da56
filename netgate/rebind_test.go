package netgate

import (
	"context"
	"encoding/binary"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/sandsh/sandsh/internal/suite"
)

// fakeDNS is a UDP name server on 127.0.0.1 that answers every A query
// with the next address of its rotation and every AAAA query with ::1,
// the way a rebinding attacker's server answers: a different address on
// each lookup, some of them the victim's own loopback or private ones.
type fakeDNS struct {
	conn    net.PacketConn
	queries atomic.Int64
	a       [][4]byte
}

func startFakeDNS(t *testing.T, a ...[4]byte) *fakeDNS {
	t.Helper()
	pc, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		suite.Skip(t, "udp-loopback", "no UDP on loopback for the fake DNS server: %v", err)
	}
	d := &fakeDNS{conn: pc, a: a}
	t.Cleanup(func() { pc.Close() })
	go d.serve()
	return d
}

func (d *fakeDNS) serve() {
	buf := make([]byte, 1500)
	for {
		n, from, err := d.conn.ReadFrom(buf)
		if err != nil {
			return
		}
		if resp := d.answer(buf[:n]); resp != nil {
			d.conn.WriteTo(resp, from)
		}
	}
}

// answer builds the response to one query: the header and question
// copied, then one answer record pointing back at the question's name.
func (d *fakeDNS) answer(q []byte) []byte {
	if len(q) < 12 || binary.BigEndian.Uint16(q[4:]) != 1 {
		return nil
	}
	end := 12
	for end < len(q) && q[end] != 0 {
		end += int(q[end]) + 1
	}
	end += 5 // the root label, QTYPE, QCLASS
	if end > len(q) {
		return nil
	}
	qtype := binary.BigEndian.Uint16(q[end-4:])
	n := d.queries.Add(1)
	var rdata []byte
	switch qtype {
	case 1:
		addr := d.a[int(n-1)%len(d.a)]
		rdata = addr[:]
	case 28:
		rdata = net.IPv6loopback
	}
	resp := append([]byte(nil), q[:end]...)
	binary.BigEndian.PutUint16(resp[2:], 0x8180) // a response, recursion available, no error
	binary.BigEndian.PutUint16(resp[8:], 0)
	binary.BigEndian.PutUint16(resp[10:], 0) // the query's EDNS record is not echoed
	if rdata == nil {
		binary.BigEndian.PutUint16(resp[6:], 0)
		return resp
	}
	binary.BigEndian.PutUint16(resp[6:], 1)
	rr := []byte{0xc0, 12} // the name: a pointer to the question's
	rr = binary.BigEndian.AppendUint16(rr, qtype)
	rr = binary.BigEndian.AppendUint16(rr, 1) // class IN
	rr = binary.BigEndian.AppendUint32(rr, 0) // TTL 0: ask again every time
	rr = binary.BigEndian.AppendUint16(rr, uint16(len(rdata)))
	return append(append(resp, rr...), rdata...)
}

func (d *fakeDNS) resolver() *net.Resolver {
	addr := d.conn.LocalAddr().String()
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var nd net.Dialer
		return nd.DialContext(ctx, "udp4", addr)
	}}
}

// A name the operator allowed, served by an attacker's name server whose
// answers change from lookup to lookup (loopback, private, another
// loopback, the metadata address; TTL 0), never reaches the host's
// loopback service: every address is checked as the socket connects, not
// when the name was looked up, so no answer order wins a race.
func TestGateDNSRebinding(t *testing.T) {
	var conns atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "the victim's loopback service\n")
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	port := srv.URL[strings.LastIndexByte(srv.URL, ':')+1:]

	dns := startFakeDNS(t, [4]byte{127, 0, 0, 1}, [4]byte{10, 20, 30, 40}, [4]byte{127, 1, 2, 3}, [4]byte{169, 254, 169, 254})
	g := gate(t, Config{Resolver: dns.resolver()}, "rebind.test:"+port)
	for i := 0; i < 6; i++ {
		resp, ne := do(g, "GET", "http://rebind.test:"+port+"/", false)
		if ne == nil {
			t.Fatalf("lookup %d reached %q", i, resp.Body)
		}
		if !strings.Contains(ne.Msg, "rebind.test: restricted: resolves to ") {
			t.Fatalf("lookup %d: %s %q, want a connect-time refusal", i, ne.Kind, ne.Msg)
		}
	}
	if dns.queries.Load() == 0 {
		t.Fatal("the fake name server was never asked: the test proves nothing")
	}
	if n := conns.Load(); n != 0 {
		t.Fatalf("the loopback server saw %d connections", n)
	}
}
