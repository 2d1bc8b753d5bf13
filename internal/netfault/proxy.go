// Package netfault is the tests' network fault: a TCP proxy in front of a
// server (Redis, PostgreSQL) that cuts connections or loses the next bytes
// on demand, as a network or a killed process would.
package netfault

import (
	"net"
	"sync"
	"testing"
)

// Proxy forwards TCP connections to a server, and cuts them on demand.
type Proxy struct {
	Addr   string
	target string
	l      net.Listener

	mu     sync.Mutex
	conns  map[net.Conn]bool
	pairs  map[net.Conn]net.Conn // each end of a forwarded connection, to the other
	closed bool
	drop   int // 0, or the direction whose next bytes are lost (ToServer, ToClient)
	wg     sync.WaitGroup
}

// Directions of DropNext.
const (
	ToServer = 1 // what the client sends: the server never gets it
	ToClient = 2 // what the server answers: the client never gets it
)

// DropNext makes the next bytes sent in direction dir (ToServer or
// ToClient), on any connection, be lost and every connection be cut then:
// with ToClient the server ran the command whose answer is lost.
func (p *Proxy) DropNext(dir int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.drop = dir
}

// NewProxy listens on a free loopback port and forwards to target (host:port);
// the test's end closes it and every connection.
func NewProxy(t testing.TB, target string) *Proxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{Addr: l.Addr().String(), target: target, l: l, conns: map[net.Conn]bool{}, pairs: map[net.Conn]net.Conn{}}
	p.wg.Add(1)
	go p.accept()
	t.Cleanup(p.Close)
	return p
}

func (p *Proxy) accept() {
	defer p.wg.Done()
	for {
		c, err := p.l.Accept()
		if err != nil {
			return
		}
		server, err := net.Dial("tcp", p.target)
		if err != nil {
			_ = c.Close()
			continue
		}
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			_, _ = c.Close(), server.Close()
			continue
		}
		p.conns[c], p.conns[server] = true, true
		p.pairs[c], p.pairs[server] = server, c
		p.mu.Unlock()
		p.wg.Add(2)
		go p.pipe(c, server, ToServer)
		go p.pipe(server, c, ToClient)
	}
}

func (p *Proxy) pipe(from, to net.Conn, dir int) {
	defer p.wg.Done()
	buf := make([]byte, 32<<10)
	for {
		n, err := from.Read(buf)
		if n > 0 && p.dropping(dir) {
			break
		}
		if n > 0 {
			if _, werr := to.Write(buf[:n]); werr != nil {
				break
			}
		}
		if err != nil {
			break
		}
	}
	_ = from.Close()
	_ = to.Close()
	p.mu.Lock()
	delete(p.conns, from)
	delete(p.conns, to)
	delete(p.pairs, from)
	delete(p.pairs, to)
	p.mu.Unlock()
}

// dropping tells whether bytes read in direction dir are to be lost, and
// then cuts every connection.
func (p *Proxy) dropping(dir int) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drop != dir {
		return false
	}
	p.drop = 0
	p.cutLocked()
	return true
}

// Cut closes every connection open now, as a network fault would: a
// command under way loses its answer (the server may have run it; a
// database rolls back a transaction left open).
func (p *Proxy) Cut() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cutLocked()
}

func (p *Proxy) cutLocked() int {
	for c := range p.conns {
		_ = c.Close()
	}
	return len(p.conns) / 2
}

// CutOne closes one connection open now, chosen at random, and tells
// whether there was one: a network fault that leaves the others alone.
func (p *Proxy) CutOne() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for c := range p.conns { // map order is random
		_ = c.Close()
		_ = p.pairs[c].Close()
		return true
	}
	return false
}

// Close cuts every connection and refuses new ones, as when the process
// on the proxy's side is killed; it waits for the forwarding to end.
func (p *Proxy) Close() {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	_ = p.l.Close()
	p.Cut()
	p.wg.Wait()
}
