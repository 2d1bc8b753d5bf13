package pgtest

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
	closed bool
	wg     sync.WaitGroup
}

// NewProxy listens on a free loopback port and forwards to target (host:port);
// the test's end closes it and every connection.
func NewProxy(t testing.TB, target string) *Proxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{Addr: l.Addr().String(), target: target, l: l, conns: map[net.Conn]bool{}}
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
		p.mu.Unlock()
		p.wg.Add(2)
		go p.pipe(c, server)
		go p.pipe(server, c)
	}
}

func (p *Proxy) pipe(from, to net.Conn) {
	defer p.wg.Done()
	buf := make([]byte, 32<<10)
	for {
		n, err := from.Read(buf)
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
	p.mu.Unlock()
}

// Cut closes every connection open now, as a network fault would: a
// statement under way loses its answer (the server may have run it, and
// rolls back a transaction left open).
func (p *Proxy) Cut() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	for c := range p.conns {
		_ = c.Close()
	}
	return len(p.conns) / 2
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
