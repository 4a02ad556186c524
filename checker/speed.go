package main

import (
	"sort"

	"github.com/anishathalye/porcupine"
)

// Speed is what the clients got out of the group: acknowledged operations per second over the workload's span
// (first invocation to last acknowledgement, the final reads left out) and the 99th percentile of their latency.
type Speed struct {
	PerSecond float64
	P99       int64 // microseconds; 0 when nothing was acknowledged
}

// SpeedOf measures the workload's acknowledged operations (Aardvark's table: throughput and latency under attack).
func SpeedOf(ops []porcupine.Operation) Speed {
	var latencies []int64
	first, last := int64(-1), int64(-1)
	for _, op := range ops {
		if op.ClientId >= FinalProcess {
			continue
		}
		if first < 0 || op.Call < first {
			first = op.Call
		}
		if op.Return == Never {
			continue
		}
		latencies = append(latencies, op.Return-op.Call)
		if op.Return > last {
			last = op.Return
		}
	}
	if len(latencies) == 0 || last <= first {
		return Speed{}
	}
	sort.Slice(latencies, func(i, j int) bool { return latencies[i] < latencies[j] })
	at := (len(latencies)*99 + 99) / 100 // the nearest-rank percentile
	return Speed{PerSecond: float64(len(latencies)) / (float64(last-first) / 1e6), P99: latencies[at-1]}
}
