//go:build race

package webhook

// raceEnabled: the race detector is on; single-goroutine measurements skip.
const raceEnabled = true
