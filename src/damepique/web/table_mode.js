// What one kind of table adds to the one table view (table.js): a solo game
// (solo.js), a table with others (tables.js), the daily deal (daily.js). Each
// is a subclass of TableMode that keeps its own state (the training's advice,
// the table's seats and chat) and overrides only what differs; the defaults
// here add nothing. table.js calls these and never asks which kind it draws.

export class TableMode {
  /** `target`: what the socket says hello with: {token} for a game, {table, token?} for a table (net.js). */
  constructor(target) {
    this.target = target;
    this.ctrl = null;
  }

  /** ms after which a deal's summary closes by itself; null: only its "Continue" closes it. */
  get summaryTimeout() {
    return null;
  }

  /** Whether the focus goes to the hand once it is drawn (after "Play now"). */
  get focusHand() {
    return false;
  }

  /** Called once by openTable with its controller (send, render, nameOf, isMyTurn, state, shown, conn). */
  attach(ctrl) {
    this.ctrl = ctrl;
  }

  // -- drawing (HTML strings)

  /** What is drawn before the first deal; null: the table's own "Connecting…" line. */
  waitingRoom() {
    return null;
  }

  /**
   * The mode's parts of the table, each optional: `pageClass` (classes on the
   * page), `bar` (controls in the bar), `sheet` (between the felt and the hand:
   * a phone's training advice), `side` (panels beside the felt), `end` (the
   * buttons of the game-over dialog).
   */
  parts() {
    return {};
  }

  /** A word on a seat of the felt when its person is not there to play ("offline"), or "". */
  seatNote(_seat) {
    return "";
  }

  /** A seat's name before the first state names it. */
  fallbackName(_seat) {
    return "";
  }

  /** Whether the "Hint" button is offered (once a trick). */
  hintsOffered() {
    return false;
  }

  // -- what comes in

  /** The socket is open (again). */
  opened() {}

  /** A state was received; `prev` is the one before (the controller's `state` is the new one). */
  stateReceived(_prev) {}

  /** A message the table may not know (errors included); true when the mode took it (the table then does nothing). */
  message(_msg) {
    return false;
  }

  // -- what the person does

  /** A click, change or input on the table that the table itself does not handle. */
  input(_event) {}

  /** A card of the hand, or an option of the advice, pointed at or focused. */
  pointed(_element) {}
}
