// Package hostcpu measures the host's CPU time for benchmarks and speed
// reports: on a shared machine wall time counts other processes' load,
// CPU time does not. Nothing here is used in emulation, which runs on
// simulated time alone (sched).
package hostcpu
