// Command checker checks a fault campaign's run (scripts/faults): the clients' history for linearizability with
// Porcupine (the counter and each register key), the counter's final value against the acknowledged increments,
// the replicas' executed state after the heal, and liveness (clients after the heal, each faulted replica).
//
//	checker --dir DIR --clients 4 --replicas 4 [--seed S] [--tail SECONDS] [--control] [--byzantine 0,1]
//
// --byzantine names the replicas that ran a Byzantine behaviour: their own state and catch-up are not checked
// (agreement is among the correct replicas).
//
// DIR holds history.jsonl, faults.jsonl and status-I.jsonl. Prints one summary line (and, for a violation, the
// failing window, with DIR/linearizability-KEY.html, Porcupine's visualization); exit status 0 iff every check
// passes.
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/anishathalye/porcupine"
)

// FinalProcess is the first process id of the workload's last reads (client-lib's Workload).
const FinalProcess = 1_000_000

func main() {
	dir := flag.String("dir", "run/faults", "the run's directory")
	clients := flag.Int("clients", 4, "client threads of the workload")
	replicas := flag.Int("replicas", 4, "replicas")
	seed := flag.Int64("seed", 0, "the run's seed (printed)")
	tail := flag.Float64("tail", 30, "seconds every client must complete an operation within after the heal")
	control := flag.Bool("control", false, "a negative control: f+1 replicas were made faulty")
	timeout := flag.Duration("timeout", 2*time.Minute, "Porcupine's time limit per key")
	byzantineList := flag.String("byzantine", "", "comma-separated ids of the replicas that ran Byzantine")
	ordering := flag.String("ordering", "pbft", "the group's bftws.ordering (printed when not pbft)")
	flag.Parse()
	byzantine, err := parseIds(*byzantineList)
	if err != nil {
		fmt.Fprintln(os.Stderr, "checker: --byzantine:", err)
		os.Exit(2)
	}
	r, err := Run(*dir, *clients, *replicas, *tail, *timeout, byzantine)
	if err != nil {
		fmt.Fprintln(os.Stderr, "checker:", err)
		os.Exit(2)
	}
	for _, v := range r.Verdicts {
		if v.Result == porcupine.Illegal {
			fmt.Printf("checker: %s is not linearizable\n%s", v.Key, v.Window)
			path := filepath.Join(*dir, "linearizability-"+v.Key+".html")
			if porcupine.VisualizePath(ModelFor(v.Key), v.Info, path) == nil {
				fmt.Printf("  visualization: %s\n", path)
			}
		}
	}
	for _, p := range r.Problems {
		fmt.Println("checker:", p)
	}
	if line := r.CatchUpByFault(); line != "" {
		fmt.Println("checker: catch-up by fault:", line)
	}
	if r.Lag.Span > 0 {
		fmt.Printf("checker: longest lag without a fault of its own: replica %d, %.1f s from %.1f s into the run"+
			" (%d or more sequence numbers behind the furthest replica)\n", r.Lag.Replica, float64(r.Lag.Span)/1e6,
			float64(r.Lag.Start)/1e6, LagThreshold)
	}
	if r.ByzantinePrimary >= 0 {
		fmt.Printf("checker: a Byzantine replica was the primary in %.0f%% of the correct replicas' samples\n",
			100*r.ByzantinePrimary)
	}
	label := ""
	if *ordering != "pbft" {
		label = " ordering " + *ordering + ","
	}
	if *control {
		label += " CONTROL (f+1 replicas faulty):"
	}
	fmt.Printf("faults:%s seed %d, %s\n", label, *seed, r.Summary())
	if !r.Passed() {
		os.Exit(1)
	}
}

// Report is everything the checker found.
type Report struct {
	Ops, Ok, Unknown int
	Faults           map[string]int
	Verdicts         []Verdict
	Acked, Maybe     int64 // increments acknowledged, and those whose outcome is unknown
	CounterFinal     int64 // the final read's value, -1 if none completed
	Lost             int64
	Agree            bool
	FinalExecuted    int64
	ClientRecovery   int64 // microseconds from the heal to the slowest client's first completion, -1 if one never
	CatchUps         []CatchUp
	Lag              Lag // the longest time a replica lagged with no fault of its own
	Speed            Speed
	ByzantinePrimary float64 // share of the correct replicas' samples naming a Byzantine primary; -1 without any
	Problems         []string
}

// Run checks the run in dir.
func Run(dir string, clients, replicas int, tail float64, timeout time.Duration, byzantine map[int]bool) (*Report, error) {
	events, err := ReadEvents(filepath.Join(dir, "history.jsonl"))
	if err != nil {
		return nil, err
	}
	faults, err := readLines[FaultEvent](filepath.Join(dir, "faults.jsonl"), true)
	if err != nil {
		return nil, err
	}
	samples := make([][]Sample, replicas)
	for id := range samples {
		if samples[id], err = readLines[Sample](filepath.Join(dir, fmt.Sprintf("status-%d.jsonl", id)), false); err != nil {
			return nil, err
		}
	}
	r, err := CheckHistory(events, timeout)
	if err != nil {
		return nil, err
	}
	r.checkFaults(faults, samples, events, clients, tail, byzantine)
	return r, nil
}

// CheckHistory checks linearizability per key and the counter's bounds.
func CheckHistory(events []Event, timeout time.Duration) (*Report, error) {
	ops, err := Operations(events)
	if err != nil {
		return nil, err
	}
	r := &Report{Ops: len(ops), Faults: map[string]int{}, CounterFinal: -1, Agree: true, Speed: SpeedOf(ops)}
	for _, op := range ops {
		in, out := op.Input.(Input), op.Output.(Output)
		if out.Unknown {
			r.Unknown++
		} else {
			r.Ok++
		}
		if in.F == "inc" {
			if out.Unknown {
				r.Maybe += in.Arg
			} else {
				r.Acked += in.Arg
			}
		}
		if in.Key == "counter" && in.F == "read" && op.ClientId >= FinalProcess && !out.Unknown {
			r.CounterFinal = out.Result
		}
	}
	keys, byKey := ByKey(ops)
	for _, k := range keys {
		r.Verdicts = append(r.Verdicts, CheckKey(k, byKey[k], timeout))
	}
	if r.CounterFinal < 0 {
		r.Problems = append(r.Problems, "no final read of the counter completed")
	} else {
		r.Lost = maxOf(0, r.Acked-r.CounterFinal)
		if r.CounterFinal > r.Acked+r.Maybe {
			r.Problems = append(r.Problems, fmt.Sprintf("counter %d exceeds acknowledged %d + unknown %d increments",
				r.CounterFinal, r.Acked, r.Maybe))
		}
	}
	return r, nil
}

func (r *Report) checkFaults(faults []FaultEvent, samples [][]Sample, events []Event, clients int, tail float64,
	byzantine map[int]bool) {
	heal := int64(0)
	for _, f := range faults {
		if f.Phase == "start" {
			r.Faults[f.Fault]++
		}
		if f.Fault == "heal" {
			heal = f.T
		}
	}
	r.CatchUps = CatchUps(faults, samples)
	r.Lag = UnexplainedLag(faults, r.CatchUps, samples)
	if len(events) > 0 {
		r.Lag.Start -= events[0].T
	}
	for _, c := range r.CatchUps {
		if c.Micros < 0 && !c.Interrupted && !byzantine[c.Replica] {
			r.Problems = append(r.Problems, fmt.Sprintf("replica %d never caught up after %s", c.Replica, c.Fault))
		}
	}
	r.ByzantinePrimary = byzantinePrimary(samples, byzantine)
	final := Final(samples)
	ref := 0 // agreement is among the correct replicas: compared with the first of them
	for byzantine[ref] && ref < len(final)-1 {
		ref++
	}
	r.FinalExecuted = final[ref].Executed()
	for id, s := range final {
		if byzantine[id] {
			continue
		}
		if s.Executed() != r.FinalExecuted || s.Counter != final[ref].Counter || s.Register != final[ref].Register {
			r.Agree = false
			r.Problems = append(r.Problems, fmt.Sprintf("after the heal replica %d executed %d, counter %q, "+
				"registers %q; replica %d executed %d, counter %q, registers %q", id, s.Executed(), s.Counter,
				s.Register, ref, r.FinalExecuted, final[ref].Counter, final[ref].Register))
		}
		// a replica whose counter never ran (no state view) holds 0: it executed nothing and installed no state
		var v int64
		fmt.Sscan(s.Counter, &v)
		r.Lost = maxOf(r.Lost, r.Acked-v)
	}
	if heal == 0 {
		r.Problems = append(r.Problems, "the run has no heal event (the nemesis was stopped)")
		heal = math.MaxInt64
	}
	r.ClientRecovery = clientRecovery(events, clients, heal)
	if r.ClientRecovery < 0 || float64(r.ClientRecovery) > tail*1e6 {
		r.Problems = append(r.Problems, fmt.Sprintf("a client did not complete an operation within %.0f s of the heal",
			tail))
	}
}

// clientRecovery is the time from the heal until every client thread completed an operation (-1: one never did).
func clientRecovery(events []Event, clients int, heal int64) int64 {
	first := map[int]int64{}
	for _, e := range events {
		c := e.Process % clients
		if e.Type == "ok" && e.T > heal && e.Process < FinalProcess {
			if _, seen := first[c]; !seen {
				first[c] = e.T - heal
			}
		}
	}
	worst := int64(0)
	for c := 0; c < clients; c++ {
		t, seen := first[c]
		if !seen {
			return -1
		}
		worst = maxOf(worst, t)
	}
	return worst
}

// Linearizable is "yes", "no" or "unknown" (Porcupine ran out of time on some key).
func (r *Report) Linearizable() string {
	out := "yes"
	for _, v := range r.Verdicts {
		if v.Result == porcupine.Illegal {
			return "no"
		}
		if v.Result == porcupine.Unknown {
			out = "unknown"
		}
	}
	return out
}

// Passed is true when every check passed.
func (r *Report) Passed() bool {
	return r.Linearizable() == "yes" && r.Lost == 0 && r.Agree && len(r.Problems) == 0
}

// Summary is the one line scripts/faults prints.
func (r *Report) Summary() string {
	kinds := make([]string, 0, len(r.Faults))
	total := 0
	for k, n := range r.Faults {
		kinds = append(kinds, fmt.Sprintf("%s=%d", k, n))
		total += n
	}
	sort.Strings(kinds)
	worst := CatchUp{Micros: -2}
	for _, c := range r.CatchUps {
		if c.Interrupted {
			continue
		}
		if c.Micros == -1 || (worst.Micros != -1 && c.Micros > worst.Micros) {
			worst = c
		}
	}
	catchUp := "none"
	switch {
	case worst.Micros == -1:
		catchUp = fmt.Sprintf("never (replica %d after %s)", worst.Replica, worst.Fault)
	case worst.Micros >= 0:
		catchUp = fmt.Sprintf("%.1f s (replica %d after %s)", float64(worst.Micros)/1e6, worst.Replica, worst.Fault)
	}
	recovery := "never"
	if r.ClientRecovery >= 0 {
		recovery = fmt.Sprintf("%.1f s", float64(r.ClientRecovery)/1e6)
	}
	agree := "yes"
	if !r.Agree {
		agree = "NO"
	}
	verdict := "ok"
	if !r.Passed() {
		verdict = "FAILED"
	}
	return fmt.Sprintf("operations %d (ok %d, unknown %d), faults %d [%s], linearizable %s, counter %d for %d acknowledged"+
		" + up to %d unknown, lost %d, replicas agree %s (executed %d), clients recovered %s after the heal,"+
		" max catch-up %s, throughput %.1f op/s, p99 %.0f ms: %s", r.Ops, r.Ok, r.Unknown, total,
		strings.Join(kinds, " "), r.Linearizable(), r.CounterFinal, r.Acked, r.Maybe, r.Lost, agree, r.FinalExecuted,
		recovery, catchUp, r.Speed.PerSecond, float64(r.Speed.P99)/1e3, verdict)
}

// CatchUpByFault is, per fault kind, how many ended and the slowest catch-up of their targets.
func (r *Report) CatchUpByFault() string {
	n, worst, cut := map[string]int{}, map[string]int64{}, map[string]int{}
	for _, c := range r.CatchUps {
		if c.Interrupted {
			cut[c.Fault]++
			continue
		}
		n[c.Fault]++
		if w, seen := worst[c.Fault]; !seen || (w >= 0 && (c.Micros < 0 || c.Micros > w)) {
			worst[c.Fault] = c.Micros
		}
	}
	kinds := make([]string, 0, len(n))
	for k := range n {
		kinds = append(kinds, k)
	}
	for k := range cut {
		if n[k] == 0 {
			kinds = append(kinds, k)
		}
	}
	sort.Strings(kinds)
	parts := make([]string, 0, len(kinds))
	for _, k := range kinds {
		w := "never"
		if n[k] == 0 {
			w = "-"
		} else if worst[k] >= 0 {
			w = fmt.Sprintf("%.1f s", float64(worst[k])/1e6)
		}
		interrupted := ""
		if cut[k] > 0 {
			interrupted = fmt.Sprintf(" (%d more cut short by the next fault on the replica)", cut[k])
		}
		parts = append(parts, fmt.Sprintf("%s %d× max %s%s", k, n[k], w, interrupted))
	}
	return strings.Join(parts, ", ")
}

// parseIds reads a comma-separated list of replica ids ("" for none).
func parseIds(list string) (map[int]bool, error) {
	ids := map[int]bool{}
	for _, f := range strings.Split(list, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		var id int
		if _, err := fmt.Sscan(f, &id); err != nil || id < 0 {
			return nil, fmt.Errorf("not a replica id: %q", f)
		}
		ids[id] = true
	}
	return ids, nil
}

// byzantinePrimary is the share of the correct replicas' status samples that name a Byzantine replica as the
// primary: how long a primary's misbehaviour lasted before a view change (or the nemesis) deposed it.
func byzantinePrimary(samples [][]Sample, byzantine map[int]bool) float64 {
	if len(byzantine) == 0 {
		return -1
	}
	named, all := 0, 0
	for id, ss := range samples {
		if byzantine[id] {
			continue
		}
		for _, s := range ss {
			if s.Primary != nil {
				all++
				if byzantine[*s.Primary] {
					named++
				}
			}
		}
	}
	if all == 0 {
		return 0
	}
	return float64(named) / float64(all)
}
