package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

// Sample is one line of a replica's status file (client-lib's StatusSampler).
type Sample struct {
	T            int64  `json:"t"`
	ID           int    `json:"id"`
	Pid          int    `json:"pid"`
	View         *int64 `json:"View"`
	Primary      *int   `json:"Primary"`
	LastExecuted *int64 `json:"LastExecuted"`
	Stable       *int64 `json:"StableCheckpoint"`
	LogSize      *int   `json:"LogSize"`
	Counter      string `json:"Counter"`
	Register     string `json:"Register"`
	Heap         int64  `json:"heap"`
	Rss          int64  `json:"rss"`
	Threads      int    `json:"threads"`
	Fds          int    `json:"fds"`
}

// Executed is the sample's last executed sequence number, -1 before the replica's status MBean exists.
func (s Sample) Executed() int64 {
	if s.LastExecuted == nil {
		return -1
	}
	return *s.LastExecuted
}

// FaultEvent is one line of the nemesis's record (scripts/faults).
type FaultEvent struct {
	T       int64  `json:"t"`
	Fault   string `json:"fault"`
	Phase   string `json:"phase"`
	Targets []int  `json:"targets"`
}

// readLines reads one JSON value of type T a line. A malformed line (a status line cut short by kill -9) is
// skipped, or is an error when strict.
func readLines[T any](path string, strict bool) ([]T, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []T
	s := bufio.NewScanner(f)
	s.Buffer(make([]byte, 1<<20), 1<<20)
	for line := 1; s.Scan(); line++ {
		var v T
		if err := json.Unmarshal(s.Bytes(), &v); err != nil {
			if strict {
				return nil, fmt.Errorf("%s:%d: %v", path, line, err)
			}
			continue
		}
		out = append(out, v)
	}
	return out, s.Err()
}

// levelAt is the highest sequence number any replica but one had executed by time t.
func levelAt(samples [][]Sample, except int, t int64) int64 {
	level := int64(-1)
	for id, ss := range samples {
		if id == except {
			continue
		}
		for _, s := range ss {
			if s.T > t {
				break
			}
			if s.Executed() > level {
				level = s.Executed()
			}
		}
	}
	return level
}

// CatchUp is how long after a fault ended its target took to execute as far as the others had at that moment.
type CatchUp struct {
	Fault       string
	Replica     int
	Micros      int64 // -1: never caught up
	Interrupted bool  // the next fault on the same replica began first: not a measurement
}

// CatchUps measures every ended fault's target (for a bridge, the replica cut off from two others), until the
// next fault on that replica begins.
func CatchUps(events []FaultEvent, samples [][]Sample) []CatchUp {
	var out []CatchUp
	for i, e := range events {
		if e.Phase != "end" || len(e.Targets) == 0 {
			continue
		}
		r := e.Targets[0]
		level := levelAt(samples, r, e.T)
		c := CatchUp{Fault: e.Fault, Replica: r, Micros: -1}
		for _, s := range samples[r] {
			if s.T > e.T && s.Executed() >= level {
				c.Micros = s.T - e.T
				break
			}
		}
		if next := nextFaultOn(events[i+1:], r); next > 0 && (c.Micros < 0 || e.T+c.Micros > next) {
			c.Interrupted = true
		}
		out = append(out, c)
	}
	return out
}

// nextFaultOn is when the first fault in events that hits replica r begins, 0 if none does.
func nextFaultOn(events []FaultEvent, r int) int64 {
	for _, e := range events {
		if e.Phase == "start" && len(e.Targets) > 0 && e.Targets[0] == r {
			return e.T
		}
	}
	return 0
}

// Final is each replica's last sample with its status (the sampler may write a few more while the JVM shuts
// down, after the replica's MBean is gone).
func Final(samples [][]Sample) []Sample {
	out := make([]Sample, len(samples))
	for id, ss := range samples {
		for i := len(ss) - 1; i >= 0; i-- {
			if ss[i].LastExecuted != nil {
				out[id] = ss[i]
				break
			}
		}
	}
	return out
}

// maxOf is the larger of a and b (the checker builds with Debian's Go 1.19, before the max builtin).
func maxOf(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}
