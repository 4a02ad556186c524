package main

// LagThreshold is how many sequence numbers behind the others a replica must be to count as lagging: more than
// a batch or two in flight.
const LagThreshold = 50

// Lag is the longest time a replica spent lagging while no fault explained it.
type Lag struct {
	Replica     int
	Start, Span int64 // microseconds
}

// excused are the intervals in which replica r was faulted or catching up from a fault: from each fault's start
// to its end plus the catch-up measured after it (to the next fault on r when cut short or never done).
func excused(events []FaultEvent, catchUps []CatchUp, r int) [][2]int64 {
	var out [][2]int64
	starts := map[string]int64{}
	c := 0
	for i, e := range events {
		if len(e.Targets) == 0 {
			continue
		}
		if e.Phase == "start" {
			starts[e.Fault] = e.T
			continue
		}
		cu := catchUps[c]
		c++
		if e.Targets[0] != r {
			continue
		}
		end := e.T + cu.Micros
		if cu.Interrupted || cu.Micros < 0 {
			end = nextFaultOn(events[i+1:], r)
			if end == 0 {
				end = 1 << 62
			}
		}
		out = append(out, [2]int64{starts[e.Fault], end})
	}
	return out
}

// UnexplainedLag is the longest run of samples in which a replica executed LagThreshold or more sequence numbers
// less than the furthest other replica while no fault of its own (nor its catch-up) was under way.
func UnexplainedLag(events []FaultEvent, catchUps []CatchUp, samples [][]Sample) Lag {
	var worst Lag
	for r := range samples {
		ex := excused(events, catchUps, r)
		next := make([]int, len(samples))
		others := make([]int64, len(samples))
		runStart := int64(-1)
		for _, s := range samples[r] {
			level := int64(-1)
			for o := range samples {
				for o != r && next[o] < len(samples[o]) && samples[o][next[o]].T <= s.T {
					others[o] = maxOf(others[o], samples[o][next[o]].Executed())
					next[o]++
				}
				if o != r {
					level = maxOf(level, others[o])
				}
			}
			lagging := s.LastExecuted != nil && s.Executed()+LagThreshold <= level && !within(ex, s.T)
			switch {
			case lagging && runStart < 0:
				runStart = s.T
			case !lagging && runStart >= 0:
				if s.T-runStart > worst.Span {
					worst = Lag{Replica: r, Start: runStart, Span: s.T - runStart}
				}
				runStart = -1
			}
		}
	}
	return worst
}

func within(intervals [][2]int64, t int64) bool {
	for _, iv := range intervals {
		if t >= iv[0] && t <= iv[1] {
			return true
		}
	}
	return false
}
