// A state update may come as a patch over the previous one (docs/protocol.md,
// "state as a patch"): its keys replace the previous message's, its view's keys
// the previous view's; `base` is the number (`n`) of the state it builds on.

// The whole state a patch gives over `prev`, or null when the two are out of
// step (no state yet, or not the one the patch builds on): reconnect then.
export function patched(prev, patch) {
  if (!prev || prev.n !== patch.base) return null;
  const { base, view, ...rest } = patch;
  const out = { ...prev, ...rest, view: view ? { ...prev.view, ...view } : prev.view };
  if (!("ack" in patch)) delete out.ack;
  return out;
}
