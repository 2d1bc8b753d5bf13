package redisclaim_test

import (
	"testing"

	"github.com/payorch/checkout-go/internal/redistest"
)

func TestMain(m *testing.M) { redistest.Main(m) }
