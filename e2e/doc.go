// Package e2e holds the SDK's end-to-end tests: the checkout client, the
// webhook verifier and the checkouttest fake working together through their
// public APIs only, over loopback HTTP. It has no non-test code.
package e2e
