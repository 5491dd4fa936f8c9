// A state update may come as a patch over the previous one (docs/protocol.md,
// "state as a patch"): its keys replace the previous message's, its view's keys
// the previous view's; `base` is the number (`n`) of the state it builds on.
// A play patch (`plays: true`, asked for by the hello's `plays`) leaves out of
// its view what its cards say: they are laid over the view first (`layPlays`);
// its `event`, the last of its `events`, is not repeated either.

// The view after the cards of a play patch, before its own view keys (the
// protocol's `lay_plays`): each card leaves its seat's hand (when it is this
// seat's) and joins the trick; an event that closed the trick moves it to
// `tricks`, its winner leading the next. `view` is left as it was.
export function layPlays(view, events) {
  let { hand, trick, trick_leader: leader, tricks } = view;
  trick = [...trick];
  const sizes = [...view.hand_sizes];
  for (const e of events) {
    if (!e || e.type !== "play") continue;
    if (e.seat === view.seat) hand = hand.filter((c) => c !== e.card);
    sizes[e.seat] -= 1;
    if (!trick.length) leader = e.seat;
    trick.push(e.card);
    if ("trick_winner" in e) {
      tricks = [...tricks, { leader, cards: trick, winner: e.trick_winner, points: e.trick_points }];
      trick = [];
      leader = e.trick_winner;
    }
  }
  return { ...view, hand, trick, trick_leader: leader, tricks, hand_sizes: sizes };
}

// The whole state a patch gives over `prev`, or null when the two are out of
// step (no state yet, or not the one the patch builds on): reconnect then.
export function patched(prev, patch) {
  if (!prev || prev.n !== patch.base) return null;
  const { base, view, plays, ...rest } = patch;
  const laid = plays ? layPlays(prev.view, patch.events) : prev.view;
  const out = { ...prev, ...rest, view: view ? { ...laid, ...view } : laid };
  if (plays) out.event = patch.events.length ? patch.events[patch.events.length - 1] : null; // not repeated
  if (!("ack" in patch)) delete out.ack;
  return out;
}
