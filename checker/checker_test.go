package main

import (
	"strings"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
)

// h builds a history from (t, type, process, f, key, arg, arg2, result, ok) rows.
type row struct {
	t       int64
	typ     string
	process int
	f, key  string
	arg     int64
	arg2    int64
	result  int64
	ok      bool
}

func events(rows ...row) []Event {
	var out []Event
	for _, r := range rows {
		out = append(out, Event{T: r.t, Type: r.typ, Process: r.process, F: r.f, Key: r.key, Arg: r.arg,
			Arg2: r.arg2, Result: r.result, Ok: r.ok})
	}
	return out
}

func verdict(t *testing.T, rows ...row) string {
	t.Helper()
	r, err := CheckHistory(events(rows...), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return r.Linearizable()
}

func TestConcurrentIncrementsLinearizable(t *testing.T) {
	got := verdict(t,
		row{t: 0, typ: "invoke", process: 0, f: "inc", key: "counter", arg: 2},
		row{t: 1, typ: "invoke", process: 1, f: "inc", key: "counter", arg: 3},
		row{t: 5, typ: "ok", process: 1, f: "inc", key: "counter", arg: 3, result: 3},
		row{t: 6, typ: "ok", process: 0, f: "inc", key: "counter", arg: 2, result: 5},
		row{t: 7, typ: "invoke", process: 0, f: "read", key: "counter"},
		row{t: 8, typ: "ok", process: 0, f: "read", key: "counter", result: 5})
	if got != "yes" {
		t.Fatalf("two concurrent increments in either order: got %s", got)
	}
}

func TestStaleReadAfterIncrementIsNotLinearizable(t *testing.T) {
	got := verdict(t,
		row{t: 0, typ: "invoke", process: 0, f: "inc", key: "counter", arg: 1},
		row{t: 1, typ: "ok", process: 0, f: "inc", key: "counter", arg: 1, result: 1},
		row{t: 2, typ: "invoke", process: 1, f: "read", key: "counter"},
		row{t: 3, typ: "ok", process: 1, f: "read", key: "counter", result: 0})
	if got != "no" {
		t.Fatalf("a read of 0 after an acknowledged increment: got %s", got)
	}
}

func TestTimedOutWriteMayOrMayNotTakeEffect(t *testing.T) {
	took := verdict(t,
		row{t: 0, typ: "invoke", process: 0, f: "write", key: "k0", arg: 4},
		row{t: 1, typ: "info", process: 0, f: "write", key: "k0", arg: 4},
		row{t: 2, typ: "invoke", process: 1, f: "read", key: "k0"},
		row{t: 3, typ: "ok", process: 1, f: "read", key: "k0", result: 4})
	didNot := verdict(t,
		row{t: 0, typ: "invoke", process: 0, f: "write", key: "k0", arg: 4},
		row{t: 1, typ: "info", process: 0, f: "write", key: "k0", arg: 4},
		row{t: 2, typ: "invoke", process: 1, f: "read", key: "k0"},
		row{t: 3, typ: "ok", process: 1, f: "read", key: "k0", result: 0})
	if took != "yes" || didNot != "yes" {
		t.Fatalf("a timed-out write read as applied: %s, as not applied: %s; want yes, yes", took, didNot)
	}
}

func TestTimedOutWriteCannotExplainAnUnwrittenValue(t *testing.T) {
	got := verdict(t,
		row{t: 0, typ: "invoke", process: 0, f: "write", key: "k0", arg: 4},
		row{t: 1, typ: "info", process: 0, f: "write", key: "k0", arg: 4},
		row{t: 2, typ: "invoke", process: 1, f: "read", key: "k0"},
		row{t: 3, typ: "ok", process: 1, f: "read", key: "k0", result: 3})
	if got != "no" {
		t.Fatalf("a read of a value nobody wrote: got %s", got)
	}
}

func TestCompareAndSet(t *testing.T) {
	ok := verdict(t,
		row{t: 0, typ: "invoke", process: 0, f: "cas", key: "k1", arg: 0, arg2: 2},
		row{t: 1, typ: "ok", process: 0, f: "cas", key: "k1", arg: 0, arg2: 2, result: 2, ok: true},
		row{t: 2, typ: "invoke", process: 1, f: "cas", key: "k1", arg: 0, arg2: 3},
		row{t: 3, typ: "ok", process: 1, f: "cas", key: "k1", arg: 0, arg2: 3, result: 2, ok: false})
	bad := verdict(t,
		row{t: 0, typ: "invoke", process: 0, f: "cas", key: "k1", arg: 0, arg2: 2},
		row{t: 1, typ: "ok", process: 0, f: "cas", key: "k1", arg: 0, arg2: 2, result: 2, ok: true},
		row{t: 2, typ: "invoke", process: 1, f: "cas", key: "k1", arg: 0, arg2: 3},
		row{t: 3, typ: "ok", process: 1, f: "cas", key: "k1", arg: 0, arg2: 3, result: 3, ok: true})
	if ok != "yes" || bad != "no" {
		t.Fatalf("second cas from 0 failing: %s (want yes); succeeding too: %s (want no)", ok, bad)
	}
}

func TestCounterBoundsAndLost(t *testing.T) {
	r, err := CheckHistory(events(
		row{t: 0, typ: "invoke", process: 0, f: "inc", key: "counter", arg: 2},
		row{t: 1, typ: "ok", process: 0, f: "inc", key: "counter", arg: 2, result: 2},
		row{t: 2, typ: "invoke", process: 1, f: "inc", key: "counter", arg: 5},
		row{t: 3, typ: "info", process: 1, f: "inc", key: "counter", arg: 5},
		row{t: 4, typ: "invoke", process: FinalProcess, f: "read", key: "counter"},
		row{t: 5, typ: "ok", process: FinalProcess, f: "read", key: "counter", result: 7}), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if r.Acked != 2 || r.Maybe != 5 || r.CounterFinal != 7 || r.Lost != 0 || !r.Passed() {
		t.Fatalf("acked %d maybe %d final %d lost %d passed %v: want 2 5 7 0 true", r.Acked, r.Maybe,
			r.CounterFinal, r.Lost, r.Passed())
	}
}

func TestFailingWindowNamesTheStuckOperation(t *testing.T) {
	ops, err := Operations(events(
		row{t: 0, typ: "invoke", process: 0, f: "write", key: "k0", arg: 1},
		row{t: 1, typ: "ok", process: 0, f: "write", key: "k0", arg: 1, result: 1},
		row{t: 2, typ: "invoke", process: 1, f: "read", key: "k0"},
		row{t: 3, typ: "ok", process: 1, f: "read", key: "k0", result: 2}))
	if err != nil {
		t.Fatal(err)
	}
	v := CheckKey("k0", ops, 10*time.Second)
	if v.Result != porcupine.Illegal || !contains(v.Window, "process 1 read() -> 2") {
		t.Fatalf("result %v, window:\n%s", v.Result, v.Window)
	}
}

func TestCatchUpMeasuredFromTheFaultsEnd(t *testing.T) {
	exec := func(n int64) *int64 { return &n }
	samples := [][]Sample{
		{{T: 100, LastExecuted: exec(10)}, {T: 200, LastExecuted: exec(12)}},
		{{T: 100, LastExecuted: exec(3)}, {T: 250, LastExecuted: exec(9)}, {T: 400, LastExecuted: exec(10)}},
	}
	c := CatchUps([]FaultEvent{{T: 150, Fault: "pause", Phase: "end", Targets: []int{1}}}, samples)
	if len(c) != 1 || c[0].Micros != 250 {
		t.Fatalf("catch-ups %+v: want replica 1 after 250 us (level 10 at t=150, reached at t=400)", c)
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

func TestCatchUpInterruptedByTheNextFaultOnTheSameReplica(t *testing.T) {
	exec := func(n int64) *int64 { return &n }
	samples := [][]Sample{
		{{T: 100, LastExecuted: exec(10)}},
		{{T: 100, LastExecuted: exec(3)}, {T: 900, LastExecuted: exec(10)}},
	}
	c := CatchUps([]FaultEvent{
		{T: 150, Fault: "kill", Phase: "end", Targets: []int{1}},
		{T: 300, Fault: "wipe", Phase: "start", Targets: []int{1}},
	}, samples)
	if len(c) != 1 || !c[0].Interrupted {
		t.Fatalf("catch-ups %+v: want replica 1's catch-up after kill marked interrupted by the wipe at 300", c)
	}
}

func TestLagIsUnexplainedOnlyOutsideTheReplicasOwnFaults(t *testing.T) {
	exec := func(n int64) *int64 { return &n }
	samples := [][]Sample{
		{{T: 0, LastExecuted: exec(0)}, {T: 100, LastExecuted: exec(100)}, {T: 200, LastExecuted: exec(200)},
			{T: 300, LastExecuted: exec(300)}, {T: 400, LastExecuted: exec(400)}},
		{{T: 0, LastExecuted: exec(0)}, {T: 100, LastExecuted: exec(10)}, {T: 200, LastExecuted: exec(200)},
			{T: 300, LastExecuted: exec(210)}, {T: 400, LastExecuted: exec(400)}},
	}
	faults := []FaultEvent{
		{T: 50, Fault: "pause", Phase: "start", Targets: []int{1}},
		{T: 150, Fault: "pause", Phase: "end", Targets: []int{1}},
	}
	lag := UnexplainedLag(faults, CatchUps(faults, samples), samples)
	if lag.Replica != 1 || lag.Start != 300 || lag.Span != 100 {
		t.Fatalf("lag %+v: want replica 1 from 300 for 100 us (the lag at 100 is its pause's)", lag)
	}
}

func TestSpeedCountsAcknowledgedOperationsOverTheWorkloadsSpan(t *testing.T) {
	var rows []row
	// 100 increments of 1..100 us each, one after another from t=0; one more never completes; a final read
	for i := int64(0); i < 100; i++ {
		rows = append(rows, row{t: i * 1000, typ: "invoke", process: 0, f: "inc", key: "counter", arg: 1},
			row{t: i*1000 + i + 1, typ: "ok", process: 0, result: i + 1})
	}
	rows = append(rows, row{t: 100_000, typ: "invoke", process: 1, f: "inc", key: "counter", arg: 1},
		row{t: 100_500, typ: "info", process: 1},
		row{t: 200_000, typ: "invoke", process: FinalProcess, f: "read", key: "counter"},
		row{t: 300_000, typ: "ok", process: FinalProcess, result: 101})
	ops, err := Operations(events(rows...))
	if err != nil {
		t.Fatal(err)
	}
	s := SpeedOf(ops)
	if s.P99 != 99 {
		t.Fatalf("p99 %d us, want 99 (the 99th of latencies 1..100)", s.P99)
	}
	want := 100 / (float64(99_100) / 1e6) // first invocation at 0, last acknowledgement at 99_100
	if s.PerSecond < want-0.01 || s.PerSecond > want+0.01 {
		t.Fatalf("throughput %.2f op/s, want %.2f", s.PerSecond, want)
	}
}

func TestAgreementAndLossLeaveByzantineReplicasOut(t *testing.T) {
	exec := func(n int64) *int64 { return &n }
	samples := [][]Sample{
		{{T: 100, LastExecuted: exec(7), Counter: "3", Register: "k0=9"}},
		{{T: 100, LastExecuted: exec(9), Counter: "5", Register: "k0=1"}},
		{{T: 100, LastExecuted: exec(9), Counter: "5", Register: "k0=1"}},
	}
	heal := []FaultEvent{{T: 50, Fault: "heal", Phase: "end"}}
	history := events(row{t: 60, typ: "invoke", process: 0, f: "inc", key: "counter", arg: 5},
		row{t: 70, typ: "ok", process: 0, result: 5})
	r := &Report{Acked: 5, Agree: true}
	r.checkFaults(heal, samples, history, 1, 10, map[int]bool{0: true})
	if !r.Agree || r.Lost != 0 || r.FinalExecuted != 9 {
		t.Fatalf("report %+v: replicas 1 and 2 agree and lost nothing; replica 0 is Byzantine", r)
	}
	if r.ByzantinePrimary != 0 {
		t.Fatalf("no sample names a primary: share %v, want 0", r.ByzantinePrimary)
	}
	r = &Report{Acked: 5, Agree: true}
	r.checkFaults(heal, samples, history, 1, 10, map[int]bool{})
	if r.Agree || r.Lost != 2 {
		t.Fatalf("report %+v: with replica 0 counted as correct, the replicas disagree and it lost 2", r)
	}
}

func TestShareOfSamplesNamingAByzantinePrimary(t *testing.T) {
	p := func(n int) *int { return &n }
	samples := [][]Sample{
		{{Primary: p(0)}, {Primary: p(0)}},
		{{Primary: p(0)}, {Primary: p(1)}, {Primary: p(1)}, {}},
		{{Primary: p(0)}, {Primary: p(1)}},
	}
	if got := byzantinePrimary(samples, map[int]bool{0: true}); got != 0.4 {
		t.Fatalf("share %v, want 0.4 (2 of replicas 1 and 2's 5 samples with a primary name replica 0)", got)
	}
	if got := byzantinePrimary(samples, map[int]bool{}); got != -1 {
		t.Fatalf("share %v without Byzantine replicas, want -1", got)
	}
}
