package orders

import (
	"errors"
	"fmt"
	"time"
)

// State is the position of an order in its lifecycle.
type State string

const (
	StateAccepted  State = "accepted"
	StateReserved  State = "reserved"
	StateBooked    State = "booked"
	StateShipped   State = "shipped"
	StateDelivered State = "delivered"
	StateCancelled State = "cancelled"
	StateFailed    State = "failed"
)

// Event is something that happened to an order and may move it to another state.
type Event string

const (
	EventStockReserved   Event = "stock_reserved"
	EventCarrierBooked   Event = "carrier_booked"
	EventParcelCollected Event = "parcel_collected"
	EventParcelDelivered Event = "parcel_delivered"
	EventCancel          Event = "cancel"
	EventFail            Event = "fail"
)

// ErrIllegalTransition is returned when an event does not apply to the current state.
var ErrIllegalTransition = errors.New("illegal order transition")

// transitions lists, for each state, the events it accepts and where they lead.
// Cancelling and failing are possible from every state before the parcel ships.
var transitions = map[State]map[Event]State{
	StateAccepted: {EventStockReserved: StateReserved, EventCancel: StateCancelled, EventFail: StateFailed},
	StateReserved: {EventCarrierBooked: StateBooked, EventCancel: StateCancelled, EventFail: StateFailed},
	StateBooked:   {EventParcelCollected: StateShipped, EventCancel: StateCancelled, EventFail: StateFailed},
	StateShipped:  {EventParcelDelivered: StateDelivered},
}

// Transition records one state change for the order_events audit table.
type Transition struct {
	OrderID string
	From    State
	To      State
	Event   Event
	At      time.Time
	Reason  string
}

// StateMachine applies events to an order's state. It never repairs an illegal
// transition: the caller gets ErrIllegalTransition and the state is unchanged.
type StateMachine struct {
	orderID string
	state   State
	now     func() time.Time
	history []Transition
}

// NewStateMachine returns a state machine for an order currently in state.
func NewStateMachine(orderID string, state State, now func() time.Time) *StateMachine {
	if now == nil {
		now = time.Now
	}
	return &StateMachine{orderID: orderID, state: state, now: now}
}

// State returns the current state.
func (m *StateMachine) State() State { return m.state }

// Terminal reports whether no further event can change the state.
func (m *StateMachine) Terminal() bool { return len(transitions[m.state]) == 0 }

// Apply moves the order along the edge labelled ev and returns the recorded transition.
func (m *StateMachine) Apply(ev Event, reason string) (Transition, error) {
	next, ok := transitions[m.state][ev]
	if !ok {
		return Transition{}, fmt.Errorf("order %s: %s in state %s: %w", m.orderID, ev, m.state, ErrIllegalTransition)
	}
	t := Transition{OrderID: m.orderID, From: m.state, To: next, Event: ev, At: m.now().UTC(), Reason: reason}
	m.state = next
	m.history = append(m.history, t)
	return t, nil
}

// History returns the transitions applied through this machine, oldest first.
func (m *StateMachine) History() []Transition {
	return append([]Transition(nil), m.history...)
}
