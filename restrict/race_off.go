//go:build !race

package restrict

// raceEnabled is true in race-detector builds, whose shadow memory
// reservations do not fit under RLIMIT_AS.
const raceEnabled = false
